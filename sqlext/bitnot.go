package sqlext

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/shopspring/decimal"
)

// ~x, MySQL's bitwise NOT, is x read as a 64-bit integer with its bits
// inverted, a BIGINT UNSIGNED: ~0 is 18446744073709551615, ~-1 is 0. The
// engine's planner refused the operator ("unsupported feature: unary
// operator: ~"), so a parsed statement has each ~x written as
// +bitNotFunc(x) (bitNotAsFunction), whose unary plus the planner reads
// as the expression itself. The statement's text, and the column's
// name, are left as written.
const bitNotFunc = "sqlearn_bit_not"

func bitNotAsFunction(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if u, ok := node.(*ast.UnaryExpr); ok && u.Operator == ast.TildaStr {
			u.Operator = ast.PlusStr
			u.Expr = &ast.FuncExpr{Name: ast.NewColIdent(bitNotFunc), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: u.Expr}}}
		}
		return true, nil
	}, st)
}

var bitNotFunction = scalar(bitNotFunc, 1, 1, fixedType(types.Uint64), func(_ *sql.Context, v []any) (any, error) {
	return ^bitsOf(v[0]), nil
})

// bitsOf is v as MySQL's bit operations read it: an integer's 64 bits
// (a negative one's two's complement), any other number rounded half
// away from zero to one and clamped to the range of BIGINT and BIGINT
// UNSIGNED together, text read as the number it starts with.
func bitsOf(v any) uint64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return bitsOfFloat(x)
	case float32:
		return bitsOfFloat(float64(x))
	case decimal.Decimal:
		r := x.Round(0)
		switch {
		case r.LessThan(decimal.NewFromInt(math.MinInt64)):
			return 1 << 63
		case r.IsNegative():
			return uint64(r.IntPart())
		case r.BigInt().IsUint64():
			return r.BigInt().Uint64()
		}
		return math.MaxUint64
	}
	if w, ok := wideOf(v); ok {
		if w.neg {
			return -w.mag
		}
		return w.mag
	}
	f, err := float64Of(v)
	if err != nil {
		return 0
	}
	return bitsOfFloat(f)
}

func bitsOfFloat(f float64) uint64 {
	f = math.Round(f)
	switch {
	case math.IsNaN(f):
		return 0
	case f < math.MinInt64:
		return 1 << 63
	case f < 0:
		return uint64(int64(f))
	case f >= math.MaxUint64:
		return math.MaxUint64
	}
	return uint64(f)
}
