package sqlext

import (
	"fmt"
	"strconv"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// MySQL evaluates window functions after GROUP BY and HAVING, over the
// groups: SELECT g, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY g) ... GROUP BY
// g gives running totals of the counts, and RANK() OVER (ORDER BY
// COUNT(*) DESC) ranks the groups. The engine's planner refused any window
// function in a grouped query (1140, or "unable to find field").
// groupWindowed writes such a SELECT as the window query over a derived
// table that does the grouping: the derived table selects each GROUP BY
// expression and each aggregate, the outer query reads those in their
// place, takes the HAVING as its WHERE, and keeps the select list (with
// the column names as written), DISTINCT, windows, ORDER BY and LIMIT.

// groupedDerived names the derived table, and its columns are g0, g1,
// ... (GROUP BY expressions) and a0, a1, ... (aggregates).
const groupedDerived = "sqlearn_grouped"

// windowedSelects rewrites, in place, each SELECT of st as its window
// functions need: named windows written out (inlineNamedWindows), then a
// grouped SELECT over a derived table that groups (groupWindowed).
func windowedSelects(st ast.Statement) {
	var sels []*ast.Select
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if s, ok := node.(*ast.Select); ok {
			sels = append(sels, s)
		}
		return true, nil
	}, st)
	for _, s := range sels {
		inlineNamedWindows(s)
		groupWindowed(s)
	}
}

func groupWindowed(sel *ast.Select) {
	if sel.Into != nil || !hasWindow(sel) {
		return
	}
	aggs := aggregatesOf(sel)
	if len(sel.GroupBy) == 0 && len(aggs) == 0 {
		return
	}
	groups, ok := groupExprs(sel)
	if !ok {
		return
	}
	inner := &ast.Select{From: sel.From, Where: sel.Where, GroupBy: groups}
	col := func(name string) *ast.ColName {
		return &ast.ColName{Name: ast.NewColIdent(name), Qualifier: ast.TableName{Name: ast.NewTableIdent(groupedDerived)}}
	}
	var subs []substitution
	for i, g := range groups {
		name := fmt.Sprintf("g%d", i)
		inner.SelectExprs = append(inner.SelectExprs, &ast.AliasedExpr{Expr: g, As: ast.NewColIdent(name)})
		subs = append(subs, substitution{from: g, text: ast.String(g), to: col(name)})
	}
	for i, a := range aggs {
		name := fmt.Sprintf("a%d", i)
		inner.SelectExprs = append(inner.SelectExprs, &ast.AliasedExpr{Expr: a, As: ast.NewColIdent(name)})
		subs = append(subs, substitution{from: a, text: ast.String(a), to: col(name)})
	}
	outer := *sel
	outer.From = ast.TableExprs{&ast.AliasedTableExpr{Expr: &ast.Subquery{Select: inner}, As: ast.NewTableIdent(groupedDerived),
		Auth: ast.AuthInformation{AuthType: ast.AuthType_IGNORE}}}
	outer.Where, outer.GroupBy, outer.Having = nil, nil, nil
	names := tableNames(sel.From)
	for _, e := range outer.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok {
			continue
		}
		if c, ok := ae.Expr.(*ast.ColName); ok && ae.As.IsEmpty() {
			ae.As = c.Name // a column is named by its name, not the derived table's
		}
		correlatedSubstituted(ae.Expr, groups, subs, names)
		ae.Expr = substitute(ae.Expr, subs)
	}
	if sel.Having != nil {
		cond := aliasesExpanded(sel.Having.Expr, outer.SelectExprs)
		correlatedSubstituted(cond, groups, subs, names)
		outer.Where = &ast.Where{Type: ast.WhereStr, Expr: substitute(cond, subs)}
	}
	for _, o := range outer.OrderBy {
		correlatedSubstituted(o.Expr, groups, subs, names)
		o.Expr = substitute(o.Expr, subs)
	}
	for _, w := range outer.Window {
		windowSubstituted((*ast.Over)(w), subs)
	}
	*sel = outer
}

// hasWindow reports whether the select list or ORDER BY of sel holds a
// window function.
func hasWindow(sel *ast.Select) bool {
	return len(windowsOf(sel.SelectExprs, sel.OrderBy)) > 0
}

// windowsOf is the window of each window function in nodes, outside
// subqueries.
func windowsOf(nodes ...ast.SQLNode) []*ast.Over {
	var out []*ast.Over
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if n.Over != nil {
				out = append(out, n.Over)
			}
		}
		return true, nil
	}, nodes...)
	return out
}

// aggregatesOf is each aggregate call of the select list, HAVING, ORDER
// BY and WINDOW clause of sel, outside subqueries, in order, once per
// text.
func aggregatesOf(sel *ast.Select) []ast.Expr {
	var out []ast.Expr
	seen := map[string]bool{}
	var having ast.SQLNode
	if sel.Having != nil {
		having = sel.Having.Expr
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		var agg ast.Expr
		switch n := node.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if n.Over == nil && n.IsAggregate() {
				agg = n
			}
		case *ast.GroupConcatExpr:
			agg = n
		}
		if agg == nil {
			return true, nil
		}
		if text := ast.String(agg); !seen[text] {
			seen[text] = true
			out = append(out, agg)
		}
		return false, nil
	}, sel.SelectExprs, having, sel.OrderBy, sel.Window)
	return out
}

// groupExprs is the GROUP BY expressions of sel, positions and aliases
// read as the select list's expressions they name, and false when one
// cannot be read.
func groupExprs(sel *ast.Select) ([]ast.Expr, bool) {
	out := make([]ast.Expr, len(sel.GroupBy))
	for i, g := range sel.GroupBy {
		out[i] = g
		switch x := g.(type) {
		case *ast.SQLVal:
			if x.Type != ast.IntVal {
				continue
			}
			n, err := strconv.Atoi(string(x.Val))
			if err != nil || n < 1 || n > len(sel.SelectExprs) {
				return nil, false
			}
			ae, ok := sel.SelectExprs[n-1].(*ast.AliasedExpr)
			if !ok {
				return nil, false
			}
			out[i] = ae.Expr
		case *ast.ColName:
			if !x.Qualifier.IsEmpty() {
				continue
			}
			for _, e := range sel.SelectExprs {
				if ae, ok := e.(*ast.AliasedExpr); ok && ae.As.Equal(x.Name) {
					out[i] = ae.Expr
				}
			}
		}
	}
	return out, true
}

// substitution replaces an expression written as text by a column of the
// derived table.
type substitution struct {
	from ast.Expr
	text string
	to   ast.Expr
}

// substitute is e with each subexpression written as a substitution's
// text (outside subqueries, the largest first) replaced by its column;
// the windows of the window functions in e included.
func substitute(e ast.Expr, subs []substitution) ast.Expr {
	if e == nil {
		return nil
	}
	if to, ok := substitutionOf(e, subs); ok {
		return to
	}
	type replacement struct{ from, to ast.Expr }
	var found []replacement
	windows := windowsOf(e)
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if _, ok := node.(*ast.Subquery); ok {
			return false, nil
		}
		x, ok := node.(ast.Expr)
		if !ok || x == e {
			return true, nil
		}
		if to, ok := substitutionOf(x, subs); ok {
			found = append(found, replacement{x, to})
			return false, nil
		}
		return true, nil
	}, e)
	for _, r := range found {
		e = ast.ReplaceExpr(e, r.from, r.to)
	}
	for _, w := range windows {
		windowSubstituted(w, subs)
	}
	return e
}

func substitutionOf(e ast.Expr, subs []substitution) (ast.Expr, bool) {
	text := ast.String(e)
	for _, s := range subs {
		if s.text == text || sameColumn(e, s.from) {
			return s.to, true
		}
	}
	return nil, false
}

// sameColumn reports whether a and b name the same column, one of them
// perhaps without its table (GROUP BY t.g and SELECT g).
func sameColumn(a, b ast.Expr) bool {
	x, ok := a.(*ast.ColName)
	y, ok2 := b.(*ast.ColName)
	if !ok || !ok2 || !x.Name.Equal(y.Name) {
		return false
	}
	return x.Qualifier.IsEmpty() || y.Qualifier.IsEmpty() || strings.EqualFold(x.Qualifier.Name.String(), y.Qualifier.Name.String())
}

// windowSubstituted substitutes in the PARTITION BY and ORDER BY of w,
// which the expression replacement does not reach.
func windowSubstituted(w *ast.Over, subs []substitution) {
	if w == nil {
		return
	}
	for i, p := range w.PartitionBy {
		w.PartitionBy[i] = substitute(p, subs)
	}
	for _, o := range w.OrderBy {
		o.Expr = substitute(o.Expr, subs)
	}
}

// aliasesExpanded is e with each bare column name that is an alias of
// the select list replaced by the aliased expression, as HAVING reads
// them.
func aliasesExpanded(e ast.Expr, sel ast.SelectExprs) ast.Expr {
	aliases := map[string]ast.Expr{}
	for _, s := range sel {
		if ae, ok := s.(*ast.AliasedExpr); ok && !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	if len(aliases) == 0 {
		return e
	}
	if c, ok := e.(*ast.ColName); ok && c.Qualifier.IsEmpty() && aliases[c.Name.Lowered()] != nil {
		return aliases[c.Name.Lowered()]
	}
	var found []*ast.ColName
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.ColName:
			if n.Qualifier.IsEmpty() && aliases[n.Name.Lowered()] != nil {
				found = append(found, n)
			}
		}
		return true, nil
	}, e)
	for _, c := range found {
		e = ast.ReplaceExpr(e, c, aliases[c.Name.Lowered()])
	}
	return e
}

// correlatedSubstituted replaces, in each subquery within e, the columns
// of the grouped tables (names) that a GROUP BY expression of groups
// names with the derived table's column, so that a correlated subquery
// (SELECT COUNT(*) FROM b WHERE b.v = a.g) reads the group's value: the
// tables it referred to are inside the derived table now. A column is
// taken as the outer table's only when it is qualified by that table's
// name and the subquery has no table of that name itself.
func correlatedSubstituted(e ast.Expr, groups []ast.Expr, subs []substitution, names map[string]bool) {
	if e == nil || len(names) == 0 {
		return
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		sq, ok := node.(*ast.Subquery)
		if !ok {
			return true, nil
		}
		inner, ok := sq.Select.(*ast.Select)
		if !ok {
			return false, nil
		}
		own := tableNames(inner.From)
		_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
			c, ok := node.(*ast.ColName)
			if !ok || c.Qualifier.IsEmpty() {
				return true, nil
			}
			if q := strings.ToLower(c.Qualifier.Name.String()); !names[q] || own[q] {
				return true, nil
			}
			for i, g := range groups {
				if sameColumn(c, g) {
					// The column in place, wherever the subquery reads it.
					to := subs[i].to.(*ast.ColName)
					c.Name, c.Qualifier = to.Name, to.Qualifier
					break
				}
			}
			return true, nil
		}, inner.SelectExprs, inner.Where, inner.Having, inner.OrderBy)
		return false, nil
	}, e)
}

// tableNames are the names by which from's tables are read (their
// aliases, or their names), in lower case.
func tableNames(from ast.TableExprs) map[string]bool {
	out := map[string]bool{}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch t := node.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.AliasedTableExpr:
			if !t.As.IsEmpty() {
				out[strings.ToLower(t.As.String())] = true
			} else if tn, ok := t.Expr.(ast.TableName); ok {
				out[strings.ToLower(tn.Name.String())] = true
			}
		}
		return true, nil
	}, from)
	return out
}
