package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// CREATE TABLE t [(columns, keys)] [options] [IGNORE | REPLACE] [AS]
// query creates a table from a query with some of its columns, keys and
// options given, as MySQL does: the columns named only in the list come
// first, then the query's columns in its order, each taking its
// definition from the list when the list names it; the query's rows are
// stored by column name. The parser takes a CREATE TABLE with columns or
// one with a query, never both, nor options before a query; and the
// engine's planner, given both, put the query's rows into the table by
// position, without converting them. The statement is rewritten as a
// CALL of createSelectProcedure, which carries it out as statements the
// server runs well:
//
//  1. CREATE TABLE t AS SELECT * FROM (query) LIMIT 0, which gives the
//     query's columns their types as any CREATE TABLE ... SELECT;
//  2. one ALTER TABLE that gives the listed columns their definitions
//     (MODIFY for those the query has, ADD for the others, first), and
//     adds the keys, then one for each option;
//  3. INSERT [IGNORE] (or REPLACE) INTO t (the query's columns) query, and
//     COMMIT, as the statement commits in MySQL.
//
// When a step after the first fails, the table is dropped, so that the
// statement leaves nothing behind, and its error is the statement's.

const createSelectProcedure = "sqlearn_create_select"

// definedQuery is where the parts of a CREATE TABLE with columns and a
// query lie in its text.
type definedQuery struct {
	name       string // the table's name as written
	open       int    // the list's opening parenthesis, -1 for none
	close      int    // its closing one
	options    int    // the start of the options
	head       int    // their end
	query      int    // the query's start
	end        int    // the statement's end
	temporary  bool
	ifNotExist bool
	mode       string // "", "IGNORE" or "REPLACE"
}

// readDefinedQuery finds the parts of text, a CREATE TABLE with a list of
// columns, or table options, or both, followed by AS and a query, or by
// SELECT or WITH; ok is false for any other statement.
func readDefinedQuery(text string) (d definedQuery, ok bool) {
	toks := sqlTokens(text)
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w)
	}
	if !word(0, "CREATE") {
		return d, false
	}
	i := 1
	if word(i, "TEMPORARY") {
		d.temporary = true
		i++
	}
	if !word(i, "TABLE") {
		return d, false
	}
	i++
	if word(i, "IF") && word(i+1, "NOT") && word(i+2, "EXISTS") {
		d.ifNotExist = true
		i += 3
	}
	// The name, db.name possibly, then the list at once, or options.
	start := i
	if i+2 < len(toks) && toks[i+1].text == "." {
		i += 2
	}
	i++
	if i >= len(toks) || !toks[start].word && !strings.HasPrefix(toks[start].text, "`") {
		return d, false
	}
	d.name = text[toks[start].start:toks[i-1].end]
	d.open, d.close = -1, -1
	if toks[i].text == "(" {
		d.open = toks[i].start
		if i = matchingParen(toks, i); i < 0 {
			return d, false
		}
		d.close = toks[i].start
		i++
	}
	d.options = len(text)
	if i < len(toks) {
		d.options = toks[i].start
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.text == ";":
			return d, false
		case word(i, "IGNORE") || word(i, "REPLACE"):
			if d.mode != "" {
				return d, false
			}
			d.mode = strings.ToUpper(t.text)
			d.head = t.start
			continue
		case word(i, "AS") && i+1 < len(toks):
			if d.mode == "" {
				d.head = t.start
			}
			d.query = toks[i+1].start
		case word(i, "SELECT") || word(i, "WITH"):
			if d.mode == "" {
				d.head = t.start
			}
			d.query = t.start
		default:
			if d.mode != "" {
				return d, false // options after IGNORE or REPLACE
			}
			continue
		}
		break
	}
	if d.query == 0 || d.open < 0 && d.head <= d.options {
		// Without a list it takes options: a CREATE TABLE ... AS query
		// with none is the engine's.
		return d, false
	}
	d.end = len(text)
	depth := 0
	for _, t := range toks {
		if t.start < d.query {
			continue
		}
		if t.text == "(" {
			depth++
		} else if t.text == ")" {
			depth--
		} else if t.text == ";" && depth == 0 {
			d.end = t.start
			break
		}
	}
	return d, true
}

// rewriteDefinedQuery writes a CREATE TABLE with columns and a query as
// the CALL that carries it out (see above).
func rewriteDefinedQuery(q string) (string, bool) {
	if !containsFold(q, "create") {
		return q, false
	}
	d, ok := readDefinedQuery(q)
	if !ok {
		return q, false
	}
	return "CALL " + SystemDatabase + "." + createSelectProcedure + "(" + quoteString(strings.TrimSpace(q[:d.end])) + ")" + q[d.end:], true
}

// listElements splits the text of a CREATE TABLE's list, between its
// parentheses, at its top-level commas.
func listElements(list string) []string {
	var out []string
	depth, last := 0, 0
	for _, t := range sqlTokens(list) {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, strings.TrimSpace(list[last:t.start]))
				last = t.end
			}
		}
	}
	if rest := strings.TrimSpace(list[last:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// keyElement says whether a list element defines a key or constraint, not
// a column.
func keyElement(el string) bool {
	toks := sqlTokens(el)
	if len(toks) == 0 || !toks[0].word {
		return false
	}
	switch strings.ToUpper(toks[0].text) {
	case "PRIMARY", "KEY", "INDEX", "UNIQUE", "CONSTRAINT", "FOREIGN", "CHECK", "FULLTEXT", "SPATIAL":
		return true
	}
	return false
}

// createSelect carries out a CREATE TABLE with columns and a query (see
// the top of this file).
func (p *Provider) createSelect(ctx *sql.Context, text string) (sql.RowIter, error) {
	d, ok := readDefinedQuery(text)
	if !ok {
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%.80s'", text)
	}
	run := &procRun{ctx: ctx, runner: p.runner, parser: engineParser(p.runner), name: "CREATE TABLE", active: activeRoutines(ctx)}
	exec := func(q string) (sql.Schema, []sql.Row, error) {
		st, err := run.parse(q)
		if err != nil {
			return nil, nil, err
		}
		return run.query(q, st)
	}
	temporary, ifNotExists := "", ""
	if d.temporary {
		temporary = "TEMPORARY "
	}
	if d.ifNotExist {
		ifNotExists = "IF NOT EXISTS "
	}
	query := strings.TrimSpace(text[d.query:d.end])
	if _, _, err := exec("CREATE " + temporary + "TABLE " + ifNotExists + d.name + " AS SELECT * FROM (" + query + ") AS sqlearn_query LIMIT 0"); err != nil {
		return nil, err
	}
	// The engine clears the warnings as a statement begins: a 1050 is
	// this one's note of IF NOT EXISTS for a table that is there, which
	// gets no rows.
	for _, w := range ctx.Session.Warnings() {
		if w.Code == mysql.ERTableExists {
			noteCopied(ctx, 0)
			return okCount(0), nil
		}
	}
	copied, err := fillDefined(exec, d, text, query)
	if err != nil {
		if _, _, derr := exec("DROP " + temporary + "TABLE IF EXISTS " + d.name); derr != nil {
			return nil, fmt.Errorf("%w (and the table it created could not be dropped: %v)", err, derr)
		}
		return nil, err
	}
	noteCopied(ctx, copied)
	return okCount(copied), nil
}

// okCount is an OK answer that counts rows.
func okCount(n uint64) sql.RowIter {
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(int(n))))
}

// fillDefined gives the table created from the query the list's columns,
// keys and options, then the query's rows (steps 2 and 3 above).
func fillDefined(exec func(string) (sql.Schema, []sql.Row, error), d definedQuery, text, query string) (uint64, error) {
	sch, _, err := exec("SELECT * FROM " + d.name + " LIMIT 0")
	if err != nil {
		return 0, err
	}
	// The query's columns by name, which the list names in any case.
	has := make(map[string]string, len(sch))
	for _, c := range sch {
		has[strings.ToLower(c.Name)] = c.Name
	}
	var clauses []string
	after := ""
	var list []string
	if d.open >= 0 {
		list = listElements(text[d.open+1 : d.close])
	}
	for _, el := range list {
		if keyElement(el) {
			clauses = append(clauses, "ADD "+el)
			continue
		}
		toks := sqlTokens(el)
		if len(toks) == 0 {
			continue
		}
		name := unquoteIdent(toks[0].text)
		own, queried := has[strings.ToLower(name)]
		switch {
		case queried:
			clauses = append(clauses, "MODIFY COLUMN "+quoteIdent(own)+el[toks[0].end:])
		case after == "":
			clauses = append(clauses, "ADD COLUMN "+el+" FIRST")
		default:
			clauses = append(clauses, "ADD COLUMN "+el+" AFTER "+quoteIdent(after))
		}
		if !queried {
			after = name
		}
	}
	if len(clauses) > 0 {
		if _, _, err := exec("ALTER TABLE " + d.name + " " + strings.Join(clauses, ", ")); err != nil {
			return 0, err
		}
	}
	for _, option := range tableOptions(text[d.options:d.head]) {
		if _, _, err := exec("ALTER TABLE " + d.name + " " + option); err != nil {
			return 0, err
		}
	}
	verb := "INSERT INTO "
	switch d.mode {
	case "IGNORE":
		verb = "INSERT IGNORE INTO "
	case "REPLACE":
		verb = "REPLACE INTO "
	}
	cols := make([]string, len(sch))
	for i, c := range sch {
		cols[i] = quoteIdent(c.Name)
	}
	_, out, err := exec(verb + d.name + " (" + strings.Join(cols, ", ") + ") " + query)
	if err != nil {
		return 0, err
	}
	var copied uint64
	if len(out) == 1 && types.IsOkResult(out[0]) {
		copied = types.GetOkResult(out[0]).RowsAffected
	}
	if _, _, err := exec("COMMIT"); err != nil {
		return 0, err
	}
	return copied, nil
}
