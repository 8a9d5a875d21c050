package sqlext

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// In arithmetic MySQL reads a DATE as the number YYYYMMDD, a DATETIME or
// TIMESTAMP as YYYYMMDDhhmmss (with its fractional seconds as decimals)
// and a TIME as hhmmss: d + 0 is 20240115. The engine read a DATE as a
// DATETIME (20240115000000) and a TIME as text, so as 0 or its hours.
// temporalNumberRule hands every temporal operand of +, -, *, /, DIV, %
// and unary minus to the engine as that number; an INTERVAL makes the
// operation date arithmetic, which is left alone.
const temporalNumberRule analyzer.RuleId = 9997

func temporalNumbers(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e.(type) {
		case *expression.Arithmetic, *expression.Div, *expression.IntDiv, *expression.Mod, *expression.UnaryMinus:
		default:
			return e, transform.SameTree, nil
		}
		if dateArithmetic(e) {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
			if num, ok := newTemporalNumber(c); ok {
				return num
			}
			return nil
		})
	})
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

// temporalNumber is a DATE, DATETIME, TIMESTAMP or TIME read as the
// number MySQL reads it as: a BIGINT, or a DECIMAL with as many decimals
// as the value's fractional seconds.
type temporalNumber struct {
	sql.Expression
	typ      sql.Type
	date     bool // a DATE: YYYYMMDD
	duration bool // a TIME: hhmmss
	fsp      int  // fractional digits of a DATETIME or TIMESTAMP
}

var (
	_ sql.Expression         = (*temporalNumber)(nil)
	_ sql.CollationCoercible = (*temporalNumber)(nil)
)

// newTemporalNumber wraps e when it is temporal.
func newTemporalNumber(e sql.Expression) (*temporalNumber, bool) {
	t := e.Type()
	switch {
	case types.IsTimespan(t):
		return &temporalNumber{Expression: e, typ: types.Int64, duration: true}, true
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
		return sign * (s/3600*10000 + s/60%60*100 + s%60), nil
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
