package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// infoTable is one of the engine's information_schema tables with its
// rows as rows reads them (statisticsRows, pluginRows, triggerRows).
type infoTable struct {
	sql.Table
	cat  sql.Catalog
	rows func(ctx *sql.Context, t infoTable, part sql.Partition) (sql.RowIter, error)
}

var _ sql.CatalogTable = infoTable{}

func (t infoTable) AssignCatalog(cat sql.Catalog) sql.Table {
	if c, ok := t.Table.(sql.CatalogTable); ok {
		t.Table = c.AssignCatalog(cat)
	}
	t.cat = cat
	return t
}

func (t infoTable) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	return t.rows(ctx, t, part)
}

// statisticsRows are the engine's information_schema.STATISTICS with
// MySQL's SUB_PART: NULL for a whole column in a key with a prefix of
// another column, where the engine gave 0 (KEY (a, b(20)) had a 0 for a).
func statisticsRows(ctx *sql.Context, t infoTable, part sql.Partition) (sql.RowIter, error) {
	rows, err := partitionRows(ctx, t.Table, part)
	if err != nil {
		return nil, err
	}
	sch := t.Table.Schema()
	if sub := sch.IndexOfColName("SUB_PART"); sub >= 0 {
		for _, r := range rows {
			if n, ok := r[sub].(int64); ok && n == 0 {
				r[sub] = nil
			}
		}
	}
	s, ok := ctx.Session.(*Session)
	if ok && s.p != nil {
		rows = append(rows, s.p.fulltextStatistics(sch)...)
	}
	db, table, index, seq, card := sch.IndexOfColName("TABLE_SCHEMA"), sch.IndexOfColName("TABLE_NAME"),
		sch.IndexOfColName("INDEX_NAME"), sch.IndexOfColName("SEQ_IN_INDEX"), sch.IndexOfColName("CARDINALITY")
	if !ok || s.p == nil || min(db, table, index, seq, card) < 0 {
		return sql.RowsToRowIter(rows...), nil
	}
	for _, r := range rows {
		d, _ := r[db].(string)
		tn, _ := r[table].(string)
		x, _ := r[index].(string)
		n, _, err := types.Int64.Convert(ctx, r[seq])
		if err != nil {
			continue
		}
		if c, ok := s.p.cardinality(d, tn, x, int(n.(int64))); ok {
			r[card] = c
		}
	}
	return sql.RowsToRowIter(rows...), nil
}
