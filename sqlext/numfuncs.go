package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
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
// as text. Strings alone, and dates and times, go to the engine's
// function.
func minMaxFunction(name string, greatest bool, engine func(...sql.Expression) (sql.Expression, error)) sql.Function {
	var build func(args ...sql.Expression) (sql.Expression, error)
	build = func(args ...sql.Expression) (sql.Expression, error) {
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

type minMax struct {
	*scalarFunc
	greatest bool
	build    func(args ...sql.Expression) (sql.Expression, error)
}

var (
	_ sql.FunctionExpression = (*minMax)(nil)
	_ sql.CollationCoercible = (*minMax)(nil)
)

func (m *minMax) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(m.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), len(m.args))
	}
	return m.build(children...)
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
