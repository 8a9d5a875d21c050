package sqlext

import (
	"fmt"
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// A TIME holds -838:59:59 to 838:59:59. MySQL refuses a time past that
// stored in strict mode, "Incorrect time value: '900:00:00' for column
// 'a' at row 1" (1292), and stores the nearer bound with warning 1264,
// "Out of range value for column 'a' at row 1", otherwise or under
// IGNORE. The engine stored the bound without a word. temporalStores
// hands each value bound for a TIME column to storedTime (LOAD DATA's
// rows too, which it stores through an INSERT).
// storedTime is v, bound for the TIME column col at row row, as the
// column may store it: as it is when it is no time past TIME's range,
// else refused in strict mode unless the statement ignores errors, and
// else the nearer bound with a warning.
func storedTime(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error) {
	neg, beyond := timeBeyondRange(v)
	if !beyond {
		return v, nil
	}
	if !ignore && strictMode(ctx) {
		text := fmt.Sprint(v)
		if b, ok := v.([]byte); ok {
			text = string(b)
		}
		return nil, mysql.NewSQLError(erTruncatedWrongValue, "22007", "Incorrect time value: '%s' for column '%s' at row %d", text, col, row)
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERWarnDataOutOfRange,
		Message: fmt.Sprintf("Out of range value for column '%s' at row %d", col, row)})
	bound := int64(maxTimeHours*3600+59*60+59) * 1_000_000
	if neg {
		bound = -bound
	}
	return types.Time.MicrosecondsToTimespan(bound), nil
}

// timeBeyondRange reports whether v, read as MySQL reads a value bound
// for a TIME, is a time past TIME's range, and whether it is negative.
// Text is read as scanTime reads it, a number as [[h]hmm]ss (its
// fraction cannot take it past the bound). A number of more than ten
// digits, which MySQL reads as a date and time, and values of other
// kinds (a TIME computed by a function holds no more than the range) are
// not.
func timeBeyondRange(v any) (neg, beyond bool) {
	var n float64
	switch x := v.(type) {
	case string:
		t, rest, ok := scanWideTime(x)
		return t.neg, ok && onlySpaces(rest) && t.kind == kindTime && t.beyondTime()
	case []byte:
		return timeBeyondRange(string(x))
	case float32:
		n = float64(x)
	case float64:
		n = x
	case decimal.Decimal:
		n = x.Truncate(0).InexactFloat64()
	default:
		w, ok := wideOf(v) // a TIME computed by a function (types.Timespan) is none
		if !ok {
			return false, false
		}
		n = float64(w.mag)
		if w.neg {
			n = -n
		}
	}
	whole := math.Trunc(math.Abs(n))
	if whole >= 1e10 {
		return false, false
	}
	h, m, s := int(whole)/10000, int(whole)/100%100, int(whole)%100
	t := temporalText{kind: kindTime, hour: h, minute: m, second: s}
	return n < 0, m <= 59 && s <= 59 && t.beyondTime()
}
