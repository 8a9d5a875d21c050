package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
)

// information_schema.COLUMNS gives a TIME(n) column its n as its
// DATETIME_PRECISION; the engine's table knew only its own TIME, of six
// digits, and gave other types' none. It also gives a TEXT column
// (TINYTEXT, TEXT, MEDIUMTEXT, LONGTEXT) a CHARACTER_MAXIMUM_LENGTH of
// its length in bytes, the same as its CHARACTER_OCTET_LENGTH (65535 for
// a TEXT), as MySQL and MariaDB do whatever the character set; the engine
// divided it by the character set's widest character (16383 for a
// utf8mb4 TEXT), which schema tools then read as a VARCHAR-sized column.
// CHAR and VARCHAR keep their length in characters.
func init() {
	engineColumns := information_schema.NewColumnsTable
	information_schema.NewColumnsTable = func() *information_schema.ColumnsTable {
		t := engineColumns()
		rows := t.RowIter
		at := t.TableSchema.IndexOfColName
		c := columnFixes{precision: at("DATETIME_PRECISION"), colType: at("COLUMN_TYPE"),
			dataType: at("DATA_TYPE"), chars: at("CHARACTER_MAXIMUM_LENGTH"), octets: at("CHARACTER_OCTET_LENGTH")}
		if rows == nil || min(c.precision, c.colType, c.dataType, c.chars, c.octets) < 0 {
			return t
		}
		t.RowIter = func(ctx *sql.Context, cat sql.Catalog, sch sql.Schema) (sql.RowIter, error) {
			iter, err := rows(ctx, cat, sch)
			if err != nil {
				return nil, err
			}
			fixed := c
			fixed.RowIter = iter
			return &fixed, nil
		}
		return t
	}
}

// columnFixes is the rows of information_schema.COLUMNS with the
// DATETIME_PRECISION of each TIME(n) column and the character length of
// each TEXT column as MySQL gives them.
type columnFixes struct {
	sql.RowIter
	precision, colType, dataType, chars, octets int
}

func (c *columnFixes) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := c.RowIter.Next(ctx)
	if err != nil || len(row) <= max(c.precision, c.colType, c.dataType, c.chars, c.octets) {
		return row, err
	}
	if text, ok := row[c.colType].(string); ok && strings.HasPrefix(text, "time") {
		if t, err := parseColumnType(text); err == nil {
			if tt, ok := t.(timeType); ok {
				row[c.precision] = tt.fsp
			}
		}
	}
	switch row[c.dataType] {
	case "tinytext", "text", "mediumtext", "longtext":
		row[c.chars] = row[c.octets]
	}
	return row, nil
}

// timeDefault is colDefault, the default SHOW CREATE TABLE writes for
// col, with a TIME(n) column's written with n digits; the engine wrote
// the value with six, or none.
func timeDefault(col *sql.Column, colDefault string) string {
	tt, ok := col.Type.(timeType)
	if !ok || len(colDefault) < 2 || colDefault[0] != '\'' || colDefault[len(colDefault)-1] != '\'' {
		return colDefault
	}
	ts, err := timespanOfText(colDefault[1 : len(colDefault)-1])
	if err != nil {
		return colDefault
	}
	return timeLiteral(ts, tt.fsp)
}
