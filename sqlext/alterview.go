package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"
)

// ALTER VIEW, which the parser refuses, is read as CREATE OR REPLACE VIEW
// with the same options and definition, as MySQL defines it; the view
// must exist (createView answers 1146 otherwise, as MySQL does, where
// CREATE OR REPLACE would create it).

// rewriteAlterView writes ALTER [ALGORITHM = a] [DEFINER = u] [SQL
// SECURITY s] VIEW ... as CREATE OR REPLACE with the same words, and
// marks the session's statement as an ALTER VIEW.
func rewriteAlterView(ctx context.Context, q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 2 || !toks[0].word || !strings.EqualFold(toks[0].text, "ALTER") {
		return "", false
	}
	for _, tk := range toks[1:] {
		if !tk.word {
			continue
		}
		switch strings.ToUpper(tk.text) {
		case "VIEW":
			if s, ok := ctx.(*sql.Context); ok {
				if sess, ok := s.Session.(*Session); ok {
					sess.rewroteAlterView = true
				}
			}
			return "CREATE OR REPLACE " + q[toks[1].start:], true
		case "TABLE", "DATABASE", "SCHEMA", "USER", "EVENT", "PROCEDURE", "FUNCTION", "INSTANCE", "SERVER", "TABLESPACE", "LOGFILE":
			return "", false
		}
	}
	return "", false
}

// noteAlterView marks the statement just parsed as an ALTER VIEW when
// rewriteAlterView wrote it, and as none otherwise.
func noteAlterView(s *Session) {
	s.alteringView, s.rewroteAlterView = s.rewroteAlterView, false
}

// alteredViewMissing refuses ALTER VIEW of a view that is not there.
func alteredViewMissing(ctx *sql.Context, n *plan.CreateView) error {
	s, ok := ctx.Session.(*Session)
	if !ok || !s.alteringView {
		return nil
	}
	s.alteringView = false
	db := n.Database()
	if vdb, ok := db.(sql.ViewDatabase); ok {
		if _, found, err := vdb.GetViewDefinition(ctx, n.Name); err != nil || found {
			return err
		}
	}
	return mysql.NewSQLError(mysql.ERNoSuchTable, "42S02", "Table '%s.%s' doesn't exist", db.Name(), n.Name)
}
