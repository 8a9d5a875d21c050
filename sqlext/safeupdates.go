package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// With sql_safe_updates on (clients such as MySQL Workbench turn it on
// for their sessions), MySQL refuses an UPDATE or DELETE that would read
// its table without a key, and has no LIMIT, with error 1175: UPDATE t
// SET a = 1, or DELETE FROM t WHERE b = 2 on an unindexed b. The engine
// took the variable and ignored it. safeUpdatesRule refuses such a
// statement once it is planned: one that reads no table through a range
// of an index (or a lookup by one), and has no LIMIT. It runs for every
// statement (onEveryStatement).
const safeUpdatesRule analyzer.RuleId = 9946

// safeDeleteRule refuses, under sql_safe_updates, a DELETE of a whole
// table (no WHERE, no LIMIT) before the engine turns it into a TRUNCATE,
// which safeUpdatesRule would no longer see as a DELETE. It runs first
// for every statement (beforeEveryStatement).
const safeDeleteRule analyzer.RuleId = 9945

func safeDelete(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	del, ok := n.(*plan.DeleteFrom)
	if !ok || !scope.IsEmpty() {
		return n, transform.SameTree, nil
	}
	switch del.Child.(type) {
	case *plan.ResolvedTable, *plan.TableAlias:
	default:
		return n, transform.SameTree, nil
	}
	if on, err := ctx.GetSessionVariable(ctx, "sql_safe_updates"); err != nil || !truthy(on) {
		return n, transform.SameTree, nil
	}
	return nil, transform.SameTree, errUpdateWithoutKey
}

// erUpdateWithoutKeyInSafeMode is MySQL's ER_UPDATE_WITHOUT_KEY_IN_SAFE_MODE.
const erUpdateWithoutKeyInSafeMode = 1175

func safeUpdates(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !scope.IsEmpty() || !changesRows(n) {
		return n, transform.SameTree, nil
	}
	on, err := ctx.GetSessionVariable(ctx, "sql_safe_updates")
	if err != nil || !truthy(on) || readsByKeyOrLimit(ctx, n) {
		return n, transform.SameTree, nil
	}
	return nil, transform.SameTree, errUpdateWithoutKey
}

var errUpdateWithoutKey = mysql.NewSQLError(erUpdateWithoutKeyInSafeMode, "HY000",
	"You are using safe update mode and you tried to update a table without a WHERE that uses a KEY column")

// changesRows says whether n is an UPDATE or a DELETE.
func changesRows(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(node sql.Node) bool {
		switch node.(type) {
		case *plan.Update, *plan.DeleteFrom:
			found = true
		}
		return !found
	})
	return found
}

// readsByKeyOrLimit says whether the statement n has a LIMIT or reads a
// table through a range of an index that is not all of it, or by lookups.
func readsByKeyOrLimit(ctx *sql.Context, n sql.Node) bool {
	found := false
	transform.Inspect(n, func(node sql.Node) bool {
		switch x := node.(type) {
		case *plan.Limit, *plan.TopN:
			found = true
		case *plan.IndexedTableAccess:
			found = found || keyedRead(ctx, x)
		}
		return !found
	})
	return found
}

// keyedRead says whether ita reads by lookups, or by ranges that are not
// the whole index.
func keyedRead(ctx *sql.Context, ita *plan.IndexedTableAccess) bool {
	if !ita.IsStatic() {
		return true
	}
	lookup, err := ita.GetLookup(ctx, nil)
	if err != nil {
		return true
	}
	ranges, ok := lookup.Ranges.(sql.MySQLRangeCollection)
	if !ok {
		return true
	}
	for _, r := range ranges {
		if len(r) == 0 {
			return false
		}
		_, below := r[0].LowerBound.(sql.BelowNull)
		_, above := r[0].UpperBound.(sql.AboveAll)
		if below && above {
			return false // all of the index
		}
	}
	return true
}
