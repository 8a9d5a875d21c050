package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// addFilledColumn runs ALTER TABLE ... ADD COLUMN of a column that
// Table.AddColumn fills in itself, row by row, on one of our tables: a
// stored generated column, or a JSON column with an expression default
// (see filledPerRow). The engine, after AddColumn, filled every row again
// when the column has a default or is NOT NULL: with the default
// converted to the column's type, which made a JSON column's SQL NULL a
// JSON null document (j IS NULL was false), and with the type's zero for
// a NOT NULL generated column, which overwrote the values computed. Here
// the column is added without that second pass, after the engine's own
// checks (rowexec's buildAddColumn). A JSON column with a literal default
// is filled by the log command that adds it, and skips the pass too.
// Other columns, and other engines' tables, are left to the engine.
func addFilledColumn(ctx *sql.Context, n *plan.AddColumn) (sql.RowIter, error) {
	col := n.Column()
	named, ok := n.Table.(sql.Nameable)
	if col == nil || n.Database() == nil || !ok {
		return nil, nil
	}
	if filledPerRow(col) == nil && (col.Default == nil || !types.IsJSON(col.Type)) {
		return nil, nil
	}
	tbl, found, err := n.Database().GetTableInsensitive(ctx, named.Name())
	if err != nil {
		return nil, err
	}
	alterable, ok := tbl.(sql.AlterableTable)
	if !found || !ok || storedTable(tbl) == nil {
		return nil, nil
	}
	sch := n.TargetSchema()
	if o := n.Order(); o != nil && !o.First && sch.IndexOf(o.AfterColumn, tbl.Name()) < 0 {
		return nil, sql.ErrTableColumnNotFound.New(tbl.Name(), o.AfterColumn)
	}
	if err := n.ValidateDefaultPosition(sch); err != nil {
		return nil, err
	}
	if err := alterable.AddColumn(ctx, col, n.Order()); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// filledPerRow is the expression Table.AddColumn computes for each row
// already there when column is added, or nil: a stored generated
// column's, and a JSON column's expression default (whose SQL NULL the
// engine's fill would make JSON null).
func filledPerRow(column *sql.Column) *sql.ColumnDefaultValue {
	switch {
	case column.Generated != nil && !column.Virtual:
		return column.Generated
	case column.Default != nil && !column.Default.IsLiteral() && types.IsJSON(column.Type):
		return column.Default
	}
	return nil
}
