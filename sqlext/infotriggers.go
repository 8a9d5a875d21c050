package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
)

// The engine's information_schema.TRIGGERS reads every database's
// triggers again in the session's current database, so a trigger of any
// other database named a table the current one lacks (1146), and a
// session without a current database read none (1046): tools that list
// triggers failed whenever two databases had them. triggerRows reads
// each database's triggers with that database current, as MySQL binds a
// trigger's statement in its own database (triggerRows).
func triggerRows(ctx *sql.Context, t infoTable, part sql.Partition) (sql.RowIter, error) {
	is, ok := t.Table.(*information_schema.InformationSchemaTable)
	if !ok || t.cat == nil || is.Reader == nil {
		return t.Table.PartitionRows(ctx, part)
	}
	current := ctx.GetCurrentDatabase()
	defer ctx.SetCurrentDatabase(current)
	var rows []sql.Row
	for _, db := range t.cat.AllDatabases(ctx) {
		if tdb, ok := db.(sql.TriggerDatabase); !ok {
			continue
		} else if defs, err := tdb.GetTriggers(ctx); err != nil || len(defs) == 0 {
			if err != nil {
				return nil, err
			}
			continue
		}
		ctx.SetCurrentDatabase(db.Name())
		iter, err := is.Reader(ctx, oneDatabase{Catalog: t.cat, db: db})
		if err != nil {
			return nil, err
		}
		some, err := sql.RowIterToRows(ctx, iter)
		if err != nil {
			return nil, err
		}
		rows = append(rows, some...)
	}
	return sql.RowsToRowIter(rows...), nil
}

// oneDatabase is a catalog whose databases are db alone.
type oneDatabase struct {
	sql.Catalog
	db sql.Database
}

func (c oneDatabase) AllDatabases(*sql.Context) []sql.Database { return []sql.Database{c.db} }
