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
// It runs for every statement (onEveryStatement), after exactSumRule and
// before rangeRule, which types arithmetic over what it retypes.
const derivedTypeRule analyzer.RuleId = 9974

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
