package sqlext

import (
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// FROM_UNIXTIME(n) and CONVERT_TZ(dt, from, to) give a DATETIME with the
// fractional digits of their argument, as MySQL does:
// FROM_UNIXTIME(1704067200) is 2024-01-01 00:00:00, and
// FROM_UNIXTIME(1.5) 1970-01-01 00:00:01.5. The engine gave both six
// digits whatever they were given (2024-01-01 00:00:00.000000).
// withArgumentDigits takes the engine's function in its place with the
// type MySQL gives it (dateFunctions), or nil where the engine's type
// stands (FROM_UNIXTIME with a format, or of text).
func withArgumentDigits(e sql.Expression) sql.Expression {
	switch x := e.(type) {
	case *function.FromUnixtime:
		if len(x.Children()) != 1 {
			return nil
		}
		return &scalarFunc{name: "from_unixtime", args: x.Children(), typ: unixtimeType(x.Children()), typeOf: unixtimeType,
			eval: fromUnixtime}
	case *function.ConvertTz:
		return &scalarFunc{name: "convert_tz", args: x.Children(), typ: convertTzType(x.Children()), typeOf: convertTzType,
			eval: func(ctx *sql.Context, v []any) (any, error) {
				return engineCall(ctx, func(a ...sql.Expression) (sql.Expression, error) {
					return function.NewConvertTz(a[0], a[1], a[2]), nil
				}, v)
			}}
	}
	return nil
}

// fromUnixtime is FROM_UNIXTIME(n): the engine's, which reads n as a
// whole number of seconds, with the fraction of an exact n added.
func fromUnixtime(ctx *sql.Context, v []any) (any, error) {
	d, ok := v[0].(decimal.Decimal)
	if !ok || d.IsNegative() {
		return engineCall(ctx, function.NewFromUnixtime, v)
	}
	whole := d.Truncate(0)
	t, err := engineCall(ctx, function.NewFromUnixtime, []any{whole.IntPart()})
	if tt, ok := t.(time.Time); ok && err == nil {
		t = tt.Add(time.Duration(d.Sub(whole).Shift(6).IntPart()) * time.Microsecond)
	}
	return t, err
}

// engineCall is the engine's function made by build over the values v.
func engineCall(ctx *sql.Context, build func(...sql.Expression) (sql.Expression, error), v []any) (any, error) {
	lits := make([]sql.Expression, len(v))
	for i := range v {
		lits[i] = expression.NewLiteral(v[i], types.ApproximateTypeFromValue(v[i]))
	}
	f, err := build(lits...)
	if err != nil {
		return nil, err
	}
	return f.Eval(ctx, nil)
}

// unixtimeType is FROM_UNIXTIME's: as many digits as an exact number
// given it has (none for an integer), six for anything else.
func unixtimeType(args []sql.Expression) sql.Type {
	t := args[0].Type()
	switch {
	case types.IsInteger(t):
		return datetimeOf(0)
	case types.IsDecimal(t):
		_, scale := digitsOf(t)
		return datetimeOf(scale)
	}
	return types.DatetimeMaxPrecision
}

// convertTzType is CONVERT_TZ's: the digits of the DATETIME or TIMESTAMP
// it converts, or of the text of one written in the statement.
func convertTzType(args []sql.Expression) sql.Type {
	if dt, ok := args[0].Type().(sql.DatetimeType); ok && types.IsTime(dt) {
		// A DATE's precision is 0.
		return datetimeOf(dt.Precision())
	}
	if n, ok := args[0].(*numberDateText); ok {
		// A number read as a date: its scale's digits (datetime.go).
		return datetimeOf(numberDigits(n.Expression))
	}
	if lit, ok := args[0].(*expression.Literal); ok {
		if s, ok := lit.Value().(string); ok {
			digits := 0
			if i := strings.LastIndexByte(s, '.'); i >= 0 && strings.Count(s, ":") == 2 {
				digits = len(strings.TrimSpace(s[i+1:]))
			}
			return datetimeOf(digits)
		}
	}
	return types.DatetimeMaxPrecision
}

func datetimeOf(digits int) sql.Type {
	return types.MustCreateDatetimeType(sqltypes.Datetime, min(max(digits, 0), 6))
}
