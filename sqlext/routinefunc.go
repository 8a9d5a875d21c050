package sqlext

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// Stored functions (CREATE FUNCTION), which the engine's parser refused:
// CREATE FUNCTION, DROP FUNCTION and SHOW CREATE FUNCTION are rewritten
// as calls of system procedures (rewriteFunctionStatement), a function is
// kept as its text in its database's replicated metadata, like a
// procedure, and a call of one in an expression runs its body in the
// procedure interpreter (storedFuncCall), inside the statement that calls
// it: its statements commit nothing, as in MySQL.

// funcPrefix is the metadata key prefix of stored functions.
const funcPrefix = "func/"

// storedFunction is a stored function as kept.
type storedFunction struct {
	Name            string
	CreateStatement string
	CreatedAt       time.Time
	ModifiedAt      time.Time
	SqlMode         string
	Definer         string
}

const (
	createFunctionProcedure     = "sqlearn_create_function"
	dropFunctionProcedure       = "sqlearn_drop_function"
	showCreateFunctionProcedure = "sqlearn_show_create_function"
)

// MySQL's errors for stored functions.
const (
	erSPAlreadyExists   = 1304
	erSPNoReturn        = 1320
	erSPNoReturnEnd     = 1321
	erSPNoRecursion     = 1424
	erSPNoRetSet        = 1415
	erCommitNotAllowed  = 1422
	erNativeFctNameSame = 1585
)

// rewriteFunctionStatement writes CREATE FUNCTION, DROP FUNCTION and
// SHOW CREATE FUNCTION as calls of the procedures that carry them out;
// the statements after one in a query of several are kept.
func rewriteFunctionStatement(query string) (string, bool) {
	if !containsFold(query, "function") {
		return "", false
	}
	query = withoutVersionComment(query) // as mariadb-dump writes DROP FUNCTION
	if r, ok, _ := compound.Function(query); ok {
		// A body the reader refuses is refused, whole, when the call runs.
		end := r.End
		if r.Body == nil {
			end = len(query)
		}
		return "CALL " + SystemDatabase + "." + createFunctionProcedure + "(" + quoteString(query[:end]) + ")" + query[end:], true
	}
	toks := sqlTokens(query)
	word := func(i int, w string) bool { return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w) }
	var proc string
	i := 0
	ifExists := "0"
	switch {
	case word(0, "DROP") && word(1, "FUNCTION"):
		proc, i = dropFunctionProcedure, 2
		if word(2, "IF") && word(3, "EXISTS") {
			i, ifExists = 4, "1"
		}
	case word(0, "SHOW") && word(1, "CREATE") && word(2, "FUNCTION"):
		proc, i = showCreateFunctionProcedure, 3
	default:
		return "", false
	}
	if i >= len(toks) {
		return "", false
	}
	db, name := "", unquoteIdent(toks[i].text)
	if d, n, dotted := strings.Cut(toks[i].text, "."); dotted && toks[i].word {
		db, name = d, n
	} else if i+2 < len(toks) && toks[i+1].text == "." {
		db, name = name, unquoteIdent(toks[i+2].text)
		i += 2
	}
	rest, ok := statementRest(query, toks, i+1)
	if !ok {
		return "", false
	}
	args := quoteString(db) + ", " + quoteString(name)
	if proc == dropFunctionProcedure {
		args += ", " + ifExists
	}
	return "CALL " + SystemDatabase + "." + proc + "(" + args + ")" + rest, true
}

// functionExtensions are the procedures the rewritten statements call
// (and CREATE TABLE with columns and a query, ctasdefined.go).
func functionExtensions(p *Provider) Extensions {
	text := func(name string) *sql.Column { return &sql.Column{Name: name, Type: types.LongText, Nullable: true} }
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{
		{Name: createFunctionProcedure, Schema: nil, Function: p.createFunction},
		{Name: createSelectProcedure, Schema: types.OkResultSchema, Function: p.createSelect},
		{Name: dropFunctionProcedure, Schema: nil, Function: p.dropFunction},
		{Name: showCreateFunctionProcedure, Schema: sql.Schema{text("Function"), text("sql_mode"), text("Create Function"),
			text("character_set_client"), text("collation_connection"), text("Database Collation")}, Function: p.showCreateFunction},
	}}
}

// functionDatabase is the database a function statement names, or the
// current one.
func (p *Provider) functionDatabase(ctx *sql.Context, db string) (*Database, error) {
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	if db == "" {
		return nil, mysql.NewSQLError(mysql.ERNoDb, "3D000", "No database selected")
	}
	d, err := p.Database(ctx, db)
	if err != nil {
		return nil, mysql.NewSQLError(mysql.ERBadDb, "42000", "Unknown database '%s'", db)
	}
	sd, ok := d.(*Database)
	if !ok {
		return nil, mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'functions in database %s'", db)
	}
	return sd, nil
}

func (p *Provider) createFunction(ctx *sql.Context, text string) (sql.RowIter, error) {
	r, ok, err := compound.Function(text)
	if !ok {
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%.80s'", text)
	}
	if err != nil {
		return nil, routineError(err)
	}
	d, err := p.functionDatabase(ctx, r.DB)
	if err != nil {
		return nil, err
	}
	if !p.HasPrivilege(ctx, d.name, "", sql.PrivilegeType_CreateRoutine) {
		c := ctx.Session.Client()
		return nil, mysql.NewSQLError(mysql.ERDBAccessDenied, "42000", "Access denied for user '%s'@'%s' to database '%s'", c.User, c.Address, d.name)
	}
	if !r.HasReturn {
		return nil, mysql.NewSQLError(erSPNoReturn, "42000", "No RETURN found in FUNCTION %s.%s", d.name, r.Name)
	}
	if _, err := declaredType(r.Returns); err != nil {
		return nil, err
	}
	if _, err := routineParams(r); err != nil {
		return nil, err
	}
	if p.checkRoutine != nil {
		if err := p.checkRoutine(ctx, text)(r); err != nil {
			return nil, routineError(err)
		}
	}
	key := funcPrefix + strings.ToLower(r.Name)
	if _, exists, _ := metaValue[storedFunction](d, key); exists {
		if r.IfNotExists {
			ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erSPAlreadyExists, Message: fmt.Sprintf("FUNCTION %s already exists", r.Name)})
			return okRows(), nil
		}
		return nil, mysql.NewSQLError(erSPAlreadyExists, "42000", "FUNCTION %s already exists", r.Name)
	}
	if builtinFunction(r.Name) {
		ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erNativeFctNameSame, Message: fmt.Sprintf("This function '%s' has the same name as a native function", r.Name)})
	}
	c := ctx.Session.Client()
	if definer := definerOf(ctx); !r.HasDefiner && definer != "" {
		// The creating account is the definer, written in the text as
		// MySQL writes it.
		text = text[:r.Created] + " DEFINER=" + definer + text[r.Created:]
	}
	now := time.Now().UTC()
	f := storedFunction{Name: r.Name, CreateStatement: text, CreatedAt: now, ModifiedAt: now,
		SqlMode: sqlMode(ctx).String(), Definer: c.User + "@" + c.Address}
	if err := d.putMeta(ctx, key, f); err != nil {
		return nil, err
	}
	return okRows(), nil
}

func (p *Provider) dropFunction(ctx *sql.Context, db, name string, ifExists int8) (sql.RowIter, error) {
	d, err := p.functionDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	if !p.HasPrivilege(ctx, d.name, "", sql.PrivilegeType_AlterRoutine) {
		c := ctx.Session.Client()
		return nil, mysql.NewSQLError(mysql.ERDBAccessDenied, "42000", "Access denied for user '%s'@'%s' to database '%s'", c.User, c.Address, d.name)
	}
	key := funcPrefix + strings.ToLower(name)
	if _, exists, _ := metaValue[storedFunction](d, key); !exists {
		msg := fmt.Sprintf("FUNCTION %s.%s does not exist", d.name, name)
		if ifExists != 0 {
			ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erSPDoesNotExist, Message: msg})
			return okRows(), nil
		}
		return nil, mysql.NewSQLError(erSPDoesNotExist, "42000", "%s", msg)
	}
	if err := d.deleteMeta(ctx, key); err != nil {
		return nil, err
	}
	return okRows(), nil
}

func (p *Provider) showCreateFunction(ctx *sql.Context, db, name string) (sql.RowIter, error) {
	d, err := p.functionDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	f, exists, err := metaValue[storedFunction](d, funcPrefix+strings.ToLower(name))
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, mysql.NewSQLError(erSPDoesNotExist, "42000", "FUNCTION %s.%s does not exist", d.name, name)
	}
	cs, _ := ctx.GetSessionVariable(ctx, "character_set_client")
	cc, _ := ctx.GetSessionVariable(ctx, "collation_connection")
	return sql.RowsToRowIter(sql.Row{f.Name, f.SqlMode, unqualifiedRoutine(f.CreateStatement), fmt.Sprint(cs), fmt.Sprint(cc), d.GetCollation(ctx).Name()}), nil
}

// okRows is the answer of a system procedure without a schema: no rows,
// which the client gets as OK.
func okRows() sql.RowIter { return sql.RowsToRowIter() }

var (
	builtinsOnce sync.Once
	builtins     map[string]bool
)

// builtinFunction says whether name is one of the engine's functions,
// which a stored function of the same name does not hide (MySQL calls
// the native one).
func builtinFunction(name string) bool {
	builtinsOnce.Do(func() {
		builtins = make(map[string]bool, len(function.BuiltIns))
		for _, f := range function.BuiltIns {
			builtins[strings.ToLower(f.FunctionName())] = true
		}
	})
	return builtins[strings.ToLower(name)]
}

// qualifiedFunctionNames gives each call of a function qualified with its
// database (db.f()) the name db.f, which storedFunctionNamed reads: the
// planner looks functions up by name alone.
func qualifiedFunctionNames(st ast.Statement) {
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && !f.Qualifier.IsEmpty() {
			f.Name = ast.NewColIdent(f.Qualifier.String() + "." + f.Name.String())
			f.Qualifier = ast.TableIdent{}
		}
		return true, nil
	}, st)
}

// storedFunctionNamed is the stored function name (db.name, or name of
// the current database), as a function the planner calls.
func (p *Provider) storedFunctionNamed(ctx *sql.Context, name string) (sql.Function, bool) {
	db := ctx.GetCurrentDatabase()
	if d, n, qualified := strings.Cut(name, "."); qualified {
		db, name = d, n
	} else if builtinFunction(name) {
		return nil, false
	}
	if db == "" {
		return nil, false
	}
	stored, ok := p.store.Database(db)
	if !ok {
		return nil, false
	}
	d := &Database{p: p, name: stored}
	f, exists, err := metaValue[storedFunction](d, funcPrefix+strings.ToLower(name))
	if err != nil || !exists {
		return nil, false
	}
	def := &storedFunctionDef{p: p, db: stored, f: f}
	return sql.FunctionN{Name: f.Name, Fn: def.NewInstance}, true
}

// storedFunctionDef is a stored function of database db.
type storedFunctionDef struct {
	p  *Provider
	db string
	f  storedFunction
}

// NewInstance is a call of the function with args.
func (d *storedFunctionDef) NewInstance(args ...sql.Expression) (sql.Expression, error) {
	r, err := compiledRoutine(d.f.CreateStatement)
	if err != nil {
		return nil, err
	}
	if len(r.Params) != len(args) {
		return nil, procErr(erSPWrongNoOfArgs, "42000", "Incorrect number of arguments for FUNCTION %s.%s; expected %d, got %d", d.db, d.f.Name, len(r.Params), len(args))
	}
	ret, err := declaredType(r.Returns)
	if err != nil {
		return nil, err
	}
	return &storedFuncCall{def: d, ret: ret, args: args}, nil
}

// storedFuncCall is a call of a stored function in an expression.
type storedFuncCall struct {
	def  *storedFunctionDef
	ret  sql.Type
	args []sql.Expression
}

var (
	_ sql.Expression                 = (*storedFuncCall)(nil)
	_ sql.NonDeterministicExpression = (*storedFuncCall)(nil)
)

func (c *storedFuncCall) Resolved() bool {
	for _, a := range c.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

func (c *storedFuncCall) String() string {
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = a.String()
	}
	return c.def.f.Name + "(" + strings.Join(args, ", ") + ")"
}

func (c *storedFuncCall) Type() sql.Type             { return c.ret }
func (c *storedFuncCall) IsNullable() bool           { return true }
func (c *storedFuncCall) IsNonDeterministic() bool   { return true }
func (c *storedFuncCall) Children() []sql.Expression { return c.args }
func (c *storedFuncCall) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(c.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), len(c.args))
	}
	nc := *c
	nc.args = children
	return &nc, nil
}

// Eval runs the function's body with the arguments' values, inside the
// calling statement: its statements commit nothing.
func (c *storedFuncCall) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	args := make([]procArg, len(c.args))
	for i, a := range c.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		args[i].in = func() (any, error) { return v, nil }
	}
	name := c.def.db + "." + c.def.f.Name
	run := &procRun{ctx: ctx, runner: c.def.p.runner, parser: engineParser(c.def.p.runner), name: name, active: activeRoutines(ctx), function: true, inStatement: true}
	if run.active[strings.ToLower(name)] > 0 {
		return nil, procErr(erSPNoRecursion, "HY000", "Recursive stored functions and triggers are not allowed.")
	}
	ignore := ctx.GetIgnoreAutoCommit()
	ctx.SetIgnoreAutoCommit(true)
	defer ctx.SetIgnoreAutoCommit(ignore)
	if err := run.run(c.def.db, c.def.f.CreateStatement, &c.def.f.SqlMode, args); err != nil {
		return nil, err
	}
	return run.value, nil
}

// The engine's information_schema.ROUTINES lists procedures only, so SHOW
// FUNCTION STATUS (which reads it) and mariadb-dump --routines missed the
// stored functions. routinesSchema is the engine's information_schema
// with ROUTINES giving a row for each stored function too, and VIEWS,
// STATISTICS, PLUGINS and TRIGGERS as MySQL's (viewsTable, and infoTable
// with statisticsRows, pluginRows and triggerRows).
type routinesSchema struct {
	sql.Database
	p *Provider
}

func (d routinesSchema) GetTableInsensitive(ctx *sql.Context, name string) (sql.Table, bool, error) {
	t, ok, err := d.Database.GetTableInsensitive(ctx, name)
	if ok && err == nil && strings.EqualFold(name, information_schema.RoutinesTableName) {
		t = routinesTable{Table: t, p: d.p}
	}
	if ok && err == nil && strings.EqualFold(name, information_schema.ViewsTableName) {
		t = viewsTable{Table: t, p: d.p}
	}
	if ok && err == nil {
		switch strings.ToLower(name) {
		case information_schema.StatisticsTableName:
			t = infoTable{Table: t, rows: statisticsRows}
		case information_schema.PluginsTableName:
			t = infoTable{Table: t, rows: pluginRows}
		case information_schema.TriggersTableName:
			t = infoTable{Table: t, rows: triggerRows}
		}
	}
	return t, ok, err
}

// routinesTable is the engine's ROUTINES with the stored functions' rows
// after the procedures'.
type routinesTable struct {
	sql.Table
	p *Provider
}

var (
	_ sql.CatalogTable      = routinesTable{}
	_ analyzer.RoutineTable = routinesTable{}
)

func (t routinesTable) AssignCatalog(cat sql.Catalog) sql.Table {
	if c, ok := t.Table.(sql.CatalogTable); ok {
		return routinesTable{Table: c.AssignCatalog(cat), p: t.p}
	}
	return t
}

func (t routinesTable) AssignProcedures(procs map[string][]*plan.Procedure) sql.Table {
	if r, ok := t.Table.(analyzer.RoutineTable); ok {
		return routinesTable{Table: r.AssignProcedures(procs), p: t.p}
	}
	return t
}

func (t routinesTable) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	rows, err := partitionRows(ctx, t.Table, part)
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(append(rows, t.functionRows(ctx)...)...), nil
}

// partitionRows reads the rows of a partition of t whole.
func partitionRows(ctx *sql.Context, t sql.Table, part sql.Partition) ([]sql.Row, error) {
	iter, err := t.PartitionRows(ctx, part)
	if err != nil {
		return nil, err
	}
	return sql.RowIterToRows(ctx, iter)
}

// functionRows are ROUTINES' rows for the stored functions of the
// databases the user may see routines of.
func (t routinesTable) functionRows(ctx *sql.Context) []sql.Row {
	sch := t.Table.Schema()
	cs, _ := ctx.GetSessionVariable(ctx, "character_set_client")
	cc, _ := ctx.GetSessionVariable(ctx, "collation_connection")
	var rows []sql.Row
	for _, db := range t.p.store.Databases() {
		if !t.p.HasPrivilege(ctx, db, "", sql.PrivilegeType_Execute) && !t.p.HasPrivilege(ctx, db, "", sql.PrivilegeType_CreateRoutine) {
			continue
		}
		d := &Database{p: t.p, name: db}
		fns, err := metaValues[storedFunction](d, funcPrefix)
		if err != nil {
			continue
		}
		for _, f := range fns {
			r, err := compiledRoutine(f.CreateStatement)
			if err != nil {
				continue
			}
			characteristics := f.CreateStatement[:r.Start]
			has := func(words string) bool { return containsFold(characteristics, words) }
			deterministic, access, security := "NO", "CONTAINS SQL", "DEFINER"
			if has(" deterministic") && !has("not deterministic") {
				deterministic = "YES"
			}
			for _, a := range []string{"NO SQL", "READS SQL DATA", "MODIFIES SQL DATA"} {
				if has(strings.ToLower(a)) {
					access = a
				}
			}
			if has("sql security invoker") {
				security = "INVOKER"
			}
			row := make(sql.Row, len(sch))
			for i, c := range sch {
				switch strings.ToUpper(c.Name) {
				case "SPECIFIC_NAME", "ROUTINE_NAME":
					row[i] = f.Name
				case "ROUTINE_CATALOG":
					row[i] = "def"
				case "ROUTINE_SCHEMA":
					row[i] = db
				case "ROUTINE_TYPE":
					row[i] = "FUNCTION"
				case "DATA_TYPE":
					name, _, _ := strings.Cut(strings.Fields(r.Returns + " ")[0], "(")
					row[i] = strings.ToLower(name)
				case "DTD_IDENTIFIER":
					row[i] = strings.ToLower(r.Returns)
				case "ROUTINE_BODY":
					row[i] = "SQL"
				case "ROUTINE_DEFINITION":
					row[i] = f.CreateStatement[r.Start:r.End]
				case "PARAMETER_STYLE":
					row[i] = "SQL"
				case "IS_DETERMINISTIC":
					row[i] = deterministic
				case "SQL_DATA_ACCESS":
					row[i] = access
				case "SECURITY_TYPE":
					row[i] = security
				case "CREATED":
					row[i] = f.CreatedAt
				case "LAST_ALTERED":
					row[i] = f.ModifiedAt
				case "SQL_MODE":
					row[i] = f.SqlMode
				case "ROUTINE_COMMENT":
					row[i] = ""
				case "DEFINER":
					row[i] = f.Definer
				case "CHARACTER_SET_CLIENT":
					row[i] = fmt.Sprint(cs)
				case "COLLATION_CONNECTION":
					row[i] = fmt.Sprint(cc)
				case "DATABASE_COLLATION":
					row[i] = d.GetCollation(ctx).Name()
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}
