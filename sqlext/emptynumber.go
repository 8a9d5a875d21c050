package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// MySQL refuses an empty (or blank) string stored in an integer or
// DECIMAL column in strict mode, "Incorrect integer value: ” for column
// 'n' at row 1" (1366), and stores 0 with that warning otherwise or under
// IGNORE. The engine stored 0 without a word in signed integer and
// DECIMAL columns (it refuses ” for the others). emptyNumberRule hands
// such a column's values to the engine through a checkedStore, in INSERT
// ... VALUES, INSERT ... SELECT and UPDATE; it runs for every statement
// (onEveryStatement), as the engine plans those with a short list of
// rules.
const emptyNumberRule analyzer.RuleId = 9966

func blankNumbers(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// Whether the statement ignores errors is looked up once, for the
	// first value that needs it: most statements store none.
	ignore, looked := false, false
	return wrapStoredValues(n, func(col string, t sql.Type, e sql.Expression) sql.Expression {
		if !(types.IsSigned(t) || types.IsDecimal(t)) {
			return nil
		}
		if !looked {
			ignore, looked = ignoresErrors(n), true
		}
		kind := numberKind(t)
		return newCheckedStore(e, col, ignore, func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error) {
			if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
				return blankNumber(ctx, s, col, kind, row, ignore)
			}
			return v, nil
		})
	})
}

// ignoresErrors reports whether n is an INSERT IGNORE or UPDATE IGNORE.
func ignoresErrors(n sql.Node) bool {
	ignore := false
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.InsertInto:
			ignore = ignore || n.Ignore
		case *plan.Update:
			ignore = ignore || n.Ignore
		}
		return !ignore
	})
	return ignore
}

func numberKind(t sql.Type) string {
	if types.IsDecimal(t) {
		return "decimal"
	}
	return "integer"
}

// blankNumber is what a blank string s bound for column col, whose
// values are of kind (numberKind), becomes at row row: MySQL's 1366 in
// strict mode unless the statement ignores errors, else 0 with that
// warning.
func blankNumber(ctx *sql.Context, s, col, kind string, row int64, ignore bool) (any, error) {
	msg := fmt.Sprintf("Incorrect %s value: '%s' for column '%s' at row %d", kind, s, col, row)
	if !ignore && strictMode(ctx) {
		return nil, mysql.NewSQLError(mysql.ERTruncatedWrongValueForField, "HY000", "%s", msg)
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValueForField, Message: msg})
	return int64(0), nil
}
