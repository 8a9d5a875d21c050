package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// BENCHMARK(count, expr) evaluates expr count times and answers 0, as
// MySQL's does, for timing an expression from a client; a NULL or
// negative count answers NULL (a negative one with MySQL's warning 1411).
// KILL QUERY stops it. The engine had no such function.
var benchmarkFunction = sql.Function2{Name: "benchmark", Fn: func(count, expr sql.Expression) sql.Expression {
	return &benchmarkCall{count: count, expr: expr}
}}

type benchmarkCall struct {
	count, expr sql.Expression
}

var _ sql.FunctionExpression = (*benchmarkCall)(nil)

// erWrongValueForType is MySQL's ER_WRONG_VALUE_FOR_TYPE.
const erWrongValueForType = 1411

func (b *benchmarkCall) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := b.count.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	n, err := int64Of(v)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		ctx.Warn(erWrongValueForType, "Incorrect count value: '%d' for function benchmark", n)
		return nil, nil
	}
	for i := int64(0); i < n; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if _, err := b.expr.Eval(ctx, row); err != nil {
			return nil, err
		}
	}
	return int32(0), nil
}

func (b *benchmarkCall) FunctionName() string { return "benchmark" }
func (b *benchmarkCall) Description() string  { return "MySQL's BENCHMARK()" }
func (b *benchmarkCall) Type() sql.Type       { return types.Int32 }
func (b *benchmarkCall) IsNullable() bool     { return true }
func (b *benchmarkCall) Resolved() bool       { return b.count.Resolved() && b.expr.Resolved() }
func (b *benchmarkCall) String() string {
	return fmt.Sprintf("BENCHMARK(%s, %s)", b.count, b.expr)
}
func (b *benchmarkCall) Children() []sql.Expression { return []sql.Expression{b.count, b.expr} }

// IsNonDeterministic keeps the call from being folded into a constant:
// its point is the time it takes.
func (b *benchmarkCall) IsNonDeterministic() bool { return true }

func (b *benchmarkCall) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(b, len(children), 2)
	}
	return &benchmarkCall{count: children[0], expr: children[1]}, nil
}
