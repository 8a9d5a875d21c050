package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine plans a single-table UPDATE or DELETE with a short list of
// rules that leaves out the one writing x BETWEEN a AND b as x >= a AND x
// <= b, the form its index costing reads: UPDATE t ... WHERE id BETWEEN 2
// AND 3 read the whole table where a SELECT of the same rows read a range
// of the primary key (and under sql_safe_updates it was refused as a
// statement without a key). dmlBetweenRule writes the BETWEENs of an
// UPDATE's or DELETE's filters so before the engine's rules run
// (beforeEveryStatement).
const dmlBetweenRule analyzer.RuleId = 9943

func dmlBetween(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	switch n.(type) {
	case *plan.Update, *plan.DeleteFrom:
	default:
		return n, transform.SameTree, nil
	}
	if !scope.IsEmpty() {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := node.(*plan.Filter)
		if !ok {
			return node, transform.SameTree, nil
		}
		cond, same, err := transform.Expr(f.Expression, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			b, ok := e.(*expression.Between)
			if !ok {
				return e, transform.SameTree, nil
			}
			return expression.NewAnd(expression.NewGreaterThanOrEqual(b.Val, b.Lower), expression.NewLessThanOrEqual(b.Val, b.Upper)), transform.NewTree, nil
		})
		if err != nil || same {
			return node, transform.SameTree, err
		}
		return plan.NewFilter(cond, f.Child), transform.NewTree, nil
	})
}
