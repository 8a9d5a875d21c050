package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// statementParser is the engine's parser with two statements adjusted
// before they are bound, a rename (see bindRenameDatabase) and an INSERT
// of values for generated columns (see defaultGeneratedValues), with
// typed literals, whose type the parser drops, read as CASTs (see
// literals.go), with CUME_DIST, which the planner does not know, read
// as a PERCENT_RANK (see cumedist.go), with OVER w written as w's
// definition (see windowframe.go), with window functions of grouped
// SELECTs read over a derived table that groups (see
// groupedwindows.go), with an ALTER's CHECK that reads a column the
// statement adds moved into that column's clause (see altercheck.go),
// with ~x, which the planner does
// not know, read as a function (see bitnot.go), with the columns of set operations
// marked for typing (see markUnionColumns), long lists of integers after
// IN read from a VALUES table (see longinlists.go), and with user-variable
// assignments in expressions, which the parser refuses, rewritten (see
// assign.go), writes through a view made writes to its table (see
// viewwrites.go), and the SELECT of an INSERT whose ON DUPLICATE KEY
// UPDATE reads VALUES() named as VALUES() reads it (see
// insertselectvalues.go), FLUSH ... WITH READ LOCK and FLUSH STATUS read
// as calls (see locktables.go), SHOW INDEX ... WHERE as a query of
// information_schema.STATISTICS (see showcolumns.go), and the stars and
// INSERT column lists of tables with invisible columns written out (see
// invisible.go). Before it is parsed, a statement has || under
// PIPES_AS_CONCAT and the INTERVAL(N, N1, ...) function written as calls
// (see writtentext.go).
type statementParser struct {
	sql.Parser
	p *Provider
}

// adjusted is st adjusted (adjust), or the statement that stands for it.
func (sp statementParser) adjusted(ctx context.Context, st ast.Statement, text string) (ast.Statement, error) {
	if q, err := sp.showPlugins(ctx, st); q != nil || err != nil {
		return q, err
	}
	if set, ok := st.(*ast.Set); ok && len(set.Exprs) == 1 && strings.EqualFold(set.Exprs[0].Name.String(), "password") {
		// SET PASSWORD = '...', the session's own account's, which the
		// parser reads as a variable's (rewriteSetPassword).
		if sctx, ok := ctx.(*sql.Context); ok {
			if q, ok := sp.p.rewriteSetPassword(sctx, text); ok {
				st, _, err := sp.Parser.ParseOneWithOptions(ctx, q, ast.ParserOptions{})
				return st, err
			}
		}
	}
	if show, ok := st.(*ast.Show); ok {
		if q, replaced, err := sp.showIndexWhere(ctx, show); replaced || err != nil {
			return q, err
		}
	}
	if f, ok := st.(*ast.Flush); ok {
		if call, replaced, err := sp.flushStatement(ctx, f); replaced || err != nil {
			return call, err
		}
	}
	if err := sp.adjust(ctx, st, text); err != nil {
		return nil, err
	}
	left, err := sp.p.dropsInUnknownDatabases(ctx, st)
	if err != nil {
		return nil, err
	}
	if !left {
		none, _, err := sp.Parser.ParseOneWithOptions(ctx, "SET @"+doVariable+" = 0", ast.ParserOptions{})
		return none, err
	}
	return st, nil
}

func (sp statementParser) adjust(ctx context.Context, st ast.Statement, text string) error {
	nameSelectedColumns(st, text)
	qualifiedFunctionNames(st)
	jsonAggregates(st)
	windowedSelects(st)
	repeatedAggregates(st)
	if nestedSelect(text) {
		innerAggregates(st)
	}
	if containsFold(text, "over") {
		if err := misplacedWindow(st); err != nil {
			return err
		}
		windowCalls(st)
	}
	bitNotAsFunction(st)
	if sctx, ok := ctx.(*sql.Context); ok && containsFold(text, "match") {
		if err := sp.p.matchCalls(sctx, st); err != nil {
			return err
		}
	}
	if containsFold(text, "names") {
		if err := namesCollation(st, text); err != nil {
			return err
		}
	}
	if containsFold(text, "partition") {
		if err := partitionSelection(st); err != nil {
			return err
		}
	}
	sctx, ok := ctx.(*sql.Context)
	if ok {
		sp.p.expandUnionStars(sctx, st)
	}
	if setOperation(text) {
		unionOrdinalsAliased(st)
	}
	markUnionColumns(st)
	longInLists(st)
	viewCheckClause(st, text)
	if !ok {
		return nil
	}
	if s, ok := sctx.Session.(*Session); ok {
		_, s.explaining = st.(*ast.Explain)
		noteCollatedCreate(s, st)
		noteConvertCharset(s, st, text)
		noteAlterView(s)
		noteTableComment(sctx, s, st, text)
		noteInvisible(s, st, text)
	}
	if strings.Contains(text, "*") {
		sp.p.expandInvisibleStars(sctx, st)
	}
	sp.p.insertVisible(sctx, st)
	bindRenameDatabase(sctx, st)
	realAsFloat(sctx, st)
	likeEscapes(sctx, st)
	globalDefaults(st)
	authorizeOwnCalls(st)
	authorizeOwnGrants(st)
	showEventsIn(sctx, st)
	lendParsedTriggerDatabase(sctx, sp.p, st)
	switch x := st.(type) {
	case *ast.Insert:
		sp.p.defaultGeneratedValues(sctx, x)
		sp.p.valuesOfInsertSelect(sctx, x)
	case *ast.AlterTable:
		sp.p.forwardChecks(sctx, x)
	case *ast.Call:
		if err := sp.p.callWithoutDatabase(sctx, x); err != nil {
			return err
		}
	}
	if err := sp.p.groupByAmbiguity(sctx, st); err != nil {
		return err
	}
	return sp.p.viewTarget(sctx, st)
}

// checkRoutine checks the statements of a CREATE PROCEDURE's body
// (checkStatements), each read as the server reads a statement, but
// without the session's part in it (adjust).
func (sp statementParser) checkRoutine(ctx context.Context, query string) func(*compound.Routine) error {
	var opts ast.ParserOptions
	if sctx, ok := ctx.(*sql.Context); ok {
		opts = sqlMode(sctx).ParserOptions()
	}
	return func(r *compound.Routine) error {
		return checkStatements(query, r, func(text string) (ast.Statement, error) {
			text = rewriteParsable(text)
			st, _, err := sp.Parser.ParseOneWithOptions(ctx, text, opts)
			if err != nil {
				if q, ok := sp.rewriteRefused(ctx, text); ok {
					if st2, _, err2 := sp.Parser.ParseOneWithOptions(ctx, q, opts); err2 == nil {
						return st2, nil
					}
				}
			}
			return st, err
		})
	}
}

// rewriteParsable writes what the parser reads, but differently from
// MySQL, before it reads it: typed literals as CASTs (literals.go) and
// SHOW COLLATION as a SELECT under MySQL's column names
// (showcollation.go).
func rewriteParsable(query string) string {
	if edits := typedLiteralEdits(query); len(edits) > 0 {
		query, _ = splice(query, nil, edits)
	}
	return showCollationRewritten(query)
}

// showCollationRewritten is query, or the SELECT that SHOW COLLATION is
// read as. The server's statements take the rest of rewriteParsable's
// rewrites in rewriteOperators, which keeps where each byte was written.
func showCollationRewritten(query string) string {
	if r, ok := rewriteShowCollation(query); ok {
		return r
	}
	return query
}

func (sp statementParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	query = showCollationRewritten(query)
	written := query
	query, origin := rewriteOperators(ctx, query)
	if st, pre, rest, ok, err := parseProcedure(query, func(q string) (ast.Statement, string, string, error) {
		return sp.Parser.Parse(ctx, q, multi)
	}, sp.checkRoutine(ctx, query), definerOf(ctx)); ok {
		return st, pre, rest, err
	}
	st, pre, rest, err := sp.Parser.Parse(ctx, query, multi)
	text := query
	if err != nil {
		if q, qOrigin, ok := sp.rewriteRefusedFrom(ctx, query, origin); ok {
			if st2, pre2, rest2, err2 := sp.Parser.Parse(ctx, q, multi); err2 == nil {
				st, pre, rest, err, text, origin = st2, pre2, rest2, nil, q, qOrigin
			}
		}
	}
	if err == nil {
		writtenSelectNames(st, text, written, origin)
		if st, err = sp.adjusted(ctx, st, text); err != nil {
			return nil, "", "", err
		}
	}
	return st, pre, writtenRest(rest, text, written, origin), err
}

func (sp statementParser) ParseWithOptions(ctx context.Context, query string, delim rune, multi bool, opts ast.ParserOptions) (ast.Statement, string, string, error) {
	query = showCollationRewritten(query)
	written := query
	query, origin := rewriteOperators(ctx, query)
	if st, pre, rest, ok, err := parseProcedure(query, func(q string) (ast.Statement, string, string, error) {
		return sp.Parser.ParseWithOptions(ctx, q, delim, multi, opts)
	}, sp.checkRoutine(ctx, query), definerOf(ctx)); ok {
		return st, pre, rest, err
	}
	st, pre, rest, err := sp.Parser.ParseWithOptions(ctx, query, delim, multi, opts)
	text := query
	if err != nil {
		if q, qOrigin, ok := sp.rewriteRefusedFrom(ctx, query, origin); ok {
			if st2, pre2, rest2, err2 := sp.Parser.ParseWithOptions(ctx, q, delim, multi, opts); err2 == nil {
				st, pre, rest, err, text, origin = st2, pre2, rest2, nil, q, qOrigin
			}
		}
	}
	if err == nil {
		writtenSelectNames(st, text, written, origin)
		if st, err = sp.adjusted(ctx, st, text); err != nil {
			return nil, "", "", err
		}
	}
	return st, pre, writtenRest(rest, text, written, origin), err
}

func (sp statementParser) ParseOneWithOptions(ctx context.Context, query string, opts ast.ParserOptions) (ast.Statement, int, error) {
	query = showCollationRewritten(query)
	written := query
	query, origin := rewriteOperators(ctx, query)
	if st, n, ok, err := parseOneProcedure(query, func(q string) (ast.Statement, int, error) {
		return sp.Parser.ParseOneWithOptions(ctx, q, opts)
	}, sp.checkRoutine(ctx, query), definerOf(ctx)); ok {
		return st, n, err
	}
	st, n, err := sp.Parser.ParseOneWithOptions(ctx, query, opts)
	text := query
	if err != nil {
		if q, qOrigin, ok := sp.rewriteRefusedFrom(ctx, query, origin); ok {
			if st2, n2, err2 := sp.Parser.ParseOneWithOptions(ctx, q, opts); err2 == nil {
				st, n, err, text, origin = st2, n2, nil, q, qOrigin
			}
		}
	}
	if err == nil {
		writtenSelectNames(st, text, written, origin)
		if st, err = sp.adjusted(ctx, st, text); err != nil {
			return nil, 0, err
		}
	}
	return st, n, err
}

// rewriteRefused is a statement the parser refused written in what the
// parser reads, and whether anything was rewritten: compound interval
// units as single ones (see intervals.go), CHARSET in ALTER TABLE as
// CHARACTER SET (see tablecharset.go), quoted storage engine names bare
// and table options before a CREATE TABLE's query out when they change
// nothing (see tableoptions.go), FOR SHARE, NOWAIT and SKIP LOCKED
// as the parser reads them (see lockingreads.go), a query in parentheses
// after CREATE ... AS or INSERT bare (see parenquery.go), quantified comparisons (x >
// ANY (SELECT ...)) as IN or scalar subqueries (see quantified.go), @v := expr assignments as
// calls (see rewriteAssignments), whose variables are declared for
// binding (declareAssigned), WITH ROLLUP as a union (see rollup.go),
// DO as a SET (see do.go), ALTER VIEW as CREATE OR REPLACE VIEW (see
// alterview.go), the column after AFTER quoted (see
// afterword.go), CHECK, OPTIMIZE, REPAIR and CHECKSUM TABLE and SHOW
// ENGINE as calls (see maintenance.go and showengine.go), HELP and SHOW
// OPEN TABLES as SELECTs (see help.go and showopentables.go), and EXPLAIN
// FORMAT=JSON as FORMAT=TREE (see explainjson.go), and CREATE FUNCTION,
// DROP FUNCTION and SHOW CREATE FUNCTION as calls (see routinefunc.go),
// and CREATE TABLE with columns and a query as a call (see
// ctasdefined.go), INSERT ... SET ... AS alias as the VALUES form
// (see insertsetalias.go), and ALTER USER with password or lock clauses
// as a call and SHOW CREATE USER as a SELECT (see accounts.go), and SET
// ROLE and SET DEFAULT ROLE as calls (see roles.go), ALTER COLUMN ...
// SET [IN]VISIBLE as a call (see invisible.go), and RESET PERSIST as a
// call (see persist.go).
func (sp statementParser) rewriteRefused(ctx context.Context, query string) (string, bool) {
	q, _, ok := sp.rewriteRefusedFrom(ctx, query, nil)
	return q, ok
}

// rewriteRefusedFrom is rewriteRefused of query, whose bytes were at
// origin in the text written (see splice), also giving where the bytes
// of the rewritten text were: nil when a rewrite that keeps no such map
// changed it.
func (sp statementParser) rewriteRefusedFrom(ctx context.Context, query string, origin []int) (string, []int, bool) {
	sctx, _ := ctx.(*sql.Context)
	q, changed := query, false
	if origin == nil {
		origin = make([]int, len(q)+1)
		for i := range origin {
			origin[i] = i
		}
	}
	apply := func(rewrite func(string) (string, bool)) {
		if r, ok := rewrite(q); ok {
			q, changed, origin = r, true, nil
		}
	}
	apply(rewriteCompoundIntervals)
	apply(rewriteAlterCharset)
	apply(rewriteTableOptions)
	apply(rewritePartitionClause)
	apply(rewriteIndexOptions)
	apply(rewriteLockingReads)
	apply(rewriteQueryInParentheses)
	if strings.Contains(q, ":=") {
		var names []string
		q, origin, names = rewriteAssignmentsOf(q, origin)
		if sctx != nil {
			declareAssigned(sctx, names)
		}
		changed = changed || len(names) > 0
	}
	apply(rewriteQuantified)
	apply(func(q string) (string, bool) { return rewriteRollup(ctx, sp.Parser, q) })
	apply(func(q string) (string, bool) { return rewriteDo(ctx, sp.Parser, q) })
	apply(func(q string) (string, bool) { return rewriteAlterView(ctx, q) })
	apply(quoteAfterColumns)
	if sctx != nil {
		apply(func(q string) (string, bool) { return rewriteMaintenance(sctx, q) })
		apply(func(q string) (string, bool) { return sp.p.rewriteSetPassword(sctx, q) })
	}
	apply(rewriteHelp)
	apply(rewriteShowOpenTables)
	apply(rewriteShowSchemas)
	apply(rewriteShowEngine)
	apply(rewriteExplainJSON)
	apply(rewriteFunctionStatement)
	apply(rewriteDefinedQuery)
	apply(rewriteInsertSetAlias)
	apply(rewriteAccountStatement)
	apply(rewriteShowCreateUser)
	apply(rewriteSetRole)
	apply(rewriteColumnVisibility)
	apply(rewriteResetPersist)
	return q, origin, changed
}

// statementRest is what follows a statement whose tokens end before
// toks[i]: nothing, or the statements after its semicolon, which a
// rewrite of the statement keeps as they are (a query of several
// statements is parsed one by one from the rewritten text). ok is false
// when toks[i] is neither the end nor a semicolon.
func statementRest(query string, toks []sqlToken, i int) (rest string, ok bool) {
	switch {
	case i >= len(toks):
		return "", true
	case toks[i].text == ";":
		return query[toks[i].start:], true
	}
	return "", false
}

// RENAME TABLE (and ALTER TABLE ... RENAME) is bound in the database its
// names are qualified with. The
// engine binds the statement against the current database and drops the
// qualifiers, so RENAME TABLE d.a TO d.b failed with "no database selected"
// without a current database and looked for a in the current one when
// there was one. The parser lends the named database for the statement
// (lendDatabase). A rename from one database to another is carried out
// when it runs (renameAcrossDatabases): the engine hands it to one
// database with bare names.
//
// An INSERT ... VALUES without a column list into a table with generated
// columns gives a value for each of them, which the engine refuses, as
// MySQL does. mariadb-dump writes its data that way, and MariaDB ignores
// such values with a warning unless the SQL mode is strict; so does this
// server, so that such a dump restores (it sets a mode that is not
// strict). The values become DEFAULT before the statement is bound.
// insertedSchema is the schema of the table ins writes, when it is one of
// the store's.
func (p *Provider) insertedSchema(ctx *sql.Context, ins *ast.Insert) (sql.Schema, bool) {
	db := ins.Table.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	info, err := p.store.Table(db, ins.Table.Name.String())
	if err != nil {
		return nil, false
	}
	sch, err := p.sqlSchema(ctx, info)
	if err != nil {
		return nil, false
	}
	return sch.Schema, true
}

func (p *Provider) defaultGeneratedValues(ctx *sql.Context, ins *ast.Insert) {
	if len(ins.Columns) != 0 {
		return
	}
	var tuples []ast.ValTuple
	switch rows := ins.Rows.(type) {
	case ast.Values:
		tuples = rows
	case *ast.AliasedValues:
		tuples = rows.Values
	case ast.AliasedValues:
		tuples = rows.Values
	default:
		return
	}
	mode := sqlMode(ctx)
	if mode.ModeEnabled("STRICT_TRANS_TABLES") || mode.ModeEnabled("STRICT_ALL_TABLES") {
		return
	}
	sch, ok := p.insertedSchema(ctx, ins)
	if !ok {
		return
	}
	var generated []int
	for i, c := range sch {
		if c.Generated != nil {
			generated = append(generated, i)
		}
	}
	if len(generated) == 0 {
		return
	}
	for _, t := range tuples {
		if len(t) != len(sch) {
			return // the engine reports the count
		}
	}
	cols := make(ast.Columns, len(sch))
	for i, c := range sch {
		cols[i] = ast.NewColIdent(c.Name)
	}
	ins.Columns = cols
	for _, t := range tuples {
		for _, i := range generated {
			if _, isDefault := t[i].(*ast.Default); !isDefault {
				t[i] = &ast.Default{}
				warnAfterPlanning(ctx, erGeneratedValueIgnored, "The value specified for generated column '%s' in table '%s' has been ignored", sch[i].Name, ins.Table.Name.String())
			}
		}
	}
}

// erGeneratedValueIgnored is MariaDB's ER_WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN.
const erGeneratedValueIgnored = 1906

// erNotSupportedYet is MySQL's ER_NOT_SUPPORTED_YET.
const erNotSupportedYet = 1235

// bindRenameDatabase lends a rename the database its tables are in (the
// first one's, when they are in several); a name without a qualifier is
// in the current database. Other statements are left alone.
func bindRenameDatabase(ctx *sql.Context, st ast.Statement) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return
	}
	s.crossDBRename, s.renames = false, nil
	var names, from, to ast.TableNames
	switch st := st.(type) {
	case *ast.DDL:
		if st.Action == ast.RenameStr {
			from, to = st.FromTables, st.ToTables
		}
	case *ast.AlterTable:
		for _, d := range st.Statements {
			if d.Action == ast.RenameStr {
				from, to = append(from, d.FromTables...), append(to, d.ToTables...)
			}
		}
	}
	names = append(append(names, from...), to...)
	current := ctx.GetCurrentDatabase()
	qualified := func(n ast.TableName) [2]string {
		if d := n.DbQualifier.String(); d != "" {
			return [2]string{d, n.Name.String()}
		}
		return [2]string{current, n.Name.String()}
	}
	for i := range from {
		if i < len(to) {
			s.renames = append(s.renames, [2][2]string{qualified(from[i]), qualified(to[i])})
		}
	}
	db := ""
	for _, n := range names {
		d := n.DbQualifier.String()
		if d == "" {
			d = current
		}
		if d == "" {
			return // the engine reports that no database is selected
		}
		if db == "" {
			db = d
		} else if !strings.EqualFold(db, d) {
			s.crossDBRename = true
		}
	}
	if db != "" && !strings.EqualFold(db, current) {
		lendDatabase(ctx, db)
	}
}

// nameSelectedColumns names the columns CREATE TABLE ... AS SELECT makes
// from expressions as MySQL does, by the expression as written
// (max(d)): the parser records that text for a SELECT statement but not
// for the query of a CREATE TABLE, whose columns then took the engine's
// text of the expression (max(t.d)).
func nameSelectedColumns(st ast.Statement, text string) {
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.OptSelect == nil {
		return
	}
	sel, ok := ddl.OptSelect.Select.(*ast.Select)
	if !ok {
		return
	}
	for _, e := range sel.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok || ae.InputExpression != "" || ae.EndParsePos <= ae.StartParsePos || ae.EndParsePos > len(text) {
			continue
		}
		if _, column := ae.Expr.(*ast.ColName); column {
			continue
		}
		written := strings.TrimSpace(text[ae.StartParsePos:ae.EndParsePos])
		if len(written) >= 2 && (written[0] == '\'' || written[0] == '"') && written[len(written)-1] == written[0] {
			written = written[1 : len(written)-1]
		}
		ae.InputExpression = written
	}
}
