package sqlext

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// FULLTEXT indexes and MATCH ... AGAINST.
//
// A FULLTEXT index, made by CREATE TABLE, CREATE FULLTEXT INDEX or ALTER
// TABLE ... ADD FULLTEXT, is kept in storage as an index of its columns
// marked fulltext in its metadata, so that it goes with its columns
// through renames, drops and rebuilds and replicates with the table. The
// engine never sees it (GetIndexes leaves it out: the engine would take
// it for its own full-text integration); SHOW CREATE TABLE, SHOW INDEX
// and information_schema.STATISTICS list it.
//
// A MATCH (cols) AGAINST (query [mode]) names a table of its statement
// whose FULLTEXT index has exactly those columns (else MySQL's 1191). The
// statement reads it as a call of matchFunc with that table, index and
// mode, the query and the columns; the call ranks each row as InnoDB
// does (fulltextsearch.go) from the table's committed rows, whose
// counts it gathers once for each query and keeps until the table
// changes. As in MySQL, a SELECT that has such a MATCH as its WHERE (or
// one of its ANDed conditions) and no ORDER BY returns its rows by
// relevance, highest first. A SPATIAL index is not made: the statement
// does the rest of what it says, with warning 1235 naming the index.

const matchFunc = "sqlearn_match"

// The InnoDB variables of full-text search, read-only: they say what the
// tokenizer does (fulltextsearch.go), which cannot be changed.
func init() {
	global := sql.GetMysqlScope(sql.SystemVariableScope_Global)
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
		&sql.MysqlSystemVariable{Name: "innodb_ft_min_token_size", Scope: global,
			Type: types.NewSystemIntType("innodb_ft_min_token_size", 0, 16, false), Default: int64(ftMinToken)},
		&sql.MysqlSystemVariable{Name: "innodb_ft_max_token_size", Scope: global,
			Type: types.NewSystemIntType("innodb_ft_max_token_size", 10, 84, false), Default: int64(ftMaxToken)},
		&sql.MysqlSystemVariable{Name: "innodb_ft_enable_stopword", Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both),
			Type: types.NewSystemBoolType("innodb_ft_enable_stopword"), Default: int8(1)},
	})
}

// splitFulltext is n without its FULLTEXT and SPATIAL indexes, the
// FULLTEXT ones returned to be made once the table is, each SPATIAL one
// noted with a warning.
func splitFulltext(ctx *sql.Context, n *plan.CreateTable) (*plan.CreateTable, []*sql.IndexDef, error) {
	defs := n.Indexes()
	kept := make(sql.IndexDefs, 0, len(defs))
	var fulltext []*sql.IndexDef
	for _, d := range defs {
		switch {
		case d.IsFullText():
			fulltext = append(fulltext, d)
			continue
		case d.IsSpatial():
			indexNotCreated(ctx, d.Constraint, d.Name, d.Columns)
			continue
		}
		kept = append(kept, d)
	}
	if len(kept) == len(defs) {
		return n, nil, nil
	}
	if n.Temporary() && len(fulltext) > 0 {
		return nil, nil, mysql.NewSQLError(erInnodbNoFTTempTable, "HY000", "Cannot create FULLTEXT index on temporary InnoDB table")
	}
	for _, d := range fulltext {
		if err := fulltextRefused(d.Columns, n.PkSchema().Schema); err != nil {
			return nil, nil, err
		}
	}
	nn, err := n.WithIndexDefs(kept)
	if err != nil {
		return nil, nil, err
	}
	return nn, fulltext, nil
}

// createFulltextAfter makes the FULLTEXT indexes defs of the table n has
// just made, dropping the table when one fails, so that a CREATE TABLE
// that fails leaves nothing.
func createFulltextAfter(ctx *sql.Context, n *plan.CreateTable, defs []*sql.IndexDef) error {
	if len(defs) == 0 {
		return nil
	}
	tbl, ok, err := n.Db.GetTableInsensitive(ctx, n.Name())
	t := storedTable(tbl)
	if err == nil && (!ok || t == nil) {
		err = fmt.Errorf("sqlext: table %s was not made", n.Name())
	}
	for _, d := range defs {
		if err != nil {
			break
		}
		err = t.CreateIndex(ctx, *d)
	}
	if err != nil {
		if db, ok := n.Db.(sql.TableDropper); ok {
			if e := db.DropTable(ctx, n.Name()); e != nil {
				ctx.GetLogger().Warnf("dropping table %s of a failed CREATE TABLE: %v", n.Name(), e)
			}
		}
	}
	return err
}

// indexNotCreated warns that the SPATIAL index name, or the one named
// after its first column, was not made, once a statement: an ALTER of
// several clauses plays them on a copy first.
func indexNotCreated(ctx *sql.Context, kind sql.IndexConstraint, name string, cols []sql.IndexColumn) {
	if name == "" && len(cols) > 0 {
		name = cols[0].Name
	}
	what := "FULLTEXT"
	if kind == sql.IndexConstraint_Spatial {
		what = "SPATIAL"
	}
	msg := fmt.Sprintf("This version of MySQL doesn't yet support '%s indexes: `%s` was not created'", what, name)
	for _, w := range ctx.Session.Warnings() {
		if w.Code == erNotSupportedYet && w.Message == msg {
			return
		}
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: erNotSupportedYet, Message: msg})
}

// fulltextAlter answers CREATE FULLTEXT (SPATIAL) INDEX and a one-clause
// ALTER TABLE ... ADD FULLTEXT (SPATIAL): a FULLTEXT index is made, a
// SPATIAL one is not. It drops a FULLTEXT index, which the engine does
// not know of.
func fulltextAlter(ctx *sql.Context, n *plan.AlterIndex) (sql.RowIter, bool, error) {
	if n.Action == plan.IndexAction_Drop {
		rt, ok := n.Table.(*plan.ResolvedTable)
		if !ok {
			return nil, false, nil
		}
		t := storedTable(rt.Table)
		if t == nil {
			return nil, false, nil
		}
		for _, x := range fulltextIndexes(t.info.Indexes) {
			if strings.EqualFold(x.name, n.IndexName) {
				if err := t.DropIndex(ctx, x.name); err != nil {
					return nil, true, err
				}
				return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), true, nil
			}
		}
		return nil, false, nil
	}
	if n.Action != plan.IndexAction_Create {
		return nil, false, nil
	}
	switch n.Constraint {
	case sql.IndexConstraint_Spatial:
		indexNotCreated(ctx, n.Constraint, n.IndexName, n.Columns)
	case sql.IndexConstraint_Fulltext:
		rt, ok := n.Table.(*plan.ResolvedTable)
		if !ok {
			return nil, false, nil
		}
		t := storedTable(rt.Table)
		if t == nil {
			return nil, true, mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'FULLTEXT indexes on temporary tables'")
		}
		def := sql.IndexDef{Name: n.IndexName, Columns: n.Columns, Constraint: n.Constraint, Comment: n.Comment}
		if err := t.CreateIndex(ctx, def); err != nil {
			return nil, true, err
		}
	default:
		return nil, false, nil
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), true, nil
}

// droppingFulltext says whether n drops a FULLTEXT index.
func droppingFulltext(n *plan.AlterIndex) bool {
	if n.Action != plan.IndexAction_Drop {
		return false
	}
	rt, ok := n.Table.(*plan.ResolvedTable)
	if !ok {
		return false
	}
	t := storedTable(rt.Table)
	if t == nil {
		return false
	}
	for _, x := range fulltextIndexes(t.info.Indexes) {
		if strings.EqualFold(x.name, n.IndexName) {
			return true
		}
	}
	return false
}

// erInnodbNoFTTempTable is MySQL's ER_INNODB_NO_FT_TEMP_TABLE.
const erInnodbNoFTTempTable = 1796

// erBadFTColumn is MySQL's ER_BAD_FT_COLUMN.
const erBadFTColumn = 1283

// fulltextRefused is the error a FULLTEXT index of cols over sch fails
// with: each column must be CHAR, VARCHAR or TEXT.
func fulltextRefused(cols []sql.IndexColumn, sch sql.Schema) error {
	for _, c := range cols {
		i := sch.IndexOfColName(c.Name)
		if i < 0 {
			return mysql.NewSQLError(mysql.ERKeyColumnDoesNotExist, "42000", "Key column '%s' doesn't exist in table", c.Name)
		}
		if !types.IsTextOnly(sch[i].Type) {
			return mysql.NewSQLError(erBadFTColumn, "HY000", "Column '%s' cannot be part of FULLTEXT index", sch[i].Name)
		}
	}
	return nil
}

// fulltextMetaJSON is the metadata of a FULLTEXT index.
func fulltextMetaJSON(comment string) string {
	b, _ := json.Marshal(indexMeta{Comment: comment, Fulltext: true})
	return string(b)
}

// fulltextIndex is a FULLTEXT index of a table.
type fulltextIndex struct {
	name    string
	cols    []string
	comment string
}

// fulltextIndexes are the FULLTEXT indexes of a table whose storage
// indexes are defs.
func fulltextIndexes(defs []*storage.IndexDef) []fulltextIndex {
	var out []fulltextIndex
	for _, d := range defs {
		if m, ok := fulltextMeta(d); ok {
			out = append(out, fulltextIndex{name: d.Name, cols: d.Columns, comment: m.Comment})
		}
	}
	return out
}

// fulltextMeta is d's metadata, and whether d is a FULLTEXT index.
func fulltextMeta(d *storage.IndexDef) (indexMeta, bool) {
	var m indexMeta
	if !strings.Contains(d.Meta, `"fulltext"`) || json.Unmarshal([]byte(d.Meta), &m) != nil {
		return m, false
	}
	return m, m.Fulltext
}

// showFulltext writes t's FULLTEXT keys into SHOW CREATE TABLE's text,
// after its other keys, as MySQL lists them.
func showFulltext(text string, t *Table) string {
	fts := fulltextIndexes(t.info.Indexes)
	if len(fts) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	end := len(lines) - 1
	for end > 0 && !strings.HasPrefix(lines[end], ")") {
		end--
	}
	if end <= 0 {
		return text
	}
	at := 1 // after the last column or key line
	for i := 1; i < end; i++ {
		l := strings.TrimPrefix(lines[i], "  ")
		if strings.HasPrefix(l, "`") || strings.HasPrefix(l, "PRIMARY KEY") || strings.HasPrefix(l, "UNIQUE KEY") || strings.HasPrefix(l, "KEY") {
			at = i + 1
		}
	}
	var add []string
	for _, x := range fts {
		cols := make([]string, len(x.cols))
		for i, c := range x.cols {
			cols[i] = quoteIdent(c)
		}
		line := "  FULLTEXT KEY " + quoteIdent(x.name) + " (" + strings.Join(cols, ",") + ")"
		if x.comment != "" {
			line += " COMMENT '" + strings.ReplaceAll(x.comment, "'", "''") + "'"
		}
		add = append(add, line+",")
	}
	if at == end {
		// The keys are the last lines: the one before them takes a comma
		// and the last of them none.
		if !strings.HasSuffix(lines[at-1], ",") {
			lines[at-1] += ","
		}
		add[len(add)-1] = strings.TrimSuffix(add[len(add)-1], ",")
	}
	out := append([]string{}, lines[:at]...)
	out = append(out, add...)
	out = append(out, lines[at:]...)
	return strings.Join(out, "\n")
}

// fulltextIndexRows are SHOW INDEX's rows (of the engine's width and
// layout) for t's FULLTEXT keys.
func fulltextIndexRows(t *Table, width int) []sql.Row {
	var rows []sql.Row
	for _, x := range fulltextIndexes(t.info.Indexes) {
		for i, c := range x.cols {
			r := make(sql.Row, width)
			null := ""
			if j := t.sch.Schema.IndexOfColName(c); j >= 0 && t.sch.Schema[j].Nullable {
				null = "YES"
			}
			// Table, Non_unique, Key_name, Seq_in_index, Column_name,
			// Collation, Cardinality, Sub_part, Packed, Null, Index_type,
			// Comment, Index_comment, Visible, Expression.
			vals := []any{t.Name(), 1, x.name, i + 1, c, nil, nil, nil, nil, null, "FULLTEXT", "", x.comment, "YES", nil}
			copy(r, vals)
			rows = append(rows, r)
		}
	}
	return rows
}

// fulltextStatistics are information_schema.STATISTICS rows, of the
// columns sch, for the FULLTEXT keys of every table.
func (p *Provider) fulltextStatistics(sch sql.Schema) []sql.Row {
	var rows []sql.Row
	for _, db := range p.store.Databases() {
		names, err := p.store.Tables(db)
		if err != nil {
			continue
		}
		for _, name := range names {
			info, err := p.store.Table(db, name)
			if err != nil {
				continue
			}
			for _, x := range fulltextIndexes(info.Indexes) {
				for i, c := range x.cols {
					r := make(sql.Row, len(sch))
					set := func(col string, v any) {
						if j := sch.IndexOfColName(col); j >= 0 {
							r[j] = v
						}
					}
					nullable := ""
					if j := info.Schema.ColumnIndex(c); j >= 0 && info.Schema.Columns[j].Nullable {
						nullable = "YES"
					}
					set("TABLE_CATALOG", "def")
					set("TABLE_SCHEMA", db)
					set("TABLE_NAME", info.Name)
					set("NON_UNIQUE", 1)
					set("INDEX_SCHEMA", db)
					set("INDEX_NAME", x.name)
					set("SEQ_IN_INDEX", i+1)
					set("COLUMN_NAME", c)
					set("NULLABLE", nullable)
					set("INDEX_TYPE", "FULLTEXT")
					set("COMMENT", "")
					set("INDEX_COMMENT", x.comment)
					set("IS_VISIBLE", "YES")
					rows = append(rows, r)
				}
			}
		}
	}
	return rows
}

// erFTMatchingKeyNotFound is MySQL's ER_FT_MATCHING_KEY_NOT_FOUND.
const erFTMatchingKeyNotFound = 1191

// noFulltextIndex is MATCH ... AGAINST's error: no FULLTEXT index
// matches its columns.
func noFulltextIndex() error {
	return mysql.NewSQLError(erFTMatchingKeyNotFound, "HY000", "Can't find FULLTEXT index matching the column list")
}

// matchTable is a table a statement reads, as MATCH finds it.
type matchTable struct {
	db, name string
	info     *storage.TableInfo
}

// matchCalls writes each MATCH ... AGAINST of st as a call of matchFunc,
// naming the table and index it searches; a SELECT whose WHERE holds
// one, and that has no ORDER BY, is ordered by it, highest first.
func (p *Provider) matchCalls(ctx *sql.Context, st ast.Statement) error {
	var err error
	var scope func(node ast.SQLNode, tables []matchTable)
	scope = func(node ast.SQLNode, outer []matchTable) {
		tables := append(p.matchTables(ctx, tableExprsOf(node)), outer...)
		replace := map[ast.Expr]ast.Expr{}
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			switch n := n.(type) {
			case *ast.Select, *ast.Update, *ast.Delete:
				if n != node {
					scope(n, tables)
					return false, nil
				}
			case *ast.MatchExpr:
				call, e := p.matchCall(ctx, n, tables)
				if e != nil && err == nil {
					err = e
				}
				if call != nil {
					replace[n] = call
				}
				return false, nil
			}
			return true, nil
		}, node)
		if len(replace) == 0 {
			return
		}
		if sel, ok := node.(*ast.Select); ok {
			orderedByRelevance(sel, replace)
		}
		replaceExprs(node, replace)
	}
	scope(st, nil)
	return err
}

// tableExprsOf is the FROM list of a SELECT, UPDATE or DELETE.
func tableExprsOf(n ast.SQLNode) ast.TableExprs {
	switch n := n.(type) {
	case *ast.Select:
		return n.From
	case *ast.Update:
		return n.TableExprs
	case *ast.Delete:
		return n.TableExprs
	}
	return nil
}

// matchTables are the stored tables of a FROM list, each by the name a
// column may qualify it with.
func (p *Provider) matchTables(ctx *sql.Context, from ast.TableExprs) []matchTable {
	var out []matchTable
	var visit func(te ast.TableExpr)
	visit = func(te ast.TableExpr) {
		switch te := te.(type) {
		case *ast.AliasedTableExpr:
			tn, ok := te.Expr.(ast.TableName)
			if !ok {
				return
			}
			db := tn.DbQualifier.String()
			if db == "" {
				db = ctx.GetCurrentDatabase()
			}
			info, err := p.store.Table(db, tn.Name.String())
			if err != nil {
				return
			}
			name := tn.Name.String()
			if !te.As.IsEmpty() {
				name = te.As.String()
			}
			out = append(out, matchTable{db: info.DB, name: name, info: info})
		case *ast.JoinTableExpr:
			visit(te.LeftExpr)
			visit(te.RightExpr)
		case *ast.ParenTableExpr:
			for _, e := range te.Exprs {
				visit(e)
			}
		}
	}
	for _, te := range from {
		visit(te)
	}
	return out
}

// matchCall is the call m is read as. Its columns must be columns of one
// stored table the statement reads by name (else 1210, or 1191 for a
// view, a derived table or a column of none).
func (p *Provider) matchCall(ctx *sql.Context, m *ast.MatchExpr, tables []matchTable) (ast.Expr, error) {
	mode := ftNatural
	switch strings.ToLower(strings.TrimSpace(m.Option)) {
	case "", strings.TrimSpace(ast.NaturalLanguageModeStr):
	case strings.TrimSpace(ast.BooleanModeStr):
		mode = ftBoolean
	default:
		return nil, mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'full-text search WITH QUERY EXPANSION'")
	}
	var table *matchTable
	var cols []string
	args := []ast.Expr{}
	for _, se := range m.Columns {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return nil, wrongMatchArguments()
		}
		c, ok := ae.Expr.(*ast.ColName)
		if !ok {
			return nil, wrongMatchArguments()
		}
		var owner *matchTable
		for i := range tables {
			t := &tables[i]
			if !c.Qualifier.IsEmpty() {
				if strings.EqualFold(c.Qualifier.Name.String(), t.name) && (c.Qualifier.DbQualifier.IsEmpty() || strings.EqualFold(c.Qualifier.DbQualifier.String(), t.db)) {
					owner = t
					break
				}
				continue
			}
			if t.info.Schema.ColumnIndex(c.Name.String()) >= 0 {
				owner = t
				break
			}
		}
		if owner == nil || table != nil && owner != table {
			return nil, noFulltextIndex()
		}
		table = owner
		cols = append(cols, c.Name.String())
		args = append(args, c)
	}
	if table == nil {
		return nil, noFulltextIndex()
	}
	index := ""
	for _, x := range fulltextIndexes(table.info.Indexes) {
		if sameColumnSet(x.cols, cols) {
			index = x.name
			break
		}
	}
	if index == "" {
		return nil, noFulltextIndex()
	}
	exprs := ast.SelectExprs{
		&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(table.db))},
		&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(table.info.Name))},
		&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(index))},
		&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(mode))},
		&ast.AliasedExpr{Expr: m.Expr},
	}
	for _, a := range args {
		exprs = append(exprs, &ast.AliasedExpr{Expr: a})
	}
	return &ast.FuncExpr{Name: ast.NewColIdent(matchFunc), Exprs: exprs}, nil
}

// wrongMatchArguments is MySQL's ER_WRONG_ARGUMENTS for MATCH of
// something other than columns.
func wrongMatchArguments() error {
	return mysql.NewSQLError(mysql.ERWrongArguments, "HY000", "Incorrect arguments to MATCH")
}

func sameColumnSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || strings.EqualFold(x, y)
		}
		if !found {
			return false
		}
	}
	return true
}

// orderedByRelevance orders sel, a SELECT of one table without ORDER BY,
// GROUP BY or DISTINCT, by the MATCH that is its WHERE or one of its
// ANDed conditions, highest first, as MySQL returns the rows of a
// full-text index read.
func orderedByRelevance(sel *ast.Select, calls map[ast.Expr]ast.Expr) {
	if sel.Where == nil || len(sel.OrderBy) > 0 || len(sel.GroupBy) > 0 || sel.QueryOpts.Distinct || len(sel.From) != 1 {
		return
	}
	if _, ok := sel.From[0].(*ast.AliasedTableExpr); !ok {
		return
	}
	aggregated := false
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *ast.FuncExpr:
			aggregated = aggregated || n.IsAggregate() || n.Over != nil
		case *ast.GroupConcatExpr:
			aggregated = true
		case *ast.Subquery:
			return false, nil
		}
		return !aggregated, nil
	}, sel.SelectExprs)
	if aggregated {
		return
	}
	var found ast.Expr
	var conjuncts func(e ast.Expr)
	conjuncts = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.AndExpr:
			conjuncts(e.Left)
			conjuncts(e.Right)
		case *ast.ParenExpr:
			conjuncts(e.Expr)
		case *ast.MatchExpr:
			if found == nil && calls[e] != nil {
				found = calls[e]
			}
		}
	}
	conjuncts(sel.Where.Expr)
	if found != nil {
		sel.OrderBy = ast.OrderBy{&ast.Order{Expr: found, Direction: ast.DescScr}}
	}
}

// matchFunction ranks a row: sqlearn_match(db, table, index, mode,
// query, col...).
var matchFunction = scalarOfNulls(matchFunc, 6, 6+maxFulltextColumns, fixedType(types.Float64), func(ctx *sql.Context, args []any) (any, error) {
	search, err := searchOf(ctx, args)
	if err != nil {
		return nil, err
	}
	return search.rank(ctx, args[5:])
})

// searchOf is the statement's search that a MATCH call's first five
// arguments (db, table, index, mode, query) name.
func searchOf(ctx *sql.Context, args []any) (*ftSearch, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.p == nil {
		return nil, fmt.Errorf("sqlext: %s needs a sqlearn session", matchFunc)
	}
	db, _ := args[0].(string)
	table, _ := args[1].(string)
	index, _ := args[2].(string)
	mode, _ := args[3].(string)
	query := ""
	if args[4] != nil {
		v, _, err := types.LongText.Convert(ctx, args[4])
		if err != nil {
			return nil, err
		}
		query, _ = v.(string)
	}
	return s.fulltextSearch(ctx, db, table, index, mode, query)
}

const maxFulltextColumns = 64
