package sqlext

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// MySQL refuses an empty (or blank) string stored in an integer or
// DECIMAL column in strict mode, "Incorrect integer value: ” for column
// 'n' at row 1" (1366), and stores 0 with that warning otherwise or under
// IGNORE. The engine stored 0 without a word in signed integer and
// DECIMAL columns (it refuses ” for the others). It also stored a value
// beyond the column's range silently as the nearest bound in an UPDATE
// (UPDATE t SET n = n + 1 of INT's largest value), as 0 in a DECIMAL
// under IGNORE, and -1 in an unsigned column as its largest value:
// MySQL's answer is 1264 in strict mode, and the nearest bound with that
// warning otherwise or under IGNORE (storedInRange). emptyNumberRule
// hands integer and DECIMAL columns' values to the engine through a
// checkedStore, in INSERT ... VALUES, INSERT ... SELECT, UPDATE and ON
// DUPLICATE KEY UPDATE; it runs for every statement (onEveryStatement),
// as the engine plans those with a short list of rules.
const emptyNumberRule analyzer.RuleId = 9966

func blankNumbers(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// Whether the statement ignores errors is looked up once, for the
	// first value that needs it: most statements store none.
	ignore, looked := false, false
	return wrapStores(n, func(col string, t sql.Type, e sql.Expression, set bool) sql.Expression {
		if !(types.IsInteger(t) || types.IsDecimal(t)) {
			return nil
		}
		if !looked {
			ignore, looked = ignoresErrors(n), true
		}
		kind, blanks := numberKind(t), types.IsSigned(t) || types.IsDecimal(t)
		return newCheckedStore(e, col, ignore, func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error) {
			if s, ok := v.(string); ok && blanks && strings.TrimSpace(s) == "" {
				return blankNumber(ctx, s, col, kind, row, ignore)
			}
			if !set && !ignore && strictMode(ctx) {
				// The engine refuses an inserted value out of range
				// itself, after the row's earlier columns' errors, as
				// MySQL does (a NULL id is 1048 before c's 1264).
				return v, nil
			}
			return storedInRange(ctx, t, v, col, row, ignore)
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

// storedInRange is what v, bound for column col of integer or DECIMAL
// type t at row row, becomes when it is beyond t's range: MySQL's 1264 in
// strict mode unless the statement ignores errors, else the bound nearest
// it with that warning. Other values are left to the engine.
func storedInRange(ctx *sql.Context, t sql.Type, v any, col string, row int64, ignore bool) (any, error) {
	if v == nil {
		return v, nil
	}
	if s, ok := v.(string); ok && textInRange(t, s) {
		return v, nil
	}
	_, inRange, err := t.Convert(ctx, v)
	if err == nil && inRange == sql.InRange || err != nil && !types.ErrConvertToDecimalLimit.Is(err) {
		return v, nil
	}
	d, derr := decimalOf(ctx, v)
	if derr != nil {
		return v, nil
	}
	if !ignore && strictMode(ctx) {
		return nil, mysql.NewSQLError(mysql.ERWarnDataOutOfRange, "22003", "Out of range value for column '%s' at row %d", col, row)
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERWarnDataOutOfRange,
		Message: fmt.Sprintf("Out of range value for column '%s' at row %d", col, row)})
	lo, hi := numericBounds(t)
	if d.Sign() < 0 {
		return lo, nil
	}
	return hi, nil
}

// textInRange says, without converting it, that s is plain decimal
// text (an optional sign, digits, and for a DECIMAL a point and digits)
// whose value integer or DECIMAL type t holds, as its rows' text mostly
// is (LOAD DATA gives every value as text); false means that the
// conversion must tell.
func textInRange(t sql.Type, s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s)-1 && s[i] == '0' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++ // leading zeros
	}
	whole := 0
	for i+whole < len(s) && s[i+whole] >= '0' && s[i+whole] <= '9' {
		whole++
	}
	frac := 0
	if dt, ok := t.(sql.DecimalType); ok {
		if j := i + whole; j < len(s) && s[j] == '.' {
			for j+1+frac < len(s) && s[j+1+frac] >= '0' && s[j+1+frac] <= '9' {
				frac++
			}
			if frac == 0 {
				return false
			}
			whole += 1 + frac
		}
		if whole == 0 || i+whole != len(s) {
			return false
		}
		// Digits before the point fewer than the type's, or as many and
		// no rounding of the fraction that could carry into them.
		intDigits := whole
		if frac > 0 {
			intDigits -= 1 + frac
		}
		room := int(dt.Precision()) - int(dt.Scale())
		return intDigits < room || intDigits == room && frac <= int(dt.Scale())
	}
	if whole == 0 || i+whole != len(s) || whole > 18 {
		return false
	}
	bits, unsigned, ok := integerWidth(t)
	if !ok {
		return false
	}
	var n int64 // at most 18 digits: no overflow
	for _, d := range s[i:] {
		n = n*10 + int64(d-'0')
	}
	if s[0] == '-' {
		if unsigned {
			return false // the engine refuses a minus even before zero ('-0')
		}
		n = -n
	}
	return intInRange(n, bits, unsigned)
}

// intInRange says whether n fits an integer type of bits bits, unsigned
// or not.
func intInRange(n int64, bits int, unsigned bool) bool {
	if unsigned {
		return n >= 0 && (bits == 64 || n < 1<<bits)
	}
	return bits == 64 || -1<<(bits-1) <= n && n < 1<<(bits-1)
}

// integerFits says, without converting it, that v, a Go integer (as
// literals and the integer columns of a query come), fits integer type t.
// It reads v itself rather than through wideOf, which measured 24 % slower
// on this path (docs/benchmarks.md).
func integerFits(t sql.Type, v any) bool {
	bits, unsigned, ok := integerWidth(t)
	if !ok {
		return false
	}
	var n int64
	switch x := v.(type) {
	case int8:
		n = int64(x)
	case int16:
		n = int64(x)
	case int32:
		n = int64(x)
	case int64:
		n = x
	case int:
		n = int64(x)
	case uint8:
		n = int64(x)
	case uint16:
		n = int64(x)
	case uint32:
		n = int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return unsigned && bits == 64
		}
		n = int64(x)
	default:
		return false
	}
	return intInRange(n, bits, unsigned)
}

// integerWidth is the bits of integer type t and whether it is unsigned;
// false for other types.
func integerWidth(t sql.Type) (bits int, unsigned, ok bool) {
	switch t.Type() {
	case sqltypes.Int8, sqltypes.Uint8:
		bits = 8
	case sqltypes.Int16, sqltypes.Uint16:
		bits = 16
	case sqltypes.Int24, sqltypes.Uint24:
		bits = 24
	case sqltypes.Int32, sqltypes.Uint32:
		bits = 32
	case sqltypes.Int64, sqltypes.Uint64:
		bits = 64
	default:
		return 0, false, false
	}
	switch t.Type() {
	case sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64:
		unsigned = true
	}
	return bits, unsigned, true
}

// numericBounds are the least and greatest values of integer or DECIMAL
// type t.
func numericBounds(t sql.Type) (lo, hi decimal.Decimal) {
	if dt, ok := t.(sql.DecimalType); ok {
		scale := int32(dt.Scale())
		hi = decimal.New(1, int32(dt.Precision())-scale).Sub(decimal.New(1, -scale))
		return hi.Neg(), hi
	}
	bits, unsigned, ok := integerWidth(t)
	if !ok {
		bits, unsigned = 64, types.IsUnsigned(t)
	}
	one := decimal.NewFromInt(1)
	if unsigned {
		return decimal.Zero, decimal.NewFromBigInt(new(big.Int).Lsh(big.NewInt(1), uint(bits)), 0).Sub(one)
	}
	half := decimal.NewFromBigInt(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), 0)
	return half.Neg(), half.Sub(one)
}
