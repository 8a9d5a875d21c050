package sqlext

import (
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// mysqlSQLMode is MySQL 8.0's default sql_mode. The engine's default had
// only ONLY_FULL_GROUP_BY, STRICT_TRANS_TABLES and
// NO_ENGINE_SUBSTITUTION, and implemented neither NO_ZERO_DATE (see
// storedDate) nor ERROR_FOR_DIVISION_BY_ZERO (strictWarningRule).
// NO_ZERO_IN_DATE needs nothing more: the engine's dates cannot hold a
// zero month or day, and refuses them in every mode.
const mysqlSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

func init() {
	v, _, ok := sql.SystemVariables.GetGlobal("sql_mode")
	msv, isMySQL := v.(*sql.MysqlSystemVariable)
	if !ok || !isMySQL {
		panic("sqlext: the engine has no system variable sql_mode")
	}
	changed := *msv
	changed.Default = mysqlSQLMode
	changed.Type = newSQLModeType()
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&changed})
}

// In strict mode MySQL makes the warnings a statement that stores rows
// (INSERT, UPDATE, ON DUPLICATE KEY UPDATE, LOAD DATA) raises errors,
// unless it ignores errors: a value that is no date or time
// (`DATE('junk')`, warning 1292, "Incorrect datetime value: 'junk'")
// wherever it is read, in a stored value, a subquery, the rows an INSERT
// ... SELECT reads or a WHERE; and with ERROR_FOR_DIVISION_BY_ZERO a
// division or modulo by zero (warning 1365, "Division by 0", SQLSTATE
// 22012). The engine stored the NULL such an expression gives. Other
// rules refuse the values they read themselves (numtext.go,
// truncated.go, emptynumber.go); strictWarningRule gives each value such
// a statement stores a strictWarnings, which fails the row when the
// statement's warnings have gained a 1292 or 1365 by the time the value
// is computed. It runs before the rules that wrap stored values for
// their columns (temporalStoreRule, emptyNumberRule), which then wrap it
// in turn.
const strictWarningRule analyzer.RuleId = 9964

func strictWarningStores(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !storesRows(n) || ignoresErrors(n) {
		return n, transform.SameTree, nil
	}
	seen := new(atomic.Int64)
	return wrapStoredValues(n, func(_ string, _ sql.Type, e sql.Expression) sql.Expression {
		if _, ok := e.(*strictWarnings); ok {
			return nil // planned before
		}
		return &strictWarnings{Expression: e, seen: seen}
	})
}

// storesRows reports whether n inserts or updates rows.
func storesRows(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case *plan.InsertInto, *plan.Update:
			found = true
		}
		return !found
	})
	return found
}

// strictWarnings is a value stored by a statement that does not ignore
// errors. seen, shared by the statement's values, is how many of the
// statement's warnings have been looked at (the engine clears them as a
// statement starts, and plans each statement anew). It is no
// storeWrapper, so that the rules for the value's column still wrap it.
type strictWarnings struct {
	sql.Expression
	seen *atomic.Int64
}

func (w *strictWarnings) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := w.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	count := int64(ctx.Session.WarningCount())
	seen := w.seen.Swap(count)
	if count <= seen {
		return v, nil
	}
	warnings := ctx.Session.Warnings() // most recent first
	fresh := warnings[:min(int(count-seen), len(warnings))]
	for i := len(fresh) - 1; i >= 0; i-- { // the first raised first
		switch c := fresh[i]; {
		case c.Code == erDivisionByZero && divisionByZeroIsError(ctx):
			return nil, mysql.NewSQLError(erDivisionByZero, "22012", "Division by 0")
		case c.Code == erTruncatedWrongValue && strictMode(ctx):
			return nil, mysql.NewSQLError(erTruncatedWrongValue, "22007", "%s", c.Message)
		}
	}
	return v, nil
}

// divisionByZeroIsError reports whether the session's sql_mode makes a
// division by zero in a statement that stores rows an error.
func divisionByZeroIsError(ctx *sql.Context) bool {
	return strictMode(ctx) && sqlMode(ctx).ModeEnabled("ERROR_FOR_DIVISION_BY_ZERO")
}

func (w *strictWarnings) Children() []sql.Expression { return []sql.Expression{w.Expression} }

func (w *strictWarnings) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(w, len(children), 1)
	}
	return &strictWarnings{Expression: children[0], seen: w.seen}, nil
}

// A session keeps its sql_mode read: the engine stores it as a set of
// bits, so reading it wrote the names out again and reading those parsed
// them, for every statement and for every value some rules check
// (strictMode). Setting a session variable drops what was kept.
type sessionMode struct {
	text string
	mode *sql.SqlMode
}

// sqlMode is the session's sql_mode; its SqlMode is shared, never
// changed.
func sqlMode(ctx *sql.Context) *sql.SqlMode {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return sql.LoadSqlMode(ctx)
	}
	if m := s.readMode(ctx); m != nil {
		return m.mode
	}
	return sql.LoadSqlMode(ctx)
}

// readMode is the sql_mode kept, read first if need be; nil when the
// session has none.
func (s *Session) readMode(ctx *sql.Context) *sessionMode {
	if m := s.mode.Load(); m != nil {
		return m
	}
	v, err := s.BaseSession.GetSessionVariable(ctx, sql.SqlModeSessionVar)
	text, ok := v.(string)
	if err != nil || !ok {
		return nil
	}
	m := &sessionMode{text: text, mode: sql.NewSqlModeFromString(text)}
	s.mode.Store(m)
	return m
}

// GetSessionVariable answers sql_mode from what the session keeps.
func (s *Session) GetSessionVariable(ctx *sql.Context, name string) (any, error) {
	if !strings.EqualFold(name, sql.SqlModeSessionVar) {
		return s.BaseSession.GetSessionVariable(ctx, name)
	}
	if m := s.readMode(ctx); m != nil {
		return m.text, nil
	}
	return s.BaseSession.GetSessionVariable(ctx, name)
}

// SetSessionVariable and InitSessionVariable drop the sql_mode kept, and
// count the change (varEpoch).
func (s *Session) SetSessionVariable(ctx *sql.Context, name string, value any) error {
	s.varEpoch++
	defer s.mode.Store(nil)
	return s.BaseSession.SetSessionVariable(ctx, name, value)
}

func (s *Session) InitSessionVariable(ctx *sql.Context, name string, value any) error {
	s.varEpoch++
	defer s.mode.Store(nil)
	return s.BaseSession.InitSessionVariable(ctx, name, value)
}
