package sqlext

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// repeatedAggregates lets a select list name one aggregate more than
// once, as report tools write (SELECT SUM(a.x), SUM(a.x) ...). The engine
// computes a repeated aggregate once and reads it by the name of its first
// column; a later column that is that aggregate alone then looks to it
// like a reference to the first column's alias, which it refuses (1146).
// Each later copy is read through CASE WHEN TRUE THEN ... END, which keeps
// its type and value, under the name it had.
func repeatedAggregates(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if sel, ok := node.(*ast.Select); ok {
			unrepeatAggregates(sel)
		}
		return true, nil
	}, st)
}

func unrepeatAggregates(sel *ast.Select) {
	seen := map[string]bool{}
	for _, e := range sel.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok {
			continue
		}
		f, ok := ae.Expr.(*ast.FuncExpr)
		if !ok || f.Over != nil || !f.IsAggregate() {
			continue
		}
		key := unqualifiedText(f)
		if !seen[key] {
			seen[key] = true
			continue
		}
		if ae.As.IsEmpty() {
			name := ae.InputExpression
			if name == "" {
				name = ast.String(f)
			}
			ae.As = ast.NewColIdent(name)
		}
		var otherwise ast.Expr
		if f.Name.Lowered() == "count" {
			// A count is never NULL; the ELSE keeps its column NOT NULL.
			otherwise = ast.NewIntVal([]byte("0"))
		}
		ae.Expr = &ast.CaseExpr{Whens: []*ast.When{{Cond: ast.BoolVal(true), Val: f}}, Else: otherwise}
	}
}

// unqualifiedText is an expression's text in lower case with its columns'
// table names left out: the engine takes SUM(t.x) and SUM(x) for one
// aggregate when they read one column, and wrapping a copy that is not
// the same aggregate changes nothing.
func unqualifiedText(e ast.Expr) string {
	buf := ast.NewTrackedBuffer(func(buf *ast.TrackedBuffer, node ast.SQLNode) {
		if c, ok := node.(*ast.ColName); ok {
			buf.Myprintf("%v", c.Name)
			return
		}
		node.Format(buf)
	})
	buf.Myprintf("%v", e)
	return strings.ToLower(buf.String())
}
