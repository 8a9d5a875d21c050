package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine names a reference to GROUP_CONCAT(DISTINCT x) with the
// word DISTINCT twice (group_concat(distinct distinct t.x ...)), where
// the aggregate's own column has it once. Where the engine then finds the
// column by name, as in a derived table with a HAVING, it found none and
// read the first column in its place: SELECT x FROM (SELECT
// GROUP_CONCAT(DISTINCT r) x FROM t HAVING COUNT(*) > 0) q gave the
// count, and so did the grand total of GROUP_CONCAT(DISTINCT ...) WITH
// ROLLUP. distinctConcatRule names such a reference as the column is
// named, where a child of its node gives a column of that name, before
// the engine numbers the columns (assignExecIndexes).
const distinctConcatRule analyzer.RuleId = 9942

func init() {
	beforeEngineRule("assignExecIndexes", distinctConcatRule, distinctConcatNames)
}

const doubledDistinct = "group_concat(distinct distinct "

func distinctConcatNames(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !hasDoubledDistinct(n) {
		return n, transform.SameTree, nil // most statements: no schema is asked for
	}
	return transform.NodeWithOpaque(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		// The columns the node's children give it, by name: a reference
		// is renamed only to one of them.
		var names map[string]bool
		for _, c := range node.Children() {
			for _, col := range c.Schema() {
				if strings.HasPrefix(strings.ToLower(col.Name), "group_concat(distinct ") {
					if names == nil {
						names = map[string]bool{}
					}
					names[strings.ToLower(col.Name)] = true
				}
			}
		}
		if names == nil {
			return node, transform.SameTree, nil
		}
		return transform.OneNodeExpressions(node, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			gf, ok := e.(*expression.GetField)
			if !ok {
				return e, transform.SameTree, nil
			}
			low := strings.ToLower(gf.Name())
			at := strings.Index(low, doubledDistinct)
			if at < 0 {
				return e, transform.SameTree, nil
			}
			name := gf.Name()[:at] + "group_concat(distinct " + gf.Name()[at+len(doubledDistinct):]
			if !names[strings.ToLower(name)] {
				return e, transform.SameTree, nil
			}
			out := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), gf.Type(), gf.Database(), gf.Table(), name, gf.IsNullable())
			return out.WithId(gf.Id()).(sql.Expression), transform.NewTree, nil
		})
	})
}

// hasDoubledDistinct reports whether a reference in n, derived tables
// included, is named with DISTINCT twice.
func hasDoubledDistinct(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(node sql.Node) bool {
		if ne, ok := node.(sql.Expressioner); ok && !found {
			for _, e := range ne.Expressions() {
				sql.Inspect(e, func(e sql.Expression) bool {
					if gf, ok := e.(*expression.GetField); ok && containsFold(gf.Name(), doubledDistinct) {
						found = true
					}
					return !found
				})
			}
		}
		return !found
	})
	return found
}
