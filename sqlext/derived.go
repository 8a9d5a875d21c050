package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// A query over a derived table, a view or a common table expression
// reads its columns through references the engine's planner typed once,
// from the expressions of the table's query as they were then. The
// rules that retype an expression afterwards (exactSumRule's SUM and AVG,
// temporalNumberRule's date arithmetic) leave those references with the
// old type: SELECT * FROM (SELECT SUM(d) s FROM t) q showed 15.5 for a
// DECIMAL sum of 15.50, and a DATE plus a day through a view showed
// 2024-01-16 00:00:00. derivedTypeRule gives each reference to a
// column of such a table the type that table's query now has for it.
//
// A SUM or AVG over such a column, which the planner made a DOUBLE's
// for the column's old type, is then made exact as exactSumRule and
// exactWindowRule make one (SELECT SUM(s) FROM (SELECT SUM(d) s ...) q
// was 15.5), and the types carried out again for a table derived from
// that one (derivedTypesAndAggregates).
//
// It runs for every statement (onEveryStatement), after exactSumRule and
// before rangeRule, which types arithmetic over what it retypes.
const derivedTypeRule analyzer.RuleId = 9974

// maxDerivedDepth bounds how many tables derived from one another carry
// the types of their aggregates out.
const maxDerivedDepth = 8

func derivedTypesAndAggregates(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	n, inner, err := exactInDerived(ctx, a, n, scope, sel, qf)
	if err != nil {
		return nil, transform.SameTree, err
	}
	n, same, err := derivedTypes(ctx, a, n, scope, sel, qf)
	if err != nil || same {
		return n, same && inner, err
	}
	for range maxDerivedDepth {
		var sums, windows transform.TreeIdentity
		if n, sums, err = exactSums(ctx, a, n, scope, sel, qf); err != nil {
			return nil, transform.SameTree, err
		}
		if n, windows, err = exactWindows(ctx, a, n, scope, sel, qf); err != nil {
			return nil, transform.SameTree, err
		}
		if sums && windows {
			break
		}
		var again transform.TreeIdentity
		if n, again, err = derivedTypes(ctx, a, n, scope, sel, qf); err != nil || again {
			return n, transform.NewTree, err
		}
	}
	return n, transform.NewTree, nil
}

// exactInDerived makes exact the aggregates of the derived tables inside
// n, innermost first, each after the types of the tables it reads are
// carried into it. The engine may run this rule over a query before it
// runs it over the derived tables the query reads (a scalar subquery's
// are), which would leave the query reading their aggregates as
// DOUBLEs; a derived table whose aggregates are exact already is left as
// it is.
func exactInDerived(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sq, ok := node.(*plan.SubqueryAlias)
		if !ok {
			return node, transform.SameTree, nil
		}
		child, typed, err := derivedTypes(ctx, a, sq.Child, scope, sel, qf)
		if err != nil {
			return nil, transform.SameTree, err
		}
		child, sums, err := exactSums(ctx, a, child, scope, sel, qf)
		if err != nil {
			return nil, transform.SameTree, err
		}
		child, windows, err := exactWindows(ctx, a, child, scope, sel, qf)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if typed && sums && windows {
			return node, transform.SameTree, nil
		}
		out, err := sq.WithChildren(child)
		return out, transform.NewTree, err
	})
}

func derivedTypes(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	transform.Inspect(n, func(node sql.Node) bool {
		sq, ok := node.(*plan.SubqueryAlias)
		if !ok {
			return true
		}
		// The planner numbers a derived table's columns in order.
		schema := sq.Child.Schema()
		if sq.Columns().Len() != len(schema) {
			return true
		}
		typeColumns(typed, sq.Columns(), schema)
		return true
	})
	if len(typed) == 0 {
		return n, transform.SameTree, nil
	}
	return retypeReferences(n, typed)
}

// typeColumns records in typed the type of each column of schema by its
// id in ids, which the planner numbers in the schema's order.
func typeColumns(typed map[sql.ColumnId]sql.Type, ids sql.ColSet, schema sql.Schema) {
	i := 0
	ids.ForEach(func(id sql.ColumnId) {
		typed[id] = schema[i].Type
		i++
	})
}
