package sqlext

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The statements of a procedure's body that internal/compound keeps as
// text, and its expressions, run here: through the engine, in the CALL's
// session, with the procedure's variables bound into them. SET of local
// variables, SELECT ... INTO and CALL of another stored procedure are
// carried out here.

// sql runs a statement the engine knows, with the procedure's variables
// bound into it; SET of local variables, SELECT ... INTO and CALL of
// another procedure are carried out here.
func (r *procRun) sql(f *procFrame, text string) (*flow, error) {
	carried := 0
	if s := quickSet(text); s != nil {
		var done bool
		if carried, done = r.quickSet(f, s); done {
			return nil, nil
		}
	}
	if ls := r.localSet(f, text); ls != nil {
		return r.setStatement(f, ls.set, carried, ls.keys)
	}
	st, err := r.parse(text)
	if err != nil {
		return nil, err
	}
	if set, ok := st.(*ast.Set); ok && carried > 0 && carried < len(set.Exprs) {
		set.Exprs = set.Exprs[carried:] // the first were carried out quickly
	}
	switch x := st.(type) {
	case *ast.Set:
		return r.setStatement(f, x, 0, nil)
	case *ast.Call:
		if done, err := r.call(f, x); done {
			return nil, err
		}
	case *ast.Use:
		return nil, procErr(erSPBadStatement, "0A000", "USE is not allowed in stored procedures")
	case *ast.Begin, *ast.Commit, *ast.Rollback, *ast.DDL, *ast.DBDDL, *ast.AlterTable:
		if r.inStatement {
			return nil, procErr(erCommitNotAllowed, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger.")
		}
	case ast.SelectStatement:
		if into := x.GetInto(); into != nil && len(into.Variables) > 0 {
			return nil, r.selectInto(f, x, into.Variables, text)
		}
	}
	r.bind(f, st)
	sch, rows, err := r.query(text, st)
	if err != nil {
		return nil, err
	}
	r.noteResult(sch, rows)
	return nil, nil
}

// noteResult keeps rows a statement read as the CALL's answer and
// records the statement's diagnostics.
func (r *procRun) noteResult(sch sql.Schema, rows []sql.Row) {
	r.rowCount = -1
	if len(rows) == 1 && types.IsOkResult(rows[0]) {
		r.rowCount = int64(types.GetOkResult(rows[0]).RowsAffected)
	} else if len(sch) > 0 && !types.IsOkResultSchema(sch) {
		r.addResults(&procResult{sch: sch, rows: rows})
	}
	r.da = nil
	for _, w := range r.ctx.Session.Warnings() {
		if w.Level == "Note" {
			continue
		}
		state, ok := sqlStates[w.Code]
		if !ok || state[:2] != "01" {
			state = "01000"
		}
		if w.Code == erSPNoData {
			state = "02000"
		}
		r.da = append(r.da, condition{code: w.Code, state: state, msg: w.Message, warning: true})
	}
}

// addResults adds result sets to the CALL's answer, or keeps the last
// when the client can be sent only one.
func (r *procRun) addResults(res ...*procResult) {
	if len(res) == 0 {
		return
	}
	if !r.allResults {
		r.results = append(r.results[:0], res[len(res)-1])
		return
	}
	r.results = append(r.results, res...)
}

// setStatement carries out a SET: each assignment of a local variable is
// a step of its own, as in MySQL, so a CONTINUE handler of its error goes
// on with the next; the others run through the engine.
//
// It carries out s's assignments from the one numbered from. keys, when
// given, are the texts evalKept evaluates each assignment's value by
// (see localSet); s is then kept and must not change.
func (r *procRun) setStatement(f *procFrame, s *ast.Set, from int, keys []string) (*flow, error) {
	var rest ast.SetVarExprs
	flush := func() error {
		if len(rest) == 0 {
			return nil
		}
		st := &ast.Set{Exprs: rest}
		rest = nil
		r.bind(f, st)
		sch, rows, err := r.query(ast.String(st), st)
		if err == nil {
			r.noteResult(sch, rows)
		}
		return err
	}
	for i, e := range s.Exprs {
		if i < from {
			continue
		}
		var pv *procVar
		if e.Scope == ast.SetScope_None && e.Name != nil && e.Name.Qualifier.IsEmpty() {
			pv = f.variable(e.Name.Name.String())
		}
		if pv == nil {
			rest = append(rest, e)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		var v any
		var err error
		if keys != nil {
			v, err = r.evalKey(f, e.Expr, keys[i])
		} else {
			v, err = r.evalExpr(f, e.Expr)
		}
		if err == nil {
			err = r.set(pv, v)
		}
		if err != nil {
			if fl, err := r.raise(f, err); err != nil || fl != nil {
				return fl, err
			}
			continue
		}
		r.da = nil
	}
	return nil, flush()
}

// selectInto runs a SELECT ... INTO variables: one row sets them, none
// leaves them as they are with MySQL's warning 1329 (which a NOT FOUND
// handler takes), more than one is error 1172.
func (r *procRun) selectInto(f *procFrame, st ast.SelectStatement, targets ast.Variables, text string) error {
	switch x := st.(type) {
	case *ast.Select:
		x.Into = nil
	case *ast.SetOp:
		x.Into = nil
	case *ast.ParenSelect:
		return r.selectInto(f, x.Select, targets, text)
	}
	r.bind(f, st)
	sch, rows, err := r.query(text, st)
	if err != nil {
		return err
	}
	if len(sch) != len(targets) {
		return procErr(mysql.ERWrongNumberOfColumnsInSelect, "21000", "The used SELECT statements have a different number of columns")
	}
	r.noteResult(nil, nil)
	r.rowCount = int64(min(len(rows), 1))
	r.ctx.SetLastQueryInfoInt(sql.RowCount, r.rowCount)
	if len(rows) == 0 {
		r.ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: noData.code, Message: noData.msg})
		nd := noData
		nd.warning = true
		r.da = append(r.da, nd)
		return nil
	}
	// More than one row sets the first, then fails, as in MySQL.
	for i, t := range targets {
		if err := r.assign(f, t.String(), rows[0][i]); err != nil {
			return err
		}
	}
	if len(rows) > 1 {
		return procErr(erTooManyRows, "42000", "Result consisted of more than one row")
	}
	return nil
}

// call runs a CALL of another stored procedure here, binding its OUT
// parameters to this one's variables; done is false for a procedure the
// server provides, which the engine runs.
func (r *procRun) call(f *procFrame, c *ast.Call) (done bool, err error) {
	name := c.ProcName.Name.String()
	db := c.ProcName.Qualifier.String()
	if db == "" {
		db = r.ctx.GetCurrentDatabase()
	}
	spd, ok := storedProcedure(r.ctx, db, name)
	if !ok {
		return false, nil
	}
	inner := &procRun{ctx: r.ctx, runner: r.runner, parser: r.parser, name: db + "." + name, active: r.active, inStatement: r.inStatement, allResults: r.allResults}
	args := make([]procArg, len(c.Params))
	for i, e := range c.Params {
		args[i].in = func() (any, error) { return r.evalExpr(f, e) }
		if target, ok := outTarget(f, e); ok {
			args[i].out = func(v any, _ sql.Type) error { return r.assign(f, target, v) }
		}
	}
	err = inner.run(db, spd.CreateStatement, &spd.SqlMode, args)
	r.addResults(inner.results...)
	if err != nil {
		return true, err
	}
	r.da, r.rowCount = inner.da, inner.rowCount
	return true, nil
}

// outTarget is the variable an OUT or INOUT argument names: a local
// variable or parameter of the caller, or @user.
func outTarget(f *procFrame, e ast.Expr) (string, bool) {
	c, ok := e.(*ast.ColName)
	if !ok || !c.Qualifier.IsEmpty() {
		return "", false
	}
	name := c.Name.String()
	if strings.HasPrefix(name, "@") && !strings.HasPrefix(name, "@@") {
		return name, true
	}
	return name, f.variable(name) != nil
}

// truth evaluates a condition as IF and WHILE read it: true when it is a
// number other than 0; NULL is false.
func (r *procRun) truth(f *procFrame, expr string) (bool, error) {
	v, _, err := r.eval(f, expr)
	if err != nil || v == nil {
		return false, err
	}
	b, err := sql.ConvertToBool(r.ctx, v)
	if err != nil {
		return false, nil
	}
	return b, nil
}

// eval evaluates an expression's text with the procedure's variables.
func (r *procRun) eval(f *procFrame, expr string) (any, sql.Type, error) {
	if e := quickExpr(expr); e != nil {
		if v, ok := quickValue(f, e); ok {
			return v, types.Int64, nil
		}
	}
	return r.evalKept(f, "SELECT "+expr, nil)
}

// evalExpr evaluates an expression read from a statement.
func (r *procRun) evalExpr(f *procFrame, e ast.Expr) (any, error) {
	return r.evalKey(f, e, selectOf(e))
}

// evalKey evaluates e, whose SELECT's text is key.
func (r *procRun) evalKey(f *procFrame, e ast.Expr, key string) (any, error) {
	if quickForm(e) {
		if v, ok := quickValue(f, e); ok {
			return v, nil
		}
	}
	v, _, err := r.evalKept(f, key, nil)
	return v, err
}

// selectOf is the text of a SELECT of e.
func selectOf(e ast.Expr) string {
	return ast.String(&ast.Select{SelectExprs: ast.SelectExprs{&ast.AliasedExpr{Expr: e}}})
}

// localSet is a SET of local variables only, parsed once per CALL.
type localSet struct {
	set  *ast.Set
	keys []string // the SELECT of each value (selectOf)
}

// localSet is text parsed, when it is a SET whose every assignment is of
// one of f's variables (nil otherwise). It is kept for the CALL's later
// steps and never changed.
func (r *procRun) localSet(f *procFrame, text string) *localSet {
	ls, seen := r.sets[text]
	if !seen {
		if r.sets == nil {
			r.sets = map[string]*localSet{}
		}
		r.sets[text] = nil
		st, err := r.parse(text)
		set, ok := st.(*ast.Set)
		if err != nil || !ok {
			return nil
		}
		ls = &localSet{set: set}
		for _, e := range set.Exprs {
			if e.Scope != ast.SetScope_None || e.Name == nil || !e.Name.Qualifier.IsEmpty() {
				return nil
			}
			ls.keys = append(ls.keys, selectOf(e.Expr))
		}
		r.sets[text] = ls
	}
	if ls == nil {
		return nil
	}
	for _, e := range ls.set.Exprs {
		if f.variable(e.Name.Name.String()) == nil {
			return nil // a user or system variable here
		}
	}
	return ls
}

func (r *procRun) evalSelect(f *procFrame, st ast.Statement, text string) (any, sql.Type, error) {
	r.bind(f, st)
	sch, rows, err := r.query(text, st)
	if err != nil {
		return nil, nil, err
	}
	return oneValue(sch, rows)
}

// oneValue is the value of a result of one row of one column.
func oneValue(sch sql.Schema, rows []sql.Row) (any, sql.Type, error) {
	if len(rows) != 1 || len(rows[0]) != 1 || len(sch) != 1 {
		return nil, nil, procErr(mysql.EROperandColumns, "21000", "Operand should contain 1 column(s)")
	}
	return rows[0][0], sch[0].Type, nil
}

// rows runs a query with the procedure's variables and gives its rows.
func (r *procRun) rows(f *procFrame, text string) (sql.Schema, []sql.Row, error) {
	st, err := r.parse(text)
	if err != nil {
		return nil, nil, err
	}
	r.bind(f, st)
	return r.query(text, st)
}

func (r *procRun) parse(text string) (ast.Statement, error) {
	st, _, _, err := r.parser.ParseWithOptions(r.ctx, text, ';', false, sqlMode(r.ctx).ParserOptions())
	if err != nil {
		return nil, err
	}
	return st, nil
}

// query runs a parsed statement as a statement of the CALL's session: in
// its transaction, or committed on its own under autocommit, as MySQL
// runs a procedure's statements.
func (r *procRun) query(text string, st ast.Statement) (sql.Schema, []sql.Row, error) {
	sch, rows, _, err := r.queryFlags(text, st)
	return sch, rows, err
}

// queryFlags is query that also gives the statement's query flags.
func (r *procRun) queryFlags(text string, st ast.Statement) (sql.Schema, []sql.Row, *sql.QueryFlags, error) {
	sub := sql.NewContext(r.ctx.Context, sql.WithSession(r.ctx.Session), sql.WithQuery(text))
	sch, iter, flags, err := r.runner.QueryWithBindings(sub, text, st, nil, nil)
	if err != nil {
		return nil, nil, nil, r.statementError(text, err)
	}
	sch, rows, err := r.drain(sub, text, sch, iter)
	return sch, rows, flags, err
}

// drain reads a statement's rows and closes its iterator.
func (r *procRun) drain(sub *sql.Context, text string, sch sql.Schema, iter sql.RowIter) (sql.Schema, []sql.Row, error) {
	var rows []sql.Row
	for {
		row, err := iter.Next(sub)
		if err == io.EOF {
			break
		}
		if err != nil {
			_ = iter.Close(sub)
			return nil, nil, r.statementError(text, err)
		}
		rows = append(rows, row)
	}
	if err := iter.Close(sub); err != nil {
		return nil, nil, r.statementError(text, err)
	}
	return sch, rows, nil
}

// statementError is a statement's error in the words the client would
// have had for the statement on its own.
func (r *procRun) statementError(text string, err error) error {
	err = sqlError(translate(err))
	if s, ok := r.ctx.Session.(*Session); ok && s.p != nil {
		s.p.mysqlTexts(r.ctx.GetCurrentDatabase(), text, &err)
	}
	writtenTexts(&err, text)
	return err
}

// bind gives every name in st that is one of the procedure's variables
// the variable's value; a name set by UPDATE or ON DUPLICATE KEY UPDATE
// is the column's. MySQL reads a name that is both a variable and a
// column as the variable.
func (r *procRun) bind(f *procFrame, st ast.SQLNode) {
	nameVariableColumns(f, st)
	targets := assignedNames(st)
	var typed map[*ast.ColName]ast.Expr
	_ = walkStatement(func(n ast.SQLNode) (bool, error) {
		c, ok := n.(*ast.ColName)
		if !ok || targets[c] || !c.Qualifier.IsEmpty() || c.StoredProcVal != nil {
			return true, nil
		}
		pv := f.variable(c.Name.String())
		if pv == nil {
			return true, nil
		}
		if e := castLiteral(r.ctx, pv.typ, pv.val); e != nil {
			if typed == nil {
				typed = map[*ast.ColName]ast.Expr{}
			}
			typed[c] = e
		}
		c.StoredProcVal = literalOf(r.ctx, pv.typ, pv.val)
		return true, nil
	}, st)
	if typed != nil {
		replaceNames(st, typed)
	}
}

// nameVariableColumns names each column of st's selects that is a
// variable alone (SELECT x) by the variable, as MySQL names it; bound to
// its value, the column was named by the value (5).
func nameVariableColumns(f *procFrame, st ast.SQLNode) {
	_ = walkStatement(func(n ast.SQLNode) (bool, error) {
		ae, ok := n.(*ast.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return true, nil
		}
		if c, ok := ae.Expr.(*ast.ColName); ok && c.Qualifier.IsEmpty() && f.variable(c.Name.String()) != nil {
			ae.As = ast.NewColIdent(c.Name.String())
		}
		return true, nil
	}, st)
}

// assignedNames are the names st assigns to (UPDATE's SET, ON DUPLICATE
// KEY UPDATE), which are columns, never variables.
func assignedNames(st ast.SQLNode) map[*ast.ColName]bool {
	targets := map[*ast.ColName]bool{}
	_ = walkStatement(func(n ast.SQLNode) (bool, error) {
		if a, ok := n.(*ast.AssignmentExpr); ok {
			targets[a.Name] = true
		}
		return true, nil
	}, st)
	return targets
}

// walkStatement walks st as ast.Walk does, and also the query of a
// CREATE TABLE ... AS SELECT, which ast.Walk leaves out.
func walkStatement(visit ast.Visit, st ast.SQLNode) error {
	if err := ast.Walk(visit, st); err != nil {
		return err
	}
	if ddl, ok := st.(*ast.DDL); ok && ddl.OptSelect != nil && ddl.OptSelect.Select != nil {
		return ast.Walk(visit, ddl.OptSelect.Select)
	}
	return nil
}

// castLiteral is v, of a type no plain literal has (DECIMAL, a date or
// time, JSON), as a CAST of its text to that type; nil for other values.
func castLiteral(ctx *sql.Context, t sql.Type, v any) ast.Expr {
	if v == nil {
		return nil
	}
	var as string
	switch {
	case types.IsDecimal(t):
		dt := t.(sql.DecimalType)
		as = fmt.Sprintf("DECIMAL(%d,%d)", dt.Precision(), dt.Scale())
	case types.IsDateType(t):
		as = "DATE"
	case types.IsDatetimeType(t) || types.IsTimestampType(t):
		as = fmt.Sprintf("DATETIME(%d)", t.(sql.DatetimeType).Precision())
	case isTimeType(t):
		as = "TIME(6)"
	case types.IsJSON(t):
		as = "JSON"
	default:
		return nil
	}
	sv, err := t.SQL(ctx, nil, v)
	if err != nil {
		return nil
	}
	st, err := ast.Parse("SELECT CAST(" + quoteString(sv.ToString()) + " AS " + as + ")")
	if err != nil {
		return nil
	}
	sel, ok := st.(*ast.Select)
	if !ok || len(sel.SelectExprs) != 1 {
		return nil
	}
	ae, ok := sel.SelectExprs[0].(*ast.AliasedExpr)
	if !ok {
		return nil
	}
	return ae.Expr
}

// exprType is the type of an expression field of a syntax node.
var exprType = reflect.TypeOf((*ast.Expr)(nil)).Elem()

// replaceNames puts each name of with in place of the name, wherever it
// is a syntax node's expression: a field or element of type ast.Expr. A
// name held elsewhere keeps the value it carries (StoredProcVal).
func replaceNames(st ast.SQLNode, with map[*ast.ColName]ast.Expr) {
	exprs := make(map[ast.Expr]ast.Expr, len(with))
	for c, e := range with {
		exprs[c] = e
	}
	replaceExprs(st, exprs)
}

// replaceExprs puts each expression of with in place of the expression
// it is keyed by, as replaceNames does for names.
func replaceExprs(st ast.SQLNode, with map[ast.Expr]ast.Expr) {
	swap := func(v reflect.Value) {
		if v.Type() != exprType || !v.CanSet() || v.IsNil() || v.Elem().Kind() != reflect.Pointer {
			return // only pointers are keys (a ValTuple is no map key)
		}
		if e, ok := with[v.Interface().(ast.Expr)]; ok {
			v.Set(reflect.ValueOf(e))
		}
	}
	_ = walkStatement(func(n ast.SQLNode) (bool, error) {
		if ae, ok := n.(*ast.AliasedExpr); ok && ae.As.IsEmpty() && ae.InputExpression == "" {
			if c, ok := ae.Expr.(*ast.ColName); ok && with[c] != nil {
				ae.InputExpression = c.Name.String() // the column keeps the variable's name
			}
		}
		v := reflect.ValueOf(n)
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || v.Elem().Kind() != reflect.Struct {
				return true, nil
			}
			s := v.Elem()
			for i := 0; i < s.NumField(); i++ {
				swap(s.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				swap(v.Index(i))
			}
		}
		return true, nil
	}, st)
}

// literalOf is v written as a literal the planner reads back as v: a
// number as a number (a DOUBLE in exponent form, which reads as a DOUBLE),
// bytes as hex, anything else as its text.
func literalOf(ctx *sql.Context, t sql.Type, v any) ast.Expr {
	switch x := v.(type) {
	case nil:
		return &ast.NullVal{}
	case bool:
		if x {
			return ast.NewIntVal([]byte("1"))
		}
		return ast.NewIntVal([]byte("0"))
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint:
		if types.IsEnum(t) || types.IsSet(t) {
			break
		}
		return ast.NewIntVal([]byte(fmt.Sprint(x)))
	case float32:
		return ast.NewFloatVal([]byte(strconv.FormatFloat(float64(x), 'e', -1, 32)))
	case float64:
		return ast.NewFloatVal([]byte(strconv.FormatFloat(x, 'e', -1, 64)))
	case []byte:
		return ast.NewHexVal([]byte(fmt.Sprintf("%x", x)))
	}
	if sv, err := t.SQL(ctx, nil, v); err == nil {
		return ast.NewStrVal(sv.ToBytes())
	}
	return ast.NewStrVal([]byte(fmt.Sprint(v)))
}
