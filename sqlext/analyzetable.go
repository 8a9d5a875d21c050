package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
)

// execOverrides builds the nodes whose execution the engine gets wrong;
// every other node it leaves to the engine (Build returns no iterator).
type execOverrides struct{}

func newExecBuilder() sql.NodeExecBuilder { return rowexec.NewOverrideBuilder(execOverrides{}) }

func (execOverrides) Build(ctx *sql.Context, n sql.Node, _ sql.Row) (sql.RowIter, error) {
	if a, ok := n.(*plan.AnalyzeTable); ok {
		return analyzeTables(ctx, a), nil
	}
	return nil, nil
}

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
