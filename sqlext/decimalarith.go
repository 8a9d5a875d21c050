package sqlext

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// MySQL sends the result of x + y, x - y and x * y of exact numbers, one
// of them a DECIMAL, with the scale of the result's type: the larger of
// the operands' scales for + and -, their sum for * (30 at most), so
// that 12.50 * 12.50 read from DECIMAL(10,2) columns is 156.2500. The
// engine's result type writes a value with the digits the value has, and
// a DECIMAL read back from storage has lost its trailing zeros: it sent
// 156.25, and 42.5 for 12.50 + 30.00. decimalScaleRule gives each such
// operation MySQL's type (mysqlType), one that writes its scale's digits,
// and rounds its value to that scale.
//
// It runs for every statement (onEveryStatement), after numericRule and
// before the rules that carry types out of set operations and derived
// tables (analyzer.go says in which order).
const decimalScaleRule analyzer.RuleId = 9979

func decimalScales(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if a, ok := e.(*expression.Arithmetic); ok {
			if d := newDecimalArith(a); d != nil {
				return d, transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
}

// decimalArith is +, - or * with a DECIMAL result, typed and rounded as
// MySQL types it.
type decimalArith struct {
	*expression.Arithmetic
	typ   sql.DecimalType
	scale int32
	// unrounded, when set, is the same arithmetic told that it is not
	// the last of its kind, so that it does not round: its value is read
	// whole, as a function reads it in MySQL (quotients.go).
	unrounded *expression.Arithmetic
}

var (
	_ sql.Expression         = (*decimalArith)(nil)
	_ sql.CollationCoercible = (*decimalArith)(nil)
)

// newDecimalArith is a made a decimalArith, or nil when a is not +, - or
// * with a DECIMAL result.
func newDecimalArith(a *expression.Arithmetic) *decimalArith {
	switch a.Operator() {
	case "+", "-", "*":
	default:
		return nil
	}
	t, ok := mysqlType(a).(sql.DecimalType)
	if !ok {
		return nil
	}
	return &decimalArith{Arithmetic: a, typ: types.MustCreateColumnDecimalType(t.Precision(), t.Scale()), scale: int32(t.Scale())}
}

func (d *decimalArith) Type() sql.Type { return d.typ }

func (d *decimalArith) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := d.Arithmetic.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if a, ok := e.(*expression.Arithmetic); ok {
		if n := newDecimalArith(a); n != nil {
			if d.unrounded != nil {
				n = n.withUnrounded()
			}
			return n, nil
		}
	}
	return e, nil
}

func (d *decimalArith) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// withUnrounded is d giving its value unrounded.
func (d *decimalArith) withUnrounded() *decimalArith {
	out := *d
	out.unrounded = expression.NewArithmetic(d.Left(), d.Right(), d.Operator())
	out.unrounded.SetOpCount(math.MaxInt32)
	return &out
}

func (d *decimalArith) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	if d.unrounded != nil {
		return d.unrounded.Eval(ctx, row)
	}
	v, err := d.Arithmetic.Eval(ctx, row)
	if x, ok := v.(decimal.Decimal); ok && err == nil {
		return x.Round(d.scale), nil
	}
	return v, err
}
