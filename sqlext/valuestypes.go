package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// A table value constructor, VALUES ROW(1), ROW(300), types each column
// from all its rows, as MySQL types a UNION's (mysqlUnionType). The
// engine kept the first row's type for any later integer, so 300 came
// back as 127, the largest TINYINT, without a warning; and an IN over it
// (id IN (SELECT column_0 FROM (VALUES ...) v)) missed rows.
// valuesTypeRule gives each row's value of such a column the column's
// type (typedAs; the engine converts each value to the column's type when
// it reads the rows), and the references to the column that type. It runs
// before the engine's rules.
const valuesTypeRule analyzer.RuleId = 9952

func valuesTypes(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	out, same, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		v, ok := n.(*plan.ValueDerivedTable)
		if !ok || len(v.ExpressionTuples) < 2 {
			return n, transform.SameTree, nil
		}
		width := len(v.ExpressionTuples[0])
		want := make([]sql.Type, width)
		for i := range want {
			ts := make([]sql.Type, 0, len(v.ExpressionTuples))
			for _, row := range v.ExpressionTuples {
				if len(row) != width {
					return n, transform.SameTree, nil
				}
				ts = append(ts, row[i].Type())
			}
			want[i] = mysqlUnionType(ctx, ts)
		}
		var exprs []sql.Expression
		changed := false
		for _, row := range v.ExpressionTuples {
			for i, e := range row {
				if !e.Type().Equals(want[i]) {
					e, changed = &typedAs{Expression: e, typ: want[i]}, true
				}
				exprs = append(exprs, e)
			}
		}
		if !changed {
			return n, transform.SameTree, nil
		}
		nv, err := v.WithExpressions(exprs...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		typeColumns(typed, v.Columns(), nv.Schema())
		return nv, transform.NewTree, nil
	})
	if err != nil {
		return n, transform.SameTree, err
	}
	// The queries of subqueries in expressions (id IN (SELECT column_0
	// FROM (VALUES ...) v)) too.
	out, sameQueries, err := transform.NodeExprsWithOpaque(out, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sq, ok := e.(*plan.Subquery)
		if !ok {
			return e, transform.SameTree, nil
		}
		q, same, err := valuesTypes(ctx, nil, sq.Query, nil, nil, nil)
		if err != nil || same == transform.SameTree {
			return e, transform.SameTree, err
		}
		return sq.WithQuery(q), transform.NewTree, nil
	})
	if err != nil || same == transform.SameTree && sameQueries == transform.SameTree {
		return n, transform.SameTree, err
	}
	out, _, err = retypeReferencesWithin(out, typed)
	return out, transform.NewTree, err
}
