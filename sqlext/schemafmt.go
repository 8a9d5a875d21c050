package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// SHOW CREATE TABLE writes a virtual generated column as MySQL does,
// GENERATED ALWAYS AS (expr) VIRTUAL; the engine leaves the keyword out
// (VIRTUAL is the default, so both read back the same, but tools that
// compare schemas with MySQL's text see a difference). It writes a
// TIME(n) column's default with n digits, as MySQL does (timeDefault).
// A nullable column without a declared default shows DEFAULT NULL, as
// MySQL 8 shows it (`s` char(60) DEFAULT NULL), but for the TEXT and
// BLOB types, which MySQL shows without one; a nullable TIMESTAMP shows
// its NULL too (`ts` timestamp NULL DEFAULT NULL).
func init() {
	sql.GlobalSchemaFormatter = virtualKeyword{sql.GlobalSchemaFormatter}
}

type virtualKeyword struct {
	sql.SchemaFormatter
}

func (f virtualKeyword) GenerateCreateTableColumnDefinition(col *sql.Column, colDefault, onUpdate string, tableCollation sql.CollationID) string {
	colDefault = timeDefault(col, colDefault)
	if defaultsToNull(col) {
		// The engine writes a default only when the column declares one.
		c := *col
		c.Default = nullDefault
		col, colDefault = &c, "NULL"
	}
	def := f.SchemaFormatter.GenerateCreateTableColumnDefinition(col, colDefault, onUpdate, tableCollation)
	if types.IsTimestampType(col.Type) && col.Nullable {
		// MySQL writes a nullable TIMESTAMP's NULL: `ts` timestamp NULL.
		if i := strings.Index(def, " DEFAULT "); i >= 0 {
			def = def[:i] + " NULL" + def[i:]
		}
	}
	if col.Generated == nil || !col.Virtual {
		return def
	}
	gen := " GENERATED ALWAYS AS " + col.Generated.String()
	if i := strings.Index(def, gen); i >= 0 {
		at := i + len(gen)
		return def[:at] + " VIRTUAL" + def[at:]
	}
	return def
}

// nullDefault stands for a default of NULL where the engine's formatter
// only asks whether a column has a default.
var nullDefault = &sql.ColumnDefaultValue{}

// defaultsToNull says whether SHOW CREATE TABLE writes DEFAULT NULL for
// a column MySQL's way: nullable, no default declared, not generated or
// AUTO_INCREMENT, and not TEXT or BLOB.
func defaultsToNull(col *sql.Column) bool {
	if !col.Nullable || col.Default != nil || col.Generated != nil || col.AutoIncrement {
		return false
	}
	return !types.IsTextBlob(col.Type)
}
