package sqlext

import (
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// In arithmetic MySQL reads a DATE as the number YYYYMMDD, a DATETIME or
// TIMESTAMP as YYYYMMDDhhmmss (with its fractional seconds as decimals)
// and a TIME as hhmmss: d + 0 is 20240115. The engine read a DATE as a
// DATETIME (20240115000000) and a TIME as text, so as 0 or its hours.
// temporalNumberRule hands every temporal operand of +, -, *, /, DIV, %
// and unary minus, and of a CAST to a number, to the engine as that
// number (the engine cast a DATE to SIGNED as its Unix time, and a
// DATETIME to DECIMAL as 0).
//
// An INTERVAL makes the operation date arithmetic, which the rule hands
// to the engine as DATE_ADD or DATE_SUB (dateArithmeticCall): the
// engine typed d + INTERVAL 1 DAY a DATETIME whatever d was, so that a
// DATE plus days showed 2024-01-16 00:00:00, and failed on a TIME.
const temporalNumberRule analyzer.RuleId = 9997

func temporalNumbers(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.Arithmetic, *expression.Div, *expression.IntDiv, *expression.Mod, *expression.UnaryMinus:
		case *function.DateAdd, *function.DateSub:
			return newDateOffset(e), transform.NewTree, nil
		case *expression.Convert:
			// CAST(d AS SIGNED), AS DECIMAL, AS DOUBLE: the number too.
			if !types.IsNumber(x.Type()) {
				return e, transform.SameTree, nil
			}
		case sql.FunctionExpression:
			return onDoubleArguments(x, temporalOperand)
		default:
			return e, transform.SameTree, nil
		}
		if dateArithmetic(e) {
			return dateArithmeticCall(e)
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return temporalOperand(c) })
	})
}

// temporalOperand is e read as a number when it is temporal, or nil.
func temporalOperand(e sql.Expression) sql.Expression {
	if num, ok := newTemporalNumber(e); ok {
		return num
	}
	return nil
}

// dateArithmetic reports whether an operation has an INTERVAL operand:
// it adds to or subtracts from a date.
func dateArithmetic(e sql.Expression) bool {
	for _, c := range e.Children() {
		if _, ok := c.(*expression.Interval); ok {
			return true
		}
	}
	return false
}

// dateArithmeticCall is date + INTERVAL, INTERVAL + date or date -
// INTERVAL as the engine's DATE_ADD or DATE_SUB, which type their result
// as MySQL does: a DATE plus days, weeks, months, quarters or years is a
// DATE, plus hours, minutes or seconds a DATETIME; a TIME plus hours,
// minutes or seconds is a TIME, plus days a DATETIME (MySQL 8.0; MariaDB
// keeps it a TIME, 34:20:30 for 10:20:30 plus a day); a DATETIME or
// TIMESTAMP stays a DATETIME and a string a string.
func dateArithmeticCall(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	a, ok := e.(*expression.Arithmetic)
	if !ok {
		return e, transform.SameTree, nil
	}
	date, interval := a.LeftChild, a.RightChild
	if _, ok := date.(*expression.Interval); ok {
		date, interval = interval, date
	}
	var call sql.Expression
	var err error
	switch a.Op {
	case "+":
		call, err = function.NewDateAdd(date, interval)
	case "-":
		call, err = function.NewDateSub(date, interval)
	default:
		return e, transform.SameTree, nil
	}
	if err != nil {
		return nil, transform.SameTree, err
	}
	d := newDateOffset(call)
	d.operator, d.intervalFirst = a.Op, a.LeftChild == interval
	return d, transform.NewTree, nil
}

// dateOffset is the engine's DATE_ADD or DATE_SUB with a DATETIME result
// given the fractional digits MySQL gives it, those of its date and
// of its interval: the engine gave every DATETIME it computes six.
// Its children are the function's date and the amount of its interval,
// so that a rule that visits them does not wrap the function again, and
// the engine's check that an INTERVAL is used only in date arithmetic
// finds none where it looks.
type dateOffset struct {
	sql.Expression // *function.DateAdd or *function.DateSub
	typ            sql.Type
	// operator is + or - for date arithmetic written with one, which
	// String writes as it was written (a generated column's definition
	// keeps it); intervalFirst for INTERVAL + date.
	operator      string
	intervalFirst bool
}

var (
	_ sql.Expression         = (*dateOffset)(nil)
	_ sql.CollationCoercible = (*dateOffset)(nil)
)

func newDateOffset(call sql.Expression) *dateOffset {
	date, interval := call.Children()[0], call.Children()[1].(*expression.Interval)
	if _, ok := date.Type().(timeType); ok {
		// The engine does TIME arithmetic on its own TIME only.
		if c, err := call.WithChildren(&typedAs{Expression: date, typ: types.Time}, interval); err == nil {
			call = c
		}
	}
	typ := call.Type()
	switch {
	case types.IsDatetimeType(typ):
		typ = types.MustCreateDatetimeType(sqltypes.Datetime, max(fractionDigits(date.Type()), intervalDigits(interval)))
	case types.IsTimespan(typ) && isTimeType(date.Type()):
		typ = timeType{fsp: max(fractionDigits(date.Type()), intervalDigits(interval))}
	}
	return &dateOffset{Expression: call, typ: typ}
}

// fractionDigits is the fractional second digits of a temporal type.
func fractionDigits(t sql.Type) int {
	switch t := t.(type) {
	case sql.DatetimeType:
		return t.Precision()
	case timeType:
		return t.fsp
	}
	return 0
}

// intervalDigits is the fractional second digits an interval adds:
// six for microseconds, and for seconds given as a number with
// decimals, as many as it has (six for a float or a string).
func intervalDigits(i *expression.Interval) int {
	switch {
	case strings.Contains(i.Unit, "MICROSECOND"):
		return 6
	case !strings.Contains(i.Unit, "SECOND"):
		return 0
	}
	t := i.Child.Type()
	switch {
	case types.IsDecimal(t):
		return min(int(t.(sql.DecimalType).Scale()), 6)
	case types.IsFloat(t), types.IsText(t):
		return 6
	}
	return 0
}

func (d *dateOffset) Type() sql.Type { return d.typ }

func (d *dateOffset) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Expression.Eval(ctx, row)
	if _, isTime := d.typ.(timeType); err != nil || v == nil || !types.IsDatetimeType(d.typ) && !isTime {
		return v, err
	}
	v, _, err = d.typ.Convert(ctx, v)
	return v, err
}

func (d *dateOffset) Children() []sql.Expression {
	c := d.Expression.Children()
	date := c[0]
	if r, ok := date.(*typedAs); ok && r.typ == types.Time {
		date = r.Expression // newDateOffset's
	}
	return []sql.Expression{date, c[1].(*expression.Interval).Child}
}

func (d *dateOffset) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 2)
	}
	interval := d.Expression.Children()[1].(*expression.Interval)
	call, err := d.Expression.WithChildren(children[0], expression.NewInterval(children[1], interval.Unit))
	if err != nil {
		return nil, err
	}
	out := newDateOffset(call)
	out.operator, out.intervalFirst = d.operator, d.intervalFirst
	return out, nil
}

func (d *dateOffset) String() string {
	if d.operator == "" {
		return d.Expression.String()
	}
	c := d.Expression.Children()
	date, interval := c[0].String(), c[1].String()
	if d.intervalFirst {
		date, interval = interval, date
	}
	return "(" + date + " " + d.operator + " " + interval + ")"
}

func (d *dateOffset) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, d.Expression)
}

// temporalNumber is a DATE, DATETIME, TIMESTAMP or TIME read as the
// number MySQL reads it as: a BIGINT, or a DECIMAL with as many decimals
// as the value's fractional seconds.
type temporalNumber struct {
	sql.Expression
	typ      sql.Type
	date     bool // a DATE: YYYYMMDD
	duration bool // a TIME: hhmmss
	fsp      int  // fractional digits of a DATETIME, TIMESTAMP or TIME(n)
}

var (
	_ sql.Expression         = (*temporalNumber)(nil)
	_ sql.CollationCoercible = (*temporalNumber)(nil)
)

// newTemporalNumber wraps e when it is temporal.
func newTemporalNumber(e sql.Expression) (*temporalNumber, bool) {
	t := e.Type()
	switch {
	case isTimeType(t):
		n := &temporalNumber{Expression: e, typ: types.Int64, duration: true}
		if tt, ok := t.(timeType); ok && tt.fsp > 0 {
			// A TIME(n) is hhmmss.f with n decimals (its hours may
			// pass 99).
			n.fsp = tt.fsp
			n.typ = types.MustCreateDecimalType(uint8(7+n.fsp), uint8(n.fsp))
		}
		return n, true
	case types.IsDateType(t):
		return &temporalNumber{Expression: e, typ: types.Int64, date: true}, true
	case types.IsTime(t):
		n := &temporalNumber{Expression: e, typ: types.Int64}
		if dt, ok := t.(sql.DatetimeType); ok && dt.Precision() > 0 {
			n.fsp = dt.Precision()
			n.typ = types.MustCreateDecimalType(uint8(14+n.fsp), uint8(n.fsp))
		}
		return n, true
	}
	return nil, false
}

func (n *temporalNumber) Type() sql.Type { return n.typ }

func (n *temporalNumber) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := n.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if n.duration {
		ts, err := types.Time.ConvertToTimespan(v)
		if err != nil {
			return nil, err
		}
		us := ts.AsMicroseconds()
		sign := int64(1)
		if us < 0 {
			sign, us = -1, -us
		}
		s := us / 1_000_000
		whole := sign * (s/3600*10000 + s/60%60*100 + s%60)
		if n.fsp == 0 {
			return whole, nil
		}
		frac := decimal.New(sign*(us%1_000_000), -6).Truncate(int32(n.fsp))
		return decimal.New(whole, 0).Add(frac), nil
	}
	t, ok := v.(time.Time)
	if !ok {
		if t, ok = timeOf(ctx, v); !ok {
			return int64(0), nil
		}
	}
	ymd := int64(t.Year())*10000 + int64(t.Month())*100 + int64(t.Day())
	if n.date {
		return ymd, nil
	}
	whole := ymd*1_000_000 + int64(t.Hour())*10000 + int64(t.Minute())*100 + int64(t.Second())
	if n.fsp == 0 {
		return whole, nil
	}
	frac := decimal.New(int64(t.Nanosecond()/1000), -6).Truncate(int32(n.fsp))
	return decimal.New(whole, 0).Add(frac), nil
}

func (n *temporalNumber) Children() []sql.Expression { return []sql.Expression{n.Expression} }

func (n *temporalNumber) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	c := *n
	c.Expression = children[0]
	return &c, nil
}

func (n *temporalNumber) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (n *temporalNumber) String() string      { return n.Expression.String() }
func (n *temporalNumber) DebugString() string { return sql.DebugString(n.Expression) }
