package sqlext

import (
	"sort"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// SHOW TABLE STATUS names its last column Comment, as MySQL does; the
// engine called it Comments, so a tool reading the column by name, or a
// WHERE Comment = ..., found nothing.
func init() {
	for _, c := range (&plan.ShowTableStatus{}).Schema() {
		if c.Name == "Comments" {
			c.Name = "Comment"
		}
	}
}

// showTableStatus is SHOW TABLE STATUS as MySQL 8 answers it: each table's
// next AUTO_INCREMENT value (NULL without such a column), its creation
// time, InnoDB's Dynamic row format, the table's comment, and a row for each view (all
// NULL but its name and the comment VIEW), in name order. The engine gave
// every table a NULL counter, the Fixed format and no comment, and left
// views out, so tools that list a schema's tables through it showed no
// views.
func showTableStatus(ctx *sql.Context, n *plan.ShowTableStatus) (sql.RowIter, error) {
	db := n.Database()
	names, err := db.GetTableNames(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([]sql.Row, 0, len(names))
	for _, name := range names {
		t, _, err := n.Catalog.Table(ctx, db.Name(), name)
		if err != nil {
			return nil, err
		}
		var count, length uint64
		if st, ok := t.(sql.StatisticsTable); ok {
			if count, _, err = st.RowCount(ctx); err != nil {
				return nil, err
			}
			if length, err = st.DataLength(ctx); err != nil {
				return nil, err
			}
		}
		var avg uint64
		if count > 0 {
			avg = length / count
		}
		var next any
		if at, ok := t.(sql.AutoIncrementTable); ok && t.Schema().HasAutoIncrement() {
			v, err := at.PeekNextAutoIncrementValue(ctx)
			if err != nil {
				return nil, err
			}
			next = v
		}
		comment := ""
		if ct, ok := t.(sql.CommentedTable); ok {
			comment = ct.Comment()
		}
		var created any
		if st := storedTable(t); st != nil {
			if when, ok := st.CreateTime(); ok {
				created = when
			}
		}
		rows = append(rows, sql.Row{name, "InnoDB", "10", "Dynamic", count, avg, length, uint64(0), int64(0), int64(0),
			next, created, nil, nil, t.Collation().String(), nil, "", comment})
	}
	if vdb, ok := db.(sql.ViewDatabase); ok {
		views, err := vdb.AllViews(ctx)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			rows = append(rows, sql.Row{v.Name, nil, nil, nil, nil, nil, nil, nil, nil, nil,
				nil, nil, nil, nil, nil, nil, nil, "VIEW"})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
	return sql.RowsToRowIter(rows...), nil
}
