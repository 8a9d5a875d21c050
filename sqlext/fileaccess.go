package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// fileAccessRule refuses the engine's server-side file statements (LOAD
// DATA INFILE, SELECT ... INTO OUTFILE or DUMPFILE, LOAD_FILE()) when the
// server has no import directory. The engine reads an unset
// secure_file_priv as "anywhere", so without this any user with the FILE
// privilege could read and write any file the server can; MySQL disables
// them when secure_file_priv is NULL, with the same error. LOAD DATA LOCAL,
// which reads the client's file, is not affected.
const fileAccessRule analyzer.RuleId = 9993

// erOptionPreventsStatement is MySQL's ER_OPTION_PREVENTS_STATEMENT.
const erOptionPreventsStatement = 1290

func (p *Provider) refuseFileAccess(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if p.importDir != "" {
		return n, transform.SameTree, nil
	}
	var what string
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.LoadData:
			if !n.Local {
				what = "LOAD DATA INFILE"
			}
		case *plan.Into:
			if n.Outfile != "" || n.Dumpfile != "" {
				what = "SELECT ... INTO OUTFILE"
			}
		}
		if ex, ok := n.(sql.Expressioner); ok && what == "" {
			for _, e := range ex.Expressions() {
				if transform.InspectExpr(e, func(e sql.Expression) bool {
					_, ok := e.(*function.LoadFile)
					return ok
				}) {
					what = "LOAD_FILE()"
				}
			}
		}
		return what == ""
	})
	if what != "" {
		return nil, transform.SameTree, mysql.NewSQLError(erOptionPreventsStatement, "HY000",
			"The server is running without --import-dir, so it cannot execute %s (server-side file access is off)", what)
	}
	return n, transform.SameTree, nil
}
