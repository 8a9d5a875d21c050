package sqlext

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// MySQL refuses a DOUBLE result it cannot represent: SELECT 1e308 * 10
// fails with 1690 "DOUBLE value is out of range in '(1e308 * 10)'". The
// engine's arithmetic hands back IEEE infinity instead, which then
// reaches clients as "+Inf" and could be stored. floatRangeRule puts a
// check on every +, -, * and / whose result is a float, so that an
// infinite or NaN result is that error, as MySQL's own check of each
// float operation's result is.
//
// The rule joins the engine's last batch, which every statement passes
// through: the engine plans single-table UPDATE and DELETE and INSERT of
// literal rows with a short list of batches that leaves out the
// analyzer's extension rules, so that UPDATE t SET x = x * 10 would
// otherwise escape it. It holds no state, so one rule serves every
// server in the process.
const floatRangeRule analyzer.RuleId = 9994

func init() {
	analyzer.OnceAfterAll = append(analyzer.OnceAfterAll, analyzer.Rule{Id: floatRangeRule, Apply: checkFloatRange})
}

// erDataOutOfRange is ER_DATA_OUT_OF_RANGE.
const erDataOutOfRange = 1690

func checkFloatRange(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if f, ok := e.(*floatChecked); ok {
			if inner, ok := f.Expression.(*floatChecked); ok {
				// A plan analysed twice: the operation was checked already.
				return inner, transform.NewTree, nil
			}
		}
		if !floatOperation(e) {
			return e, transform.SameTree, nil
		}
		return &floatChecked{Expression: e, typ: e.Type()}, transform.NewTree, nil
	})
}

// floatOperation reports whether e is arithmetic that can overflow a
// float: +, -, * or / with a float result, as the engine's node or as a
// typed link of a chain (arith.go).
func floatOperation(e sql.Expression) bool {
	var a *expression.Arithmetic
	switch x := e.(type) {
	case *expression.Div:
		return types.IsFloat(e.Type())
	case *expression.Arithmetic:
		a = x
	case *typedArith:
		a = x.Arithmetic
	default:
		return false
	}
	switch a.Operator() {
	case "+", "-", "*":
		return types.IsFloat(e.Type())
	}
	return false
}

// floatChecked evaluates a float operation and refuses a result outside
// DOUBLE's range. Its type is the operation's, fixed when it was planned,
// as typedArith's is.
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
		return nil, mysql.NewSQLError(erDataOutOfRange, "22003", "DOUBLE value is out of range in '%s'", f.Expression.String())
	}
	return v, nil
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
