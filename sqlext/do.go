package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// DO expr[, expr ...] evaluates its expressions and returns no result, as
// scripts use it for DO SLEEP(1) or DO RELEASE_LOCK('name'); the parser
// refuses it. rewriteDo writes it as a SET of each expression, in order,
// to the user variable @sqlearn_do, which runs them and answers OK. A query
// holding more statements after the DO is left alone.
// doVariable is the user variable DO assigns.
const doVariable = "sqlearn_do"

func rewriteDo(ctx context.Context, parser sql.Parser, query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 2 || !toks[0].word || !strings.EqualFold(toks[0].text, "DO") {
		return "", false
	}
	sel := "SELECT " + query[toks[1].start:]
	st, end, err := parser.ParseOneWithOptions(ctx, sel, ast.ParserOptions{})
	if err != nil || (end > 0 && strings.TrimLeft(sel[end:], "; \t\r\n") != "") {
		return "", false
	}
	s, ok := st.(*ast.Select)
	if !ok || s.From != nil && len(s.From) > 0 || s.Where != nil || s.Into != nil || s.With != nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString("SET ")
	for i, e := range s.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return "", false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("@" + doVariable + " = (" + ast.String(ae.Expr) + ")")
	}
	return b.String(), true
}
