package sqlext

import (
	"context"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// GROUP BY ... WITH ROLLUP adds to a grouped SELECT a row per group of
// its leading GROUP BY columns, and one for all rows, with NULL in the
// columns rolled up (subtotals and a grand total). The engine's parser
// has no ROLLUP, so such a statement was a syntax error. A statement the
// parser refuses that ends its GROUP BY with WITH ROLLUP is written as the
// union of one SELECT per level, from all the GROUP BY columns down to
// none, ordered as MySQL orders them (each group followed by its
// subtotal, a group of NULLs before the others) unless the statement
// orders its rows itself. In a level's SELECT the rolled-up GROUP BY
// columns read as NULL outside aggregates, and GROUPING() of them as 1
// (the engine has no GROUPING()); each level carries, in columns of its
// own, whether it rolled up each GROUP BY column and the column's value,
// which order the rows and which GROUPING() reads in ORDER BY.
// Supported: one SELECT, whose GROUPING() arguments are GROUP BY
// columns.

// rewriteRollup is query with its WITH ROLLUP written as a union, and
// whether it had one that could be written so.
func rewriteRollup(ctx context.Context, parser sql.Parser, query string) (string, bool) {
	toks := sqlTokens(query)
	at := -1
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].word && strings.EqualFold(toks[i].text, "WITH") && toks[i+1].word && strings.EqualFold(toks[i+1].text, "ROLLUP") {
			at = i
			break
		}
	}
	if at < 0 {
		return "", false
	}
	plain := query[:toks[at].start] + query[toks[at+1].end:]
	rest := ""
	parse := func() (*ast.Select, bool) {
		st, end, err := parser.ParseOneWithOptions(ctx, plain, ast.ParserOptions{})
		if err == nil && end > 0 && end < len(plain) {
			// The statements after it in a query of several.
			rest = strings.TrimLeft(plain[end:], "; \t\r\n")
		}
		sel, ok := st.(*ast.Select)
		return sel, err == nil && ok && len(sel.GroupBy) > 0 && sel.Into == nil && sel.With == nil
	}
	top, ok := parse()
	if !ok {
		return "", false
	}
	// The name of each output column.
	names := make([]string, len(top.SelectExprs))
	for i, se := range top.SelectExprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return "", false
		}
		names[i] = ae.As.String()
		if c, bare := ae.Expr.(*ast.ColName); bare && names[i] == "" {
			// A column is named as written, without its quotes: the
			// parser's text of a keyword (status) kept them.
			names[i] = c.Name.String()
		}
		if names[i] == "" {
			names[i] = ae.InputExpression
		}
		if names[i] == "" {
			names[i] = ast.String(ae.Expr)
		}
	}
	// The select expression each GROUP BY column is, by its text or its
	// alias, or -1 for one the select list does not show.
	groupCol := make([]int, len(top.GroupBy))
	for g, e := range top.GroupBy {
		groupCol[g] = -1
		for i, se := range top.SelectExprs {
			ae := se.(*ast.AliasedExpr)
			if ast.String(ae.Expr) == ast.String(e) || (ae.As.String() != "" && strings.EqualFold(ae.As.String(), ast.String(e))) {
				groupCol[g] = i
				break
			}
		}
	}
	// groupOf is the GROUP BY column an argument of GROUPING() names,
	// by its text or its column's alias, or -1.
	groupOf := func(e ast.Expr) int {
		for g, ge := range top.GroupBy {
			if ast.String(e) == ast.String(ge) {
				return g
			}
			if c, ok := e.(*ast.ColName); ok && c.Qualifier.IsEmpty() && groupCol[g] >= 0 && strings.EqualFold(c.Name.String(), names[groupCol[g]]) {
				return g
			}
		}
		return -1
	}
	orderBy, limit := top.OrderBy, top.Limit
	// In ORDER BY, GROUPING() reads the columns that say which GROUP BY
	// columns a row rolled up.
	for _, o := range orderBy {
		var ok bool
		if o.Expr, ok = replaceGrouping(o.Expr, groupOf, func(g int) ast.Expr { return &ast.ColName{Name: ast.NewColIdent(rolledUp(g))} }); !ok {
			return "", false
		}
	}
	var branches []string
	for keep := len(top.GroupBy); keep >= 0; keep-- {
		sel, _ := parse()
		sel.OrderBy, sel.Limit = nil, nil
		// In a branch, GROUPING() is a constant: 1 for the columns it
		// rolls up, whose values are NULL outside aggregates.
		rolledHere := func(g int) ast.Expr {
			if g >= keep {
				return ast.NewIntVal([]byte("1"))
			}
			return ast.NewIntVal([]byte("0"))
		}
		rolled := sel.GroupBy[keep:]
		for i, se := range sel.SelectExprs {
			ae := se.(*ast.AliasedExpr)
			ae.As = ast.NewColIdent(names[i])
			var ok bool
			if ae.Expr, ok = replaceGrouping(ae.Expr, groupOf, rolledHere); !ok {
				return "", false
			}
			for g := keep; g < len(sel.GroupBy); g++ {
				if groupCol[g] == i {
					ae.Expr = &ast.NullVal{}
				}
			}
			ae.Expr = nullRolledUp(ae.Expr, rolled)
		}
		if sel.Having != nil {
			var ok bool
			if sel.Having.Expr, ok = replaceGrouping(sel.Having.Expr, groupOf, rolledHere); !ok {
				return "", false
			}
			sel.Having.Expr = nullRolledUp(sel.Having.Expr, rolled)
		}
		for g, ge := range top.GroupBy {
			var value ast.Expr = &ast.NullVal{}
			if g < keep {
				value = ge
				if c := groupCol[g]; c >= 0 {
					value = top.SelectExprs[c].(*ast.AliasedExpr).Expr
				}
			}
			sel.SelectExprs = append(sel.SelectExprs,
				&ast.AliasedExpr{Expr: rolledHere(g), As: ast.NewColIdent(rolledUp(g))},
				&ast.AliasedExpr{Expr: value, As: ast.NewColIdent(groupValue(g))})
		}
		sel.GroupBy = sel.GroupBy[:keep]
		if keep == 0 {
			// The grand total, of no GROUP BY, answers a row even of no
			// rows; MySQL adds no row to the groups of no rows.
			some := &ast.ComparisonExpr{Operator: ast.GreaterThanStr, Right: ast.NewIntVal([]byte("0")),
				Left: &ast.FuncExpr{Name: ast.NewColIdent("count"), Exprs: ast.SelectExprs{&ast.StarExpr{}}}}
			if sel.Having == nil {
				sel.Having = ast.NewWhere(ast.HavingStr, some)
			} else {
				sel.Having.Expr = &ast.AndExpr{Left: sel.Having.Expr, Right: some}
			}
		}
		branches = append(branches, ast.String(sel))
	}
	var order []string
	if len(orderBy) > 0 {
		order = append(order, strings.TrimPrefix(ast.String(orderBy), " order by "))
	} else {
		// Each group before its subtotal, a group of NULLs first as
		// NULL sorts first: whether a row is a subtotal of a column is
		// told by a column of its own, not by the NULL it shows.
		for g := range groupCol {
			order = append(order, rolledUp(g), groupValue(g))
		}
	}
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = quoteIdent(n)
	}
	out := "SELECT " + strings.Join(cols, ", ") + " FROM (" + strings.Join(branches, " UNION ALL ") + ") AS sqlearn_rollup ORDER BY " + strings.Join(order, ", ")
	if limit != nil {
		out += ast.String(limit)
	}
	if rest != "" {
		out += "; " + rest
	}
	return out, true
}

// replaceGrouping is e with each GROUPING(x, y, ...) in it written as
// MySQL computes it: a number whose bits, the last argument's lowest,
// say which of its arguments are rolled up in a row. groupOf finds the
// GROUP BY column an argument is, rolled the expression that says
// whether that column is rolled up (a 0 or 1 constant, or a column
// holding one). ok
// is false when an argument is no GROUP BY column.
func replaceGrouping(e ast.Expr, groupOf func(ast.Expr) int, rolled func(g int) ast.Expr) (ast.Expr, bool) {
	var calls []*ast.FuncExpr
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && f.Name.EqualString("grouping") && f.Qualifier.IsEmpty() {
			calls = append(calls, f)
			return false, nil
		}
		return true, nil
	}, e)
	for _, f := range calls {
		var bits ast.Expr
		for i, a := range f.Exprs {
			ae, ok := a.(*ast.AliasedExpr)
			if !ok {
				return e, false
			}
			g := groupOf(ae.Expr)
			if g < 0 {
				return e, false
			}
			bit := rolled(g)
			if shift := len(f.Exprs) - 1 - i; shift > 0 {
				bit = &ast.BinaryExpr{Operator: ast.ShiftLeftStr, Left: bit, Right: ast.NewIntVal([]byte(strconv.Itoa(shift)))}
			}
			if bits == nil {
				bits = bit
			} else {
				bits = &ast.BinaryExpr{Operator: ast.BitOrStr, Left: bits, Right: bit}
			}
		}
		if bits == nil {
			return e, false
		}
		e = ast.ReplaceExpr(e, f, &ast.ParenExpr{Expr: bits})
	}
	return e, true
}

// nullRolledUp is e with each of the rolled-up GROUP BY expressions it
// reads outside an aggregate written as NULL, as a subtotal row shows
// them (an aggregate reads the rows' values).
func nullRolledUp(e ast.Expr, rolled ast.GroupBy) ast.Expr {
	if len(rolled) == 0 {
		return e
	}
	var found []ast.Expr
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if x, ok := n.(ast.Expr); ok {
			for _, r := range rolled {
				if ast.String(x) == ast.String(r) {
					found = append(found, x)
					return false, nil
				}
			}
		}
		switch n := n.(type) {
		case *ast.FuncExpr:
			return !n.IsAggregate() && n.Over == nil, nil
		case *ast.GroupConcatExpr, *ast.Subquery:
			return false, nil
		}
		return true, nil
	}, e)
	for _, f := range found {
		e = ast.ReplaceExpr(e, f, &ast.NullVal{})
	}
	return e
}

// groupValue names the column that holds the g-th GROUP BY column's
// value in a branch (NULL where it is rolled up), which the rows are
// ordered by.
func groupValue(g int) string { return "sqlearn_group_" + strconv.Itoa(g) }

// rolledUp names the column that says a row is a subtotal over the g-th
// GROUP BY column.
func rolledUp(g int) string { return "sqlearn_rolled_up_" + strconv.Itoa(g) }

func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
