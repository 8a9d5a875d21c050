package sqlext

import (
	"fmt"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// SHOW ENGINE {name | ALL} {STATUS | MUTEX} answers a storage engine's
// own report, as rows of Type, Name and Status; monitoring scripts send
// SHOW ENGINE INNODB STATUS. The parser refused it, so
// rewriteShowEngine writes it as a call of a system procedure with the
// engine's name and the report asked for.
//
// The one engine this server reports (SHOW ENGINES) is InnoDB, the name
// its tables are created with; what holds them is sqlearn's own storage,
// so STATUS is one row whose Status says so and gives what storage
// knows cheaply (databases, tables and committed rows held, the last
// log entry applied) rather than InnoDB's monitor, whose figures do not
// exist here. MUTEX lists no mutex, as MySQL lists none without waits.
// Another engine's name is error 1286, unknown storage engine, as in
// MySQL; the statement needs the PROCESS privilege, as in MySQL (and
// not EXECUTE on the system database, see authorizeOwnCalls).
const showEngineProcedure = "sqlearn_show_engine"

// engineReports are the reports SHOW ENGINE asks for, by keyword.
var engineReports = map[string]bool{"STATUS": true, "MUTEX": true}

// rewriteShowEngine writes SHOW ENGINE as a CALL.
func rewriteShowEngine(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 4 || !isWords(toks[:2], "SHOW", "ENGINE") || !toks[3].word || !engineReports[strings.ToUpper(toks[3].text)] {
		return "", false
	}
	name := toks[2].text
	switch {
	case toks[2].word:
	case name[0] == '`' || name[0] == '\'' || name[0] == '"':
		name = unquote(name)
	default:
		return "", false
	}
	rest, ok := statementRest(query, toks, 4)
	if !ok {
		return "", false
	}
	return "CALL " + showEngineProcedure + "(" + quoteString(name) + ", " + quoteString(strings.ToUpper(toks[3].text)) + ")" + rest, true
}

// erUnknownStorageEngine is MySQL's ER_UNKNOWN_STORAGE_ENGINE.
const erUnknownStorageEngine = 1286

// showEngineExtensions is the procedure the rewritten statement calls.
func showEngineExtensions(p *Provider) Extensions {
	varchar := func(name string, n int64) *sql.Column {
		return &sql.Column{Name: name, Type: types.MustCreateStringWithDefaults(sqltypes.VarChar, n)}
	}
	show := func(ctx *sql.Context, engine, report string) (sql.RowIter, error) {
		if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_Process) {
			return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the PROCESS privilege(s) for this operation")
		}
		switch strings.ToUpper(engine) {
		case "INNODB", "INNOBASE", "ALL":
		default:
			return nil, mysql.NewSQLError(erUnknownStorageEngine, "42000", "Unknown storage engine '%s'", engine)
		}
		if report != "STATUS" {
			return sql.RowsToRowIter(), nil
		}
		return sql.RowsToRowIter(sql.Row{"InnoDB", "", storageStatus(p, time.Now())}), nil
	}
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{{
		Name:     showEngineProcedure,
		Schema:   sql.Schema{varchar("Type", 10), varchar("Name", 512), {Name: "Status", Type: types.LongText}},
		Function: show,
	}}}
}

// storageStatus is the Status of SHOW ENGINE INNODB STATUS: what holds
// the tables, and the counts storage keeps, laid out in sections as
// InnoDB's monitor lays out its own. Rows are those committed; hidden
// temporary tables are left out.
func storageStatus(p *Provider, now time.Time) string {
	var dbs, tables, rows int
	for _, db := range p.store.Databases() {
		names, err := p.store.Tables(db)
		if err != nil {
			continue // dropped since it was listed
		}
		dbs++
		for _, name := range names {
			if isTempName(name) {
				continue
			}
			if info, err := p.store.Table(db, name); err == nil {
				tables++
				rows += info.Rows
			}
		}
	}
	var b strings.Builder
	section := func(title string) {
		fmt.Fprintf(&b, "%s\n%s\n%s\n", strings.Repeat("-", len(title)), title, strings.Repeat("-", len(title)))
	}
	fmt.Fprintf(&b, "\n=====================================\n%s SQLEARN STORAGE STATUS\n=====================================\n", now.Format(time.DateTime))
	b.WriteString("Tables are not kept by InnoDB here: sqlearn stores them as Arrow\ncolumn batches and applies every committed write from its Raft log.\n")
	section("TABLES")
	fmt.Fprintf(&b, "Databases %d, tables %d, committed rows %d\n", dbs, tables, rows)
	section("LOG")
	fmt.Fprintf(&b, "Last log entry applied %d\n", p.store.AppliedIndex())
	b.WriteString("----------------------------\nEND OF SQLEARN STORAGE STATUS\n============================\n")
	return b.String()
}
