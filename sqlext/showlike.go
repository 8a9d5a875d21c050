package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// SHOW DATABASES LIKE 'p' and SHOW TABLES LIKE 'p' name their first
// column with the pattern, as MySQL does: "Database (p)", "Tables_in_db
// (p)". The engine named it as without the pattern. showLikeNames
// renames it.
const showLikeNamesRule analyzer.RuleId = 9941

func init() { onEveryStatement(showLikeNamesRule, showLikeNames) }

func showLikeNames(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !containsFold(ctx.Query(), "like") {
		return n, transform.SameTree, nil // the common case, at no cost
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		switch f.Child.(type) {
		case *plan.ShowDatabases, *plan.ShowTables:
		default:
			return n, transform.SameTree, nil
		}
		// The pattern as written: the engine has made LIKE of a pattern
		// without wildcards an equality by now, as it makes WHERE's.
		pattern, ok := likePattern(ctx.Query())
		if !ok {
			return n, transform.SameTree, nil
		}
		sch := f.Schema()
		cols := make([]sql.Expression, len(sch))
		for i, c := range sch {
			cols[i] = expression.NewGetFieldWithTable(i, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable)
		}
		cols[0] = expression.NewAlias(fmt.Sprintf("%s (%s)", sch[0].Name, pattern), cols[0])
		return plan.NewProject(cols, f), transform.NewTree, nil
	})
}

// likePattern is the pattern of the LIKE clause of a SHOW statement's
// text.
func likePattern(text string) (string, bool) {
	toks := sqlTokens(text)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].word && strings.EqualFold(toks[i].text, "LIKE") {
			if p := toks[i+1].text; !toks[i+1].word && len(p) >= 2 && (p[0] == '\'' || p[0] == '"') {
				return unquote(p), true
			}
			return "", false
		}
	}
	return "", false
}

// rewriteShowSchemas writes SHOW SCHEMAS LIKE ... and SHOW SCHEMAS WHERE
// ..., which the parser refuses (it reads SHOW SCHEMAS alone), as SHOW
// DATABASES, which MySQL takes them for.
func rewriteShowSchemas(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 3 || !toks[0].word || !strings.EqualFold(toks[0].text, "SHOW") || !strings.EqualFold(toks[1].text, "SCHEMAS") ||
		!strings.EqualFold(toks[2].text, "LIKE") && !strings.EqualFold(toks[2].text, "WHERE") {
		return q, false
	}
	return q[:toks[1].start] + "DATABASES" + q[toks[1].end:], true
}
