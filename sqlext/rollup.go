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
// orders its rows itself. Supported: one SELECT whose GROUP BY columns
// all appear in its select list.

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
	// The output column of each GROUP BY column, found by its text.
	names := make([]string, len(top.SelectExprs))
	for i, se := range top.SelectExprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return "", false
		}
		names[i] = ae.As.String()
		if names[i] == "" {
			names[i] = ae.InputExpression
		}
		if names[i] == "" {
			names[i] = ast.String(ae.Expr)
		}
	}
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
		if groupCol[g] < 0 {
			return "", false
		}
	}
	orderBy, limit := top.OrderBy, top.Limit
	var branches []string
	for keep := len(top.GroupBy); keep >= 0; keep-- {
		sel, _ := parse()
		sel.OrderBy, sel.Limit = nil, nil
		for i, se := range sel.SelectExprs {
			ae := se.(*ast.AliasedExpr)
			ae.As = ast.NewColIdent(names[i])
			for g := keep; g < len(sel.GroupBy); g++ {
				if groupCol[g] == i {
					ae.Expr = &ast.NullVal{}
				}
			}
		}
		for g := range sel.GroupBy {
			rolled := "0"
			if g >= keep {
				rolled = "1"
			}
			sel.SelectExprs = append(sel.SelectExprs, &ast.AliasedExpr{Expr: ast.NewIntVal([]byte(rolled)), As: ast.NewColIdent(rolledUp(g))})
		}
		sel.GroupBy = sel.GroupBy[:keep]
		branches = append(branches, ast.String(sel))
	}
	var order []string
	if len(orderBy) > 0 {
		order = append(order, strings.TrimPrefix(ast.String(orderBy), " order by "))
	} else {
		// Each group before its subtotal, a group of NULLs first as
		// NULL sorts first: whether a row is a subtotal of a column is
		// told by a column of its own, not by the NULL it shows.
		for g, c := range groupCol {
			order = append(order, rolledUp(g), quoteIdent(names[c]))
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

// rolledUp names the column that says a row is a subtotal over the g-th
// GROUP BY column.
func rolledUp(g int) string { return "sqlearn_rolled_up_" + strconv.Itoa(g) }

func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
