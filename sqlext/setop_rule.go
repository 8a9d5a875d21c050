package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// setOpMax1RowRule undoes an engine misjudgement: the costed index scan
// marks a query as returning at most one row when one of its scans is a
// unique-key point lookup, without looking for a UNION, INTERSECT or
// EXCEPT above it, and the handler then fails a `SELECT ... WHERE pk = 1
// UNION ALL SELECT ... WHERE pk = 2` with "result max1Row iterator
// returned more than one row". A set operation clears the mark, and so
// does EXPLAIN, which answers a line of the plan a row (EXPLAIN
// FORMAT=TREE SELECT COUNT(*) FROM t failed the same way). The engine
// plans an EXPLAIN's query on its own, so the rule does not see the
// EXPLAIN: the parser marks the session (statementParser.adjust). The
// engine plans a single-table UPDATE or DELETE with a short list of
// batches that leaves post-analysis rules out, so the rule also runs as
// explainMax1RowRule, among the rules every statement passes
// (onEveryStatement): EXPLAIN FORMAT=TREE UPDATE t ... WHERE pk = 1
// failed the same way.
const (
	setOpMax1RowRule   analyzer.RuleId = 9990
	explainMax1RowRule analyzer.RuleId = 9944
)

func clearMax1RowUnderSetOp(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.IsSet(sql.QFlagMax1Row) {
		return n, transform.SameTree, nil
	}
	if s, ok := ctx.Session.(*Session); ok && s.explaining {
		qFlags.Unset(sql.QFlagMax1Row)
		return n, transform.SameTree, nil
	}
	if transform.InspectUp(n, func(n sql.Node) bool {
		_, ok := n.(*plan.SetOp)
		return ok
	}) {
		qFlags.Unset(sql.QFlagMax1Row)
	}
	return n, transform.SameTree, nil
}
