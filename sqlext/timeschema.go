package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
)

// information_schema.COLUMNS gives a TIME(n) column its n as its
// DATETIME_PRECISION; the engine's table knew only its own TIME, of six
// digits, and gave other types' none.
func init() {
	engineColumns := information_schema.NewColumnsTable
	information_schema.NewColumnsTable = func() *information_schema.ColumnsTable {
		t := engineColumns()
		rows := t.RowIter
		precision, colType := t.TableSchema.IndexOfColName("DATETIME_PRECISION"), t.TableSchema.IndexOfColName("COLUMN_TYPE")
		if rows == nil || precision < 0 || colType < 0 {
			return t
		}
		t.RowIter = func(ctx *sql.Context, cat sql.Catalog, sch sql.Schema) (sql.RowIter, error) {
			iter, err := rows(ctx, cat, sch)
			if err != nil {
				return nil, err
			}
			return &timePrecisions{RowIter: iter, precision: precision, colType: colType}, nil
		}
		return t
	}
}

// timePrecisions is the rows of information_schema.COLUMNS with the
// DATETIME_PRECISION of each TIME(n) column.
type timePrecisions struct {
	sql.RowIter
	precision, colType int
}

func (p *timePrecisions) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := p.RowIter.Next(ctx)
	if err != nil || len(row) <= max(p.precision, p.colType) {
		return row, err
	}
	if text, ok := row[p.colType].(string); ok && strings.HasPrefix(text, "time") {
		if t, err := parseColumnType(text); err == nil {
			if tt, ok := t.(timeType); ok {
				row[p.precision] = tt.fsp
			}
		}
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
