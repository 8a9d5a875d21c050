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
// ROLLUP. distinctConcatRule names such references as the column is
// named, before the engine numbers the columns (assignExecIndexes).
const distinctConcatRule analyzer.RuleId = 9942

func init() {
	beforeEngineRule("assignExecIndexes", distinctConcatRule, distinctConcatNames)
}

const doubledDistinct = "group_concat(distinct distinct "

func distinctConcatNames(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok || !strings.Contains(strings.ToLower(gf.Name()), doubledDistinct) {
			return e, transform.SameTree, nil
		}
		name := gf.Name()
		at := strings.Index(strings.ToLower(name), doubledDistinct)
		name = name[:at] + "group_concat(distinct " + name[at+len(doubledDistinct):]
		out := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), gf.Type(), gf.Database(), gf.Table(), name, gf.IsNullable())
		return out.WithId(gf.Id()).(sql.Expression), transform.NewTree, nil
	})
}
