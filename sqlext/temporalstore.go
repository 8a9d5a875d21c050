package sqlext

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// MySQL stores a number given for a DATE, DATETIME or TIMESTAMP column as
// the date it spells (numberAsDate: 20240116 is 2024-01-16, 240116 too,
// 20240116103005 has a time of day), in INSERT ... VALUES, INSERT ...
// SELECT, UPDATE and ON DUPLICATE KEY UPDATE alike. The engine refused
// every such number with error 1292. temporalStoreRule hands a value
// bound for a temporal column to the engine as the date when it is a
// number that spells one, and as it is otherwise (the engine then reports
// what it cannot store). It runs for every statement (onEveryStatement),
// as the engine plans INSERTs of literal rows and single-table UPDATEs
// with a short list of rules. A value bound for a TIME column is checked
// against TIME's range here too (storedTime).
const temporalStoreRule analyzer.RuleId = 9971

func temporalStores(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ignore, looked := false, false
	return wrapStoredValues(n, func(col string, t sql.Type, e sql.Expression) sql.Expression {
		if !isTimeType(t) && !types.IsTime(t) {
			return nil
		}
		if !looked {
			ignore, looked = ignoresErrors(n), true
		}
		if isTimeType(t) {
			return newCheckedStore(e, col, ignore, storedTime)
		}
		// The column is temporal, and not TIME or YEAR, which read
		// numbers their own way. Whether a value is a number is seen as
		// it is stored: an INSERT's projection types the values it reads
		// by their columns, not by what they hold.
		return newCheckedStore(e, col, ignore, func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error) {
			return storedDate(ctx, t, v, col, row, ignore)
		})
	})
}

// wrapStoredValues gives each value n stores in a column (an INSERT's
// VALUES or query, an UPDATE's SET, ON DUPLICATE KEY UPDATE's) the
// expression wrap returns for it and its column, keeping those it
// returns nil for. A column's default and the automatic value, which the
// engine types and evaluates apart, are kept, and so is a value wrapped
// already.
func wrapStoredValues(n sql.Node, wrap func(col string, t sql.Type, e sql.Expression) sql.Expression) (sql.Node, transform.TreeIdentity, error) {
	return wrapStores(n, func(col string, t sql.Type, e sql.Expression, _ bool) sql.Expression { return wrap(col, t, e) })
}

// wrapStores is wrapStoredValues telling wrap whether the value is
// assigned by SET (an UPDATE's, ON DUPLICATE KEY UPDATE's) rather than
// inserted.
func wrapStores(n sql.Node, wrap func(col string, t sql.Type, e sql.Expression, set bool) sql.Expression) (sql.Node, transform.TreeIdentity, error) {
	wrapped := func(col string, t sql.Type, e sql.Expression, set bool) sql.Expression {
		if _, done := unwrapped(e).(storeWrapper); done || evaluatedApart(e) {
			return nil
		}
		return wrap(col, t, e, set)
	}
	n, same, err := rewriteInsertValues(n, func(col *sql.Column, e sql.Expression) (sql.Expression, bool, error) {
		w := wrapped(col.Name, col.Type, e, false)
		return w, w != nil, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	// UPDATE's SET and INSERT's ON DUPLICATE KEY UPDATE assign through
	// SetField. So does SET of a variable, which takes a value of any
	// type: a user variable's type is its latest value's.
	out, esame, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sf, ok := e.(*expression.SetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		gf, ok := sf.Left().(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		w := wrapped(gf.Name(), gf.Type(), sf.Right(), true)
		if w == nil {
			return e, transform.SameTree, nil
		}
		return expression.NewSetField(sf.Left(), w), transform.NewTree, nil
	})
	if esame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// evaluatedApart says whether e, a value an INSERT stores, is the
// column's default or its automatic value, which the engine types and
// evaluates apart from the others.
func evaluatedApart(e sql.Expression) bool {
	switch unwrapped(e).(type) {
	case *sql.ColumnDefaultValue, *expression.AutoIncrement:
		return true
	}
	return false
}

// unwrapped is e without the engine's expression.Wrapper.
func unwrapped(e sql.Expression) sql.Expression {
	if w, ok := e.(*expression.Wrapper); ok {
		return w.Unwrap()
	}
	return e
}

// storeWrapper is an expression wrapStoredValues put in place, which it
// leaves as it is when a statement is planned again.
type storeWrapper interface{ storeWrapper() }

func (*checkedStore) storeWrapper() {}

// checkedStore is a value bound for column col that check sees before
// it is stored, with the row it is evaluated for (the statement's rows
// so far, the row MySQL's messages name) and whether the statement
// ignores errors (INSERT or UPDATE IGNORE).
type checkedStore struct {
	sql.Expression
	col    string
	ignore bool
	rows   *atomic.Int64 // rows of its statement so far: each statement (prepared, or in a procedure, too) is planned anew
	check  func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error)
}

func newCheckedStore(e sql.Expression, col string, ignore bool, check func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error)) *checkedStore {
	return &checkedStore{Expression: e, col: col, ignore: ignore, rows: new(atomic.Int64), check: check}
}

func (c *checkedStore) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.Expression.Eval(ctx, row)
	n := c.rows.Add(1)
	if err != nil {
		return nil, err
	}
	return c.check(ctx, v, c.col, n, c.ignore)
}

func (c *checkedStore) Children() []sql.Expression { return []sql.Expression{c.Expression} }

func (c *checkedStore) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	d := *c
	d.Expression = children[0]
	return &d, nil
}

// storedDate is v, bound for the DATE, DATETIME or TIMESTAMP column col
// of type t at row row: the date v spells when it is a number, text in
// the plain layout of a DATE or DATETIME read directly (plainDate, which
// is quicker than the engine's parse and gives the same time), else v as
// it is. The zero date is refused in strict mode with NO_ZERO_DATE (both
// in MySQL's default sql_mode) unless the statement ignores errors, and
// stored with warning 1264 otherwise when NO_ZERO_DATE is set, as MySQL
// does.
func storedDate(ctx *sql.Context, t sql.Type, v any, col string, row int64, ignore bool) (any, error) {
	if s, ok := v.(string); ok {
		if d, ok := plainDate(t, s); ok {
			return d, nil
		}
	}
	if isZeroDate(v) {
		return zeroDateStored(ctx, t, v, col, row, ignore)
	}
	if !isNumber(v) {
		return v, nil
	}
	if d, ok := numberAsDate(ctx, v); ok {
		return d, nil
	}
	return v, nil
}

// isZeroDate reports whether v is MySQL's zero date: the number 0, or
// text of zeros and date and time separators ('0000-00-00',
// '0000-00-00 00:00:00.000').
func isZeroDate(v any) bool {
	switch x := v.(type) {
	case string:
		x = strings.TrimSpace(x)
		return len(x) >= 8 && strings.Trim(x, "0-:. T") == "" && strings.Count(x, "0") >= 8
	case decimal.Decimal:
		return x.IsZero()
	case float64:
		return x == 0
	case float32:
		return x == 0
	}
	w, ok := wideOf(v)
	return ok && w.mag == 0
}

// zeroDateStored is the zero date v bound for column col: MySQL's 1292
// in strict mode with NO_ZERO_DATE unless the statement ignores errors,
// else v with warning 1264 when NO_ZERO_DATE is set, else v.
func zeroDateStored(ctx *sql.Context, t sql.Type, v any, col string, row int64, ignore bool) (any, error) {
	if !sqlMode(ctx).ModeEnabled("NO_ZERO_DATE") {
		return v, nil
	}
	if !ignore && strictMode(ctx) {
		kind := "datetime"
		if types.IsDateType(t) {
			kind = "date"
		}
		return nil, mysql.NewSQLError(erTruncatedWrongValue, "22007", "Incorrect %s value: '%v' for column '%s' at row %d", kind, v, col, row)
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERWarnDataOutOfRange,
		Message: fmt.Sprintf("Out of range value for column '%s' at row %d", col, row)})
	return v, nil
}
