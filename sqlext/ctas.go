package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// CREATE TABLE ... AS SELECT takes its columns from the query as MySQL
// does. The engine fixed them when it read the statement: an aggregate
// other than COUNT (MAX, MIN, SUM) made a NOT NULL column, so a group
// whose values were all NULL failed the statement with 1048, and a SUM
// or AVG of exact numbers made a DOUBLE column, which stored the exact
// result (exactSumRule) rounded. ctasColumnsRule gives each such column
// the query's final type and lets it hold NULL, and a column of a string
// function the VARCHAR MySQL gives it. It runs for every
// statement (onEveryStatement), after exactSumRule.
const ctasColumnsRule analyzer.RuleId = 9965

func ctasColumns(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	transform.Inspect(n, func(n sql.Node) bool {
		// The engine plans the statement as a copy from the query into a
		// table created from the query's columns.
		tc, ok := n.(*plan.TableCopier)
		if !ok {
			return true
		}
		ct, ok := tc.Destination.(*plan.CreateTable)
		if !ok || tc.Source == nil {
			return false
		}
		out := tc.Source.Schema()
		target := ct.PkSchema().Schema
		if len(out) != len(target) {
			return false
		}
		mayBeNull := aggregateOutputs(tc.Source)
		recursive := readsRecursiveCTE(tc.Source)
		exprs := resultExprs(tc.Source)
		for i, c := range target {
			nc := *c
			switch t := out[i].Type; {
			case types.IsFloat(nc.Type) && types.IsDecimal(t):
				nc.Type = t
			case recursive && !t.Equals(nc.Type) && t.Promote().Equals(nc.Type):
				// The type the engine widened a recursive CTE's
				// column to, which now has its anchor's
				// (recursiveTypeRule).
				nc.Type = t
			}
			if i < len(exprs) {
				// A string function's column is a VARCHAR as long as its
				// longest value, up to MySQL's limit (stringlengths.go).
				if st, n, ok := stringType(ctx, exprs[i]); ok {
					nc.Type = ctasStringType(st, n)
				}
			}
			nc.Nullable = nc.Nullable || out[i].Nullable || mayBeNull[i]
			if nc.Type != c.Type || nc.Nullable != c.Nullable {
				// The node's own column list, shared with nothing else.
				target[i] = &nc
			}
		}
		return false
	})
	return n, transform.SameTree, nil
}

// readsRecursiveCTE says whether q reads a recursive common table
// expression.
func readsRecursiveCTE(q sql.Node) bool {
	found := false
	transform.Inspect(q, func(n sql.Node) bool {
		_, ok := n.(*plan.RecursiveCte)
		found = found || ok
		return !found
	})
	return found
}

// aggregateOutputs says which columns of a query's result hold an
// aggregate that may be NULL (all but COUNT), directly or through the
// projection above its GROUP BY, its window or a derived table.
func aggregateOutputs(q sql.Node) []bool {
	ids := nullableAggregateIds(q) // aggregatenulls.go
	top := resultExprs(q)
	out := make([]bool, len(q.Schema()))
	for i, e := range top {
		if i >= len(out) {
			break
		}
		if a, ok := e.(*expression.Alias); ok {
			e = a.Child
		}
		if gf, ok := e.(*expression.GetField); ok {
			out[i] = ids[gf.Id()]
			continue
		}
		_, out[i] = nullableAggregate(e)
	}
	return out
}

// resultExprs are the expressions of a query's result columns: its top
// projection's or grouping's.
func resultExprs(q sql.Node) []sql.Expression {
	var top []sql.Expression
	transform.Inspect(q, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.GroupBy:
			top = n.SelectedExprs
		case *plan.Project:
			top = n.Projections
		}
		return top == nil
	})
	return top
}

// nullableAggregate is e's id when e is (or aliases) an aggregate other
// than COUNT.
func nullableAggregate(e sql.Expression) (sql.ColumnId, bool) {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	agg, ok := e.(sql.Aggregation)
	if !ok {
		return 0, false
	}
	switch agg.(type) {
	case *aggregation.Count, *aggregation.CountDistinct:
		return 0, false
	}
	return agg.Id(), true
}
