package sqlext

import (
	"fmt"
	"strconv"
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

// DATE_FORMAT and TIME_FORMAT write a date or a time by MySQL's
// specifiers. The engine's left %y of 2000 as 0 (MySQL 00) and %X and
// %x of a year below 1000 unpadded, and its TIME_FORMAT read a TIME as
// a time of day: -01:02:03 came out as 22:57:57 and 100:00:00 as
// 04:00:00, and %k, %l and %p were not known.

// clock is a date and time, or a TIME, as MySQL's formatting sees it:
// a TIME has no date (year, month and day 0), may be negative and may
// have more than 23 hours.
type clock struct {
	neg                               bool
	year, month, day                  int
	hour, minute, second, microsecond int
	duration                          bool // a TIME
}

// clockOfTime is a DATE, DATETIME or TIMESTAMP as a clock.
func clockOfTime(t time.Time) clock {
	return clock{
		year: t.Year(), month: int(t.Month()), day: t.Day(),
		hour: t.Hour(), minute: t.Minute(), second: t.Second(), microsecond: t.Nanosecond() / 1000,
	}
}

// clockOfDuration is a TIME, given in microseconds, as a clock.
func clockOfDuration(us int64) clock {
	c := clock{duration: true}
	if us < 0 {
		c.neg, us = true, -us
	}
	s := us / 1_000_000
	c.hour, c.minute, c.second, c.microsecond = int(s/3600), int(s/60%60), int(s%60), int(us%1_000_000)
	return c
}

// formatClock writes c by a DATE_FORMAT format; ok is false where MySQL
// answers NULL: a name of a month, or anything of a day, asked of a
// value that has none (a TIME, or the zero date).
func formatClock(c clock, format string) (string, bool) {
	var b strings.Builder
	if c.neg {
		b.WriteByte('-')
	}
	num := func(n, width int) {
		s := strconv.Itoa(n)
		for i := len(s); i < width; i++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	hms := func(hour int) {
		num(hour, 2)
		b.WriteByte(':')
		num(c.minute, 2)
		b.WriteByte(':')
		num(c.second, 2)
	}
	noDay := c.duration || c.month == 0 && c.year == 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		spec := format[i]
		if n, ok := numericSpecifiers[spec]; ok {
			num(n.of(c), n.width)
			continue
		}
		switch spec {
		case 'M', 'b':
			if c.month == 0 {
				return "", false
			}
			name := time.Month(c.month).String()
			if spec == 'b' {
				name = name[:3]
			}
			b.WriteString(name)
		case 'W', 'a', 'w':
			if noDay {
				return "", false
			}
			wd := c.date().Weekday()
			switch spec {
			case 'W':
				b.WriteString(wd.String())
			case 'a':
				b.WriteString(wd.String()[:3])
			default:
				num(int(wd), 1)
			}
		case 'D':
			if c.duration {
				return "", false
			}
			num(c.day, 1)
			b.WriteString(ordinalSuffix(c.day))
		case 'p':
			b.WriteString(c.meridiem())
		case 'r':
			hms(c.hour12())
			b.WriteString(" " + c.meridiem())
		case 'T':
			hms(c.hour)
		case 'j':
			if c.duration {
				return "", false
			}
			num(c.date().YearDay(), 3)
		case 'U', 'u', 'V', 'v', 'X', 'x':
			if c.duration {
				return "", false
			}
			week, year := calcWeek(c.year, c.month, c.day, weekSpecifiers[spec])
			if spec == 'X' || spec == 'x' {
				num(year, 4)
			} else {
				num(week, 2)
			}
		default:
			b.WriteByte(spec)
		}
	}
	return b.String(), true
}

// numericSpecifiers are the specifiers that write a number, each with
// the fewest digits it is written with.
var numericSpecifiers = map[byte]struct {
	of    func(clock) int
	width int
}{
	'Y': {func(c clock) int { return c.year }, 4},
	'y': {func(c clock) int { return c.year % 100 }, 2},
	'm': {func(c clock) int { return c.month }, 2},
	'c': {func(c clock) int { return c.month }, 1},
	'd': {func(c clock) int { return c.day }, 2},
	'e': {func(c clock) int { return c.day }, 1},
	'f': {func(c clock) int { return c.microsecond }, 6},
	'H': {func(c clock) int { return c.hour }, 2},
	'k': {func(c clock) int { return c.hour }, 1},
	'h': {clock.hour12, 2},
	'I': {clock.hour12, 2},
	'l': {clock.hour12, 1},
	'i': {func(c clock) int { return c.minute }, 2},
	'S': {func(c clock) int { return c.second }, 2},
	's': {func(c clock) int { return c.second }, 2},
}

// weekSpecifiers are the week behaviours (calcWeek) of DATE_FORMAT's
// week specifiers: %U and %u are WEEK modes 0 and 1, %V and %X mode 2,
// %v and %x mode 3.
var weekSpecifiers = map[byte]int{
	'U': weekFirstWeekday,
	'u': weekMondayFirst,
	'V': weekYear | weekFirstWeekday,
	'X': weekYear | weekFirstWeekday,
	'v': weekYear | weekMondayFirst,
	'x': weekYear | weekMondayFirst,
}

func (c clock) date() time.Time {
	return time.Date(c.year, time.Month(c.month), c.day, 0, 0, 0, 0, time.UTC)
}

// hour12 is the hour on a 12-hour clock, of the hour of the day for a
// TIME past a day (100:00:00 is 4 o'clock).
func (c clock) hour12() int { return (c.hour%24+11)%12 + 1 }

func (c clock) meridiem() string {
	if c.hour%24 < 12 {
		return "AM"
	}
	return "PM"
}

func ordinalSuffix(day int) string {
	if day >= 10 && day <= 19 {
		return "th"
	}
	switch day % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// The bits of a week behaviour, as MySQL's calc_week takes them: weeks
// start on Monday (else Sunday); the week of a day is counted in the year
// it mostly falls in, so that it may be the last of the year before or
// the first of the next (else a day before the first week is in week
// 0); the first week is the one with the first such weekday in it (else
// the first with four days or more in the year).
const (
	weekMondayFirst  = 1
	weekYear         = 2
	weekFirstWeekday = 4
)

// weekBehaviour is the behaviour of WEEK's mode 0 to 7.
func weekBehaviour(mode int) int {
	b := mode & 7
	if b&weekMondayFirst == 0 {
		b ^= weekFirstWeekday
	}
	return b
}

// calcWeek is the week of a date by a week behaviour, and the year
// that week is counted in.
func calcWeek(year, month, day, behaviour int) (week, inYear int) {
	mondayFirst := behaviour&weekMondayFirst != 0
	countInYear := behaviour&weekYear != 0
	firstWeekday := behaviour&weekFirstWeekday != 0
	date := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	jan1 := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	// weekday of January 1st, 0 for the first day of a week
	weekday := int(jan1.Weekday())
	if mondayFirst {
		weekday = (weekday + 6) % 7
	}
	// firstInYear: the year's first days, before its first week, are
	// the last week of the year before.
	firstInYear := func(wd int) bool { return firstWeekday && wd != 0 || !firstWeekday && wd >= 4 }
	dayNr := date.YearDay() - 1 // days since January 1st
	inYear = year
	if month == 1 && day <= 7-weekday {
		if !countInYear && firstInYear(weekday) {
			return 0, inYear
		}
		countInYear = true
		inYear--
		days := daysInYear(inYear)
		dayNr += days
		weekday = (weekday + 53*7 - days) % 7
	}
	var days int
	if firstInYear(weekday) {
		days = dayNr - (7 - weekday)
	} else {
		days = dayNr + weekday
	}
	if countInYear && days >= 52*7 {
		weekday = (weekday + daysInYear(inYear)) % 7
		if !firstWeekday && weekday < 4 || firstWeekday && weekday == 0 {
			return 1, inYear + 1
		}
	}
	return days/7 + 1, inYear
}

func daysInYear(y int) int {
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 366
	}
	return 365
}

// formatted is a formatting function of a value read by read and a
// format: DATE_FORMAT of a date (clockOfDate) or TIME_FORMAT of a time
// (clockOfTimeArg).
func formatted(read func(*sql.Context, any) (clock, bool)) func(*sql.Context, []any) (any, error) {
	return func(ctx *sql.Context, v []any) (any, error) {
		c, ok := read(ctx, v[0])
		if !ok {
			return nil, nil
		}
		format, err := textOf(v[1])
		if err != nil {
			return nil, err
		}
		if s, ok := formatClock(c, format); ok {
			return s, nil
		}
		return nil, nil
	}
}

// clockOfDate reads a DATE_FORMAT argument. A TIME is today at that
// time, as in MySQL; a value that is not a date is NULL with warning
// 1292.
func clockOfDate(ctx *sql.Context, v any) (clock, bool) {
	switch x := v.(type) {
	case time.Time:
		return clockOfTime(x), true
	case types.Timespan:
		t, err := onToday(ctx, x) // timecast.go
		if err != nil {
			return clock{}, false
		}
		return clockOfTime(t), true
	case string:
		if strings.HasPrefix(strings.TrimSpace(x), "0000-00-00") {
			c := clock{}
			if t, ok := timeOf(ctx, x); ok {
				c.hour, c.minute, c.second, c.microsecond = t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000
			}
			return c, true
		}
	}
	if isNumber(v) {
		t, ok := numberAsDate(ctx, v)
		return clockOfTime(t), ok
	}
	t, ok := timeOf(ctx, v)
	if !ok {
		ctx.Warn(erTruncatedWrongValue, "Incorrect datetime value: '%v'", v)
		return clock{}, false
	}
	return clockOfTime(t), true
}

// clockOfTimeArg reads a TIME_FORMAT argument. MySQL 8.0 writes the
// date parts of a TIME as zeros (%Y 0000, %d 00) where MariaDB answers
// NULL; a name of a month or a day, and a week, are NULL in both.
func clockOfTimeArg(ctx *sql.Context, v any) (clock, bool) {
	us, ok := durationOf(ctx, v)
	return clockOfDuration(us), ok
}

// durationOf reads a value as a TIME, in microseconds: a DATETIME or a
// string that names a date and time by its time of day, a number as
// hhmmss.ffffff (numberAsDuration). ok is false, with warning 1292, for
// a value that is not a time.
func durationOf(ctx *sql.Context, v any) (us int64, ok bool) {
	switch x := v.(type) {
	case types.Timespan:
		return x.AsMicroseconds(), true
	case time.Time:
		return clockMicroseconds(x), true
	case string:
		if strings.Contains(strings.TrimPrefix(strings.TrimSpace(x), "-"), "-") {
			t, ok := timeOf(ctx, x)
			if !ok {
				ctx.Warn(erTruncatedWrongValue, "Incorrect time value: '%s'", x)
			}
			return clockMicroseconds(t), ok
		}
		ts, err := types.Time.ConvertToTimespan(dayForm(ctx, x))
		if err != nil {
			ctx.Warn(erTruncatedWrongValue, "Incorrect time value: '%s'", x)
			return 0, false
		}
		return ts.AsMicroseconds(), true
	}
	return numberAsDuration(ctx, v)
}

// clockMicroseconds is the time of day of t in microseconds.
func clockMicroseconds(t time.Time) int64 {
	return int64(t.Hour()*3600+t.Minute()*60+t.Second())*1_000_000 + int64(t.Nanosecond()/1000)
}

// dateNumberForm is a number below 10^14 written as a date, in any of
// numberAsDate's forms, as YYYYMMDDhhmmss; ok is false for a number in
// none of them.
func dateNumberForm(x int64) (int64, bool) {
	switch {
	case x >= 101 && x <= 691231:
		return (x + 20000000) * 1_000_000, true
	case x >= 700101 && x <= 991231:
		return (x + 19000000) * 1_000_000, true
	case x >= 10000101 && x <= 99991231:
		return x * 1_000_000, true
	case x >= 101000000 && x <= 691231235959:
		return x + 20000000000000, true
	case x >= 700101000000 && x <= 991231235959:
		return x + 19000000000000, true
	case x >= 10000101000000:
		return x, true
	}
	return 0, false
}

// isNumber reports whether v is a number as the engine holds one.
func isNumber(v any) bool {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, decimal.Decimal:
		return true
	}
	return false
}

// dateOf reads a value where MySQL wants a date and time: a number as
// numberAsDate reads it, anything else as the engine converts it to a
// DATETIME. ok is false for a value that is not a date.
func dateOf(ctx *sql.Context, v any) (time.Time, bool) {
	if isNumber(v) {
		return numberAsDate(ctx, v)
	}
	return timeOf(ctx, v)
}

// numberAsDate reads a number as MySQL reads one where it wants a date:
// YYYYMMDD or YYYYMMDDhhmmss, or with a two-digit year YYMMDD or
// YYMMDDhhmmss (70 to 99 in the 1900s, the rest in the 2000s), its
// decimals as fractions of a second. ok is false, with warning 1292,
// for any other number, and for one whose parts are no date or time.
func numberAsDate(ctx *sql.Context, v any) (time.Time, bool) {
	n, err := decimalOf(ctx, v)
	bad := func() (time.Time, bool) {
		ctx.Warn(erTruncatedWrongValue, "Incorrect datetime value: '%v'", v)
		return time.Time{}, false
	}
	if err != nil || n.Sign() < 0 {
		return bad()
	}
	whole := n.Truncate(0)
	us := n.Sub(whole).Shift(6).Truncate(0).IntPart()
	if !whole.LessThan(decimal.New(1, 14)) {
		return bad()
	}
	x, ok := dateNumberForm(whole.IntPart())
	if !ok {
		return bad()
	}
	ymd, hms := x/1_000_000, x%1_000_000
	y, mo, d := int(ymd/10000), int(ymd/100%100), int(ymd%100)
	h, mi, s := int(hms/10000), int(hms/100%100), int(hms%100)
	t := time.Date(y, time.Month(mo), d, h, mi, s, int(us)*1000, time.UTC)
	if mo < 1 || mo > 12 || d < 1 || t.Day() != d || h > 23 || mi > 59 || s > 59 {
		return bad()
	}
	return t, true
}

// week is WEEK(date[, mode]): the week of the date by the mode, 0 to 7
// (of its three low bits), or by the session's default_week_format
// when there is none; a NULL mode is mode 0. The engine's counted the
// first days of a year in week 0 where the mode counts them in the last
// week of the year before (WEEK('2023-01-01', 3) is 52) and the last
// days in week 53 where it counts them in week 1 of the next
// (WEEK('2024-12-31', 3) is 1).
func week(ctx *sql.Context, v []any) (any, error) {
	if v[0] == nil {
		return nil, nil
	}
	t, ok := dateOf(ctx, v[0])
	if !ok {
		return nil, nil
	}
	var mode int64
	if len(v) > 1 {
		if v[1] != nil {
			m, err := int64Of(v[1])
			if err != nil {
				return nil, err
			}
			mode = m
		}
	} else {
		mode = defaultWeekFormat(ctx)
	}
	w, _ := calcWeek(t.Year(), int(t.Month()), t.Day(), weekBehaviour(int(mode&7)))
	return int64(w), nil
}

// defaultWeekFormat is the session's default_week_format, the mode of
// WEEK without one and of EXTRACT(WEEK ...).
func defaultWeekFormat(ctx *sql.Context) int64 {
	v, err := ctx.GetSessionVariable(ctx, "default_week_format")
	if err != nil {
		return 0
	}
	n, err := int64Of(v)
	if err != nil {
		return 0
	}
	return n
}

// dateFunctionRule puts MySQL's own in place of the engine's functions
// of dates that the parser builds without the function registry, which
// mysqlFunctions cannot replace: EXTRACT(WEEK FROM d), which the engine
// counted by WEEK's mode 3 where MySQL takes the session's
// default_week_format (0 unless set); and TIMESTAMPDIFF
// (timestampDiff). It also has a date compared with a number compared
// as MySQL compares them (datesAgainstNumbers), and a number in date
// arithmetic read as a date (numbersAsDates), and a CASE that gives
// dates or times and other values gives text (caseAsText).
const dateFunctionRule analyzer.RuleId = 9988

func dateFunctions(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *function.Extract:
			unit, ok := x.LeftChild.(*expression.Literal)
			if !ok || unit.Value() != "WEEK" {
				break
			}
			return &scalarFunc{name: "week", args: []sql.Expression{x.RightChild}, typ: types.Int64, typeOf: fixedType(types.Int64), eval: week}, transform.NewTree, nil
		case *function.TimestampDiff:
			return &scalarFunc{name: "timestampdiff", args: x.Children(), typ: types.Int64, typeOf: fixedType(types.Int64), eval: timestampDiff}, transform.NewTree, nil
		case *function.FromUnixtime, *function.ConvertTz:
			dated, same, err := numbersAsDates(e) // CONVERT_TZ(20240105103000, ...)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if f := withArgumentDigits(dated); f != nil { // datetimedigits.go
				return f, transform.NewTree, nil
			}
			return dated, same, nil
		case *expression.Case:
			if c := caseAsText(x); c != nil { // numfuncs.go
				return c, transform.NewTree, nil
			}
			if c := caseAsDecimal(x); c != nil { // numfuncs.go
				return c, transform.NewTree, nil
			}
		}
		if e, same, err := numbersAsDates(e); same == transform.NewTree || err != nil {
			return e, same, err
		}
		if e, same, err := timesCompared(e); same == transform.NewTree || err != nil {
			return e, same, err // timecast.go
		}
		if e, same, err := timesOnToday(e); same == transform.NewTree || err != nil {
			return e, same, err // timecast.go
		}
		return datesAgainstNumbers(e)
	})
}

// unitMicroseconds are the microseconds in each unit of fixed length.
var unitMicroseconds = map[string]int64{
	"MICROSECOND": 1, "SECOND": 1_000_000, "MINUTE": 60_000_000, "HOUR": 3_600_000_000,
	"DAY": 86_400_000_000, "WEEK": 7 * 86_400_000_000,
}

// timestampDiff is TIMESTAMPDIFF(unit, from, to). MySQL counts months,
// quarters and years whole: from 1999-12-31 to 2025-03-31 is 303 months,
// as the 31st of March is not yet the end of a month past the 31st of
// December at the same time of day, where the engine counted 307 by
// the days between the two; and it counts in seconds and microseconds
// past the 292 years the engine's count of nanoseconds held.
func timestampDiff(ctx *sql.Context, v []any) (any, error) {
	unit, err := textOf(v[0])
	if err != nil {
		return nil, err
	}
	from, ok1 := dateOf(ctx, v[1])
	to, ok2 := dateOf(ctx, v[2])
	if !ok1 || !ok2 {
		return nil, nil
	}
	sign := int64(1)
	if to.Before(from) {
		sign, from, to = -1, to, from
	}
	us := (to.Unix()-from.Unix())*1_000_000 + int64(to.Nanosecond()/1000-from.Nanosecond()/1000)
	unit = strings.TrimPrefix(strings.ToUpper(unit), "SQL_TSI_")
	if n, ok := unitMicroseconds[unit]; ok {
		return sign * (us / n), nil
	}
	months := int64(to.Year()-from.Year())*12 + int64(to.Month()) - int64(from.Month())
	if to.Day() < from.Day() || to.Day() == from.Day() && clockMicroseconds(to) < clockMicroseconds(from) {
		months--
	}
	switch unit {
	case "MONTH":
		return sign * months, nil
	case "QUARTER":
		return sign * (months / 3), nil
	case "YEAR":
		return sign * (months / 12), nil
	}
	return nil, fmt.Errorf("sqlext: TIMESTAMPDIFF of unit %s", unit)
}

// ADDTIME(a, b) and SUBTIME(a, b) add a TIME to, or subtract one from,
// a date and time or a time, and TIMESTAMP(d, t) adds one to a date;
// the engine had none of the first two and only TIMESTAMP(d). A DATE,
// DATETIME or TIMESTAMP gives a DATETIME, a TIME a TIME, with as many
// fractional digits as the more precise of the two; a string or a number
// gives a string, a date and time if it names one, else a time.
func addTimeFunction(name string, sign int64) sql.Function {
	return scalar(name, 2, 2, addTimeType, func(ctx *sql.Context, v []any) (any, error) {
		return addTime(ctx, v[0], v[1], sign)
	})
}

// timestampFunction is TIMESTAMP(d), d as a DATETIME (the engine's kept
// a DATE a DATE: 2024-01-15 where MySQL gives 2024-01-15 00:00:00, and
// text text), and TIMESTAMP(d, t), a DATETIME whatever d is.
var timestampFunction = sql.FunctionN{Name: "timestamp", Fn: func(args ...sql.Expression) (sql.Expression, error) {
	if len(args) == 1 && types.IsDateType(args[0].Type()) {
		return expression.NewConvert(args[0], expression.ConvertToDatetime), nil
	}
	if len(args) == 1 && isTimeType(args[0].Type()) {
		// Today at that time (timesOnToday), with the TIME's digits.
		return expression.NewConvertWithLengthAndScale(args[0], expression.ConvertToDatetime, fractionDigits(args[0].Type()), 0), nil
	}
	if len(args) == 1 {
		// Text or a number read as a date and time, a DATETIME with the
		// digits a literal has, six for other text (the engine's kept
		// the text).
		typeOf := func(args []sql.Expression) sql.Type {
			return types.MustCreateDatetimeType(sqltypes.Datetime, timeArgDigits(args[0]))
		}
		return scalar("timestamp", 1, 1, typeOf, func(ctx *sql.Context, v []any) (any, error) {
			if t, ok := dateOf(ctx, v[0]); ok {
				return t, nil
			}
			return nil, nil
		}).Fn(args...)
	}
	if len(args) != 2 {
		return function.NewDatetime(args...)
	}
	typeOf := func(args []sql.Expression) sql.Type {
		return types.MustCreateDatetimeType(sqltypes.Datetime, max(fractionDigits(args[0].Type()), timeArgDigits(args[1])))
	}
	return scalar("timestamp", 2, 2, typeOf, func(ctx *sql.Context, v []any) (any, error) {
		t, ok := dateOf(ctx, v[0])
		if !ok {
			return nil, nil
		}
		return addTime(ctx, t, v[1], 1)
	}).Fn(args...)
}}

// addTimeType is the type of ADDTIME and SUBTIME.
func addTimeType(args []sql.Expression) sql.Type {
	t := args[0].Type()
	digits := max(fractionDigits(t), timeArgDigits(args[1]))
	switch {
	case types.IsTimespan(t):
		return types.Time
	case isTimeType(t):
		return timeType{fsp: digits}
	case types.IsTime(t):
		return types.MustCreateDatetimeType(sqltypes.Datetime, digits)
	}
	return types.LongText
}

// timeArgDigits is the fractional digits of the TIME argument of
// ADDTIME, SUBTIME or TIMESTAMP, or of the argument of TIME() or
// TIMEDIFF: those of the time a string literal starts with, six for
// another string or a float, a DECIMAL's scale.
func timeArgDigits(e sql.Expression) int {
	t := e.Type()
	switch {
	case types.IsTimespan(t):
		return 0 // the engine's TIME takes no precision here: it is TIME(0)
	case isTimeType(t):
		return fractionDigits(t)
	case types.IsDecimal(t):
		return min(int(t.(sql.DecimalType).Scale()), 6)
	case types.IsFloat(t):
		return 6
	case types.IsText(t):
		if p, ok := e.(*temporalPrefix); ok {
			e = p.Expression // text read by the time it starts with
		}
		if lit, ok := e.(*expression.Literal); ok {
			if s, ok := lit.Value().(string); ok {
				if v, _, ok := scanTime(s); ok {
					return v.digits
				}
				if _, frac, ok := strings.Cut(s, "."); ok {
					return min(len(strings.TrimSpace(frac)), 6)
				}
				return 0
			}
		}
		return 6
	}
	return fractionDigits(t)
}

// addTime is a + sign * b, b a TIME.
func addTime(ctx *sql.Context, a, b any, sign int64) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if t, ok := b.(time.Time); ok || isDateText(b) {
		ctx.Warn(erTruncatedWrongValue, "Incorrect INTERVAL DAY TO SECOND value: '%v'", textOrValue(t, b))
		return nil, nil
	}
	d, ok := durationOf(ctx, b)
	if !ok {
		return nil, nil
	}
	d *= sign
	if ts, ok := a.(types.Timespan); ok {
		return clampDuration(ctx, ts.AsMicroseconds()+d), nil
	}
	if t, ok := a.(time.Time); ok {
		return shiftDate(t, d), nil
	}
	if isDateText(a) || isNumber(a) && !dateNumberIsTime(a) {
		t, ok := dateOf(ctx, a)
		if !ok {
			return nil, nil
		}
		r := shiftDate(t, d)
		if r == nil {
			return nil, nil
		}
		return dateText(r.(time.Time)), nil
	}
	us, ok := durationOf(ctx, a)
	if !ok {
		return nil, nil
	}
	return durationText(clampDuration(ctx, us+d).AsMicroseconds()), nil
}

func textOrValue(t time.Time, v any) any {
	if _, ok := v.(time.Time); ok {
		return dateText(t)
	}
	return v
}

// isDateText reports whether v is a string that names a date: one with
// a dash past its sign.
func isDateText(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(strings.TrimPrefix(strings.TrimSpace(s), "-"), "-")
}

// dateNumberIsTime reports whether a number names a time, hhmmss, not
// a date and time: it is below 10^10 (MySQL's rule for ADDTIME).
func dateNumberIsTime(v any) bool {
	n, err := decimalOf(nil, v)
	return err != nil || n.Abs().LessThan(decimal.New(1, 10))
}

// shiftDate is t moved by us microseconds, or nil past the range of a
// DATETIME.
func shiftDate(t time.Time, us int64) any {
	r := t.Add(time.Duration(us) * time.Microsecond)
	if r.Year() < 0 || r.Year() > 9999 {
		return nil
	}
	return r
}

// clampDuration is a TIME of us microseconds, 838:59:59 at most either
// way, with warning 1292 where it had to be cut.
func clampDuration(ctx *sql.Context, us int64) types.Timespan {
	const most = (maxTimeHours*3600 + 59*60 + 59) * 1_000_000
	if us > most || us < -most {
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%s'", durationText(us))
		us = max(min(us, most), -most)
	}
	return types.Time.MicrosecondsToTimespan(us)
}

// durationText writes a TIME as MySQL writes it, with six fractional
// digits when it has a fraction.
func durationText(us int64) string {
	sign := ""
	if us < 0 {
		sign, us = "-", -us
	}
	s := us / 1_000_000
	return fmt.Sprintf("%s%02d:%02d:%02d", sign, s/3600, s/60%60, s%60) + fractionText(us%1_000_000)
}

// dateText writes a date and time as MySQL writes it, with six
// fractional digits when it has a fraction.
func dateText(t time.Time) string {
	return t.Format("2006-01-02 15:04:05") + fractionText(int64(t.Nanosecond()/1000))
}

func fractionText(us int64) string {
	if us == 0 {
		return ""
	}
	return fmt.Sprintf(".%06d", us)
}

// A DATE, DATETIME or TIMESTAMP compared with a number is compared as
// MySQL compares it, as a date and time: the number read as one
// (numberAsDate's forms, 20240115 or 240115 for 2024-01-15 00:00:00),
// so that d = 20240115 holds for the DATE 2024-01-15, where the engine
// failed to read the number as a date. Both sides become the number
// YYYYMMDDhhmmss.ffffff (dateCompared); a number whose parts are no
// date (20240200) is compared as it is, in that form.
func datesAgainstNumbers(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *expression.InTuple:
		tuple, ok := x.Right().(expression.Tuple)
		if !ok || !isDateTyped(x.Left()) {
			return e, transform.SameTree, nil
		}
		items := make([]sql.Expression, len(tuple))
		for i, c := range tuple {
			if !types.IsNumber(c.Type()) {
				return e, transform.SameTree, nil
			}
			items[i] = &dateCompared{Expression: c, number: true}
		}
		return expression.NewInTuple(&dateCompared{Expression: x.Left()}, expression.NewTuple(items...)), transform.NewTree, nil
	case *expression.Between:
		if !isDateTyped(x.Val) || !types.IsNumber(x.Lower.Type()) && !types.IsNumber(x.Upper.Type()) {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return asDateCompared(c) })
	case expression.Comparer:
		l, r := x.Left(), x.Right()
		if isDateTyped(l) && types.IsNumber(r.Type()) || isDateTyped(r) && types.IsNumber(l.Type()) {
			return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression { return asDateCompared(c) })
		}
	}
	return e, transform.SameTree, nil
}

// isDateTyped reports whether e is a DATE, DATETIME or TIMESTAMP.
func isDateTyped(e sql.Expression) bool { return types.IsTime(e.Type()) }

// asDateCompared is a date or a number as dateCompared reads it, or nil
// for anything else.
func asDateCompared(e sql.Expression) sql.Expression {
	switch t := e.Type(); {
	case types.IsTime(t):
		return &dateCompared{Expression: e}
	case types.IsNumber(t):
		return &dateCompared{Expression: e, number: true}
	}
	return nil
}

// dateCompared is a date, or a number compared with one, as the number
// YYYYMMDDhhmmss.ffffff.
type dateCompared struct {
	sql.Expression
	number bool
}

var dateComparedType = types.MustCreateDecimalType(20, 6)

func (d *dateCompared) Type() sql.Type { return dateComparedType }

func (d *dateCompared) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if !d.number {
		t, ok := v.(time.Time)
		if !ok {
			if t, ok = timeOf(ctx, v); !ok {
				return nil, nil
			}
		}
		whole := (int64(t.Year())*10000+int64(t.Month())*100+int64(t.Day()))*1_000_000 + int64(t.Hour()*10000+t.Minute()*100+t.Second())
		return decimal.New(whole, 0).Add(decimal.New(int64(t.Nanosecond()/1000), -6)), nil
	}
	n, err := decimalOf(ctx, v)
	if err != nil {
		return nil, err
	}
	whole := n.Truncate(0)
	if x, ok := dateNumberForm(whole.IntPart()); ok && whole.Sign() >= 0 && whole.LessThan(decimal.New(1, 14)) {
		return decimal.New(x, 0).Add(n.Sub(whole)), nil
	}
	return n, nil
}

func (d *dateCompared) Children() []sql.Expression { return []sql.Expression{d.Expression} }

func (d *dateCompared) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 1)
	}
	return &dateCompared{Expression: children[0], number: d.number}, nil
}

func (d *dateCompared) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (d *dateCompared) String() string      { return d.Expression.String() }
func (d *dateCompared) DebugString() string { return sql.DebugString(d.Expression) }

// numbersAsDates has a number that date arithmetic adds to or subtracts
// from (DATE_ADD, DATE_SUB, + INTERVAL, - INTERVAL) read as the date
// and time it names, as MySQL reads it: 20240115 + INTERVAL 1 DAY is
// 2024-01-16, where the engine answered NULL. The number becomes the
// text of its date (numberDateText), which the arithmetic answers with
// text, as MySQL answers for an argument that is not temporal.
func numbersAsDates(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *function.DateAdd, *function.DateSub:
	case *expression.Arithmetic:
		if !dateArithmetic(e) {
			return e, transform.SameTree, nil
		}
	case *expression.Convert:
		if !isDate(x.Type()) {
			return e, transform.SameTree, nil
		}
	case sql.FunctionExpression:
		n, ok := dateReaders[strings.ToLower(x.FunctionName())]
		if !ok {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
			if i-n.first < 0 || i-n.first >= n.dates || !types.IsNumber(c.Type()) {
				return nil // YEARWEEK's mode, EXTRACT's unit
			}
			return &numberDateText{Expression: c}
		})
	default:
		return e, transform.SameTree, nil
	}
	return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
		if _, ok := c.(*expression.Interval); ok || !types.IsNumber(c.Type()) {
			return nil
		}
		return &numberDateText{Expression: c}
	})
}

// dateReaders are the engine's functions that read dates, by their names
// in lower case, with the arguments that are dates: dates of them from
// the first. MySQL reads a number given for one as the date it spells
// (DAYNAME(20240105) is Friday), the engine as no date (NULL, or 1292
// for DATEDIFF).
var dateReaders = map[string]struct{ first, dates int }{
	"date": {0, 1}, "year": {0, 1}, "month": {0, 1}, "day": {0, 1}, "dayofmonth": {0, 1}, "dayname": {0, 1},
	"monthname": {0, 1}, "dayofweek": {0, 1}, "dayofyear": {0, 1}, "weekday": {0, 1}, "weekofyear": {0, 1},
	"yearweek": {0, 1}, "quarter": {0, 1}, "last_day": {0, 1}, "datediff": {0, 2}, "to_days": {0, 1},
	"unix_timestamp": {0, 1}, "convert_tz": {0, 1}, "extract": {1, 1},
}

// numberDateText is a number as the text of the date it names
// (numberAsDate): YYYY-MM-DD for one without a time of day, else
// YYYY-MM-DD hh:mm:ss with any fraction; NULL, with warning 1292, for a
// number that names none.
type numberDateText struct {
	sql.Expression
}

func (n *numberDateText) Type() sql.Type { return types.LongText }

func (n *numberDateText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := n.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	t, ok := numberAsDate(ctx, v)
	if !ok {
		return nil, nil
	}
	if whole, err := decimalOf(ctx, v); err == nil && whole.Truncate(0).LessThan(decimal.New(1, 8)) {
		return t.Format("2006-01-02"), nil
	}
	return dateText(t), nil
}

func (n *numberDateText) Children() []sql.Expression { return []sql.Expression{n.Expression} }

func (n *numberDateText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	return &numberDateText{Expression: children[0]}, nil
}

func (n *numberDateText) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return ctx.GetCollation(), 4
}

func (n *numberDateText) String() string { return n.Expression.String() }

// unixTimestampFunction is the engine's UNIX_TIMESTAMP, an integer for
// a date, or a DATETIME or TIMESTAMP without fractional seconds, as in
// MySQL: the engine typed it DECIMAL(19,0) for those.
var unixTimestampFunction = sql.FunctionN{Name: "unix_timestamp", Fn: newUnixTimestamp}

func newUnixTimestamp(args ...sql.Expression) (sql.Expression, error) {
	e, err := function.NewUnixTimestamp(args...)
	if err != nil {
		return nil, err
	}
	if d, ok := e.Type().(sql.DecimalType); ok && d.Scale() == 0 {
		return &wholeUnixTimestamp{Expression: e}, nil
	}
	return e, nil
}

// wholeUnixTimestamp is a UNIX_TIMESTAMP of whole seconds.
type wholeUnixTimestamp struct {
	sql.Expression
}

var _ sql.FunctionExpression = (*wholeUnixTimestamp)(nil)

func (w *wholeUnixTimestamp) Type() sql.Type       { return types.Int64 }
func (w *wholeUnixTimestamp) FunctionName() string { return "unix_timestamp" }
func (w *wholeUnixTimestamp) Description() string {
	return "returns the Unix timestamp of a date and time."
}
func (w *wholeUnixTimestamp) Children() []sql.Expression { return w.Expression.Children() }

func (w *wholeUnixTimestamp) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return newUnixTimestamp(children...)
}

func (w *wholeUnixTimestamp) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := w.Expression.Eval(ctx, row)
	if d, ok := v.(decimal.Decimal); ok {
		return d.IntPart(), err
	}
	return v, err
}
