package sqlext

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// mergedNumber is the type MySQL gives a result that is one of several
// numbers of types ts (GREATEST and LEAST compare them in it): a DOUBLE
// when one is a float, or text when textIsDouble; otherwise a DECIMAL
// when one is a DECIMAL, with the most integer digits and the largest
// scale among them; otherwise an integer, unsigned when all are, and a
// DECIMAL(20,0) for a BIGINT UNSIGNED met with a signed integer, which
// neither 64-bit type holds both of. NULL takes no part. ok is false
// when one is anything else (text, unless textIsDouble; a date or time),
// or none is a number, and the engine's typing stands.
func mergedNumber(ts []sql.Type, textIsDouble bool) (typ sql.Type, ok bool) {
	var numbers, unsigned, bigUnsigned, signed, whole, scale int
	var float, text, dec bool
	for _, t := range ts {
		switch {
		case t == types.Null:
			continue
		case types.IsTextOnly(t):
			text = true
			continue
		case types.IsFloat(t):
			float = true
		case types.IsDecimal(t):
			dec = true
		case types.IsInteger(t) && types.IsUnsigned(t):
			unsigned++
			if t == types.Uint64 {
				bigUnsigned++
			}
		case types.IsInteger(t):
			signed++
		default:
			return nil, false
		}
		numbers++
		w, s := digitsOf(t)
		whole, scale = max(whole, w), max(scale, s)
	}
	switch {
	case numbers == 0, text && !textIsDouble:
		return nil, false
	case float || text:
		return types.Float64, true
	case dec:
		return decimalType(whole+scale, scale), true
	case signed == 0:
		return types.Uint64, true
	case bigUnsigned > 0:
		return decimalType(20, 0), true
	}
	return types.Int64, true
}

// argTypes is the types of args.
func argTypes(args []sql.Expression) []sql.Type {
	ts := make([]sql.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return ts
}

// deferred reports whether one of args has a type not known yet (a bound
// parameter before it is bound).
func deferred(args []sql.Expression) bool {
	for _, a := range args {
		if types.IsDeferredType(a.Type()) {
			return true
		}
	}
	return false
}

// minMaxFunction is GREATEST or LEAST as MySQL has them for numbers: the
// arguments compared in the type they merge to (mergedNumber), text read
// by its numeric prefix when one argument is a number (GREATEST('2x', 1)
// is 2, with warning 1292), and NULL when any argument is. The engine's
// refused a DECIMAL argument ("unsupported type"), failed on a BIGINT
// UNSIGNED met with a negative number, and compared text with a number
// as text. Dates among text or numbers are compared as dates
// (datesMinMax); strings alone, and times, go to the engine's function.
func minMaxFunction(name string, greatest bool, engine func(...sql.Expression) (sql.Expression, error)) sql.Function {
	var build func(args ...sql.Expression) (sql.Expression, error)
	build = func(args ...sql.Expression) (sql.Expression, error) {
		if times, dates := timesAmongOthers(argTypes(args)); len(args) >= 2 && times {
			return timesMinMax(name, greatest, args, dates), nil
		}
		if len(args) >= 2 && datesAmongOthers(argTypes(args)) {
			return datesMinMax(name, greatest, args), nil
		}
		if len(args) >= 2 && textsOnly(argTypes(args)) {
			e, err := engine(args...)
			if err != nil {
				return nil, err
			}
			return textMinMax(name, greatest, args, e.Type()), nil
		}
		typ, ok := mergedNumber(argTypes(args), true)
		switch {
		case len(args) < 2 || !ok && !deferred(args):
			return engine(args...)
		case !ok:
			typ = types.Float64 // until the parameters are bound
		}
		f := &scalarFunc{name: name, args: args, typ: typ}
		f.typeOf = func([]sql.Expression) sql.Type { return typ }
		return &minMax{scalarFunc: f, greatest: greatest, build: build}, nil
	}
	return sql.FunctionN{Name: name, Fn: build}
}

// textsOnly reports whether ts, GREATEST's or LEAST's argument types,
// are nonbinary strings and NULLs, at least one a string.
func textsOnly(ts []sql.Type) bool {
	text := false
	for _, t := range ts {
		switch {
		case t == types.Null:
		case types.IsTextOnly(t):
			text = true
		default:
			return false
		}
	}
	return text
}

// textMinMax is GREATEST or LEAST of strings, of the engine's type typ,
// compared in the collation MySQL gives the arguments together, as MySQL
// compares them: LEAST('a', 'B') is 'a' in a collation that ignores case.
// The engine compared their bytes ('B').
func textMinMax(name string, greatest bool, args []sql.Expression, typ sql.Type) sql.Expression {
	return &scalarFunc{name: name, args: args, typ: typ, typeOf: fixedType(typ),
		eval: func(ctx *sql.Context, v []any) (any, error) {
			coll, co := sql.GetCoercibility(ctx, args[0])
			for _, a := range args[1:] {
				c, cc := sql.GetCoercibility(ctx, a)
				coll, co = sql.ResolveCoercibility(coll, co, c, cc)
			}
			in := types.CreateLongText(coll)
			best := v[0]
			for _, x := range v[1:] {
				c, err := in.Compare(ctx, x, best)
				if err != nil {
					return nil, err
				}
				if greatest && c > 0 || !greatest && c < 0 {
					best = x
				}
			}
			out, _, err := types.LongText.Convert(ctx, best)
			return out, err
		}}
}

// datesAmongOthers reports whether ts, GREATEST's or LEAST's argument
// types, hold a date (DATE, DATETIME, TIMESTAMP) and otherwise dates,
// text or numbers: MySQL compares such arguments as dates.
func datesAmongOthers(ts []sql.Type) bool {
	dates := false
	for _, t := range ts {
		switch {
		case t == types.Null, types.IsText(t), types.IsNumber(t):
		case types.IsTime(t):
			dates = true
		default:
			return false
		}
	}
	return dates
}

// timesAmongOthers reports whether ts, GREATEST's or LEAST's argument
// types, hold a TIME and otherwise TIMEs, dates, text or numbers, and
// whether dates are among them.
func timesAmongOthers(ts []sql.Type) (times, dates bool) {
	for _, t := range ts {
		switch {
		case isTimeType(t):
			times = true
		case types.IsTime(t):
			dates = true
		case t == types.Null, types.IsText(t), types.IsNumber(t):
		default:
			return false, false
		}
	}
	return times, dates
}

// timesMinMax is GREATEST or LEAST over TIMEs, as MySQL and MariaDB
// answer it: with dates among the arguments, each TIME is the current
// date at that time and the arguments are compared as dates
// (datesMinMax); otherwise they are compared as the TIMEs they are or
// spell, and the one chosen is a TIME with the most digits among them
// (timeArgDigits: those of a TIME or a number, or a string literal as
// written). It is NULL when an argument is, or spells no TIME (with
// warning 1292). The engine refused every TIME argument (error 1105).
func timesMinMax(name string, greatest bool, args []sql.Expression, dates bool) sql.Expression {
	if dates {
		onToday := make([]sql.Expression, len(args))
		for i, a := range args {
			onToday[i] = a
			if isTimeType(a.Type()) {
				onToday[i] = &timeOnToday{Expression: a, typ: datetimeOf(fractionDigits(a.Type()))}
			}
		}
		return datesMinMax(name, greatest, onToday)
	}
	digits := 0
	for _, a := range args {
		digits = max(digits, timeArgDigits(a))
	}
	typ := timeType{fsp: digits}
	return &scalarFunc{name: name, args: args, typ: typ, typeOf: fixedType(typ),
		eval: func(ctx *sql.Context, v []any) (any, error) {
			var best types.Timespan
			for i, x := range v {
				at, err := (timeType{fsp: maxTimeDigits}).ConvertToTimespan(x)
				if err != nil {
					ctx.Warn(erTruncatedWrongValue, "Truncated incorrect time value: '%v'", x)
					return nil, nil
				}
				if i == 0 || greatest && at > best || !greatest && at < best {
					best = at
				}
			}
			return best, nil
		}}
}

// datesMinMax is GREATEST or LEAST over dates: the arguments compared as
// the dates and times they are or spell (one that spells none counts as
// the least), the one chosen given in the type of the dates among them
// (a DATETIME with the most digits among them, else a DATE). It is NULL
// when an argument is, or when the least is one that spells no date. The
// engine compared a DATE with text as text (GREATEST(d, '2024-02-01') was
// 0), and typed dates of different types a DATETIME(6).
func datesMinMax(name string, greatest bool, args []sql.Expression) sql.Expression {
	var typ sql.Type = types.Date
	digits := -1
	for _, a := range args {
		if t := a.Type(); types.IsTime(t) && !types.IsDateType(t) {
			digits = max(digits, fractionDigits(t))
		}
	}
	if digits >= 0 {
		typ = datetimeOf(digits)
	}
	return &scalarFunc{name: name, args: args, typ: typ, typeOf: fixedType(typ),
		eval: func(ctx *sql.Context, v []any) (any, error) {
			var best time.Time
			found, missing := false, false
			for _, x := range v {
				at, ok := dateOf(ctx, x)
				if !ok {
					missing = true // below every date
					continue
				}
				if !found || greatest && at.After(best) || !greatest && at.Before(best) {
					best, found = at, true
				}
			}
			if !found || missing && !greatest {
				return nil, nil
			}
			if types.IsDateType(typ) {
				best = time.Date(best.Year(), best.Month(), best.Day(), 0, 0, 0, 0, time.UTC)
			}
			return best, nil
		}}
}

type minMax struct {
	*scalarFunc
	greatest bool
	build    func(args ...sql.Expression) (sql.Expression, error)
	// whole says the value is read as a number (quotients.go), so a
	// DECIMAL one is the argument's value unrounded, as MySQL's
	// val_decimal gives it; shown, it is rounded to the decimals of its
	// type.
	whole bool
}

var (
	_ sql.FunctionExpression = (*minMax)(nil)
	_ sql.CollationCoercible = (*minMax)(nil)
)

func (m *minMax) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(m.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), len(m.args))
	}
	e, err := m.build(children...)
	if mm, ok := e.(*minMax); ok && m.whole {
		return mm.readWhole(), err
	}
	return e, err
}

// readWhole is m read as a number (whole).
func (m *minMax) readWhole() *minMax {
	w := *m
	w.whole = true
	return &w
}

func (m *minMax) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v := make([]any, len(m.args))
	for i, a := range m.args {
		x, err := a.Eval(ctx, row)
		if err != nil || x == nil {
			return nil, err
		}
		v[i] = x
	}
	// better reports whether c, a comparison of a candidate with the
	// best so far, makes it the new best.
	better := func(c int) bool { return c > 0 == m.greatest && c != 0 }
	switch {
	case types.IsDecimal(m.typ):
		best, err := decimalOf(ctx, v[0])
		for _, x := range v[1:] {
			if err != nil {
				break
			}
			d, derr := decimalOf(ctx, x)
			if err = derr; err == nil && better(d.Cmp(best)) {
				best = d
			}
		}
		if err != nil {
			return nil, err
		}
		if m.whole {
			return best, nil
		}
		return best.Round(int32(m.typ.(sql.DecimalType).Scale())), nil
	case types.IsInteger(m.typ):
		best, ok := wideOf(v[0])
		for _, x := range v[1:] {
			w, wok := wideOf(x)
			ok = ok && wok
			if ok && better(w.cmp(best)) {
				best = w
			}
		}
		if ok {
			return intResult(best, types.IsUnsigned(m.typ), m)
		}
	}
	best, err := doubleOf(ctx, v[0])
	for _, x := range v[1:] {
		if err != nil {
			break
		}
		f, ferr := doubleOf(ctx, x)
		if err = ferr; err == nil && (better(cmpFloat(f, best))) {
			best = f
		}
	}
	return best, err
}

// cmp is -1, 0 or 1 as a is less than, equal to or greater than b.
func (a wide) cmp(b wide) int {
	switch {
	case a.neg != b.neg && a.neg:
		return -1
	case a.neg != b.neg:
		return 1
	case a.mag == b.mag:
		return 0
	case (a.mag < b.mag) != a.neg:
		return -1
	}
	return 1
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numericFunction is a MySQL function of a number typed and computed as
// MySQL has it for an integer, a DECIMAL, a DOUBLE or text (read by its
// numeric prefix as a DOUBLE, with warning 1292); an argument of another
// type (a date) goes to the engine's function. eval sees the result's
// type.
func numericFunction(name string, minArgs, maxArgs int, engine func(...sql.Expression) (sql.Expression, error), typeOf func([]sql.Expression) sql.Type, eval func(ctx *sql.Context, typ sql.Type, v []any) (any, error)) sql.Function {
	fn := scalar(name, minArgs, maxArgs, typeOf, nil)
	return sql.FunctionN{Name: name, Fn: func(args ...sql.Expression) (sql.Expression, error) {
		if len(args) > 0 && !numericOperand(args[0].Type()) && !deferred(args[:1]) {
			return engine(args...)
		}
		e, err := fn.Fn(args...)
		if err != nil {
			return nil, err
		}
		return typedFunc{eval: eval}.bind(e.(*scalarFunc)), nil
	}}
}

// typedFunc is a scalarFunc whose evaluation sees its result's type.
type typedFunc struct {
	*scalarFunc
	eval func(ctx *sql.Context, typ sql.Type, v []any) (any, error)
}

// bind is t over f, f's evaluation given f's type.
func (t typedFunc) bind(f *scalarFunc) *typedFunc {
	f.eval = func(ctx *sql.Context, v []any) (any, error) { return t.eval(ctx, f.typ, v) }
	return &typedFunc{scalarFunc: f, eval: t.eval}
}

func (t *typedFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := t.scalarFunc.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return t.bind(e.(*scalarFunc)), nil
}

// engine1 is an engine function of one argument as one of any number.
func engine1(name string, build func(sql.Expression) sql.Expression) func(...sql.Expression) (sql.Expression, error) {
	return func(args ...sql.Expression) (sql.Expression, error) {
		if len(args) != 1 {
			return nil, sql.ErrInvalidArgumentNumber.New(name, 1, len(args))
		}
		return build(args[0]), nil
	}
}

// numberOf is a value as arithmetic reads it: text as a DOUBLE
// (doubleOf), a float as a float64, anything else as it is.
func numberOf(ctx *sql.Context, v any) (any, error) {
	switch x := v.(type) {
	case string, []byte:
		return doubleOf(ctx, v)
	case float32:
		return float64(x), nil
	}
	return v, nil
}

// sameKindType is the type of a function whose result is a number of its
// argument's kind: an integer as a BIGINT (UNSIGNED when it is), a
// DECIMAL as decimal gives it, a float or text as a DOUBLE.
func sameKindType(decimal func(whole, scale int) sql.Type) func([]sql.Expression) sql.Type {
	return func(args []sql.Expression) sql.Type {
		t := mysqlType(args[0])
		switch {
		case types.IsInteger(t) && types.IsUnsigned(t):
			return types.Uint64
		case types.IsInteger(t):
			return types.Int64
		case types.IsDecimal(t):
			return decimal(digitsOf(t))
		}
		return types.Float64
	}
}

// call is a function call as an error message names it: abs(-9).
type call struct {
	name string
	arg  any
}

func (c call) String() string { return fmt.Sprintf("%s(%v)", c.name, c.arg) }

// sameDecimal is a DECIMAL's own type, for sameKindType.
func sameDecimal(whole, scale int) sql.Type { return decimalType(whole+scale, scale) }

// absValue is ABS(x); ABS(-9223372036854775808) is out of BIGINT's range
// (error 1690).
func absValue(ctx *sql.Context, typ sql.Type, v []any) (any, error) {
	x, err := numberOf(ctx, v[0])
	if err != nil {
		return nil, err
	}
	switch n := x.(type) {
	case float64:
		return math.Abs(n), nil
	case decimal.Decimal:
		if dt, ok := typ.(sql.DecimalType); ok {
			return n.Abs().Round(int32(dt.Scale())), nil
		}
		return n.Abs(), nil
	}
	w, ok := wideOf(x)
	if !ok {
		return float64Of(x)
	}
	_, unsigned := x.(uint64)
	return intResult(wide{mag: w.mag}, unsigned, call{"abs", x})
}

// signValue is SIGN(x): -1, 0 or 1.
func signValue(ctx *sql.Context, _ sql.Type, v []any) (any, error) {
	x, err := numberOf(ctx, v[0])
	if err != nil {
		return nil, err
	}
	switch n := x.(type) {
	case float64:
		return int64(cmpFloat(n, 0)), nil
	case decimal.Decimal:
		return int64(n.Sign()), nil
	}
	w, ok := wideOf(x)
	if !ok {
		return nil, nil
	}
	return int64(w.cmp(wide{})), nil
}

// toWhole is FLOOR(x) (up false) or CEIL(x): an integer stays as it
// is, a DECIMAL becomes a BIGINT where it fits (wholeType), a DOUBLE
// stays a DOUBLE, however large (CEIL(1e20) is 1e20).
func toWhole(up bool) func(*sql.Context, sql.Type, []any) (any, error) {
	return func(ctx *sql.Context, typ sql.Type, v []any) (any, error) {
		x, err := numberOf(ctx, v[0])
		if err != nil {
			return nil, err
		}
		switch n := x.(type) {
		case float64:
			if up {
				return math.Ceil(n) + 0, nil // + 0: no negative zero
			}
			return math.Floor(n), nil
		case decimal.Decimal:
			r := n.Floor()
			if up {
				r = n.Ceil()
			}
			if types.IsInteger(typ) && r.Abs().LessThan(bigintBound) {
				return r.IntPart(), nil
			}
			return r, nil
		}
		return x, nil
	}
}

// bigintBound is 10^18, below which every whole DECIMAL fits a BIGINT.
var bigintBound = decimal.New(1, 18)

// wholeType is FLOOR's and CEIL's type: for a DECIMAL, a BIGINT when its
// integer digits fit one, a DECIMAL with no decimals otherwise.
var wholeType = sameKindType(func(whole, _ int) sql.Type {
	if whole <= 18 {
		return types.Int64
	}
	return decimalType(whole+1, 0)
})

// roundType is ROUND(x, d)'s type: an integer stays one when d is a
// constant that is not negative, and becomes a DECIMAL otherwise, which
// rounding up may need (ROUND(18446744073709551615, -1)); a DECIMAL
// takes d decimals when d is a constant (ROUND(12.50, 3) is 12.500) and
// keeps its own otherwise; a float or text is a DOUBLE.
func roundType(args []sql.Expression) sql.Type {
	d, constant := int64(0), true
	if len(args) > 1 {
		d, constant = literalInt(args[1])
	}
	t := mysqlType(args[0])
	switch {
	case types.IsInteger(t) && constant && d >= 0:
		return sameKindType(nil)(args)
	case types.IsInteger(t), types.IsDecimal(t):
		whole, scale := digitsOf(t)
		if constant {
			scale = int(d)
		}
		return decimalType(whole+1+max(scale, 0), scale)
	}
	return types.Float64
}

// literalInt is the value of a constant integer argument; false for an
// argument that is not one.
func literalInt(e sql.Expression) (int64, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok || lit.Value() == nil {
		return 0, false
	}
	n, err := int64Of(lit.Value())
	return n, err == nil
}

// roundNumber is ROUND(x[, d]): exact numbers rounded half away from
// zero, a DOUBLE half to even as MySQL's rint does (ROUND(2.5e0) is 2).
// A result that is a DECIMAL shows the decimals its type gives it.
func roundNumber(ctx *sql.Context, typ sql.Type, v []any) (any, error) {
	d := int64(0)
	if len(v) > 1 {
		var err error
		if d, err = int64Of(v[1]); err != nil {
			return nil, err
		}
	}
	d = min(max(d, -80), 80)
	x, err := numberOf(ctx, v[0])
	if err != nil {
		return nil, err
	}
	if f, ok := x.(float64); ok {
		return roundDouble(f, d), nil
	}
	dt, ok := typ.(sql.DecimalType)
	if !ok {
		return x, nil // an integer rounded to decimals is itself
	}
	n, err := decimalOf(ctx, x)
	if err != nil {
		return nil, err
	}
	return n.Round(int32(d)).Round(int32(dt.Scale())), nil
}

// roundDouble rounds f to d decimals (to a multiple of 10^-d when d is
// negative) half to even, leaving f as it is where the scaling leaves
// DOUBLE's range, as MySQL's my_double_round does.
func roundDouble(f float64, d int64) float64 {
	p := math.Pow(10, math.Abs(float64(d)))
	if d < 0 {
		if math.IsInf(p, 0) {
			return 0
		}
		return math.RoundToEven(f/p)*p + 0
	}
	if math.IsInf(f*p, 0) {
		return f
	}
	return math.RoundToEven(f*p)/p + 0
}

// choiceFunction is IFNULL, COALESCE or IF, whose result is one of its
// arguments from the first'th on, typed as MySQL types it when those are
// numbers (mergedNumber): IFNULL(u, -7) of a BIGINT UNSIGNED u and a
// signed -7 is a DECIMAL(20,0), so that -7 stays -7, where the engine
// took u's type and sent 18446744073709551609. Numbers and text give
// text (the engine typed IFNULL(1, 'x') an integer, and sent 'x' as
// one), and so do dates or times with text or numbers (each written as
// its type writes it). Other arguments keep the engine's typing.
func choiceFunction(name string, arity, first int, engine func(...sql.Expression) (sql.Expression, error)) sql.Function {
	var build func(args ...sql.Expression) (sql.Expression, error)
	build = func(args ...sql.Expression) (sql.Expression, error) {
		if arity > 0 && len(args) != arity {
			return nil, sql.ErrInvalidArgumentNumber.New(strings.ToUpper(name), arity, len(args))
		}
		e, err := engine(args...)
		if err != nil || len(args) <= first {
			return e, err
		}
		ts := argTypes(args[first:])
		if temporalAmongOthers(ts) {
			// Dates or times with text or numbers: text, each date or
			// time written as its type writes it (the engine typed
			// COALESCE(d, 'n/a') of a DATE d a DATETIME, and failed on a
			// TIME with 1105).
			args = append([]sql.Expression(nil), args...)
			for i := first; i < len(args); i++ {
				if isTemporal(args[i].Type()) {
					args[i] = &asText{Expression: args[i]}
				} else if text := decimalAsText(args[i]); text != nil {
					args[i] = text
				}
			}
			if e, err = engine(args...); err != nil {
				return nil, err
			}
			return &choice{Expression: e, typ: types.LongText, build: build}, nil
		}
		typ, ok := mergedNumber(ts, false)
		if _, numbers := mergedNumber(ts, true); !ok && numbers {
			// Text and numbers: text, a DECIMAL written with its scale.
			typ, ok = types.LongText, true
			args = append([]sql.Expression(nil), args...)
			for i := first; i < len(args); i++ {
				if text := decimalAsText(args[i]); text != nil {
					args[i] = text
				}
			}
			if e, err = engine(args...); err != nil {
				return nil, err
			}
		}
		if !ok {
			return e, nil
		}
		return &choice{Expression: e, typ: typ, build: build}, nil
	}
	return sql.FunctionN{Name: name, Fn: build}
}

type choice struct {
	sql.Expression // the engine's function, which chooses
	typ            sql.Type
	build          func(args ...sql.Expression) (sql.Expression, error)
}

var _ sql.CollationCoercible = (*choice)(nil)

func (c *choice) Type() sql.Type { return c.typ }

func (c *choice) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return c.build(children...)
}

func (c *choice) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (c *choice) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	var v any
	var err error
	if f, ok := c.Expression.(sql.FunctionExpression); ok && f.FunctionName() == "coalesce" {
		// The engine's COALESCE converts to its own type first.
		for _, a := range c.Children() {
			if v, err = a.Eval(ctx, row); err != nil || v != nil {
				break
			}
		}
	} else {
		v, err = c.Expression.Eval(ctx, row)
	}
	if err != nil || v == nil {
		return nil, err
	}
	switch {
	case types.IsText(c.typ):
		return textOfNumber(v)
	case types.IsDecimal(c.typ):
		d, err := decimalOf(ctx, v)
		if err != nil {
			return nil, err
		}
		return d.Round(int32(c.typ.(sql.DecimalType).Scale())), nil
	case types.IsInteger(c.typ):
		if w, ok := wideOf(v); ok {
			return intResult(w, types.IsUnsigned(c.typ), c)
		}
	}
	return float64Of(v)
}

// isTemporal reports whether t is a DATE, DATETIME, TIMESTAMP or TIME.
func isTemporal(t sql.Type) bool {
	return types.IsTime(t) || isTimeType(t)
}

// temporalAmongOthers reports whether ts, the types of the values one of
// which an expression gives, mix dates or times with other values (text,
// numbers), which MySQL gives as text.
func temporalAmongOthers(ts []sql.Type) bool {
	temporal, other := false, false
	for _, t := range ts {
		switch {
		case t == types.Null:
		case isTemporal(t):
			temporal = true
		default:
			other = true
		}
	}
	return temporal && other
}

// caseAsText is a CASE whose results mix dates or times with other
// values (temporalAmongOthers) with each of them given as text, which
// is MySQL's type for it; nil for another CASE. The engine typed CASE
// ... THEN d ELSE 'x' END of a DATE d a DATETIME, and gave a TIME the
// empty string.
func caseAsText(c *expression.Case) sql.Expression {
	var ts []sql.Type
	for _, b := range c.Branches {
		ts = append(ts, b.Value.Type())
	}
	if c.Else != nil {
		ts = append(ts, c.Else.Type())
	}
	if !temporalAmongOthers(ts) {
		return nil
	}
	text := func(e sql.Expression) sql.Expression {
		if isTemporal(e.Type()) {
			return &asText{Expression: e}
		}
		if d := decimalAsText(e); d != nil {
			return d
		}
		return e
	}
	branches := make([]expression.CaseBranch, len(c.Branches))
	for i, b := range c.Branches {
		branches[i] = expression.CaseBranch{Cond: b.Cond, Value: text(b.Value)}
	}
	var otherwise sql.Expression
	if c.Else != nil {
		otherwise = text(c.Else)
	}
	return expression.NewCase(c.Expr, branches, otherwise)
}

// caseAsDecimal is a CASE whose results are numbers, one a DECIMAL at
// least, typed as MySQL types them (mergedNumber); nil for another CASE
// or one the engine types so already. The engine typed CASE ... THEN
// amount ELSE 0 END of a DECIMAL(10,2) amount a DECIMAL(65,10), so a
// value came back as 10.5000000000 (and 10.5 when it was the only one),
// where MySQL gives 10.50.
func caseAsDecimal(c *expression.Case) sql.Expression {
	ts := make([]sql.Type, 0, len(c.Branches)+1)
	for _, b := range c.Branches {
		ts = append(ts, b.Value.Type())
	}
	if c.Else != nil {
		ts = append(ts, c.Else.Type())
	}
	typ, ok := mergedNumber(ts, false)
	if !ok || !types.IsDecimal(typ) || typ.Equals(c.Type()) {
		return nil
	}
	var build func(children ...sql.Expression) (sql.Expression, error)
	build = func(children ...sql.Expression) (sql.Expression, error) {
		e, err := c.WithChildren(children...)
		if err != nil {
			return nil, err
		}
		if x, ok := e.(*expression.Case); ok {
			if d := caseAsDecimal(x); d != nil {
				return d, nil
			}
		}
		return e, nil
	}
	return &choice{Expression: c, typ: typ, build: build}
}

// variadic2 and variadic3 are an engine function of two or three
// arguments as one of any number (choiceFunction checks the count).
func variadic2(build func(a, b sql.Expression) sql.Expression) func(...sql.Expression) (sql.Expression, error) {
	return func(args ...sql.Expression) (sql.Expression, error) { return build(args[0], args[1]), nil }
}

func variadic3(build func(a, b, c sql.Expression) sql.Expression) func(...sql.Expression) (sql.Expression, error) {
	return func(args ...sql.Expression) (sql.Expression, error) { return build(args[0], args[1], args[2]), nil }
}

// textOfNumber is a number chosen where text is the result, written as
// MySQL writes it.
func textOfNumber(v any) (any, error) {
	switch x := v.(type) {
	case float64:
		return mysqlFloatText(x, 64), nil
	case float32:
		return mysqlFloatText(float64(x), 32), nil
	}
	return textOf(v)
}
