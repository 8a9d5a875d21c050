package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
)

// information_schema.COLUMNS gives a TEXT column (TINYTEXT, TEXT,
// MEDIUMTEXT, LONGTEXT) a CHARACTER_MAXIMUM_LENGTH of its length in
// bytes, the same as its CHARACTER_OCTET_LENGTH (65535 for a TEXT), as
// MySQL and MariaDB do whatever the character set; the engine divided it
// by the character set's widest character (16383 for a utf8mb4 TEXT),
// which schema tools then read as a VARCHAR-sized column. CHAR and
// VARCHAR keep their length in characters.
func init() {
	engineColumns := information_schema.NewColumnsTable
	information_schema.NewColumnsTable = func() *information_schema.ColumnsTable {
		t := engineColumns()
		read := t.RowIter
		sch := t.TableSchema
		at := func(name string) int { return sch.IndexOfColName(name) }
		dataType, chars, octets := at("DATA_TYPE"), at("CHARACTER_MAXIMUM_LENGTH"), at("CHARACTER_OCTET_LENGTH")
		if read == nil || min(dataType, chars, octets) < 0 {
			return t
		}
		t.RowIter = func(ctx *sql.Context, cat sql.Catalog, all sql.Schema) (sql.RowIter, error) {
			rows, err := read(ctx, cat, all)
			if err != nil {
				return nil, err
			}
			return &textLengths{RowIter: rows, dataType: dataType, chars: chars, octets: octets}, nil
		}
		return t
	}
}

// textLengths passes information_schema.COLUMNS rows on with a TEXT
// column's character length set to its byte length.
type textLengths struct {
	sql.RowIter
	dataType, chars, octets int
}

func (l *textLengths) Next(ctx *sql.Context) (sql.Row, error) {
	r, err := l.RowIter.Next(ctx)
	if err != nil {
		return nil, err
	}
	switch r[l.dataType] {
	case "tinytext", "text", "mediumtext", "longtext":
		r[l.chars] = r[l.octets]
	}
	return r, nil
}
