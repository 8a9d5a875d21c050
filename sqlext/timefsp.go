package sqlext

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"
)

// TIME(n), n from 0 to 6, holds a time of day or an elapsed time from
// -838:59:59 to 838:59:59 with n fractional digits of a second; TIME is
// TIME(0). MySQL rounds a value to the column's digits when it stores it
// (truncates, with TIME_TRUNCATE_FRACTIONAL in sql_mode), and writes it
// with exactly those digits: '12:34:56.789' is 12:34:57 in a TIME and
// 12:34:56.79 in a TIME(2). The engine refused any precision on TIME
// ("TIME length not yet supported") and kept every TIME as TIME(6),
// stored '12:34:56.789' whole and wrote 12:34:56.789000, and CAST(x AS
// TIME(n)) ignored n.
//
// timeType is TIME(n). The parser hands each TIME column type of a
// statement to the planner as one (resolveTimeTypes); the type is kept
// in storage as its text, time or time(n) (parseColumnType reads it
// back). A column recorded before TIME took a precision has the text
// time(6), the engine's, and reads back as TIME(6), which is what it
// held. The engine's own TIME stays the type of its TIME functions
// (TIMEDIFF, SEC_TO_TIME), whose values keep the digits they have.
type timeType struct {
	fsp int
}

var (
	_ types.TimeType         = timeType{}
	_ sql.CollationCoercible = timeType{}
)

// maxTimeDigits is the most fractional digits a TIME, DATETIME or
// TIMESTAMP takes (MySQL's DATETIME_MAX_DECIMALS).
const maxTimeDigits = 6

// erTooBigPrecision is MySQL's ER_TOO_BIG_PRECISION.
const erTooBigPrecision = 1426

func (t timeType) String() string {
	if t.fsp == 0 {
		return "time"
	}
	return "time(" + strconv.Itoa(t.fsp) + ")"
}

func (t timeType) Type() querypb.Type      { return sqltypes.Time }
func (t timeType) ValueType() reflect.Type { return reflect.TypeOf(types.Timespan(0)) }
func (t timeType) Zero() any               { return types.Timespan(0) }
func (t timeType) Promote() sql.Type       { return t }

func (t timeType) Equals(other sql.Type) bool {
	o, ok := other.(timeType)
	return ok && o.fsp == t.fsp
}

// MaxTextResponseByteLength is the column length MySQL gives TIME(n):
// -838:59:59 and a point and n digits. The wire layer reads n back from
// it (timeFieldDecimals).
func (t timeType) MaxTextResponseByteLength(*sql.Context) uint32 {
	if t.fsp == 0 {
		return timeTextLength
	}
	return timeTextLength + 1 + uint32(t.fsp)
}

// timeTextLength is the length of -838:59:59.
const timeTextLength = 10

func (timeType) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// Compare compares a and b read as TIMEs; a value that is no TIME
// compares as 00:00:00, with warning 1292, as in MySQL (the engine
// failed the statement).
func (t timeType) Compare(ctx context.Context, a, b any) (int, error) {
	if hasNull, r := types.CompareNulls(a, b); hasNull {
		return r, nil
	}
	return comparedTime(ctx, a).Compare(comparedTime(ctx, b)), nil
}

// comparedTime is v read as a TIME to compare (see Compare).
func comparedTime(ctx context.Context, v any) types.Timespan {
	ts, err := timeType{}.ConvertToTimespan(v)
	if err != nil {
		if sctx, ok := ctx.(*sql.Context); ok && sctx != nil && sctx.Session != nil {
			sctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%v'", v)
		}
		return 0
	}
	return ts
}

// Convert is v as a value of the type: read as a TIME and rounded, or
// truncated, to the type's digits.
func (t timeType) Convert(ctx context.Context, v any) (any, sql.ConvertInRange, error) {
	if v == nil {
		return nil, sql.InRange, nil
	}
	ts, err := t.ConvertToTimespan(v)
	if err != nil {
		return nil, sql.OutOfRange, err
	}
	cut, longer := withDigitsCut(v, t.fsp)
	truncate := (longer || !t.holds(ts)) && truncatesFractions(ctx)
	if truncate && longer {
		// Read again without the digits past the type's, which reading
		// may have rounded up.
		if ts, err = t.ConvertToTimespan(cut); err != nil {
			return nil, sql.OutOfRange, err
		}
	}
	return roundTimespan(ts, t.fsp, truncate), sql.InRange, nil
}

// holds reports whether ts has no more fractional digits than the type.
func (t timeType) holds(ts types.Timespan) bool {
	return int64(ts)%pow10(maxTimeDigits-t.fsp) == 0
}

// timeKeyType is a TIME(n) as the type of an index's keys: a key is read
// as a TIME as it is compared (Compare), not rounded to the column's
// digits. A key rounded would make b < '00:00:00.004' a range below
// 00:00:00.00 in a TIME(2), which leaves out 00:00:00.00; a key the
// column cannot hold is no range, and the table is scanned.
type timeKeyType struct {
	timeType
}

func (t timeKeyType) Convert(ctx context.Context, v any) (any, sql.ConvertInRange, error) {
	if v == nil {
		return nil, sql.InRange, nil
	}
	return comparedTime(ctx, v), sql.InRange, nil
}

func (t timeKeyType) Equals(other sql.Type) bool {
	o, ok := other.(timeKeyType)
	return ok && o.fsp == t.fsp
}

// ConvertToTimespan reads v as a TIME of six digits, as MySQL reads a
// value bound for a TIME: text by MySQL's rules (scanTime), a DECIMAL
// with its fraction (the engine dropped it), anything else as the
// engine reads it. A time past the type's range is its bound.
func (t timeType) ConvertToTimespan(v any) (types.Timespan, error) {
	switch x := v.(type) {
	case types.Timespan:
		return x, nil
	case string:
		return timespanOfText(x)
	case []byte:
		return timespanOfText(string(x))
	case decimal.Decimal:
		return timespanOfText(x.String())
	}
	ts, err := types.Time.ConvertToTimespan(v)
	if err != nil {
		return 0, incorrectTime(v)
	}
	return ts, nil
}

func (t timeType) ConvertToTimeDuration(v any) (time.Duration, error) {
	ts, err := t.ConvertToTimespan(v)
	if err != nil {
		return 0, err
	}
	return ts.AsTimeDuration(), nil
}

func (t timeType) MicrosecondsToTimespan(us int64) types.Timespan {
	return types.Time.MicrosecondsToTimespan(us)
}

// SQL writes v with exactly the type's digits, as MySQL writes a TIME(n).
func (t timeType) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if v == nil {
		return sqltypes.NULL, nil
	}
	ts, err := t.ConvertToTimespan(v)
	if err != nil {
		return sqltypes.Value{}, err
	}
	if !t.holds(ts) {
		ts = roundTimespan(ts, t.fsp, truncatesFractions(ctx))
	}
	return sqltypes.MakeTrusted(sqltypes.Time, appendTimespan(dest, ts, t.fsp)), nil
}

// appendTimespan appends ts written as [-]hh:mm:ss with digits
// fractional digits (ts holds no more).
func appendTimespan(dest []byte, ts types.Timespan, digits int) []byte {
	us := int64(ts)
	if us < 0 {
		dest = append(dest, '-')
		us = -us
	}
	s := us / 1_000_000
	dest = appendPadded(dest, s/3600, 2)
	dest = append(dest, ':')
	dest = appendPadded(dest, s/60%60, 2)
	dest = append(dest, ':')
	dest = appendPadded(dest, s%60, 2)
	if digits > 0 {
		dest = append(dest, '.')
		dest = appendPadded(dest, us%1_000_000/pow10(maxTimeDigits-digits), digits)
	}
	return dest
}

// timeLiteral is ts as a quoted TIME with digits fractional digits.
func timeLiteral(ts types.Timespan, digits int) string {
	return quoteString(string(appendTimespan(nil, roundTimespan(ts, digits, false), digits)))
}

// appendPadded appends n with at least width digits.
func appendPadded(dest []byte, n int64, width int) []byte {
	s := strconv.FormatInt(n, 10)
	for i := len(s); i < width; i++ {
		dest = append(dest, '0')
	}
	return append(dest, s...)
}

// roundTimespan is ts with digits fractional digits, rounded half away
// from zero, or truncated, and kept within TIME's range (838:59:59.5
// rounds to its bound, 838:59:59).
func roundTimespan(ts types.Timespan, digits int, truncate bool) types.Timespan {
	unit := pow10(maxTimeDigits - digits)
	us := int64(ts)
	if unit == 1 || us%unit == 0 {
		return ts
	}
	neg := us < 0
	if neg {
		us = -us
	}
	rest := us % unit
	us -= rest
	if !truncate && 2*rest >= unit {
		us += unit
	}
	if neg {
		us = -us
	}
	return types.Time.MicrosecondsToTimespan(us)
}

// truncatesFractions reports whether the session's sql_mode has
// TIME_TRUNCATE_FRACTIONAL: fractional seconds past a type's digits are
// dropped instead of rounded.
func truncatesFractions(ctx context.Context) bool {
	sctx, ok := ctx.(*sql.Context)
	if !ok || sctx == nil || sctx.Session == nil {
		return false
	}
	return sqlMode(sctx).ModeEnabled("TIME_TRUNCATE_FRACTIONAL")
}

// withDigitsCut is v, when it is text or a DECIMAL whose fraction has
// more than digits digits, without those past them, and whether it is
// such a value.
func withDigitsCut(v any, digits int) (any, bool) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	case decimal.Decimal:
		s = x.String()
	default:
		return v, false
	}
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return v, false
	}
	end := dot + 1
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end-dot-1 <= digits {
		return v, false
	}
	return s[:dot+1+digits] + s[end:], true
}

// timespanOfText reads s as MySQL reads text bound for a TIME: by
// scanTime, whole, or else as the engine reads it, which takes a time
// past 838:59:59 for that bound and refuses the rest.
func timespanOfText(s string) (types.Timespan, error) {
	if v, rest, ok := scanTime(s); ok && onlySpaces(rest) {
		us := (int64(v.hour)*3600+int64(v.minute)*60+int64(v.second))*1_000_000 + int64(v.micros)
		if v.neg && v.kind == kindTime {
			us = -us
		}
		return types.Time.MicrosecondsToTimespan(us), nil
	}
	ts, err := types.Time.ConvertToTimespan(s)
	if err != nil {
		return 0, incorrectTime(s)
	}
	return ts, nil
}

// incorrectTime is MySQL's error for a value that is no TIME.
func incorrectTime(v any) error {
	return mysql.NewSQLError(erTruncatedWrongValue, "22007", "Incorrect time value: '%v'", v)
}

// tooBigPrecision is MySQL's error for fractional digits past six.
func tooBigPrecision(digits, name string) error {
	return mysql.NewSQLError(erTooBigPrecision, "42000", "Too-big precision %s specified for '%s'. Maximum is %d.", digits, name, maxTimeDigits)
}

// isTimeType reports whether t is a TIME: a TIME(n) or the engine's.
func isTimeType(t sql.Type) bool {
	_, ok := t.(timeType)
	return ok || types.IsTimespan(t)
}

// parseColumnType reads a column type kept as SQL text: time and
// time(n) as TIME(n), which the engine's parser refuses, the rest as the
// engine reads them.
func parseColumnType(text string) (sql.Type, error) {
	lower := strings.ToLower(strings.TrimSpace(text))
	if lower == "time" {
		return timeType{}, nil
	}
	if digits, ok := strings.CutPrefix(lower, "time("); ok {
		if digits, ok := strings.CutSuffix(digits, ")"); ok {
			if n, err := strconv.Atoi(digits); err == nil && n >= 0 && n <= maxTimeDigits {
				return timeType{fsp: n}, nil
			}
		}
	}
	if t, ok, err := spatialSRID(text); ok {
		return t, err
	}
	return planbuilder.ParseColumnTypeString(text)
}

// defaultText is a column's default as SQL text. The engine makes a
// literal default a literal of the column's type, which it writes for a
// TIME(n) bare (01:02:03.457000), and that does not parse back: such a
// default is written as a quoted TIME with the type's digits.
func defaultText(c *sql.Column) string {
	if tt, ok := c.Type.(timeType); ok && c.Default.IsLiteral() {
		if lit, ok := c.Default.Expr.(*expression.Literal); ok {
			if ts, ok := lit.Value().(types.Timespan); ok {
				return timeLiteral(ts, tt.fsp)
			}
		}
	}
	return c.Default.String()
}
