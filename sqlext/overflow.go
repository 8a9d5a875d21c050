package sqlext

import (
	"math"
	"math/bits"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// MySQL refuses an arithmetic result it cannot represent: SELECT 1e308 *
// 10 fails with 1690 "DOUBLE value is out of range in '(1e308 * 10)'", and
// 9223372036854775807 + 1 with "BIGINT value is out of range". The
// engine's arithmetic hands back IEEE infinity for the first, which then
// reaches clients as "+Inf" and could be stored, and wraps the second
// around to a negative number; it also computes an integer operation with
// one BIGINT UNSIGNED operand in signed 64 bits, so that
// 18446744073709551615 - 1 came out as 9223372036854775806.
// rangeRule puts a check on every +, -, * and / whose result is a float,
// so that an infinite or NaN result is that error, and evaluates every
// +, - and * of two integers exactly (intExact), unsigned when either
// operand is, as MySQL does, refusing a result out of range.
//
// Both nodes answer their type from a value fixed when the statement is
// planned. The engine's arithmetic node derives its type from its
// children's types every time it is asked, and asks on every evaluation,
// so a chain such as w1*x1 + w2*x2 + ... + wn*xn re-derived the types of
// the whole chain at each of its n nodes, for every row: quadratic in n
// per row (BenchmarkArithmeticChain; docs/benchmarks.md). A parent asking
// a wrapped child stops there. The engine's decimal rounding looks
// through chains in two ways: by its arithmetic-operator interface, which
// intExact still answers (so operator counts are unchanged), and by the
// concrete node type when it works out a decimal result's scale, where a
// wrapped link counts as an operand of its own type; an integer or float
// link holds only operands of scale 0 or yields no decimal at all, so the
// scale comes out the same.
//
// The rule runs for every statement (onEveryStatement), or UPDATE t SET x
// = x * 10 would escape it.
const rangeRule analyzer.RuleId = 9994

// erDataOutOfRange is ER_DATA_OUT_OF_RANGE.
const erDataOutOfRange = 1690

func checkRange(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if f, ok := e.(*floatChecked); ok {
			if inner, ok := f.Expression.(*floatChecked); ok {
				// A plan analysed twice: the operation was checked already.
				return inner, transform.NewTree, nil
			}
		}
		if a, ok := integerOperation(e); ok {
			return newIntExact(a), transform.NewTree, nil
		}
		if !floatOperation(e) {
			return e, transform.SameTree, nil
		}
		return &floatChecked{Expression: e, typ: e.Type()}, transform.NewTree, nil
	})
}

// floatOperation reports whether e is the engine's arithmetic that can
// overflow a float: +, -, * or / with a float result.
func floatOperation(e sql.Expression) bool {
	if _, ok := e.(*expression.Div); ok {
		return types.IsFloat(e.Type())
	}
	a, ok := e.(*expression.Arithmetic)
	if !ok {
		return false
	}
	switch a.Operator() {
	case "+", "-", "*":
		return types.IsFloat(e.Type())
	}
	return false
}

// floatChecked evaluates a float operation and refuses a result outside
// DOUBLE's range. Its type is the operation's, fixed when it was planned.
type floatChecked struct {
	sql.Expression
	typ sql.Type
}

var (
	_ sql.Expression         = (*floatChecked)(nil)
	_ sql.CollationCoercible = (*floatChecked)(nil)
)

func (f *floatChecked) Type() sql.Type { return f.typ }

func (f *floatChecked) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := f.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	var x float64
	switch n := v.(type) {
	case float64:
		x = n
	case float32:
		x = float64(n)
	default:
		return v, nil
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil, mysql.NewSQLError(erDataOutOfRange, "22003", "DOUBLE value is out of range in '%s'", mysqlText(f.Expression))
	}
	return v, nil
}

// mysqlText is an expression as MySQL writes it in an error message: the
// engine's text, except that a function is written pow(10,400).
func mysqlText(e sql.Expression) string {
	f, ok := e.(*scalarFunc)
	if !ok {
		return e.String()
	}
	args := make([]string, len(f.args))
	for i, a := range f.args {
		args[i] = mysqlText(a)
	}
	return f.name + "(" + strings.Join(args, ",") + ")"
}

func (f *floatChecked) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, f.Expression)
}

func (f *floatChecked) Children() []sql.Expression { return []sql.Expression{f.Expression} }

func (f *floatChecked) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 1)
	}
	return &floatChecked{Expression: children[0], typ: f.typ}, nil
}

func (f *floatChecked) String() string      { return f.Expression.String() }
func (f *floatChecked) DebugString() string { return sql.DebugString(f.Expression) }

// integerOperation reports whether e is the engine's +, - or * of two
// integers (an intExact is not: a plan analysed twice keeps its nodes).
func integerOperation(e sql.Expression) (*expression.Arithmetic, bool) {
	a, ok := e.(*expression.Arithmetic)
	if !ok {
		return nil, false
	}
	switch a.Operator() {
	case "+", "-", "*":
		return a, types.IsInteger(a.Left().Type()) && types.IsInteger(a.Right().Type())
	}
	return nil, false
}

// intExact is +, - or * of two integers evaluated exactly: BIGINT
// UNSIGNED when either operand is unsigned, BIGINT otherwise, and error
// 1690 when the result does not fit. It answers the engine's
// arithmetic-operator interface through the node it replaces.
type intExact struct {
	*expression.Arithmetic
	unsigned bool
}

var (
	_ sql.Expression         = (*intExact)(nil)
	_ sql.CollationCoercible = (*intExact)(nil)
)

func newIntExact(a *expression.Arithmetic) *intExact {
	return &intExact{Arithmetic: a, unsigned: types.IsUnsigned(a.Left().Type()) || types.IsUnsigned(a.Right().Type())}
}

func (e *intExact) Type() sql.Type {
	if e.unsigned {
		return types.Uint64
	}
	return types.Int64
}

func (e *intExact) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := e.Arithmetic.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if a, ok := n.(*expression.Arithmetic); ok {
		return newIntExact(a), nil
	}
	return n, nil
}

func (e *intExact) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	lv, rv, err := operands(ctx, row, e.Left(), e.Right())
	if err != nil || lv == nil {
		return nil, err
	}
	l, lok := wideOf(lv)
	r, rok := wideOf(rv)
	if !lok || !rok {
		// Not an integer after all (the engine's types promised one):
		// the engine's own arithmetic decides.
		return e.Arithmetic.Eval(ctx, row)
	}
	var v wide
	var ok bool
	switch e.Operator() {
	case "+":
		v, ok = l.add(r)
	case "-":
		v, ok = l.add(wide{neg: !r.neg, mag: r.mag})
	default:
		v, ok = l.mul(r)
	}
	if !ok {
		v = wide{neg: true, mag: math.MaxUint64} // out of range either way
	}
	return intResult(v, e.unsigned, e)
}

// wide is an integer as a sign and a 64-bit magnitude: every signed and
// unsigned 64-bit value, and the sum, difference or product of two of
// them when its magnitude fits 64 bits.
type wide struct {
	neg bool
	mag uint64
}

func wideOf(v any) (wide, bool) {
	var x int64
	switch n := v.(type) {
	case int64:
		x = n
	case int32:
		x = int64(n)
	case int16:
		x = int64(n)
	case int8:
		x = int64(n)
	case int:
		x = int64(n)
	case uint64:
		return wide{mag: n}, true
	case uint32:
		return wide{mag: uint64(n)}, true
	case uint16:
		return wide{mag: uint64(n)}, true
	case uint8:
		return wide{mag: uint64(n)}, true
	case uint:
		return wide{mag: uint64(n)}, true
	default:
		return wide{}, false
	}
	if x < 0 {
		return wide{neg: true, mag: uint64(-(x + 1)) + 1}, true
	}
	return wide{mag: uint64(x)}, true
}

// add returns a + b, or false when its magnitude overflows 64 bits.
func (a wide) add(b wide) (wide, bool) {
	if a.neg == b.neg {
		s, carry := bits.Add64(a.mag, b.mag, 0)
		return wide{neg: a.neg && s != 0, mag: s}, carry == 0
	}
	if a.mag >= b.mag {
		d := a.mag - b.mag
		return wide{neg: a.neg && d != 0, mag: d}, true
	}
	return wide{neg: b.neg, mag: b.mag - a.mag}, true
}

// mul returns a · b, or false when its magnitude overflows 64 bits.
func (a wide) mul(b wide) (wide, bool) {
	hi, lo := bits.Mul64(a.mag, b.mag)
	return wide{neg: a.neg != b.neg && lo != 0, mag: lo}, hi == 0
}
