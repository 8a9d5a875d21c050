package sqlext

import (
	"encoding/json"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Invisible columns (MySQL 8.0.23). The parser takes INVISIBLE in a
// column's definition and drops it, so such a column was an ordinary
// one; MySQL 8.0.30's generated invisible primary key (my_row_id, which
// dumps of such tables carry as `/*!80023 INVISIBLE */`) then showed up
// in every SELECT * and made INSERT without a column list count one value
// too few. Here, as in MySQL:
//
//   - CREATE TABLE and ALTER TABLE ADD, MODIFY and CHANGE COLUMN mark a
//     column INVISIBLE when its definition says so (noteInvisible finds
//     which in the statement's text); the mark is the column's Extra
//     ("INVISIBLE", "auto_increment INVISIBLE"), which SHOW COLUMNS and
//     information_schema.COLUMNS show and the column's stored metadata
//     keeps. A MODIFY or CHANGE without it makes the column visible.
//   - SELECT * and t.* leave such columns out (expandInvisibleStars, by
//     writing the star out); a column named reads as any other.
//   - INSERT, REPLACE and LOAD DATA without a column list give values
//     for the visible columns (insertVisible); the others take their
//     defaults.
//   - SHOW CREATE TABLE writes the mark as MySQL does, `/*!80023
//     INVISIBLE */`.
//   - A table must keep one visible column (4028).
//
// A star is written out only where expandStars can list its columns: a
// SELECT reading tables by name, joined without USING or NATURAL, outside
// a WITH; elsewhere (and in a view's stored text) it still reads every
// column.

const invisibleWord = "INVISIBLE"

// erTableMustHaveVisibleColumn is MySQL's ER_TABLE_MUST_HAVE_A_VISIBLE_COLUMN.
const erTableMustHaveVisibleColumn = 4028

// isInvisible says whether c is an invisible column.
func isInvisible(c *sql.Column) bool { return extraInvisible(c.Extra) }

func extraInvisible(extra string) bool {
	return extra == invisibleWord || strings.HasSuffix(extra, " "+invisibleWord)
}

// markInvisible adds the mark to c's Extra.
func markInvisible(c *sql.Column) {
	if isInvisible(c) {
		return
	}
	if c.Extra == "" {
		c.Extra = invisibleWord
	} else {
		c.Extra += " " + invisibleWord
	}
}

// metaInvisible says whether a stored column's metadata marks it
// invisible; it decodes only metadata that names the word at all.
func metaInvisible(meta string) bool {
	if !strings.Contains(meta, invisibleWord) {
		return false
	}
	var m columnMeta
	if i := strings.IndexByte(meta, '{'); i >= 0 {
		meta = meta[i:] // after storage's AUTO_INCREMENT prefix
	}
	return json.Unmarshal([]byte(meta), &m) == nil && extraInvisible(m.Extra)
}

// noteInvisible notes in the session the columns a CREATE TABLE or ALTER
// TABLE defines as INVISIBLE (lower case), for the statement's execution
// to mark (invisibleIn); nil for other statements.
func noteInvisible(s *Session, st ast.Statement, text string) {
	s.invisible = nil
	if !containsFold(text, "invisible") {
		return
	}
	switch st := st.(type) {
	case *ast.DDL:
		if !strings.EqualFold(st.Action, ast.CreateStr) || st.TableSpec == nil {
			return
		}
	case *ast.AlterTable:
	default:
		return
	}
	s.invisible = invisibleColumns(withoutVersionComment(text))
}

// definitionStarts are the words that begin a part of a table's
// definition that is not a column.
var definitionStarts = map[string]bool{"PRIMARY": true, "KEY": true, "INDEX": true, "UNIQUE": true, "CONSTRAINT": true,
	"FOREIGN": true, "FULLTEXT": true, "SPATIAL": true, "CHECK": true, "PARTITION": true}

// invisibleColumns reads, from a CREATE TABLE's column list or an ALTER
// TABLE's ADD, MODIFY and CHANGE clauses, the columns whose definition
// says INVISIBLE.
func invisibleColumns(text string) map[string]bool {
	toks := sqlTokens(text)
	word := func(i int, w string) bool { return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w) }
	out := map[string]bool{}
	// parts splits toks[from:] at commas of the given depth, ending where
	// the depth falls below it.
	parts := func(from, depth int) [][2]int {
		var out [][2]int
		d, start := depth, from
		for i := from; i < len(toks); i++ {
			switch toks[i].text {
			case "(":
				d++
			case ")":
				d--
				if d < depth {
					return append(out, [2]int{start, i})
				}
			case ",":
				if d == depth {
					out, start = append(out, [2]int{start, i}), i+1
				}
			case ";":
				if d == depth {
					return append(out, [2]int{start, i})
				}
			}
		}
		return append(out, [2]int{start, len(toks)})
	}
	// says reports whether toks[from:to] holds INVISIBLE outside
	// parentheses.
	says := func(from, to int) bool {
		d := 0
		for i := from; i < to; i++ {
			switch {
			case toks[i].text == "(":
				d++
			case toks[i].text == ")":
				d--
			case d == 0 && toks[i].word && strings.EqualFold(toks[i].text, invisibleWord):
				return true
			}
		}
		return false
	}
	column := func(p [2]int, at int) {
		if at < p[1] && (toks[at].word || strings.HasPrefix(toks[at].text, "`")) &&
			!definitionStarts[strings.ToUpper(toks[at].text)] && says(at+1, p[1]) {
			out[strings.ToLower(unquoteIdent(toks[at].text))] = true
		}
	}
	switch {
	case word(0, "CREATE"):
		for i, t := range toks {
			if t.text == "(" {
				for _, p := range parts(i+1, 1) {
					column(p, p[0])
				}
				break
			}
		}
	case word(0, "ALTER"):
		start := 3 // ALTER TABLE name
		if start < len(toks) && toks[start].text == "." {
			start += 2
		}
		for _, p := range parts(start, 0) {
			i := p[0]
			switch {
			case word(i, "ADD"), word(i, "MODIFY"):
				if word(i+1, "COLUMN") {
					i++
				}
				column(p, i+1)
			case word(i, "CHANGE"):
				if word(i+1, "COLUMN") {
					i++
				}
				column(p, i+2)
			}
		}
	}
	return out
}

// invisibleIn marks the columns of sch the statement's text defines as
// INVISIBLE (noteInvisible), and refuses a schema left with no visible
// column.
func invisibleIn(ctx *sql.Context, sch sql.Schema) error {
	if s, ok := ctx.Session.(*Session); ok && len(s.invisible) > 0 {
		for _, c := range sch {
			if s.invisible[strings.ToLower(c.Name)] {
				markInvisible(c)
			}
		}
	}
	for _, c := range sch {
		if !isInvisible(c) {
			return nil
		}
	}
	if len(sch) == 0 {
		return nil
	}
	return mysql.NewSQLError(erTableMustHaveVisibleColumn, "HY000", "A table must have at least one visible column.")
}

// markedColumn marks one column a statement adds or redefines (ALTER
// TABLE ADD, MODIFY, CHANGE).
func markedColumn(ctx *sql.Context, c *sql.Column) {
	if s, ok := ctx.Session.(*Session); ok && c != nil && s.invisible[strings.ToLower(c.Name)] {
		markInvisible(c)
	}
}

// expandInvisibleStars writes out the stars of the SELECTs in st that
// read a table with invisible columns, leaving them out.
func (p *Provider) expandInvisibleStars(ctx *sql.Context, st ast.Statement) {
	if ddl, ok := st.(*ast.DDL); ok && ddl.OptSelect != nil {
		// CREATE TABLE ... SELECT, whose query the walk does not reach.
		p.expandInvisibleStars(ctx, ddl.OptSelect.Select)
		return
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if sel, ok := node.(*ast.Select); ok {
			p.expandStarsIf(ctx, sel, true)
		}
		return true, nil
	}, st)
}

// insertVisible gives an INSERT or REPLACE, or a LOAD DATA, without a
// column list, into a table with invisible columns, the list of its
// visible ones.
func (p *Provider) insertVisible(ctx *sql.Context, st ast.Statement) {
	var list *ast.Columns
	var table ast.TableName
	switch st := st.(type) {
	case *ast.Insert:
		list, table = &st.Columns, st.Table
	case *ast.Load:
		list, table = &st.Columns, st.Table
	default:
		return
	}
	if len(*list) == 0 {
		if cols, hidden := p.visibleColumns(ctx, table); hidden {
			*list = cols
		}
	}
}

// visibleColumns lists the visible columns of the stored table t names,
// and says whether it has invisible ones.
func (p *Provider) visibleColumns(ctx *sql.Context, t ast.TableName) (ast.Columns, bool) {
	db := t.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	info, err := p.store.Table(db, t.Name.String())
	if err != nil {
		return nil, false
	}
	var cols ast.Columns
	hidden := false
	for _, c := range info.Schema.Columns {
		if metaInvisible(c.Meta) {
			hidden = true
			continue
		}
		cols = append(cols, ast.NewColIdent(c.Name))
	}
	return cols, hidden
}

// showInvisible writes the mark of each invisible column of t into its
// line of SHOW CREATE TABLE's text, as MySQL writes it.
func showInvisible(text string, sch sql.Schema) string {
	for _, c := range sch {
		if !isInvisible(c) {
			continue
		}
		head := "\n  " + quoteIdent(c.Name) + " "
		i := strings.Index(text, head)
		if i < 0 {
			continue
		}
		end := i + 1 + strings.IndexByte(text[i+1:], '\n')
		if end <= i {
			continue
		}
		line := strings.TrimSuffix(text[i:end], ",")
		comma := text[i:end][len(line):]
		text = text[:i] + line + " /*!80023 INVISIBLE */" + comma + text[end:]
	}
	return text
}

const visibilityProcedure = "sqlearn_column_visibility"

// rewriteColumnVisibility writes ALTER TABLE t ALTER [COLUMN] c SET
// VISIBLE | INVISIBLE, which the parser refuses, as a call of
// visibilityProcedure.
func rewriteColumnVisibility(query string) (string, bool) {
	if !containsFold(query, "visible") {
		return "", false
	}
	toks := sqlTokens(query)
	end := statementEnd(toks)
	word := func(i int, w string) bool { return i < end && toks[i].word && strings.EqualFold(toks[i].text, w) }
	if !word(0, "ALTER") || !word(1, "TABLE") || end < 7 {
		return "", false
	}
	db, table, i := "", unquoteIdent(toks[2].text), 3
	if d, n, dotted := strings.Cut(toks[2].text, "."); dotted && toks[2].word {
		db, table = d, n
	} else if toks[3].text == "." {
		db, table, i = table, unquoteIdent(toks[4].text), 5
	}
	if !word(i, "ALTER") {
		return "", false
	}
	if i++; word(i, "COLUMN") {
		i++
	}
	if i+3 != end || !word(i+1, "SET") || !word(i+2, "VISIBLE") && !word(i+2, "INVISIBLE") {
		return "", false
	}
	invisible := "0"
	if word(i+2, "INVISIBLE") {
		invisible = "1"
	}
	rest, _ := statementRest(query, toks, end)
	return "CALL " + SystemDatabase + "." + visibilityProcedure + "(" + quoteString(db) + ", " + quoteString(table) + ", " +
		quoteString(unquoteIdent(toks[i].text)) + ", " + invisible + ")" + rest, true
}

// columnVisibility runs ALTER TABLE ... ALTER COLUMN c SET [IN]VISIBLE as
// the MODIFY COLUMN of c's definition, as SHOW CREATE TABLE writes it,
// with the mark or without; the statements run as the session's, with
// its privileges.
func (p *Provider) columnVisibility(ctx *sql.Context, db, table, column string, invisible int8) (sql.RowIter, error) {
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	run := &procRun{ctx: ctx, runner: p.runner, parser: engineParser(p.runner), name: "ALTER TABLE", active: activeRoutines(ctx)}
	exec := func(q string) ([]sql.Row, error) {
		st, err := run.parse(q)
		if err != nil {
			return nil, err
		}
		_, rows, err := run.query(q, st)
		return rows, err
	}
	qualified := quoteIdent(db) + "." + quoteIdent(table)
	rows, err := exec("SHOW CREATE TABLE " + qualified)
	if err != nil {
		return nil, err
	}
	text, _ := rows[0][1].(string)
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "`"), "` ")
		if !strings.HasPrefix(line, "`") || !ok || !strings.EqualFold(strings.ReplaceAll(name, "``", "`"), column) {
			continue
		}
		def := strings.Replace(strings.TrimSuffix(line, ","), " /*!80023 INVISIBLE */", "", 1)
		if invisible != 0 {
			def += " INVISIBLE"
		}
		if _, err := exec("ALTER TABLE " + qualified + " MODIFY COLUMN " + def); err != nil {
			return nil, err
		}
		return okRows(), nil
	}
	return nil, unknownColumn(column, table)
}

// invisibleExtensions is the procedure ALTER COLUMN ... SET [IN]VISIBLE
// calls.
func invisibleExtensions(p *Provider) Extensions {
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{
		{Name: visibilityProcedure, Schema: nil, Function: p.columnVisibility},
	}}
}
