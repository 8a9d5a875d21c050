package sqlext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation/window"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// NTH_VALUE(x, N) OVER w is x of the N-th row of the current row's frame,
// NULL while the frame has fewer rows; N is a positive integer literal.
// The engine had no such window function, and its planner takes a window
// function only by one of the names it lists, so a parsed statement has
// each NTH_VALUE(x, N) OVER written as FIRST_VALUE(x, N, nthValueMarker)
// OVER (nthValueAsFirstValue), which firstValueFunction builds as the
// engine's FIRST_VALUE (nthValue) reading the N-th row of the frame
// instead of the first (nthFunction). It takes the frames FIRST_VALUE
// takes: the window's frame clause, else MySQL's default frame
// (windowframe.go). The column is named as written.

const erWrongArguments = 1210 // ER_WRONG_ARGUMENTS

// nthValueMarker is the argument that makes FIRST_VALUE an NTH_VALUE.
const nthValueMarker = "sqlearn_nth_value"

// nthValueAsFirstValue writes f, a call over a window, as
// FIRST_VALUE(x, N, nthValueMarker) when it is NTH_VALUE(x, N).
func nthValueAsFirstValue(f *ast.FuncExpr) {
	if len(f.Exprs) == 2 && f.Name.EqualString("nth_value") {
		f.Name = ast.NewColIdent("first_value")
		f.Exprs = append(f.Exprs, &ast.AliasedExpr{Expr: ast.NewStrVal([]byte(nthValueMarker))})
	}
}

// firstValueFunction is the engine's FIRST_VALUE(x), and NTH_VALUE for
// FIRST_VALUE(x, N, nthValueMarker).
var firstValueFunction = sql.FunctionN{Name: "first_value", Fn: func(args ...sql.Expression) (sql.Expression, error) {
	switch {
	case len(args) == 1:
		return window.NewFirstValue(args[0]), nil
	case len(args) == 3 && literalText(args[2]) == nthValueMarker:
		// An N that is no positive integer is refused when the function
		// runs: the planner reports an error here as no window function.
		n, _ := positiveLiteral(args[1])
		return &nthValue{FirstValue: window.NewFirstValue(args[0]).(*window.FirstValue), n: n}, nil
	}
	return nil, sql.ErrInvalidArgumentNumber.New("FIRST_VALUE", 1, len(args))
}}

// positiveLiteral is the value of e when e is an integer literal of 1 or
// more.
func positiveLiteral(e sql.Expression) (int, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return 0, false
	}
	n, err := int64Of(lit.Value())
	if err != nil || n < 1 || fmt.Sprint(lit.Value()) != strconv.FormatInt(n, 10) {
		return 0, false
	}
	return int(n), true
}

// nthValue is NTH_VALUE over a window: the engine's FIRST_VALUE
// expression, which holds the window, with N (0 for an N refused).
type nthValue struct {
	*window.FirstValue
	n int
}

var _ sql.WindowAdaptableExpression = (*nthValue)(nil)

func (v *nthValue) FunctionName() string { return "NTH_VALUE" }
func (v *nthValue) Description() string {
	return "returns the value of its argument in the N-th row of the window frame."
}
func (v *nthValue) IsNullable() bool { return true }

func (v *nthValue) String() string { return v.named(v.FirstValue.String()) }

func (v *nthValue) DebugString() string { return v.named(v.FirstValue.DebugString()) }

// named is the text of the engine's FIRST_VALUE written as this call.
func (v *nthValue) named(text string) string {
	arg := v.FirstValue.Child.String()
	return strings.Replace(text, "first_value("+arg+")", "nth_value("+arg+", "+strconv.Itoa(v.n)+")", 1)
}

func (v *nthValue) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := v.FirstValue.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return v.wrap(e)
}

func (v *nthValue) WithId(id sql.ColumnId) sql.IdExpression {
	return rewrapped(v.FirstValue.WithId(id), v.wrap)
}

func (v *nthValue) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return rewrapped(v.FirstValue.WithWindow(w), v.wrap)
}

func (v *nthValue) wrap(e any) (*nthValue, error) {
	fv, ok := e.(*window.FirstValue)
	if !ok {
		return nil, fmt.Errorf("sqlext: NTH_VALUE over %T", e)
	}
	return &nthValue{FirstValue: fv, n: v.n}, nil
}

func (v *nthValue) NewWindowFunction() (sql.WindowFunction, error) {
	if v.n < 1 {
		return nil, mysql.NewSQLError(erWrongArguments, "HY000", "Incorrect arguments to nth_value")
	}
	fn, err := v.FirstValue.NewWindowFunction()
	if err != nil {
		return nil, err
	}
	arg, err := transform.Clone(v.FirstValue.Child)
	if err != nil {
		return nil, err
	}
	return &nthFunction{WindowFunction: fn, arg: arg, n: v.n}, nil
}

// nthFunction is the engine's FIRST_VALUE function, its frames
// included, reading the frame's N-th row.
type nthFunction struct {
	sql.WindowFunction
	arg sql.Expression
	n   int
}

func (f *nthFunction) Compute(ctx *sql.Context, frame sql.WindowInterval, buf sql.WindowBuffer) any {
	at := frame.Start + f.n - 1
	if at >= frame.End || at >= len(buf) {
		return nil
	}
	v, err := f.arg.Eval(ctx, buf[at])
	if err != nil {
		return err // as the engine's window functions report one
	}
	return v
}
