package sqlext

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
)

// CreateTime is when the table was created (CREATE TABLE, or the CREATE
// of a temporary table); ok is false for a table created before the time
// was recorded.
func (t *Table) CreateTime() (created time.Time, ok bool) {
	m := parseTableMeta(t.info.Schema.Meta)
	if m.Created == 0 {
		return time.Time{}, false
	}
	return time.Unix(m.Created, 0).UTC(), true
}

// information_schema.TABLES gives each stored table the time it was
// created as its CREATE_TIME, and an UPDATE_TIME of NULL (not kept, as
// InnoDB's is not across a restart); the engine gave every table
// 2000-01-01 for both.
func init() {
	engineTables := information_schema.NewTablesTable
	information_schema.NewTablesTable = func() *information_schema.InformationSchemaTable {
		t := engineTables()
		read := t.Reader
		sch := t.TableSchema
		at := func(name string) int { return sch.IndexOfColName(name) }
		dbCol, nameCol, created, updated := at("TABLE_SCHEMA"), at("TABLE_NAME"), at("CREATE_TIME"), at("UPDATE_TIME")
		if read == nil || min(dbCol, nameCol, created, updated) < 0 {
			return t
		}
		t.Reader = func(ctx *sql.Context, cat sql.Catalog) (sql.RowIter, error) {
			rows, err := read(ctx, cat)
			if err != nil {
				return nil, err
			}
			all, err := sql.RowIterToRows(ctx, rows)
			if err != nil {
				return nil, err
			}
			for _, r := range all {
				db, _ := r[dbCol].(string)
				name, _ := r[nameCol].(string)
				st := storedTableNamed(ctx, cat, db, name)
				if st == nil {
					continue
				}
				if when, ok := st.CreateTime(); ok {
					r[created] = when
				}
				r[updated] = nil
			}
			return sql.RowsToRowIter(all...), nil
		}
		return t
	}
}

// storedTableNamed finds a stored table by name: nil for views, system
// tables and tables that have gone.
func storedTableNamed(ctx *sql.Context, cat sql.Catalog, db, name string) *Table {
	if db == "" || name == "" {
		return nil
	}
	t, _, err := cat.Table(ctx, db, name)
	if err != nil {
		return nil
	}
	return storedTable(t)
}
