package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
)

// statisticsTable is the engine's information_schema.STATISTICS with
// MySQL's SUB_PART: NULL for a whole column in a key with a prefix of
// another column, where the engine gave 0 (KEY (a, b(20)) had a 0 for a).
type statisticsTable struct{ sql.Table }

var _ sql.CatalogTable = statisticsTable{}

func (t statisticsTable) AssignCatalog(cat sql.Catalog) sql.Table {
	if c, ok := t.Table.(sql.CatalogTable); ok {
		return statisticsTable{Table: c.AssignCatalog(cat)}
	}
	return t
}

func (t statisticsTable) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	rows, err := partitionRows(ctx, t.Table, part)
	if err != nil {
		return nil, err
	}
	if sub := t.Table.Schema().IndexOfColName("SUB_PART"); sub >= 0 {
		for _, r := range rows {
			if n, ok := r[sub].(int64); ok && n == 0 {
				r[sub] = nil
			}
		}
	}
	return sql.RowsToRowIter(rows...), nil
}
