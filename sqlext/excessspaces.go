package sqlext

import (
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// Text longer than its CHAR or VARCHAR column only by trailing spaces is
// cut to the column's length in MySQL, whatever the SQL mode: silently
// for CHAR, with a note (1265) for VARCHAR. The engine refused it as too
// long (1406). excessSpacesRule puts the values an INSERT (VALUES,
// SELECT or LOAD DATA), an UPDATE or an ON DUPLICATE KEY UPDATE writes to
// such a column behind excessSpaces, which cuts them before the engine
// converts them. Text too long in other characters is left for the
// engine to refuse. It runs for every statement (onEveryStatement).
const excessSpacesRule analyzer.RuleId = 9975

func excessSpacesCut(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// wrapStores leaves a value checked already (valueCheck, which holds
	// the cut) as it is when a statement is planned again.
	return wrapStoredValues(n, func(col string, t sql.Type, e sql.Expression) sql.Expression {
		if _, done := e.(*excessSpaces); done || !paddable(t) {
			return nil
		}
		return newExcessSpaces(e, col, t)
	})
}

// paddable says whether t is a column's CHAR or VARCHAR of a text
// character set (a system variable's text type, which SET assigns, is
// not a sql.StringType).
func paddable(t sql.Type) bool {
	if _, ok := t.(sql.StringType); !ok {
		return false
	}
	return (t.Type() == sqltypes.Char || t.Type() == sqltypes.VarChar) && types.IsText(t)
}

// excessSpaces is a value for a CHAR or VARCHAR column, cut to the
// column's length when only trailing spaces lie beyond it.
type excessSpaces struct {
	sql.Expression
	column string
	max    int
	char   bool
	// rows counts the evaluations, a row each, for the note.
	rows *atomic.Int64
}

func newExcessSpaces(e sql.Expression, column string, t sql.Type) *excessSpaces {
	st := t.(sql.StringType)
	return &excessSpaces{Expression: e, column: column, max: int(st.MaxCharacterLength()), char: t.Type() == sqltypes.Char, rows: new(atomic.Int64)}
}

func (x *excessSpaces) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	n := x.rows.Add(1)
	v, err := x.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok || len(s) <= x.max {
		return v, nil
	}
	cut, ok := cutExcessSpaces(s, x.max)
	if !ok {
		return v, nil
	}
	if !x.char {
		note(ctx, erDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", x.column, n))
	}
	return cut, nil
}

// cutExcessSpaces is s cut to max characters when it is longer only by
// trailing spaces.
func cutExcessSpaces(s string, max int) (string, bool) {
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	if utf8.RuneCountInString(strings.TrimRight(s, " ")) > max {
		return s, false
	}
	return firstRunes(s, max), true // strfuncs.go
}

func (x *excessSpaces) Children() []sql.Expression { return []sql.Expression{x.Expression} }

func (x *excessSpaces) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(x, children, func(e sql.Expression) sql.Expression {
		d := *x
		d.Expression = e
		return &d
	})
}

func (x *excessSpaces) String() string { return x.Expression.String() }
func (x *excessSpaces) DebugString() string {
	return "excessSpaces(" + sql.DebugString(x.Expression) + ")"
}

func (x *excessSpaces) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, x.Expression)
}
