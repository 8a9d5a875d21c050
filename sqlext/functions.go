package sqlext

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// mysqlFunctions are MySQL functions the engine lacks (TRUNCATE, OCT,
// INSERT, MAKE_SET, EXPORT_SET, MAKEDATE, MAKETIME, SEC_TO_TIME,
// PERIOD_ADD, PERIOD_DIFF, TO_SECONDS, UTC_DATE, UTC_TIME), two of its
// own that failed on a NULL argument instead of returning NULL (WEEK,
// STR_TO_DATE), CURDATE and CURRENT_DATE, which it typed as text (so
// that CURDATE() + 0 was its year), its standard deviations and variances, typed wrong
// (statistic), its functions of a DOUBLE that answered NULL for a result
// out of range (finite), and its functions of a time of day, which read
// a TIME wrong (onDuration), and its functions of numbers, which typed
// and read their arguments otherwise than MySQL does (numfuncs.go). Each
// answers as MySQL does;
// TestMySQLFunctions holds them to MariaDB's answers.
var mysqlFunctions = []sql.Function{
	assignFunction,        // @v := expr (assign.go)
	badLiteralFunction,    // DATE 'x' that is no date (literals.go)
	bitNotFunction,        // ~x (bitnot.go)
	intervalFunction,      // INTERVAL(N, N1, ...) (intervalfunc.go)
	matchFunction,         // MATCH ... AGAINST (fulltext.go)
	innerArgFunction,      // a subquery's own aggregate (inneraggregates.go)
	likePatternFunction,   // LIKE's pattern and escape (likeescape.go)
	benchmarkFunction,     // BENCHMARK(count, expr) (benchmark.go)
	objectOfPairsFunction, // JSON_OBJECTAGG ... OVER (objectaggwindow.go)
	nonemptyArrayFunction,
	likeEscapeFunction,
	randFunction, // RAND(N) (rand.go)
	uuidShortFunction,
	pad("lpad", true), // strfuncs.go
	pad("rpad", false),
	repeatFunction,
	findInSetFunction,
	soundexFunction,
	formatFunction,
	percentRankFunction,   // and CUME_DIST (cumedist.go)
	rankFunctionByType,    // peers.go
	firstValueFunction,    // and NTH_VALUE (nthvalue.go)
	unixTimestampFunction, // datetime.go
	denseRankFunctionByType,
	timeCastFunction,    // CAST(x AS TIME(n)) (timecast.go)
	unionColumnFunction, // a column of a set operation (uniontypes.go)
	scalar("truncate", 2, 2, truncateType, truncateNumber),
	scalar("oct", 1, 1, fixedType(types.LongText), func(_ *sql.Context, v []any) (any, error) {
		n, err := int64Of(v[0])
		return strconv.FormatUint(uint64(n), 8), err
	}),
	scalar("insert", 4, 4, fixedType(types.LongText), insertString),
	scalarOfNulls("make_set", 2, math.MaxInt, fixedType(types.LongText), makeSet),
	scalar("export_set", 3, 5, fixedType(types.LongText), exportSet),
	scalar("makedate", 2, 2, fixedType(types.Date), makeDate),
	scalar("maketime", 3, 3, func(a []sql.Expression) sql.Type { return timeType{fsp: numberDigits(a[2])} }, makeTime),
	scalar("sec_to_time", 1, 1, func(a []sql.Expression) sql.Type { return timeType{fsp: numberDigits(a[0])} }, secToTime),
	scalar("timediff", 2, 2, func(a []sql.Expression) sql.Type {
		return timeType{fsp: max(timeArgDigits(a[0]), timeArgDigits(a[1]))}
	}, func(ctx *sql.Context, v []any) (any, error) {
		return engineCall(ctx, func(a ...sql.Expression) (sql.Expression, error) { return function.NewTimeDiff(a[0], a[1]), nil }, v)
	}),
	scalar("time", 1, 1, func(a []sql.Expression) sql.Type { return timeType{fsp: timeArgDigits(a[0])} }, func(ctx *sql.Context, v []any) (any, error) {
		return engineCall(ctx, func(a ...sql.Expression) (sql.Expression, error) { return function.NewTime(a[0]), nil }, v)
	}),
	scalar("period_add", 2, 2, fixedType(types.Int64), func(_ *sql.Context, v []any) (any, error) {
		n, err := ints(v...)
		if err != nil {
			return nil, err
		}
		m := periodMonths(n[0]) + n[1]
		return (m/12)*100 + m%12 + 1, nil
	}),
	scalar("period_diff", 2, 2, fixedType(types.Int64), func(_ *sql.Context, v []any) (any, error) {
		n, err := ints(v...)
		if err != nil {
			return nil, err
		}
		return periodMonths(n[0]) - periodMonths(n[1]), nil
	}),
	scalar("to_seconds", 1, 1, fixedType(types.Int64), func(ctx *sql.Context, v []any) (any, error) {
		t, ok := timeOf(ctx, v[0])
		if !ok {
			return nil, nil
		}
		return (t.Unix()-yearZero)/86400*86400 + int64(t.Hour()*3600+t.Minute()*60+t.Second()), nil
	}),
	scalar("utc_date", 0, 1, fixedType(types.Date), func(ctx *sql.Context, _ []any) (any, error) {
		t := ctx.QueryTime().UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	}),
	scalar("curdate", 0, 0, fixedType(types.Date), currentDate),
	scalar("curtime", 0, 1, currentTimeType, timeOfDay("curtime", sessionNow)),
	scalar("current_time", 0, 1, currentTimeType, timeOfDay("current_time", sessionNow)),
	scalar("current_date", 0, 0, fixedType(types.Date), currentDate),
	scalar("utc_timestamp", 0, 1, func(a []sql.Expression) sql.Type { return datetimeOf(constantDigits(a)) }, utcTimestamp),
	scalar("utc_time", 0, 1, currentTimeType, timeOfDay("utc_time", func(ctx *sql.Context) (time.Time, error) {
		return ctx.QueryTime().UTC(), nil
	})),
	finite("pow", 2, math.Pow),
	finite("power", 2, math.Pow),
	finite("exp", 1, func(x, _ float64) float64 { return math.Exp(x) }),
	finite("degrees", 1, func(x, _ float64) float64 { return x * (180 / math.Pi) }),
	finite("cot", 1, func(x, _ float64) float64 { return 1 / math.Tan(x) }),
	minMaxFunction("greatest", true, function.NewGreatest), // numfuncs.go
	minMaxFunction("least", false, function.NewLeast),
	numericFunction("abs", 1, 1, engine1("ABS", function.NewAbsVal), sameKindType(sameDecimal), absValue),
	numericFunction("floor", 1, 1, engine1("FLOOR", function.NewFloor), wholeType, toWhole(false)),
	numericFunction("ceil", 1, 1, engine1("CEIL", function.NewCeil), wholeType, toWhole(true)),
	numericFunction("ceiling", 1, 1, engine1("CEILING", function.NewCeil), wholeType, toWhole(true)),
	numericFunction("round", 1, 2, function.NewRound, roundType, roundNumber),
	numericFunction("sign", 1, 1, engine1("SIGN", function.NewSign), fixedType(types.Int64), signValue),
	choiceFunction("ifnull", 2, 0, variadic2(function.NewIfNull)),
	choiceFunction("coalesce", 0, 0, function.NewCoalesce),
	choiceFunction("if", 3, 1, variadic3(function.NewIf)),
	statistic("std", aggregation.NewStdDevPop),
	statistic("stddev", aggregation.NewStdDevPop),
	statistic("stddev_pop", aggregation.NewStdDevPop),
	statistic("stddev_samp", aggregation.NewStdDevSamp),
	statistic("variance", aggregation.NewVarPop),
	statistic("var_pop", aggregation.NewVarPop),
	statistic("var_samp", aggregation.NewVarSamp),
	onDuration("time_to_sec", function.NewTimeToSec, func(us int64) int64 { return us / 1e6 }),
	onDuration("hour", function.NewHour, func(us int64) int64 { return abs64(us) / 3_600_000_000 }),
	onDuration("minute", function.NewMinute, func(us int64) int64 { return abs64(us) / 60_000_000 % 60 }),
	onDuration("second", function.NewSecond, func(us int64) int64 { return abs64(us) / 1_000_000 % 60 }),
	onDuration("microsecond", function.NewMicrosecond, func(us int64) int64 { return abs64(us) % 1_000_000 }),
	scalarOfNulls("week", 1, 2, fixedType(types.Int64), week),                      // datetime.go
	scalar("date_format", 2, 2, fixedType(types.LongText), formatted(clockOfDate)), // datetime.go
	scalar("time_format", 2, 2, fixedType(types.LongText), formatted(clockOfTimeArg)),
	addTimeFunction("addtime", 1),
	addTimeFunction("subtime", -1),
	timestampFunction,
	strToDateFunction, // strtodate.go
}

// onDuration is one of the engine's functions of a time of day, taken
// over for a TIME value, which is a duration: the engine read TIME
// '-00:00:05' as 23:59:55 and '838:59:59' as 22:59:59, so TIME_TO_SEC and
// HOUR were wrong for any duration that is negative or a day or longer,
// and its MICROSECOND refused any time that is not a date and time
// ('12:00:00.123456'). A DATE, DATETIME or TIMESTAMP argument, or a string
// that names a date, goes to the engine's function; a string that is
// neither a time nor a date is NULL with a warning, as in MySQL. A
// number is a time written hhmmss.ffffff (numberAsDuration), which the
// engine refused, and so is a string that gives days first ('1
// 10:00:00.3' is 34 hours; dayForm).
func onDuration(name string, build func(sql.Expression) sql.Expression, of func(us int64) int64) sql.Function {
	return sql.Function1{Name: name, Fn: func(e sql.Expression) sql.Expression {
		return &durationFunc{Expression: build(e), of: of}
	}}
}

type durationFunc struct {
	sql.Expression // the engine's function of one argument
	of             func(us int64) int64
}

// Type is a signed BIGINT: a duration, and so TIME_TO_SEC, may be
// negative, which the engine's unsigned type turned into 2^64 - 5.
func (d *durationFunc) Type() sql.Type { return types.Int64 }

func (d *durationFunc) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	arg := d.Children()[0]
	t := arg.Type()
	if !isTimeType(t) && !types.IsText(t) && !types.IsNumber(t) {
		return d.engine(ctx, row)
	}
	v, err := arg.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if types.IsNumber(t) {
		us, ok := numberAsDuration(ctx, v)
		if !ok {
			return nil, nil
		}
		return d.of(us), nil
	}
	if s, ok := v.(string); ok && strings.Contains(strings.TrimPrefix(strings.TrimSpace(s), "-"), "-") {
		return d.engineOf(ctx, arg, v) // a date and time
	}
	orig := v
	if s, ok := v.(string); ok {
		v = dayForm(ctx, s)
	}
	ts, err := types.Time.ConvertToTimespan(v)
	if v = orig; err != nil {
		if _, isDate := timeOf(ctx, v); !isDate {
			ctx.Warn(erTruncatedWrongValue, "Incorrect time value: '%v'", v)
			return nil, nil
		}
		return d.engineOf(ctx, arg, v)
	}
	return d.of(ts.AsMicroseconds()), nil
}

// engine is the engine's answer, as a BIGINT.
func (d *durationFunc) engine(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	x, _, err := types.Int64.Convert(ctx, v)
	return x, err
}

// engineOf is the engine's answer for the argument's value v, which
// is not evaluated again: reading it may have warned.
func (d *durationFunc) engineOf(ctx *sql.Context, arg sql.Expression, v any) (any, error) {
	f, err := d.Expression.WithChildren(expression.NewLiteral(v, arg.Type()))
	if err != nil {
		return nil, err
	}
	return (&durationFunc{Expression: f}).engine(ctx, nil)
}

func (d *durationFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return rewrapEngine(d.Expression, children, func(e sql.Expression) sql.Expression {
		return &durationFunc{Expression: e, of: d.of}
	})
}

func (d *durationFunc) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// maxTimeHours is the most hours a TIME holds, 838:59:59.
const maxTimeHours = 838

// numberAsDuration reads a number as MySQL reads one where it wants a
// TIME: hhmmss with up to six decimals of a second (123456.75 is
// 12:34:56.75), or, from 10^10 on, a date and time YYYYMMDDhhmmss whose
// time of day it is. ok is false, with warning 1292, for minutes or
// seconds past 59; a time past 838:59:59 is that, with the warning.
func numberAsDuration(ctx *sql.Context, v any) (us int64, ok bool) {
	n, err := decimalOf(ctx, v)
	if err != nil {
		ctx.Warn(erTruncatedWrongValue, "Incorrect time value: '%v'", v)
		return 0, false
	}
	sign := int64(1)
	if n.Sign() < 0 {
		sign, n = -1, n.Neg()
	}
	whole := n.Truncate(0)
	frac := n.Sub(whole).Shift(6).IntPart()
	hms := whole.IntPart()
	if !whole.LessThan(decimal.New(1, 10)) {
		hms = whole.Mod(decimal.New(1, 6)).IntPart() // the time of YYYYMMDDhhmmss
	}
	h, m, sec := hms/10000, hms/100%100, hms%100
	switch {
	case m > 59 || sec > 59:
		ctx.Warn(erTruncatedWrongValue, "Incorrect time value: '%v'", v)
		return 0, false
	case h > maxTimeHours:
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%v'", v)
		h, m, sec, frac = maxTimeHours, 59, 59, 0
	}
	return sign * ((h*3600+m*60+sec)*1_000_000 + frac), true
}

// dayForm writes a time given as days and a time of day, D hh:mm:ss.ff,
// D hh:mm or D hh, as hours, minutes and seconds, which the engine
// reads ('1 10:00:00.3' is 34:00:00.3), and one past 838 hours as
// 838:59:59 with warning 1292; any other string as it is.
func dayForm(ctx *sql.Context, s string) string {
	t := strings.TrimSpace(s)
	sign := ""
	if strings.HasPrefix(t, "-") {
		sign, t = "-", t[1:]
	}
	days, clock, ok := strings.Cut(t, " ")
	if !ok || days == "" || digitsAt(days, 0) != len(days) {
		return s
	}
	parts := strings.SplitN(strings.TrimSpace(clock), ":", 3)
	if digitsAt(parts[0], 0) != len(parts[0]) || parts[0] == "" {
		return s
	}
	d, err1 := strconv.ParseInt(days, 10, 32)
	h, err2 := strconv.ParseInt(parts[0], 10, 32)
	if err1 != nil || err2 != nil {
		return s
	}
	if d*24+h > maxTimeHours {
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%s'", s)
		return sign + "838:59:59"
	}
	for len(parts) < 3 {
		parts = append(parts, "00")
	}
	return fmt.Sprintf("%s%d:%s:%s", sign, d*24+h, parts[1], parts[2])
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// statistic is one of the engine's standard-deviation or variance
// aggregates over its argument as a DOUBLE. The engine's take their
// argument's type for their result's, so that STD over an INT column
// came out as an integer (8 for 8.1650).
func statistic[A sql.Expression](name string, build func(sql.Expression) A) sql.Function {
	return sql.Function1{Name: name, Fn: func(e sql.Expression) sql.Expression {
		return build(expression.NewConvert(e, expression.ConvertToDouble))
	}}
}

// finite is a DOUBLE function of one or two DOUBLE arguments that
// refuses a result out of DOUBLE's range (infinite or NaN) with error
// 1690, as MySQL does: POW(10, 400) and EXP(1000) fail with "DOUBLE value
// is out of range in 'pow(10,400)'", where the engine's answered NULL.
// A function of one argument ignores the second.
func finite(name string, arity int, f func(x, y float64) float64) sql.Function {
	fn := scalar(name, arity, arity, fixedType(types.Float64), func(_ *sql.Context, v []any) (any, error) {
		var xy [2]float64
		for i, a := range v {
			x, err := float64Of(a)
			if err != nil {
				return nil, err
			}
			xy[i] = x
		}
		return f(xy[0], xy[1]), nil
	})
	return sql.FunctionN{Name: name, Fn: func(args ...sql.Expression) (sql.Expression, error) {
		e, err := fn.Fn(args...)
		if err != nil {
			return nil, err
		}
		return &floatChecked{Expression: e, typ: types.Float64}, nil
	}}
}

// yearZero is 0000-01-01 in Unix seconds. MySQL's day numbers (TO_DAYS,
// TO_SECONDS) count that day as day 1 but give year 0 no February 29,
// which Go's calendar has: from year 1 on, a date's MySQL day number is
// its count of days since yearZero in Go's calendar.
var yearZero = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()

// scalarFunc is a function that is NULL when any argument is NULL, or
// one that reads NULL arguments itself (ofNulls).
type scalarFunc struct {
	name    string
	args    []sql.Expression
	typ     sql.Type
	typeOf  func(args []sql.Expression) sql.Type
	eval    func(ctx *sql.Context, v []any) (any, error)
	ofNulls bool
}

var (
	_ sql.FunctionExpression = (*scalarFunc)(nil)
	_ sql.CollationCoercible = (*scalarFunc)(nil)
)

func scalar(name string, minArgs, maxArgs int, typeOf func([]sql.Expression) sql.Type, eval func(*sql.Context, []any) (any, error)) sql.FunctionN {
	return sql.FunctionN{Name: name, Fn: func(args ...sql.Expression) (sql.Expression, error) {
		if len(args) < minArgs {
			return nil, sql.ErrInvalidArgumentNumber.New(strings.ToUpper(name), minArgs, len(args))
		}
		if len(args) > maxArgs {
			return nil, sql.ErrInvalidArgumentNumber.New(strings.ToUpper(name), maxArgs, len(args))
		}
		return &scalarFunc{name: name, args: args, typ: typeOf(args), typeOf: typeOf, eval: eval}, nil
	}}
}

// scalarOfNulls is scalar for a function that is not NULL merely because
// an argument is: its eval sees a NULL argument as nil.
func scalarOfNulls(name string, minArgs, maxArgs int, typeOf func([]sql.Expression) sql.Type, eval func(*sql.Context, []any) (any, error)) sql.FunctionN {
	fn := scalar(name, minArgs, maxArgs, typeOf, eval)
	build := fn.Fn
	fn.Fn = func(args ...sql.Expression) (sql.Expression, error) {
		e, err := build(args...)
		if f, ok := e.(*scalarFunc); ok {
			f.ofNulls = true
		}
		return e, err
	}
	return fn
}

func fixedType(t sql.Type) func([]sql.Expression) sql.Type {
	return func([]sql.Expression) sql.Type { return t }
}

func (f *scalarFunc) FunctionName() string { return f.name }
func (f *scalarFunc) Description() string  { return "MySQL's " + strings.ToUpper(f.name) + "()" }
func (f *scalarFunc) Type() sql.Type       { return f.typ }
func (f *scalarFunc) IsNullable() bool     { return true }

func (f *scalarFunc) Resolved() bool {
	for _, a := range f.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

func (f *scalarFunc) String() string {
	parts := make([]string, len(f.args))
	for i, a := range f.args {
		parts[i] = a.String()
	}
	return strings.ToUpper(f.name) + "(" + strings.Join(parts, ", ") + ")"
}

func (f *scalarFunc) Children() []sql.Expression { return f.args }

func (f *scalarFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(f.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), len(f.args))
	}
	n := *f
	n.args, n.typ = children, f.typeOf(children)
	return &n, nil
}

func (f *scalarFunc) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if types.IsText(f.typ) {
		return ctx.GetCollation(), 4
	}
	return sql.Collation_binary, 5
}

func (f *scalarFunc) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v := make([]any, len(f.args))
	for i, a := range f.args {
		x, err := a.Eval(ctx, row)
		if err != nil || x == nil && !f.ofNulls {
			return nil, err
		}
		v[i] = x
	}
	return f.eval(ctx, v)
}

// truncateType is TRUNCATE's result type: a DECIMAL keeps its integer
// digits and takes the literal scale asked for, as MySQL does (12.50 cut
// to 5 places shows 12.50000); a float or a string is a DOUBLE; an
// integer stays an integer.
func truncateType(args []sql.Expression) sql.Type {
	t := args[0].Type()
	switch {
	case types.IsDecimal(t):
		dt := t.(sql.DecimalType)
		if lit, ok := args[1].(*expression.Literal); ok {
			if d, err := int64Of(lit.Value()); err == nil {
				scale := min(max(d, 0), types.DecimalTypeMaxScale)
				prec := min(max(int64(dt.Precision())-int64(dt.Scale())+scale, 1), types.DecimalTypeMaxPrecision)
				if typ, err := types.CreateDecimalType(uint8(prec), uint8(scale)); err == nil {
					return typ
				}
			}
		}
		return t
	case types.IsInteger(t):
		if types.IsUnsigned(t) {
			return types.Uint64
		}
		return types.Int64
	}
	return types.Float64
}

// truncateNumber is TRUNCATE(X, D): X cut toward zero to D decimals, or
// to a multiple of 10^-D when D is negative.
func truncateNumber(_ *sql.Context, v []any) (any, error) {
	d, err := int64Of(v[1])
	if err != nil {
		return nil, err
	}
	d = min(max(d, -80), 80)
	switch x := v[0].(type) {
	case decimal.Decimal:
		// The result shows as many decimals as truncateType gives it:
		// D of them, none for a negative D.
		scale := min(max(d, 0), types.DecimalTypeMaxScale)
		var r decimal.Decimal
		if d >= 0 {
			r = x.Truncate(int32(d))
		} else {
			f := decimal.New(1, int32(-d))
			r = x.Div(f).Truncate(0).Mul(f)
		}
		return r.Truncate(int32(scale)).Add(decimal.New(0, -int32(scale))), nil
	}
	if w, ok := wideOf(v[0]); ok {
		switch {
		case d <= -20: // 10^20 is past every 64-bit integer: all of it goes
			w.mag = 0
		case d < 0:
			p := uint64(1)
			for range -d {
				p *= 10
			}
			w.mag -= w.mag % p
		}
		switch v[0].(type) {
		case uint64, uint32, uint16, uint8, uint:
			return w.mag, nil
		}
		if w.neg {
			return int64(-w.mag), nil
		}
		return int64(w.mag), nil
	}
	f, err := float64Of(v[0])
	if err != nil {
		return nil, err
	}
	p := math.Pow(10, float64(d))
	return math.Trunc(f*p)/p + 0, nil // + 0: no negative zero
}

// insertString is INSERT(str, pos, len, newstr), in characters: str
// unchanged when pos is outside it, the rest of it replaced when len
// runs past its end.
func insertString(_ *sql.Context, v []any) (any, error) {
	s, err := textOf(v[0])
	if err != nil {
		return nil, err
	}
	pn, err := ints(v[1], v[2])
	if err != nil {
		return nil, err
	}
	pos, n := pn[0], pn[1]
	repl, err := textOf(v[3])
	if err != nil {
		return nil, err
	}
	r := []rune(s)
	if pos < 1 || pos > int64(len(r)) {
		return string(r), nil
	}
	end := int64(len(r))
	if n >= 0 && pos-1+n < end {
		end = pos - 1 + n
	}
	return string(r[:pos-1]) + repl + string(r[end:]), nil
}

// makeSet is MAKE_SET(bits, str1, str2, ...): the strings whose bits are
// set in bits, in order, joined by commas, leaving out NULL strings; NULL
// when bits is.
func makeSet(_ *sql.Context, v []any) (any, error) {
	if v[0] == nil {
		return nil, nil
	}
	set := bitsOf(v[0]) // bitnot.go
	var picked []string
	for i, x := range v[1:] {
		if i >= 64 {
			break
		}
		if x == nil || set&(1<<i) == 0 {
			continue
		}
		s, err := textOf(x)
		if err != nil {
			return nil, err
		}
		picked = append(picked, s)
	}
	return strings.Join(picked, ","), nil
}

// exportSet is EXPORT_SET(bits, on, off[, separator[, number_of_bits]]):
// on or off for each of the low number_of_bits bits of bits, lowest
// first, joined by separator (a comma unless given). Number_of_bits is 64
// unless given, and a negative one or one past 64 is 64.
func exportSet(_ *sql.Context, v []any) (any, error) {
	set := bitsOf(v[0]) // bitnot.go
	text := make([]string, len(v)-1)
	var err error
	for i, x := range v[1:] {
		if text[i], err = textOf(x); err != nil {
			return nil, err
		}
	}
	sep, n := ",", int64(64)
	if len(text) > 2 {
		sep = text[2]
	}
	if len(v) > 4 {
		if n, err = int64Of(v[4]); err != nil {
			return nil, err
		}
		if n < 0 || n > 64 {
			n = 64
		}
	}
	words := make([]string, n)
	for i := range words {
		words[i] = text[1]
		if set&(1<<i) != 0 {
			words[i] = text[0]
		}
	}
	return strings.Join(words, sep), nil
}

func textOf(v any) (string, error) {
	s, _, err := types.LongText.Convert(nil, v)
	if err != nil {
		return "", err
	}
	return s.(string), nil
}

// makeDate is MAKEDATE(year, dayofyear): NULL for a day of year below 1
// or a date past 9999; a year below 100 is a two-digit year (fullYear).
func makeDate(_ *sql.Context, v []any) (any, error) {
	n, err := ints(v...)
	if err != nil {
		return nil, err
	}
	y, doy := n[0], n[1]
	if doy < 1 || y < 0 || y > 9999 {
		return nil, nil
	}
	t := time.Date(int(fullYear(y)), 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(min(doy, 4_000_000))-1)
	if t.Year() > 9999 {
		return nil, nil
	}
	return t, nil
}

// makeTime is MAKETIME(hour, minute, second): NULL unless minute and
// second are below 60.
func makeTime(ctx *sql.Context, v []any) (any, error) {
	hm, err := ints(v[0], v[1])
	if err != nil {
		return nil, err
	}
	h, m := hm[0], hm[1]
	s, err := float64Of(v[2])
	if err != nil {
		return nil, err
	}
	if m < 0 || m > 59 || s < 0 || s >= 60 {
		return nil, nil
	}
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return timeValue(ctx, fmt.Sprintf("%s%d:%02d:%s", sign, h, m, secondsText(s)))
}

// currentTimeType is CURTIME(n)'s and UTC_TIME(n)'s: a TIME(n).
func currentTimeType(args []sql.Expression) sql.Type {
	return timeType{fsp: constantDigits(args)}
}

// constantDigits is the n of a function's optional precision argument,
// CURTIME(n) or NOW(n): 0 without one, six (the most) unless it is a
// constant from 0 to 6.
func constantDigits(args []sql.Expression) int {
	if len(args) == 0 {
		return 0
	}
	if lit, ok := args[0].(*expression.Literal); ok {
		if n, err := int64Of(lit.Value()); err == nil && n >= 0 && n <= maxTimeDigits {
			return int(n)
		}
	}
	return maxTimeDigits
}

// timeOfDay is CURTIME([n]) or UTC_TIME([n]), the function name: the
// time of day of what now gives, cut to n fractional digits. The
// engine's CURTIME gave no digits whatever n was (and refused an n past
// 6 with error 1105 naming NOW), and UTC_TIME none.
func timeOfDay(name string, now func(*sql.Context) (time.Time, error)) func(*sql.Context, []any) (any, error) {
	return func(ctx *sql.Context, v []any) (any, error) {
		digits, err := fractionArg(name, v)
		if err != nil {
			return nil, err
		}
		t, err := now(ctx)
		if err != nil {
			return nil, err
		}
		us := int64(t.Hour()*3600+t.Minute()*60+t.Second())*1_000_000 + int64(t.Nanosecond()/1000)
		return roundTimespan(types.Time.MicrosecondsToTimespan(us), digits, true), nil
	}
}

// utcTimestamp is UTC_TIMESTAMP([n]): the statement's time in UTC, cut to
// n fractional digits. The engine's ignored n and gave six digits.
func utcTimestamp(ctx *sql.Context, v []any) (any, error) {
	digits, err := fractionArg("utc_timestamp", v)
	if err != nil {
		return nil, err
	}
	t := ctx.QueryTime().UTC()
	unit := time.Duration(pow10(maxTimeDigits-digits)) * time.Microsecond
	return t.Truncate(unit), nil
}

// fractionArg is the fractional digits the optional argument of the
// function name asks for: 0 without one, error 1426 past 6.
func fractionArg(name string, v []any) (int, error) {
	if len(v) == 0 {
		return 0, nil
	}
	n, err := int64Of(v[0])
	if err != nil {
		return 0, err
	}
	if n < 0 || n > maxTimeDigits {
		return 0, tooBigPrecision(strconv.FormatInt(n, 10), name)
	}
	return int(n), nil
}

// sessionNow is NOW(6): the statement's time in the session's time zone.
func sessionNow(ctx *sql.Context) (time.Time, error) {
	now, err := function.NewNow(expression.NewLiteral(int8(maxTimeDigits), types.Int8))
	if err != nil {
		return time.Time{}, err
	}
	v, err := now.Eval(ctx, nil)
	if err != nil {
		return time.Time{}, err
	}
	t, ok := v.(time.Time)
	if !ok {
		return time.Time{}, fmt.Errorf("sqlext: NOW() gave a %T", v)
	}
	return t, nil
}

// currentDate is CURDATE(): the date of NOW(), in the session's time
// zone as NOW() is (the engine's took the server's).
func currentDate(ctx *sql.Context, _ []any) (any, error) {
	t, err := sessionNow(ctx)
	if err != nil {
		return nil, err
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
}

// secToTime is SEC_TO_TIME(seconds), clamped to TIME's range as MySQL
// clamps it (838:59:59).
func secToTime(ctx *sql.Context, v []any) (any, error) {
	s, err := float64Of(v[0])
	if err != nil {
		return nil, err
	}
	sign := ""
	if s < 0 {
		sign, s = "-", -s
	}
	s = min(s, 838*3600+59*60+59)
	whole := int64(s)
	return timeValue(ctx, fmt.Sprintf("%s%d:%02d:%s", sign, whole/3600, whole/60%60, secondsText(float64(whole%60)+(s-float64(whole)))))
}

// secondsText writes seconds below 60 as SS or SS.ffffff.
func secondsText(s float64) string {
	t := strconv.FormatFloat(s, 'f', -1, 64)
	if s < 10 {
		t = "0" + t
	}
	return t
}

// numberDigits is the fractional digits of the TIME that MAKETIME or
// SEC_TO_TIME makes of a number, as MySQL counts them: none for an
// integer, a DECIMAL's scale, a temporal value's own, and six (the most)
// for a float or text.
func numberDigits(e sql.Expression) int {
	t := e.Type()
	switch {
	case types.IsInteger(t), types.IsYear(t), types.IsBit(t):
		return 0
	case types.IsDecimal(t):
		return min(int(t.(sql.DecimalType).Scale()), maxTimeDigits)
	case isTemporal(t):
		return fractionDigits(t)
	}
	return maxTimeDigits
}

func timeValue(ctx *sql.Context, s string) (any, error) {
	v, _, err := types.Time.Convert(ctx, s)
	return v, err
}

// periodMonths is a period (YYMM or YYYYMM) as months since year 0.
func periodMonths(p int64) int64 {
	if p == 0 {
		return 0
	}
	return fullYear(p/100)*12 + p%100 - 1
}

// fullYear reads a year below 100 as MySQL reads a two-digit year: 70-99
// in the 1900s, 0-69 in the 2000s.
func fullYear(y int64) int64 {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	}
	return y
}

// nullOnNullFirst wraps an engine function that fails when its first
// argument is NULL so that it returns NULL, as MySQL does.
func nullOnNullFirst(name string, build func(...sql.Expression) (sql.Expression, error)) sql.Function {
	return sql.FunctionN{Name: name, Fn: func(args ...sql.Expression) (sql.Expression, error) {
		e, err := build(args...)
		if err != nil {
			return nil, err
		}
		return &nullFirst{Expression: e}, nil
	}}
}

type nullFirst struct {
	sql.Expression // the engine's function
}

func (n *nullFirst) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	if args := n.Children(); len(args) > 0 {
		v, err := args[0].Eval(ctx, row)
		if err != nil || v == nil {
			return nil, err
		}
	}
	return n.Expression.Eval(ctx, row)
}

func (n *nullFirst) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return rewrapEngine(n.Expression, children, func(e sql.Expression) sql.Expression { return &nullFirst{Expression: e} })
}

// rewrapEngine gives an engine function new children and wraps it again.
func rewrapEngine(inner sql.Expression, children []sql.Expression, wrap func(sql.Expression) sql.Expression) (sql.Expression, error) {
	e, err := inner.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return wrap(e), nil
}

func (n *nullFirst) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, n.Expression)
}

// ints reads each value as a BIGINT.
func ints(vals ...any) ([]int64, error) {
	out := make([]int64, len(vals))
	for i, v := range vals {
		n, err := int64Of(v)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func int64Of(v any) (int64, error) {
	x, _, err := types.Int64.Convert(nil, v)
	if err != nil {
		return 0, err
	}
	return x.(int64), nil
}

func float64Of(v any) (float64, error) {
	x, _, err := types.Float64.Convert(nil, v)
	if err != nil {
		return 0, err
	}
	return x.(float64), nil
}

// timeOf reads a DATE or DATETIME argument; ok is false for a value that
// is not one (MySQL's NULL).
func timeOf(ctx *sql.Context, v any) (time.Time, bool) {
	x, _, err := types.DatetimeMaxPrecision.Convert(ctx, v)
	if err != nil {
		return time.Time{}, false
	}
	t, ok := x.(time.Time)
	return t, ok
}

// uuidShortFunction is UUID_SHORT(), which the engine lacked: a BIGINT
// UNSIGNED unique to the server, made as MySQL makes it, from the server
// id's low byte (bits 56 to 63), the server's start in seconds (bits 24
// to 55) and a count of the calls since.
var uuidShortFunction = scalar("uuid_short", 0, 0, fixedType(types.Uint64), func(ctx *sql.Context, _ []any) (any, error) {
	serverID := uint64(1)
	if v, err := ctx.GetSessionVariable(ctx, "server_id"); err == nil {
		if n, err := int64Of(v); err == nil {
			serverID = uint64(n)
		}
	}
	return (serverID&255)<<56 + uuidShortStart + uuidShortCalls.Add(1) - 1, nil
})

var (
	uuidShortStart = uint64(time.Now().Unix()) << 24
	uuidShortCalls atomic.Uint64
)
