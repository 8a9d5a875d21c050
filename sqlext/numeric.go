package sqlext

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// MySQL writes a DECIMAL as text with as many decimals as its type has:
// CAST(d AS CHAR) of a DECIMAL(10,2) 12.50 is '12.50', and 10/3, a
// division whose scale is the dividend's plus div_precision_increment's
// 4, is '3.3333' wherever it becomes text. The engine wrote the value it
// holds with its trailing zeros cut ('12.5') or with all the digits it
// computed ('3.333333333'). numericRule hands a DECIMAL argument of a
// CAST to text, and of the string functions that read it as text, to
// them behind decimalText, which writes it with its type's scale. It also
// takes over x % y (modulo), which the engine typed from whatever it
// found anywhere below it, and x DIV y (intDiv), which it rounded.
//
// It runs for every statement (onEveryStatement), after exactSumRule has
// typed SUM and AVG, as the types it reads are final then.
const numericRule analyzer.RuleId = 9992

// erDivisionByZero is ER_DIVISION_BY_ZERO, a warning with a NULL result.
const erDivisionByZero = 1365

// decimalTextArgs are the string functions that read some of their
// arguments as text, with how many leading ones (0 for all of them); the
// others are counts and positions.
var decimalTextArgs = map[string]int{
	"concat": 0, "concat_ws": 0, "upper": 0, "ucase": 0, "lower": 0, "lcase": 0, "length": 0,
	"char_length": 0, "character_length": 0, "trim": 0, "ltrim": 0, "rtrim": 0, "reverse": 0,
	"replace": 0, "instr": 0, "md5": 0, "sha1": 0, "group_concat": 0,
	"substring": 1, "substr": 1, "mid": 1, "left": 1, "right": 1, "lpad": 1, "rpad": 1,
	"repeat": 1, "insert": 1, "locate": 2, "sha2": 1,
}

func numericOperations(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		textArgs := 0
		switch x := e.(type) {
		case *expression.Mod:
			if m := newModulo(x); m != nil {
				return m, transform.NewTree, nil
			}
			return e, transform.SameTree, nil
		case *expression.IntDiv:
			if d := newIntDiv(x); d != nil {
				return d, transform.NewTree, nil
			}
			return e, transform.SameTree, nil
		case *expression.Convert:
			if types.IsDecimal(x.Type()) {
				if c := newDecimalCast(x); c != nil {
					return c, transform.NewTree, nil
				}
			}
			if !types.IsText(x.Type()) {
				return e, transform.SameTree, nil
			}
		case sql.FunctionExpression:
			var ok bool
			if textArgs, ok = decimalTextArgs[x.FunctionName()]; !ok {
				return e, transform.SameTree, nil
			}
		default:
			return e, transform.SameTree, nil
		}
		sorts := orderTerms(e)
		return replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
			if i < sorts {
				return nil
			}
			if textArgs == 0 || i-sorts < textArgs {
				return decimalAsText(c)
			}
			return nil
		})
	})
}

// decimalCast is CAST(x AS DECIMAL(p, s)) as MySQL has it: x rounded to
// s decimals, half away from zero, and a value past p digits the
// largest of DECIMAL(p, s) of its sign with warning 1264; DECIMAL is
// DECIMAL(10, 0). The engine kept x as it was unless both p and s were
// given and s was above 0 (CAST(1.5 AS DECIMAL) was 1.5), and gave a
// value past p digits as 0 (CAST(-123.456 AS DECIMAL(4,2)) was 0.00).
type decimalCast struct {
	*expression.Convert
	typ         sql.Type
	prec, scale int
}

// castDecimal reads DECIMAL's digits from the cast's text, which is the
// only place the engine keeps them: "convert(x, decimal(p,s))".
var castDecimal = regexp.MustCompile(`, decimal(?:\((\d+)(?:,(\d+))?\))?\)$`)

// newDecimalCast is c as a decimalCast, or nil when its digits cannot be
// read or are past DECIMAL's (left to the engine, which refuses them).
func newDecimalCast(c *expression.Convert) *decimalCast {
	m := castDecimal.FindStringSubmatch(c.String())
	if m == nil {
		return nil
	}
	prec, scale := 10, 0
	if m[1] != "" {
		prec, _ = strconv.Atoi(m[1])
	}
	if m[2] != "" {
		scale, _ = strconv.Atoi(m[2])
	}
	if prec < 1 || prec > types.DecimalTypeMaxPrecision || scale > types.DecimalTypeMaxScale || scale > prec {
		return nil
	}
	return &decimalCast{Convert: c, typ: decimalType(prec, scale), prec: prec, scale: scale}
}

func (d *decimalCast) Type() sql.Type { return d.typ }

func (d *decimalCast) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	var x decimal.Decimal
	if s, ok := v.(string); ok {
		// Text by its numeric prefix, as MySQL reads it.
		prefix, whole := numberPrefix(s)
		if !whole {
			ctx.Warn(erTruncatedWrongValue, "Truncated incorrect DECIMAL value: '%s'", s)
		}
		x, err = decimal.NewFromString(prefix)
	} else {
		x, err = decimalOf(ctx, v)
	}
	if err != nil {
		// Other values: the engine's reading.
		if v, err = d.Convert.Eval(ctx, row); err != nil || v == nil {
			return v, err
		}
		if x, err = decimalOf(ctx, v); err != nil {
			return nil, err
		}
	}
	x = x.Round(int32(d.scale))
	most := decimal.New(1, int32(d.prec-d.scale)).Sub(decimal.New(1, -int32(d.scale)))
	if x.Abs().GreaterThan(most) {
		ctx.Warn(mysql.ERWarnDataOutOfRange, "Out of range value for column '%s' at row 1", d.Convert.String())
		if x.IsNegative() {
			return most.Neg(), nil
		}
		return most, nil
	}
	return x, nil
}

func (d *decimalCast) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := d.Convert.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &decimalCast{Convert: c.(*expression.Convert), typ: d.typ, prec: d.prec, scale: d.scale}, nil
}

// decimalText is a DECIMAL written with as many decimals as its type
// has, rounded half away from zero. The engine holds some results with
// more (a division's 9) or fewer (12.5 of a DECIMAL(10,2)).
type decimalText struct {
	asText
	scale int32
}

// decimalAsText is e behind decimalText when MySQL types it a DECIMAL,
// or nil.
func decimalAsText(e sql.Expression) sql.Expression {
	t, ok := mysqlType(e).(sql.DecimalType)
	if !ok {
		return nil
	}
	return &decimalText{asText: asText{Expression: e}, scale: int32(t.Scale())}
}

func (d *decimalText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	x, err := decimalOf(ctx, v)
	if err != nil {
		return nil, err
	}
	return x.StringFixed(d.scale), nil
}

func (d *decimalText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 1)
	}
	return &decimalText{asText: asText{Expression: children[0]}, scale: d.scale}, nil
}

// modulo is x % y (and MOD(x, y)) typed and computed as MySQL does: an
// integer when both operands are, unsigned when x is; a DECIMAL with the
// larger scale of the two when both are exact and one is a DECIMAL; a
// DOUBLE otherwise. The result takes x's sign, and y = 0 gives NULL with
// warning 1365.
type modulo struct {
	*expression.Mod
	typ sql.Type
}

var (
	_ sql.Expression         = (*modulo)(nil)
	_ sql.CollationCoercible = (*modulo)(nil)
)

// newModulo is m typed as MySQL types it, or nil for operands it leaves
// to the engine (dates and times, and types not known yet).
func newModulo(m *expression.Mod) *modulo {
	l, r := mysqlType(m.Left()), mysqlType(m.Right())
	var typ sql.Type
	switch {
	case !numericOperand(l) || !numericOperand(r):
		return nil
	case types.IsInteger(l) && types.IsInteger(r):
		typ = types.Int64
		if types.IsUnsigned(l) {
			typ = types.Uint64
		}
	case exactOperand(l) && exactOperand(r):
		typ = decimalOf2(l, r, func(lw, ls, rw, rs int) (int, int) {
			s := max(ls, rs)
			return max(lw, rw) + s, s
		})
	default:
		typ = types.Float64
	}
	return &modulo{Mod: m, typ: typ}
}

// divPrecisionIncrement is div_precision_increment at its default: a
// division of exact numbers has that many more decimals than its
// dividend.
const divPrecisionIncrement = 4

// mysqlType is the type MySQL gives e. It differs from the engine's for
// a division and for +, - and * with a DECIMAL result, whose scale
// MySQL derives from the operands' scales alone (the engine gives a
// division nested in another expression 9 decimals, and a product the
// larger scale of its operands instead of their sum).
func mysqlType(e sql.Expression) sql.Type {
	switch x := e.(type) {
	case *expression.Div:
		l, r := mysqlType(x.Left()), mysqlType(x.Right())
		if exactOperand(l) && exactOperand(r) {
			return decimalOf2(l, r, func(lw, ls, _, rs int) (int, int) {
				return lw + ls + rs + divPrecisionIncrement, ls + divPrecisionIncrement
			})
		}
	case *expression.Arithmetic:
		l, r := mysqlType(x.Left()), mysqlType(x.Right())
		if !exactOperand(l) || !exactOperand(r) || !types.IsDecimal(l) && !types.IsDecimal(r) {
			break
		}
		switch x.Operator() {
		case "+", "-":
			return decimalOf2(l, r, func(lw, ls, rw, rs int) (int, int) {
				s := max(ls, rs)
				return max(lw, rw) + 1 + s, s
			})
		case "*":
			return decimalOf2(l, r, func(lw, ls, rw, rs int) (int, int) { return lw + ls + rw + rs, ls + rs })
		}
	}
	return e.Type()
}

// numericOperand reports whether arithmetic reads a value of type t as
// MySQL reads a number: an integer, DECIMAL or float, or text read as a
// DOUBLE.
func numericOperand(t sql.Type) bool {
	return types.IsInteger(t) || types.IsDecimal(t) || types.IsFloat(t) || types.IsTextOnly(t) || t == types.Null
}

// exactOperand reports whether t holds exact numbers (NULL counts as
// one: it does not make a result a DOUBLE).
func exactOperand(t sql.Type) bool {
	return types.IsInteger(t) || types.IsDecimal(t) || t == types.Null
}

// digitsOf is a number type's integer digits and scale, as MySQL counts
// them for a result's precision.
func digitsOf(t sql.Type) (whole, scale int) {
	if dt, ok := t.(sql.DecimalType); ok {
		return int(dt.Precision()) - int(dt.Scale()), int(dt.Scale())
	}
	if t == types.Null {
		return 1, 0
	}
	return integerDigits(t), 0
}

// decimalOf2 is the DECIMAL that shape gives as precision and scale from
// the integer digits and scales of two operands, within DECIMAL's
// limits.
func decimalOf2(l, r sql.Type, shape func(lw, ls, rw, rs int) (prec, scale int)) sql.Type {
	lw, ls := digitsOf(l)
	rw, rs := digitsOf(r)
	prec, scale := shape(lw, ls, rw, rs)
	return decimalType(prec, scale)
}

// decimalType is DECIMAL(prec, scale) kept within DECIMAL's limits.
func decimalType(prec, scale int) sql.Type {
	scale = min(max(scale, 0), types.DecimalTypeMaxScale)
	prec = min(max(prec, scale, 1), types.DecimalTypeMaxPrecision)
	return types.MustCreateDecimalType(uint8(prec), uint8(scale))
}

func (m *modulo) Type() sql.Type { return m.typ }

func (m *modulo) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := m.Mod.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if n := newModulo(e.(*expression.Mod)); n != nil {
		return n, nil
	}
	return e, nil
}

func (m *modulo) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (m *modulo) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	lv, rv, err := operands(ctx, row, m.Left(), m.Right())
	if err != nil || lv == nil {
		return nil, err
	}
	switch {
	case types.IsInteger(m.typ):
		l, lok := wideOf(lv)
		r, rok := wideOf(rv)
		if !lok || !rok {
			break
		}
		if r.mag == 0 {
			return divisionByZero(ctx)
		}
		res := wide{neg: l.neg, mag: l.mag % r.mag}
		if res.mag == 0 {
			res.neg = false
		}
		return intResult(res, types.IsUnsigned(m.typ), m.Mod)
	case types.IsDecimal(m.typ):
		l, r, err := twoDecimals(ctx, lv, rv)
		if err != nil {
			return nil, err
		}
		if r.IsZero() {
			return divisionByZero(ctx)
		}
		return l.Mod(r).Round(int32(m.typ.(sql.DecimalType).Scale())), nil
	}
	l, r, err := twoDoubles(ctx, lv, rv)
	if err != nil {
		return nil, err
	}
	if r == 0 {
		return divisionByZero(ctx)
	}
	return math.Mod(l, r) + 0, nil // + 0: no negative zero
}

// operands evaluates the two operands of an operation; both are nil
// when either is NULL, as the operation's result is then.
func operands(ctx *sql.Context, row sql.Row, l, r sql.Expression) (lv, rv any, err error) {
	if lv, err = l.Eval(ctx, row); err != nil || lv == nil {
		return nil, nil, err
	}
	if rv, err = r.Eval(ctx, row); err != nil || rv == nil {
		return nil, nil, err
	}
	return lv, rv, nil
}

// twoDecimals reads two exact operands as decimals.
func twoDecimals(ctx *sql.Context, lv, rv any) (l, r decimal.Decimal, err error) {
	if l, err = decimalOf(ctx, lv); err == nil {
		r, err = decimalOf(ctx, rv)
	}
	return l, r, err
}

// twoDoubles reads two operands as DOUBLEs (doubleOf).
func twoDoubles(ctx *sql.Context, lv, rv any) (l, r float64, err error) {
	if l, err = doubleOf(ctx, lv); err == nil {
		r, err = doubleOf(ctx, rv)
	}
	return l, r, err
}

// intDiv is x DIV y as MySQL computes it: the quotient truncated toward
// zero, of integers exactly, of anything else as DECIMALs (a DOUBLE or
// text made one), a BIGINT, UNSIGNED when either operand is; a quotient
// out of that range is error 1690, and y = 0 gives NULL with warning
// 1365. The engine rounded a DECIMAL quotient (99999999.99 DIV 1000 was
// 100000, '3' DIV (2.5 - 7) -1), and reported a quotient out of range as
// error 1264.
type intDiv struct {
	*expression.IntDiv
	unsigned bool
}

var (
	_ sql.Expression         = (*intDiv)(nil)
	_ sql.CollationCoercible = (*intDiv)(nil)
)

// newIntDiv is d computed as MySQL computes it, or nil for operands it
// leaves to the engine (dates and times, and types not known yet).
func newIntDiv(d *expression.IntDiv) *intDiv {
	l, r := d.Left().Type(), d.Right().Type()
	if !numericOperand(l) || !numericOperand(r) {
		return nil
	}
	return &intDiv{IntDiv: d, unsigned: types.IsUnsigned(l) || types.IsUnsigned(r)}
}

func (d *intDiv) Type() sql.Type {
	if d.unsigned {
		return types.Uint64
	}
	return types.Int64
}

func (d *intDiv) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := d.IntDiv.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if n := newIntDiv(e.(*expression.IntDiv)); n != nil {
		return n, nil
	}
	return e, nil
}

func (d *intDiv) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (d *intDiv) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	lv, rv, err := operands(ctx, row, d.Left(), d.Right())
	if err != nil || lv == nil {
		return nil, err
	}
	l, lok := wideOf(lv)
	r, rok := wideOf(rv)
	if lok && rok {
		if r.mag == 0 {
			return divisionByZero(ctx)
		}
		q := wide{neg: l.neg != r.neg, mag: l.mag / r.mag}
		q.neg = q.neg && q.mag != 0
		return intResult(q, d.unsigned, d.IntDiv)
	}
	ld, rd, err := twoDecimals(ctx, lv, rv)
	if err != nil {
		return nil, err
	}
	if rd.IsZero() {
		return divisionByZero(ctx)
	}
	q, _ := ld.QuoRem(rd, 0)
	w := wide{neg: q.Sign() < 0, mag: math.MaxUint64}
	if b := q.Abs().BigInt(); b.IsUint64() {
		w.mag = b.Uint64()
	} else {
		w.neg = true // out of range either way
	}
	return intResult(w, d.unsigned, d.IntDiv)
}

// divisionByZero is the NULL of a division or modulo by zero, with
// MySQL's warning.
func divisionByZero(ctx *sql.Context) (any, error) {
	ctx.Warn(erDivisionByZero, "Division by 0")
	return nil, nil
}

// intResult is an exact integer result as a BIGINT UNSIGNED or a BIGINT,
// or error 1690 naming e when it does not fit.
func intResult(v wide, unsigned bool, e fmt.Stringer) (any, error) {
	if unsigned {
		if !v.neg || v.mag == 0 {
			return v.mag, nil
		}
		return nil, mysql.NewSQLError(erDataOutOfRange, "22003", "BIGINT UNSIGNED value is out of range in '%s'", e.String())
	}
	if v.neg && v.mag <= 1<<63 {
		return int64(-v.mag), nil
	}
	if !v.neg && v.mag <= math.MaxInt64 {
		return int64(v.mag), nil
	}
	return nil, mysql.NewSQLError(erDataOutOfRange, "22003", "BIGINT value is out of range in '%s'", e.String())
}

// doubleOf reads a value as a DOUBLE, text by its numeric prefix with
// warning 1292 when that leaves something out.
func doubleOf(ctx *sql.Context, v any) (float64, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		return float64Of(v)
	}
	prefix, whole := numberPrefix(s)
	if !whole {
		warnTruncatedDouble(ctx, s)
	}
	return float64Of(prefix)
}
