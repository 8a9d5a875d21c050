package sqlext

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestRangeRuleWrapsOperations checks which operations checkRange takes
// over: every link of an integer chain (evaluated exactly) and of a float
// chain (checked), a division only when its result is a float, and no
// decimal link or date interval; and that a plan analysed twice keeps one
// node per operation.
func TestRangeRuleWrapsOperations(t *testing.T) {
	col := func(typ sql.Type) sql.Expression { return expression.NewGetField(0, typ, "c", true) }
	chain := func(leaf sql.Type, n int) sql.Expression {
		e := col(leaf)
		for i := 0; i < n; i++ {
			e = expression.NewArithmetic(e, col(leaf), []string{"+", "-", "*"}[i%3])
		}
		return e
	}
	count := func(e sql.Expression) (exact, checked, raw int) {
		transform.InspectExpr(e, func(e sql.Expression) bool {
			switch e.(type) {
			case *intExact:
				exact++
			case *floatChecked:
				checked++
			case *expression.Arithmetic, *expression.Div:
				raw++
			}
			return false
		})
		return exact, checked, raw
	}
	for _, c := range []struct {
		name                string
		e                   sql.Expression
		exact, checked, raw int
	}{
		{"int chain", chain(types.Int32, 10), 10, 0, 0},
		{"unsigned chain", chain(types.Uint64, 4), 4, 0, 0},
		// A checked link still holds the engine's node it checks.
		{"double chain", chain(types.Float64, 10), 0, 10, 10},
		{"decimal chain", chain(types.MustCreateDecimalType(10, 2), 10), 0, 0, 10},
		{"float division", expression.NewDiv(col(types.Float64), col(types.Int64)), 0, 1, 1},
		{"integer division", expression.NewDiv(chain(types.Int64, 2), col(types.Int64)), 2, 0, 1},
		{"interval", expression.NewArithmetic(
			expression.NewArithmetic(col(types.Date), expression.NewInterval(expression.NewLiteral(int64(1), types.Int64), "DAY"), "+"),
			col(types.Int64), "+"), 0, 0, 2},
	} {
		n := plan.NewProject([]sql.Expression{c.e}, plan.NewResolvedDualTable())
		for pass := 1; pass <= 2; pass++ {
			out, _, err := checkRange(nil, nil, n, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			n = out.(*plan.Project)
			e := n.Projections[0]
			if exact, checked, raw := count(e); exact != c.exact || checked != c.checked || raw != c.raw {
				t.Errorf("%s, pass %d: %d exact, %d checked and %d engine nodes, want %d, %d and %d",
					c.name, pass, exact, checked, raw, c.exact, c.checked, c.raw)
			}
			if e.String() != c.e.String() {
				t.Errorf("%s, pass %d: %q became %q", c.name, pass, c.e, e)
			}
		}
	}
}
