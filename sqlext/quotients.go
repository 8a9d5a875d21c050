package sqlext

import (
	"math"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A division's value in MySQL is its quotient to nine digits past the
// dividend's (my_decimal_div with div_precision_increment), which only
// a result column, a stored value or text rounds to the division's four
// more decimals: ROUND(1/3, 6) is 0.333333, SUM(1/3) over three rows is
// 1.0000, and IFNULL(-7/3, 0e0) is -2.333333333. The engine rounded a
// division to its decimals wherever it was not inside more arithmetic,
// so these were 0.333300, 0.9999 and -2.3333. unroundedQuotientRule
// gives each division read as a number by one of numberReaders or %
// (unroundedDiv) its quotient unrounded, and so each +, - or * over one
// (decimalArith.withUnrounded): (x / 3 * 100) % 7e0 reads x / 3 * 100
// whole. It runs for every statement
// (onEveryStatement).
const unroundedQuotientRule analyzer.RuleId = 9960

// numberReaders are the functions, by their names in lower case, that
// read their arguments as numbers (val_decimal or val_real in MySQL).
var numberReaders = map[string]bool{
	"round": true, "truncate": true, "floor": true, "ceil": true, "ceiling": true, "abs": true, "sign": true,
	"sum": true, "avg": true, "ifnull": true, "coalesce": true, "if": true, "nullif": true,
	"greatest": true, "least": true, "pow": true, "power": true, "sqrt": true, "exp": true,
	"ln": true, "log": true, "log2": true, "log10": true, "mod": true,
}

func unroundedQuotients(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		reads := readsNumbers(e)
		if !reads && !isArithmetic(e) {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
			switch x := c.(type) {
			case *expression.Div:
				if reads {
					return newUnroundedDiv(x)
				}
			case *decimalArith:
				if reads && x.unrounded == nil {
					return x.withUnrounded()
				}
			case *minMax:
				// Arithmetic reads GREATEST and LEAST whole too; a
				// division is only rounded once outermost, by the engine.
				if !x.whole && types.IsDecimal(x.typ) {
					return x.readWhole()
				}
			}
			return nil
		})
	})
}

// readsNumbers says whether e reads its arguments as numbers: one of
// numberReaders, %, or +, -, * and / computed as a DOUBLE, which reads a
// DECIMAL operand whole (Item_func_numhybrid::val_real converting the
// operand's unrounded value): (1e0 + 0) * (3 / 7) is 0.428571428.
func readsNumbers(e sql.Expression) bool {
	if a, ok := e.(*expression.Arithmetic); ok {
		return types.IsFloat(a.Type())
	}
	if d, ok := e.(*expression.Div); ok {
		return types.IsFloat(d.Type())
	}
	return numberReaders[strings.ToLower(functionName(e))]
}

// isArithmetic says whether e is +, -, *, / or %.
func isArithmetic(e sql.Expression) bool {
	switch e.(type) {
	case *expression.Arithmetic, *expression.Div, *decimalArith, *unroundedDiv, *modulo:
		return true
	}
	return false
}

// functionName is the name of the function e is, or of the engine's
// function one of this package's wrappers holds, or "".
func functionName(e sql.Expression) string {
	switch x := e.(type) {
	case *choice:
		e = x.Expression
	case *exactAggregate:
		e = x.Aggregation
	case *modulo: // %, as MOD()
		return "mod"
	}
	if f, ok := e.(sql.FunctionExpression); ok {
		return f.FunctionName()
	}
	return ""
}

// unroundedDiv is a division typed and written as the engine's, whose
// value is its quotient unrounded (eval, the same division told that it
// is not the last of its arithmetic).
type unroundedDiv struct {
	*expression.Div
	eval *expression.Div
}

func newUnroundedDiv(d *expression.Div) *unroundedDiv {
	eval := expression.NewDiv(d.LeftChild, d.RightChild)
	eval.SetOpCount(math.MaxInt32)
	return &unroundedDiv{Div: d, eval: eval}
}

func (u *unroundedDiv) Eval(ctx *sql.Context, row sql.Row) (any, error) { return u.eval.Eval(ctx, row) }

func (u *unroundedDiv) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	d, err := u.Div.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return newUnroundedDiv(d.(*expression.Div)), nil
}
