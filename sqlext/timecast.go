package sqlext

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// timeCastFunc is the function a CAST to TIME(n) is read as, with n as
// its second argument, as the engine gives a CAST to TIME its own TIME
// whatever n.
const timeCastFunc = "sqlearn_time_cast"

var timeCastFunction = sql.Function2{Name: timeCastFunc, Fn: func(x, digits sql.Expression) sql.Expression {
	fsp := 0
	if lit, ok := digits.(*expression.Literal); ok {
		if n, err := int64Of(lit.Value()); err == nil && n >= 0 && n <= maxTimeDigits {
			fsp = int(n)
		}
	}
	return &timeCast{Expression: x, typ: timeType{fsp: fsp}}
}}

// timeCast is CAST(x AS TIME(n)): x read as a TIME and rounded (or
// truncated) to n digits. A value that is no TIME is NULL with warning
// 1292, as in MySQL.
type timeCast struct {
	sql.Expression
	typ timeType
}

var (
	_ sql.Expression         = (*timeCast)(nil)
	_ sql.CollationCoercible = (*timeCast)(nil)
)

func (c *timeCast) Type() sql.Type             { return c.typ }
func (c *timeCast) IsNullable() bool           { return true }
func (c *timeCast) Children() []sql.Expression { return []sql.Expression{c.Expression} }

func (c *timeCast) String() string {
	return "cast(" + c.Expression.String() + " as " + c.typ.String() + ")"
}

func (c *timeCast) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (c *timeCast) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	return &timeCast{Expression: children[0], typ: c.typ}, nil
}

func (c *timeCast) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	out, _, err := c.typ.Convert(ctx, v)
	if err != nil {
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%v'", v)
		return nil, nil
	}
	return out, nil
}

// timesCompared: a TIME compared with a TIME of other digits, or with
// text, is compared as a TIME, as in MySQL. The engine compares a column
// by its type, but two other expressions of different types as text,
// and wrote a TIME as a number of microseconds for that: CAST('12:34:56'
// AS TIME) = '12:34:56' was false. Both sides are then given the type
// TIME(6), which compares values read as TIMEs (timeType.Compare).
func timesCompared(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	c, ok := e.(expression.Comparer)
	if !ok {
		return e, transform.SameTree, nil
	}
	l, r := c.Left(), c.Right()
	lt, rt := l.Type(), r.Type()
	if types.TypesEqual(lt, rt) || isColumnRead(l) || isColumnRead(r) ||
		!(isTimeType(lt) && (isTimeType(rt) || types.IsText(rt)) || isTimeType(rt) && types.IsText(lt)) {
		return e, transform.SameTree, nil
	}
	return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
		return &typedAs{Expression: c, typ: timeType{fsp: maxTimeDigits}}
	})
}

// isColumnRead reports whether e is one the engine compares by its
// type: a column, a variable or a routine's parameter.
func isColumnRead(e sql.Expression) bool {
	switch e.(type) {
	case *expression.GetField, *expression.UserVar, *expression.SystemVar, *expression.ProcedureParam:
		return true
	}
	return false
}

// timesOnToday: a TIME read as a date is the current date at that time
// in MySQL (a TIME past 24 hours runs into the days after, a negative one
// into those before), as storing a TIME in a DATETIME column gives: in a
// CAST to DATETIME, DATE or TIMESTAMP (CAST(TIME '10:20:30' AS DATETIME)
// is today at 10:20:30), and compared with a date (TIME '10:00:00' <
// NOW(), or BETWEEN dates). The engine's CAST gave NULL, and its
// comparisons compared other values. The TIME is given as that date and
// time (timeOnToday).
func timesOnToday(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	var withDates bool
	switch x := e.(type) {
	case *expression.Convert:
		withDates = isDate(x.Type())
	case expression.Comparer:
		withDates = isDate(x.Left().Type()) || isDate(x.Right().Type())
	case *expression.Between:
		withDates = isDate(x.Val.Type()) || isDate(x.Lower.Type()) || isDate(x.Upper.Type())
	}
	if !withDates {
		return e, transform.SameTree, nil
	}
	return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
		if !isTimeType(c.Type()) {
			return nil
		}
		return &timeOnToday{Expression: c, typ: types.MustCreateDatetimeType(sqltypes.Datetime, fractionDigits(c.Type()))}
	})
}

// isDate reports whether t is a DATE, DATETIME or TIMESTAMP.
func isDate(t sql.Type) bool { return types.IsTime(t) && !isTimeType(t) }

// timeOnToday is a TIME as the current date at that time.
type timeOnToday struct {
	sql.Expression
	typ sql.Type
}

func (t *timeOnToday) Type() sql.Type             { return t.typ }
func (t *timeOnToday) Children() []sql.Expression { return []sql.Expression{t.Expression} }

func (t *timeOnToday) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := t.Expression.Eval(ctx, row)
	d, ok := v.(types.Timespan)
	if err != nil || !ok {
		return v, err
	}
	return onToday(ctx, d)
}

// onToday is the TIME d as the current date at that time.
func onToday(ctx *sql.Context, d types.Timespan) (time.Time, error) {
	today, err := currentDate(ctx, nil)
	if err != nil {
		return time.Time{}, err
	}
	return today.(time.Time).Add(time.Duration(d.AsMicroseconds()) * time.Microsecond), nil
}

func (t *timeOnToday) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(t, children, func(c sql.Expression) sql.Expression { return &timeOnToday{Expression: c, typ: t.typ} })
}
