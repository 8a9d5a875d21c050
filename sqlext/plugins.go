package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// information_schema.PLUGINS and SHOW PLUGINS list the plugins sqlearn
// has, as MySQL lists its own: the storage engine its tables report
// (InnoDB, see SHOW ENGINES) and the two authentication methods accounts
// use. The engine's table had no row, and SHOW PLUGINS showed the
// table's columns rather than MySQL's Name, Status, Type, Library and
// License.

// plugins are the rows, by column name.
var plugins = []map[string]any{
	{"PLUGIN_NAME": "mysql_native_password", "PLUGIN_VERSION": "1.1", "PLUGIN_TYPE": "AUTHENTICATION", "PLUGIN_TYPE_VERSION": "2.1",
		"PLUGIN_DESCRIPTION": "Native MySQL authentication"},
	{"PLUGIN_NAME": "caching_sha2_password", "PLUGIN_VERSION": "1.0", "PLUGIN_TYPE": "AUTHENTICATION", "PLUGIN_TYPE_VERSION": "2.1",
		"PLUGIN_DESCRIPTION": "Caching sha2 authentication"},
	{"PLUGIN_NAME": "InnoDB", "PLUGIN_VERSION": "8.0", "PLUGIN_TYPE": "STORAGE ENGINE", "PLUGIN_TYPE_VERSION": "80039.0",
		"PLUGIN_DESCRIPTION": "sqlearn's Arrow storage behind its Raft log, under the name tables report"},
}

// pluginRows are information_schema.PLUGINS' rows: plugins, in the
// engine's table's columns.
func pluginRows(_ *sql.Context, t infoTable, _ sql.Partition) (sql.RowIter, error) {
	sch := t.Table.Schema()
	rows := make([]sql.Row, 0, len(plugins))
	for _, p := range plugins {
		r := make(sql.Row, len(sch))
		for i, c := range sch {
			switch c.Name {
			case "PLUGIN_STATUS":
				r[i] = "ACTIVE"
			case "PLUGIN_AUTHOR":
				r[i] = "sqlearn"
			case "PLUGIN_LICENSE":
				r[i] = "GPL"
			case "LOAD_OPTION":
				r[i] = "FORCE"
			default:
				r[i] = p[c.Name] // PLUGIN_LIBRARY and its version NULL: built in
			}
		}
		rows = append(rows, r)
	}
	return sql.RowsToRowIter(rows...), nil
}

// showPlugins is the statement SHOW PLUGINS stands for, or nil for
// another statement.
func (sp statementParser) showPlugins(ctx context.Context, st ast.Statement) (ast.Statement, error) {
	if s, ok := st.(*ast.Show); !ok || !strings.EqualFold(s.Type, "plugins") {
		return nil, nil
	}
	q, _, err := sp.Parser.ParseOneWithOptions(ctx, "SELECT PLUGIN_NAME AS `Name`, PLUGIN_STATUS AS `Status`, PLUGIN_TYPE AS `Type`, "+
		"PLUGIN_LIBRARY AS `Library`, PLUGIN_LICENSE AS `License` FROM information_schema.PLUGINS", ast.ParserOptions{})
	return q, err
}
