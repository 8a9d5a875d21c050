package sqlext

import (
	"cmp"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// addColumn runs ALTER TABLE ... ADD COLUMN on one of our tables, after
// the engine's own checks (rowexec's buildAddColumn). Table.AddColumn
// computes what the rows already there hold in the new column before
// anything changes, so that a value that does not fit fails the ALTER
// with the table as it was, and writes them itself. The engine, after
// AddColumn, filled every row again through an updater whose schema
// it had read before the column was there: with its own conversion of
// the default, which made a JSON column's SQL NULL a JSON null document;
// with the type's zero over the values of a NOT NULL generated column;
// and, for the second column of an ALTER that added two, with rows one
// column longer than the schema it held, which failed. Other engines'
// tables are left to the engine.
func addColumn(ctx *sql.Context, n *plan.AddColumn) (sql.RowIter, error) {
	col := n.Column()
	t, err := alteredBy(ctx, n)
	if t == nil || col == nil || err != nil {
		return nil, err
	}
	sch := n.TargetSchema()
	if o := n.Order(); o != nil && !o.First && sch.IndexOf(o.AfterColumn, t.Name()) < 0 {
		return nil, unknownColumn(o.AfterColumn, t.Name())
	}
	if err := n.ValidateDefaultPosition(sch); err != nil {
		return nil, err
	}
	if col.PrimaryKey || perRow(col) && t.info.Rows > 0 {
		// The rows gain new identities, or values computed for each, in
		// one log command (rebuild.go).
		return rebuildAlter(ctx, t, n)
	}
	if err := collateAsTable(col, t.Collation()); err != nil {
		return nil, err
	}
	if err := t.AddColumn(ctx, col, n.Order()); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// alteredBy is the table of ours, as it is now, that clause (a node of
// ALTER TABLE) alters, or nil for another engine's.
func alteredBy(ctx *sql.Context, clause sql.Node) (*Table, error) {
	d, ok := clause.(interface{ Database() sql.Database })
	children := clause.Children()
	if !ok || d.Database() == nil || len(children) != 1 {
		return nil, nil
	}
	named, ok := children[0].(sql.Nameable)
	if !ok {
		return nil, nil
	}
	tbl, found, err := d.Database().GetTableInsensitive(ctx, named.Name())
	if err != nil || !found {
		return nil, err
	}
	return storedTable(tbl), nil
}

// collateAsTable gives a text column declared without a collation the
// table's, as MySQL does when it creates the column (and the engine's
// buildAddColumn does).
func collateAsTable(col *sql.Column, table sql.CollationID) error {
	if ct, ok := col.Type.(sql.TypeWithCollation); ok && ct.Collation() == sql.Collation_Unspecified {
		typ, err := ct.WithNewCollation(table)
		if err != nil {
			return err
		}
		col.Type = typ
	}
	return nil
}

// addedValues says what the rows of a table laid out as sch hold in
// column once it is added at pos (last when -1): fill, the value the
// log command that adds the column writes in every row, and, where the
// rows differ, values, each row's own (values[i] for rows[i]), which
// replace fill. As in MySQL's ALTER TABLE, every value is computed
// before the table changes, and one that does not fit the column fails
// the statement: a stored generated column's or an expression
// default's value, computed from the row as it will be once the column
// is there; an AUTO_INCREMENT column numbering the rows in key order; a
// literal default; or, for a NOT NULL column without one, its type's
// implicit default.
//
// rows are needed only where perRow says so; otherwise exist says
// whether the table has any.
func addedValues(ctx *sql.Context, sch sql.Schema, column *sql.Column, pos int, rows []sql.Row, exist bool) (fill any, values []any, err error) {
	at := pos
	if at < 0 || at > len(sch) {
		at = len(sch)
	}
	switch d := computedPerRow(column); {
	case column.Virtual:
		// Computed when read; what is stored is never seen.
		return placeholder(column), nil, nil
	case len(rows) > 0 && column.AutoIncrement:
		values, err = numbered(ctx, sch, column, rows)
		return placeholder(column), values, err
	case len(rows) > 0 && d != nil:
		laid := slices.Insert(slices.Clone(sch), at, column)
		if d, err = boundTo(d, laid); err != nil {
			return nil, nil, err
		}
		fill = placeholder(column)
		values = make([]any, len(rows))
		for i, r := range rows {
			v, err := d.Expr.Eval(ctx, slices.Insert(slices.Clone(r), at, fill))
			if err != nil {
				return nil, nil, err
			}
			if values[i], err = storedValue(ctx, column, v, i+1); err != nil {
				return nil, nil, err
			}
		}
		return fill, values, nil
	case d != nil:
		return placeholder(column), nil, nil
	case column.Default != nil:
		v, err := column.Default.Expr.Eval(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		fill, err = storedValue(ctx, column, v, 1)
		return fill, nil, err
	case column.Nullable:
		return nil, nil, nil
	}
	fill, err = implicitDefault(column, exist)
	return fill, nil, err
}

// perRow says whether each row's value in column, once it is added, is
// its own, computed from the row or numbered.
func perRow(column *sql.Column) bool {
	return !column.Virtual && (column.AutoIncrement || computedPerRow(column) != nil)
}

// computedPerRow is the expression each row's value in column is
// computed by when the column is added, or nil: a stored generated
// column's, or an expression default's (DEFAULT (a + 1), or
// CURRENT_TIMESTAMP, which is no literal).
func computedPerRow(column *sql.Column) *sql.ColumnDefaultValue {
	switch {
	case column.Generated != nil:
		return column.Generated
	case column.Default != nil && !column.Default.IsLiteral():
		return column.Default
	}
	return nil
}

// boundTo is d reading the columns it names from rows laid out as sch.
// The engine resolves an added column's expression against one layout
// of the table or another depending on the clauses before it in the
// ALTER; binding by name does not depend on that.
func boundTo(d *sql.ColumnDefaultValue, sch sql.Schema) (*sql.ColumnDefaultValue, error) {
	e, err := boundByName(d.Expr, sch)
	if err != nil {
		return nil, err
	}
	out := *d
	out.Expr = e
	return &out, nil
}

// boundByName is e reading the columns it names from rows laid out as
// sch.
func boundByName(e sql.Expression, sch sql.Schema) (sql.Expression, error) {
	out, _, err := transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		i := sch.IndexOfColName(gf.Name())
		if i < 0 {
			return nil, transform.SameTree, mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'field list'", gf.Name())
		}
		return gf.WithIndex(i), transform.NewTree, nil
	})
	return out, err
}

// storedValue is v, computed for the column in the row-th row (from
// 1), as the column holds it, or MySQL's error in strict mode for a
// value it cannot hold. SQL NULL stays NULL: the engine's conversion
// made a JSON null document of it (see jsonnull.go).
func storedValue(ctx *sql.Context, column *sql.Column, v any, row int) (any, error) {
	if v == nil {
		if !column.Nullable {
			return nil, mysql.NewSQLError(mysql.ERBadNullError, "23000", "Column '%s' cannot be null", column.Name)
		}
		return nil, nil
	}
	out, inRange, err := column.Type.Convert(ctx, v)
	switch {
	case types.ErrLengthBeyondLimit.Is(err):
		return nil, mysql.NewSQLError(mysql.ERDataTooLong, "22001", "Data too long for column '%s' at row %d", column.Name, row)
	case sql.ErrValueOutOfRange.Is(err) || err == nil && inRange != sql.InRange:
		return nil, mysql.NewSQLError(mysql.ERWarnDataOutOfRange, "22003", "Out of range value for column '%s' at row %d", column.Name, row)
	case err != nil:
		return nil, err
	}
	return out, nil
}

// placeholder is a value column may hold until each row gets its own.
func placeholder(column *sql.Column) any {
	if column.Nullable {
		return nil
	}
	v, _ := implicitDefault(column, false)
	return v
}

// implicitDefault is what the rows already there hold in a NOT NULL
// column added without a default: MySQL's implicit default of its type
// ("Data Type Default Values"), which strict mode does not refuse for
// ALTER TABLE as it does for an INSERT without the column. That is 0,
// the empty string (zero bytes to a BINARY's length), the first member of an ENUM,
// and for JSON an empty value that
// MySQL reads as the JSON null literal (its Field_json reads an empty
// value so). The zero date is not: MySQL refuses ADD COLUMN of a
// NOT NULL DATE or DATETIME without a default on a table with rows in
// strict mode with NO_ZERO_DATE, its default, with error 1292 naming
// the zero value, and this server cannot hold a zero date or TIMESTAMP
// in any mode, so it refuses those three types (see
// docs/sql/compatibility.md).
func implicitDefault(column *sql.Column, rowsExist bool) (any, error) {
	switch t := column.Type; {
	case types.IsJSON(t):
		return types.JSONDocument{Val: nil}, nil
	case types.IsEnum(t):
		return uint16(1), nil
	case rowsExist && types.IsDateType(t):
		return nil, zeroDateRefused(column, "date", "0000-00-00")
	case rowsExist && (types.IsDatetimeType(t) || types.IsTimestampType(t)):
		return nil, zeroDateRefused(column, "datetime", "0000-00-00 00:00:00")
	}
	v, _, err := column.Type.Convert(sql.NewEmptyContext(), column.Type.Zero())
	return v, err
}

func zeroDateRefused(column *sql.Column, kind, zero string) error {
	return mysql.NewSQLError(erTruncatedWrongValue, "22007", "Incorrect %s value: '%s' for column '%s' at row 1", kind, zero, column.Name)
}

// numbered is 1, 2, ... for rows in the order of the table's primary
// key, or as stored for a table without one, as MySQL numbers the rows
// when it adds an AUTO_INCREMENT column.
func numbered(ctx *sql.Context, sch sql.Schema, column *sql.Column, rows []sql.Row) ([]any, error) {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	var pk []int
	for i, c := range sch {
		if c.PrimaryKey {
			pk = append(pk, i)
		}
	}
	var cmpErr error
	slices.SortStableFunc(order, func(a, b int) int {
		for _, c := range pk {
			n, err := sch[c].Type.Compare(ctx, rows[a][c], rows[b][c])
			if err != nil && cmpErr == nil {
				cmpErr = err
			}
			if n != 0 {
				return n
			}
		}
		return cmp.Compare(a, b)
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	values := make([]any, len(rows))
	for n, i := range order {
		v, err := storedValue(ctx, column, int64(n+1), n+1)
		if err != nil {
			return nil, err
		}
		values[i] = v
	}
	return values, nil
}
