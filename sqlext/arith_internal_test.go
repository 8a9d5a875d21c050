package sqlext

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestTypeLinksWrapsChains checks which links typeLinks wraps: every link
// of an integer or float chain below its head, and no decimal link, no
// division and no interval.
func TestTypeLinksWrapsChains(t *testing.T) {
	col := func(typ sql.Type) sql.Expression { return expression.NewGetField(0, typ, "c", true) }
	chain := func(leaf sql.Type, n int) sql.Expression {
		e := col(leaf)
		for i := 0; i < n; i++ {
			e = expression.NewArithmetic(e, col(leaf), []string{"+", "-", "*"}[i%3])
		}
		return e
	}
	count := func(e sql.Expression) (typed, raw int) {
		transform.InspectExpr(e, func(e sql.Expression) bool {
			switch e.(type) {
			case *typedArith:
				typed++
			case *expression.Arithmetic:
				raw++
			}
			return false
		})
		return typed, raw
	}
	for _, c := range []struct {
		name       string
		e          sql.Expression
		typed, raw int
	}{
		{"int chain", chain(types.Int32, 10), 9, 1},
		{"double chain", chain(types.Float64, 10), 9, 1},
		{"decimal chain", chain(types.MustCreateDecimalType(10, 2), 10), 0, 10},
		{"one link", chain(types.Int64, 1), 0, 1},
		{"under a division", expression.NewDiv(chain(types.Int64, 3), col(types.Int64)), 2, 1},
		{"interval", expression.NewArithmetic(
			expression.NewArithmetic(col(types.Date), expression.NewInterval(expression.NewLiteral(int64(1), types.Int64), "DAY"), "+"),
			col(types.Int64), "+"), 0, 2},
	} {
		out, _, err := transform.Expr(c.e, typeLinks)
		if err != nil {
			t.Fatal(err)
		}
		if typed, raw := count(out); typed != c.typed || raw != c.raw {
			t.Errorf("%s: %d typed and %d engine links, want %d and %d", c.name, typed, raw, c.typed, c.raw)
		}
		if !out.Type().Equals(c.e.Type()) || out.String() != c.e.String() {
			t.Errorf("%s: %v %q became %v %q", c.name, c.e.Type(), c.e, out.Type(), out)
		}
	}
}
