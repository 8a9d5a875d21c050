package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
)

// SHOW CREATE TABLE writes a virtual generated column as MySQL does,
// GENERATED ALWAYS AS (expr) VIRTUAL; the engine leaves the keyword out
// (VIRTUAL is the default, so both read back the same, but tools that
// compare schemas with MySQL's text see a difference). It writes a
// TIME(n) column's default with n digits, as MySQL does (timeDefault).
func init() {
	sql.GlobalSchemaFormatter = virtualKeyword{sql.GlobalSchemaFormatter}
}

type virtualKeyword struct {
	sql.SchemaFormatter
}

func (f virtualKeyword) GenerateCreateTableColumnDefinition(col *sql.Column, colDefault, onUpdate string, tableCollation sql.CollationID) string {
	def := f.SchemaFormatter.GenerateCreateTableColumnDefinition(col, timeDefault(col, colDefault), onUpdate, tableCollation)
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
