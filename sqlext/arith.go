package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The engine's arithmetic node derives its type from its children's types
// every time it is asked, and asks on every evaluation; a chain such as
// w1*x1 + w2*x2 + ... + wn*xn therefore re-derives the types of the whole
// chain at each of its n nodes, for every row: quadratic in n per row
// (BenchmarkArithmeticChain; docs/benchmarks.md). typedArithRule hands each
// link of such a chain to its parent behind a typedArith, which answers
// Type and IsNullable from values computed once, so that a row costs
// linear time.
//
// Only links of +, - and * whose results are integers or floats are
// wrapped, and only under another arithmetic node. The engine's decimal
// rounding looks through chains in two ways: by its arithmetic-operator
// interface, which typedArith still answers (so operator counts are
// unchanged), and by the concrete node type when it works out a decimal
// result's scale, where a wrapped link counts as an operand of its own
// type; a link with an integer or float result holds only operands of
// scale 0 or yields no decimal at all, so the scale comes out the same.
// SET sqlearn_typed_arithmetic = OFF leaves the engine's nodes as they
// are.
const TypedArithmeticVar = "sqlearn_typed_arithmetic"

const typedArithRule analyzer.RuleId = 9992

func init() {
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
		Name:    TypedArithmeticVar,
		Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Both),
		Dynamic: true,
		Type:    types.NewSystemBoolType(TypedArithmeticVar),
		Default: int8(1),
	}})
}

// typedArith is one arithmetic link with its type and nullability fixed
// when it was planned; evaluation is the engine's own.
type typedArith struct {
	*expression.Arithmetic
	typ      sql.Type
	nullable bool
}

var (
	_ sql.Expression         = (*typedArith)(nil)
	_ sql.CollationCoercible = (*typedArith)(nil)
)

func newTypedArith(a *expression.Arithmetic) *typedArith {
	return &typedArith{Arithmetic: a, typ: a.Type(), nullable: a.IsNullable()}
}

func (t *typedArith) Type() sql.Type   { return t.typ }
func (t *typedArith) IsNullable() bool { return t.nullable }

func (t *typedArith) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return rewrapArith(t.Arithmetic, children, func(a *expression.Arithmetic) sql.Expression { return newTypedArith(a) })
}

// rewrapArith gives a with new children to wrap, for the nodes that stand
// in for an engine arithmetic node (typedArith, intExact).
func rewrapArith(a *expression.Arithmetic, children []sql.Expression, wrap func(*expression.Arithmetic) sql.Expression) (sql.Expression, error) {
	e, err := a.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if a, ok := e.(*expression.Arithmetic); ok {
		return wrap(a), nil
	}
	return e, nil
}

// arithOf is the engine arithmetic node e is or stands in for.
func arithOf(e sql.Expression) (*expression.Arithmetic, bool) {
	switch x := e.(type) {
	case *expression.Arithmetic:
		return x, true
	case *typedArith:
		return x.Arithmetic, true
	}
	return nil, false
}

// plainLink reports whether e is an arithmetic link that may be wrapped:
// +, - or * with an integer or float result.
func plainLink(e sql.Expression) (*expression.Arithmetic, bool) {
	a, ok := e.(*expression.Arithmetic)
	if !ok {
		return nil, false
	}
	switch a.Operator() {
	case "+", "-", "*":
	default:
		return nil, false
	}
	t := a.Type()
	return a, types.IsInteger(t) || types.IsFloat(t)
}

func typedArithmetic(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if on, err := ctx.GetSessionVariable(ctx, TypedArithmeticVar); err != nil || !truthy(on) {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, typeLinks)
}

// typeLinks wraps the plain links under an arithmetic node e; applied
// bottom up, it wraps every link of a chain but its head.
func typeLinks(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	if _, ok := e.(*expression.Arithmetic); !ok {
		return e, transform.SameTree, nil
	}
	children := e.Children()
	wrapped := false
	for i, c := range children {
		if a, ok := plainLink(c); ok {
			children[i] = newTypedArith(a)
			wrapped = true
		}
	}
	if !wrapped {
		return e, transform.SameTree, nil
	}
	out, err := e.WithChildren(children...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return out, transform.NewTree, nil
}
