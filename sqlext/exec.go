package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/vitess/go/mysql"
)

// execOverrides builds the nodes whose execution the engine gets wrong;
// every other node it leaves to the engine (Build returns no iterator).
type execOverrides struct{}

func newExecBuilder() sql.NodeExecBuilder { return rowexec.NewOverrideBuilder(execOverrides{}) }

func (execOverrides) Build(ctx *sql.Context, n sql.Node, _ sql.Row) (sql.RowIter, error) {
	switch n := n.(type) {
	case *plan.AnalyzeTable:
		return analyzeTables(ctx, n), nil
	case *plan.Kill:
		if err := checkKill(ctx, n); err != nil {
			return nil, err
		}
	case *plan.RenameTable:
		if err := refuseCrossDatabaseRename(ctx); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// checkKill refuses KILL of a connection that does not exist, which the
// engine acknowledges as if it had killed it, with MySQL's error 1094.
// The engine then kills an existing one.
func checkKill(ctx *sql.Context, n *plan.Kill) error {
	for _, p := range ctx.ProcessList.Processes() {
		if p.Connection == n.ConnID {
			return nil
		}
	}
	return mysql.NewSQLError(erNoSuchThread, "HY000", "Unknown thread id: %d", n.ConnID)
}

// erNoSuchThread is MySQL's ER_NO_SUCH_THREAD.
const erNoSuchThread = 1094

// analyzeTables runs ANALYZE TABLE. The engine's own execution refuses
// to run without a current database and collects every table's
// statistics under the current database's name, even for a table named
// with another; here each table is analysed under its own database, and
// named in the result as MySQL names it, db.table.
func analyzeTables(ctx *sql.Context, a *plan.AnalyzeTable) sql.RowIter {
	rows := make([]sql.Row, 0, len(a.Tables))
	for _, t := range a.Tables {
		db := a.Db
		if st, ok := t.(*Table); ok {
			db = st.info.DB
		}
		msgType, msg := "status", "OK"
		if err := a.Stats.AnalyzeTable(ctx, t, db); err != nil {
			msgType, msg = "Error", err.Error()
		}
		rows = append(rows, sql.Row{db + "." + t.Name(), "analyze", msgType, msg})
	}
	return sql.RowsToRowIter(rows...)
}
