package sqlext

import (
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// unknownTableText gives a table a statement names that does not exist
// MySQL's words: 1146 "Table 'db.t' doesn't exist", or for DROP TABLE
// 1051 "Unknown table 'db.t'". The engine's text, "table not found: t",
// named no database, and DROP TABLE answered 1146. The database is the
// one the statement qualifies the name with, else the session's.
func (p *Provider) unknownTableText(current, query string, err *error) {
	if *err == nil {
		return
	}
	msg := (*err).Error()
	var se *mysql.SQLError
	if errors.As(*err, &se) {
		msg = se.Message
	}
	if db, ok := strings.CutPrefix(msg, "database not found: "); ok {
		// A query or change of rows reading a table of a database that
		// does not exist: MySQL looks for the table, and answers 1146
		// (USE, SHOW TABLES FROM and a RENAME into it answer 1049).
		if table := qualifiedIn(query, db); table != "" && readsRows(query) {
			*err = mysql.NewSQLError(mysql.ERNoSuchTable, "42S02", "Table '%s.%s' doesn't exist", db, table)
		}
		return
	}
	if rest, ok := strings.CutPrefix(msg, "stored procedure \""); ok {
		// The engine's 1146 for a procedure CALL names that is not
		// there; MySQL's is 1305, naming the database.
		if name, ok := strings.CutSuffix(rest, "\" does not exist"); ok {
			db := qualifierOf(query, name, p.knownDatabase)
			if db == "" {
				db = current
			}
			*err = mysql.NewSQLError(erSPDoesNotExist, "42000", "PROCEDURE %s.%s does not exist", db, name)
		}
		return
	}
	if rest, ok := strings.CutPrefix(msg, "function: '"); ok {
		// A function that is neither the engine's nor stored in the
		// current database: MySQL names it as a stored one.
		name, ok := strings.CutSuffix(rest, "' not found")
		db, own, qualified := strings.Cut(name, ".")
		if !qualified {
			db, own = current, name
		}
		switch {
		case !ok:
		case db == "":
			*err = mysql.NewSQLError(mysql.ERNoDb, "3D000", "No database selected")
		default:
			*err = mysql.NewSQLError(erSPDoesNotExist, "42000", "FUNCTION %s.%s does not exist", db, own)
		}
		return
	}
	table, ok := strings.CutPrefix(msg, "table not found: ")
	if !ok || table == "" || strings.ContainsAny(table, " \n") {
		return
	}
	db := qualifierOf(query, table, p.knownDatabase)
	if db == "" {
		db = current
	}
	if db == "" {
		return
	}
	if strings.EqualFold(db, "information_schema") {
		*err = mysql.NewSQLError(erUnknownTable, "42S02", "Unknown table '%s' in information_schema", table)
		return
	}
	toks := sqlTokens(query)
	if len(toks) >= 2 && strings.EqualFold(toks[0].text, "DROP") &&
		(strings.EqualFold(toks[1].text, "TABLE") || strings.EqualFold(toks[1].text, "TEMPORARY")) {
		*err = mysql.NewSQLError(mysql.ERBadTable, "42S02", "Unknown table '%s.%s'", db, table)
		return
	}
	*err = mysql.NewSQLError(mysql.ERNoSuchTable, "42S02", "Table '%s.%s' doesn't exist", db, table)
}

// erUnknownTable is MySQL's ER_UNKNOWN_TABLE.
const erUnknownTable = 1109

// knownDatabase says whether name is a database of the server's: one of
// the store's, or one the server keeps itself (sys, information_schema,
// mysql, performance_schema).
func (p *Provider) knownDatabase(name string) bool {
	if _, ok := p.store.Database(name); ok {
		return true
	}
	for _, own := range []string{SystemDatabase, "information_schema", "mysql", "performance_schema"} {
		if strings.EqualFold(name, own) {
			return true
		}
	}
	return false
}

// qualifierOf is the database the query qualifies a table's name with
// (db.t, `db`.`t`), when it names a database that exists.
func qualifierOf(query, table string, isDatabase func(string) bool) string {
	toks := sqlTokens(query)
	for i, tk := range toks {
		name, prefix := unquoteIdent(tk.text), ""
		if tk.word {
			if k := strings.LastIndexByte(tk.text, '.'); k >= 0 {
				prefix, name = tk.text[:k], tk.text[k+1:]
			}
		}
		if !strings.EqualFold(name, table) {
			continue
		}
		if prefix == "" && i > 0 && toks[i-1].end == tk.start {
			// `db`.`t`, `db`.t or db.`t`: the name before the dot.
			prev := toks[i-1]
			switch {
			case prev.word && prev.text == "." && i > 1 && toks[i-2].end == prev.start:
				prefix = unquoteIdent(toks[i-2].text)
			case prev.word && strings.HasSuffix(prev.text, "."):
				prefix = strings.TrimSuffix(prev.text, ".")
			}
		} else if prefix == "" && tk.word && strings.HasPrefix(tk.text, ".") && i > 0 && toks[i-1].end == tk.start {
			prefix = unquoteIdent(toks[i-1].text)
		}
		if prefix != "" && isDatabase(prefix) {
			return prefix
		}
	}
	return ""
}

// qualifiedIn is the first name the query qualifies with db (db.t), or
// "" when it names none.
func qualifiedIn(query, db string) string {
	toks := sqlTokens(query)
	for i, tk := range toks {
		if tk.word {
			if k := strings.IndexByte(tk.text, '.'); k > 0 && k < len(tk.text)-1 && strings.EqualFold(tk.text[:k], db) {
				return tk.text[k+1:]
			}
		}
		// `db`.`t`
		if i+2 < len(toks) && strings.EqualFold(unquoteIdent(tk.text), db) && toks[i+1].text == "." &&
			toks[i+1].start == tk.end && toks[i+2].start == toks[i+1].end {
			return unquoteIdent(toks[i+2].text)
		}
	}
	return ""
}

// readsRows says whether a statement is a query or a change of rows.
func readsRows(query string) bool {
	toks := sqlTokens(query)
	if len(toks) == 0 {
		return false
	}
	switch strings.ToUpper(toks[0].text) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "TABLE", "(":
		return true
	}
	return false
}

// callWithoutDatabase is MySQL's error 1046 for a CALL of a procedure
// named without its database while there is no current one, unless it
// is one of the server's own procedures, which need none. The engine
// failed on the database it did not have.
func (p *Provider) callWithoutDatabase(ctx *sql.Context, c *ast.Call) error {
	if !c.ProcName.Qualifier.IsEmpty() || ctx.GetCurrentDatabase() != "" {
		return nil
	}
	if own, err := p.ExternalStoredProcedure(ctx, c.ProcName.Name.String(), len(c.Params)); own != nil || err != nil {
		return nil
	}
	return mysql.NewSQLError(mysql.ERNoDb, "3D000", "No database selected")
}
