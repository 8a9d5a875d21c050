package sqlext

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// A stored procedure runs here, not in the engine's interpreter, which ran
// only the first step of a handler's BEGIN ... END, matched no handler
// declared for an error code or SQLSTATE, ran the procedure's statements
// outside the caller's transaction (so a CALL inside BEGIN ... COMMIT
// wrote nothing), and had no GET DIAGNOSTICS. routinebody.go gives the engine
// an empty body to plan; the body read by internal/compound is run here:
// blocks, loops and conditions by this interpreter, every other statement
// by the engine, in the session and transaction of the CALL, as a
// statement of its own would run, with the procedure's variables bound
// into it (routinestmt.go).

// procVar is a parameter or local variable, holding values of its type.
type procVar struct {
	name string
	typ  sql.Type
	val  any
}

// procCursor is a declared cursor; OPEN reads all its rows.
type procCursor struct {
	query string
	rows  []sql.Row
	next  int
	open  bool
}

// procFrame is the scope of a block (or of the parameters, the outermost).
type procFrame struct {
	parent   *procFrame
	vars     map[string]*procVar
	conds    map[string]compound.Condition
	cursors  map[string]*procCursor
	handlers []*compound.Handler
	// handling is set on the frame a handler's statement runs in: the
	// frame whose block declared the handler, whose handlers the
	// statement's own conditions pass over.
	handling *procFrame
}

func newProcFrame(parent *procFrame) *procFrame {
	return &procFrame{parent: parent, vars: map[string]*procVar{}, conds: map[string]compound.Condition{}, cursors: map[string]*procCursor{}}
}

func (f *procFrame) variable(name string) *procVar {
	name = strings.ToLower(name)
	for fr := f; fr != nil; fr = fr.parent {
		if v, ok := fr.vars[name]; ok {
			return v
		}
	}
	return nil
}

func (f *procFrame) cursor(name string) *procCursor {
	name = strings.ToLower(name)
	for fr := f; fr != nil; fr = fr.parent {
		if c, ok := fr.cursors[name]; ok {
			return c
		}
	}
	return nil
}

func (f *procFrame) condition(name string) (compound.Condition, bool) {
	name = strings.ToLower(name)
	for fr := f; fr != nil; fr = fr.parent {
		if c, ok := fr.conds[name]; ok {
			return c, true
		}
	}
	return compound.Condition{}, false
}

// condition is a condition raised by a statement, as the diagnostics area
// holds it.
type condition struct {
	code  int
	state string
	msg   string
	// warning marks a condition raised as a warning (a statement's, or
	// SIGNAL of class 01), which a RESIGNAL raises as a warning again.
	warning bool
}

func (c condition) class() string { return c.state[:2] }

func (c condition) err() error { return mysql.NewSQLError(c.code, c.state, "%s", c.msg) }

// conditionOf reads an error as a condition.
func conditionOf(err error) condition {
	var rs *raised
	if errors.As(err, &rs) {
		return rs.c
	}
	var ce *compound.Error
	if errors.As(err, &ce) {
		return condition{code: ce.Code, state: ce.State, msg: ce.Msg}
	}
	var se *mysql.SQLError
	if !errors.As(err, &se) {
		err = sqlError(err)
		errors.As(err, &se)
	}
	state := se.State
	if len(state) != 5 {
		state = "HY000"
	}
	return condition{code: se.Num, state: state, msg: se.Message}
}

// raised is a condition a SIGNAL or RESIGNAL raises as an error, with
// the diagnostics area it leaves: a RESIGNAL of a new SQLSTATE adds its
// condition to the handled one's.
type raised struct {
	c  condition
	da []condition
}

func (e *raised) Error() string { return e.c.msg }

// unhandled is a condition no handler took, on its way out of the CALL.
type unhandled struct{ error }

func (u *unhandled) Unwrap() error { return u.error }

// flow is a jump out of the statements being run: LEAVE or ITERATE of a
// label, or the end of the block whose EXIT handler ran.
type flow struct {
	iterate bool
	label   string
	exit    *procFrame
	// ret is a function's RETURN of value.
	ret   bool
	value any
}

// procResult is a statement's rows, a result set of the CALL's answer.
type procResult struct {
	sch  sql.Schema
	rows []sql.Row
}

// procRun is one CALL of a procedure.
type procRun struct {
	ctx    *sql.Context
	runner sql.StatementRunner
	parser sql.Parser
	name   string // db.procedure, for errors
	// active counts the CALLs running of each procedure (db.name), the
	// callers' included, which max_sp_recursion_depth bounds.
	active map[string]int
	// results are the result sets of the CALL's answer: each statement's
	// that read rows, or only the last when the client can be sent only
	// one (allResults unset).
	results    []*procResult
	allResults bool
	// da is the diagnostics area: the conditions the last statement
	// raised; rowCount is the rows it changed (-1 for rows read).
	da       []condition
	rowCount int64
	// handled holds the conditions whose handlers are running, the
	// innermost last (RESIGNAL and GET STACKED DIAGNOSTICS read it).
	handled []condition
	// strict is whether the SQL mode was strict when the CALL began,
	// which decides how a variable takes a value it cannot hold.
	strict *bool
	// function marks a stored function's run, whose RETURN sets value.
	function bool
	value    any
	// inStatement marks a run inside another statement (a function's, a
	// procedure's called by a trigger or a function), whose statements
	// must commit nothing.
	inStatement bool
	// plans are the plans kept for the body's statements, nil for those
	// planned at every step (procplans.go).
	plans map[*compound.SQL]*procPlan
	// valuePlans are those kept for SELECTs of its expressions, by text.
	valuePlans map[string]*procPlan
	// sets are the SETs of local variables read so far (localSet).
	sets map[string]*localSet
}

// Errors a procedure raises as it runs, in MySQL's words.
func procErr(code int, state, format string, args ...any) error {
	return mysql.NewSQLError(code, state, format, args...)
}

const (
	erSPNoData          = 1329
	erSPCaseNotFound    = 1339
	erSPCursorOpen      = 1325
	erSPCursorNotOpen   = 1326
	erSPFetchArgs       = 1328
	erSPNotVarArg       = 1414
	erSPRecursionLimit  = 1456
	erResignalNoHandler = 1645
	erSignalBadCond     = 1646
	erStackedNoHandler  = 1887
	erDAInvalidCondNo   = 1758
	erTooManyRows       = 1172
	erSPBadStatement    = 1314
	erSPWrongNoOfArgs   = 1318
)

// noData is FETCH's error past a cursor's last row; SELECT ... INTO of no
// row raises it as a warning.
var noData = condition{code: erSPNoData, state: "02000", msg: "No data - zero rows fetched, selected, or processed"}

// runProcedure runs a CALL of a stored procedure of the database.
func runProcedure(ctx *sql.Context, n *plan.Call, row sql.Row) (sql.RowIter, error) {
	db := n.Database().Name()
	run := &procRun{ctx: ctx, runner: n.Runner, parser: engineParser(n.Runner), name: db + "." + n.Procedure.Name, active: activeRoutines(ctx)}
	args := make([]procArg, len(n.Params))
	for i, e := range n.Params {
		args[i].in = func() (any, error) { return e.Eval(ctx, row) }
		if uv, ok := e.(*expression.UserVar); ok {
			args[i].out = func(v any, t sql.Type) error { return ctx.SetUserVariable(ctx, uv.Name, v, t) }
		}
	}
	if !callStatement(ctx.Query()) {
		// A trigger's CALL: the procedure's statements are part of the
		// statement that fired it, as in MySQL, and commit nothing.
		run.inStatement = true
		ignore := ctx.GetIgnoreAutoCommit()
		ctx.SetIgnoreAutoCommit(true)
		defer ctx.SetIgnoreAutoCommit(ignore)
	}
	var mode *string
	if spd, ok := storedProcedure(ctx, db, n.Procedure.Name); ok {
		mode = &spd.SqlMode
	}
	sink := callSink(ctx)
	run.allResults = sink != nil
	err := run.run(db, n.Procedure.CreateProcedureString, mode, args)
	if sink != nil {
		// The result sets go to the client before the OK or the error.
		if cerr := sink.add(ctx, run.results); err == nil {
			err = cerr
		}
	} else if err == nil && len(run.results) > 0 {
		last := run.results[len(run.results)-1]
		n.SetSchema(last.sch)
		return sql.RowsToRowIter(last.rows...), nil
	}
	if err != nil {
		return nil, err
	}
	n.SetSchema(types.OkResultSchema)
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// callStatement says whether query, the statement being run, is a CALL.
func callStatement(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n")
	if q != "" && (q[0]|0x20 >= 'a' && q[0]|0x20 <= 'z') {
		// The first word, read without reading the rest: every query a
		// client sends is asked this, a bulk INSERT of megabytes too.
		return len(q) >= 4 && strings.EqualFold(q[:4], "CALL") && (len(q) == 4 || !isIdentifierByte(q[4]))
	}
	if !containsFold(q, "call") {
		return false
	}
	toks := sqlTokens(q) // a comment or parenthesis first
	return len(toks) > 0 && strings.EqualFold(toks[0].text, "CALL")
}

// procArg is an argument of a CALL: in gives its value, out (nil when
// it names no variable) sets the variable it names.
type procArg struct {
	in  func() (any, error)
	out func(any, sql.Type) error
}

// run runs the procedure of text, of database db, with args, and sets
// its OUT and INOUT arguments when it ends without error. It runs under
// mode, the SQL mode the routine was created under (when known: nil
// otherwise), as in MySQL; the caller's comes back after it.
func (r *procRun) run(db, text string, mode *string, args []procArg) error {
	key := strings.ToLower(r.name)
	if limit := recursionLimit(r.ctx); r.active[key] > limit {
		_, own, _ := strings.Cut(r.name, ".")
		return procErr(erSPRecursionLimit, "HY000", "Recursive limit %d (as set by the max_sp_recursion_depth variable) was exceeded for routine %s", limit, own)
	}
	r.active[key]++
	defer func() { r.active[key]-- }()
	routine, err := compiledRoutine(text)
	if err != nil {
		return err
	}
	ps, err := routineParams(routine)
	if err != nil {
		return err
	}
	if mode != nil {
		// The routine runs under its own sql_mode; the caller's comes
		// back when it ends, whatever SET sql_mode it ran.
		if was, err := r.ctx.GetSessionVariable(r.ctx, "sql_mode"); err == nil {
			if was != *mode {
				_ = r.ctx.SetSessionVariable(r.ctx, "sql_mode", *mode)
			}
			defer func() {
				if now, err := r.ctx.GetSessionVariable(r.ctx, "sql_mode"); err == nil && now != was {
					_ = r.ctx.SetSessionVariable(r.ctx, "sql_mode", was)
				}
			}()
		}
	}

	if len(ps) != len(args) {
		return procErr(erSPWrongNoOfArgs, "42000", "Incorrect number of arguments for PROCEDURE %s; expected %d, got %d", r.name, len(ps), len(args))
	}
	params := newProcFrame(nil)
	for i, p := range ps {
		if p.dir != plan.ProcedureParamDirection_In && args[i].out == nil {
			return procErr(erSPNotVarArg, "42000", "OUT or INOUT argument %d for routine %s is not a variable or NEW pseudo-variable in BEFORE trigger", i+1, r.name)
		}
		pv := &procVar{name: p.name, typ: p.typ}
		if p.dir != plan.ProcedureParamDirection_Out {
			v, err := args[i].in()
			if err != nil {
				return err
			}
			if err := r.set(pv, v); err != nil {
				return err
			}
		}
		params.vars[strings.ToLower(p.name)] = pv
	}
	current := r.ctx.GetCurrentDatabase()
	if current != db {
		r.ctx.SetCurrentDatabase(db)
		defer r.ctx.SetCurrentDatabase(current)
	}
	restore, err := r.asDefiner(routine)
	if err != nil {
		return err
	}
	defer restore()
	fl, err := r.list(params, []compound.Stmt{routine.Body})
	if err != nil {
		var u *unhandled
		if errors.As(err, &u) {
			err = u.error
		}
		return err
	}
	if r.function {
		if fl == nil || !fl.ret {
			_, own, _ := strings.Cut(r.name, ".")
			return procErr(erSPNoReturnEnd, "2F005", "FUNCTION %s ended without RETURN", own)
		}
		ret, err := declaredType(routine.Returns)
		if err != nil {
			return err
		}
		_, own, _ := strings.Cut(r.name, ".")
		v := &procVar{name: own, typ: ret}
		if err := r.set(v, fl.value); err != nil {
			return err
		}
		r.value = v.val
		return nil
	}
	for i, p := range ps {
		if p.dir != plan.ProcedureParamDirection_In {
			pv := params.vars[strings.ToLower(p.name)]
			if err := args[i].out(pv.val, pv.typ); err != nil {
				return err
			}
		}
	}
	return nil
}

// activeRoutines counts the session's running CALLs of each procedure
// and function (db.name, lower case), which recursion is checked against.
func activeRoutines(ctx *sql.Context) map[string]int {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return map[string]int{}
	}
	if s.routines == nil {
		s.routines = map[string]int{}
	}
	return s.routines
}

// recursionLimit is @@max_sp_recursion_depth: how deep a procedure may
// call itself (0, MySQL's default, forbids it; 255 at most).
func recursionLimit(ctx *sql.Context) int {
	v, err := ctx.GetSessionVariable(ctx, "max_sp_recursion_depth")
	if err != nil {
		return 0
	}
	n, _, err := types.Int64.Convert(ctx, v)
	if err != nil {
		return 0
	}
	return int(min(max(n.(int64), 0), 255))
}

// list runs statements in frame f. A statement's error goes to the
// handler that takes it; one none takes comes back as unhandled.
func (r *procRun) list(f *procFrame, stmts []compound.Stmt) (*flow, error) {
	for _, s := range stmts {
		fl, err := r.stmt(f, s)
		if err != nil {
			if fl, err = r.raise(f, err); err != nil {
				return nil, err
			}
		} else if fl == nil && raisesWarnings(s) {
			fl, err = r.warned(f)
			if err != nil {
				return nil, err
			}
		}
		if fl != nil {
			return fl, nil
		}
	}
	return nil, nil
}

// raisesWarnings says whether s leaves in the diagnostics area the
// warnings it raised, for a handler to take; statements that hold others
// have their own taken as they run.
func raisesWarnings(s compound.Stmt) bool {
	switch s.(type) {
	case *compound.SQL, *compound.Signal:
		return true
	}
	return false
}

func (r *procRun) stmt(f *procFrame, s compound.Stmt) (*flow, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, &unhandled{sqlError(err)}
	}
	switch s := s.(type) {
	case *compound.Block:
		return r.block(f, s)
	case *compound.If:
		for _, b := range s.Branches {
			ok, err := r.truth(f, b.Cond)
			if err != nil {
				return nil, err
			}
			if ok {
				return r.list(f, b.Body)
			}
		}
		return r.list(f, s.Else)
	case *compound.Case:
		for _, b := range s.Whens {
			cond := b.Cond
			if s.Value != "" {
				cond = "(" + s.Value + ") = (" + b.Cond + ")"
			}
			ok, err := r.truth(f, cond)
			if err != nil {
				return nil, err
			}
			if ok {
				return r.list(f, b.Body)
			}
		}
		if !s.HasElse {
			return nil, procErr(erSPCaseNotFound, "20000", "Case not found for CASE statement")
		}
		return r.list(f, s.Else)
	case *compound.Loop:
		return r.loop(f, s)
	case *compound.Leave:
		return &flow{label: s.Label}, nil
	case *compound.Iterate:
		return &flow{iterate: true, label: s.Label}, nil
	case *compound.Return:
		v, _, err := r.eval(f, s.Expr)
		if err != nil {
			return nil, err
		}
		return &flow{ret: true, value: v}, nil
	case *compound.Open:
		return nil, r.open(f, s.Cursor)
	case *compound.Fetch:
		return nil, r.fetch(f, s)
	case *compound.Close:
		c := f.cursor(s.Cursor)
		if !c.open {
			return nil, procErr(erSPCursorNotOpen, "24000", "Cursor is not open")
		}
		c.open, c.rows = false, nil
		return nil, nil
	case *compound.Signal:
		return nil, r.signal(f, s)
	case *compound.Diagnostics:
		return nil, r.diagnostics(f, s)
	case *compound.SQL:
		return r.plannedSQL(f, s)
	}
	return nil, fmt.Errorf("sqlext: procedure statement %T", s)
}

func (r *procRun) block(f *procFrame, b *compound.Block) (*flow, error) {
	nf := newProcFrame(f)
	for _, d := range b.Vars {
		typ, err := declaredType(d.Type)
		if err != nil {
			return nil, err
		}
		var v any
		if d.Default != "" {
			if v, _, err = r.eval(nf, d.Default); err != nil {
				return nil, err
			}
		}
		for _, name := range d.Names {
			pv := &procVar{name: name, typ: typ}
			if err := r.set(pv, v); err != nil {
				return nil, err
			}
			nf.vars[strings.ToLower(name)] = pv
		}
	}
	for _, c := range b.Conds {
		nf.conds[strings.ToLower(c.Name)] = c.Cond
	}
	for _, c := range b.Cursors {
		nf.cursors[strings.ToLower(c.Name)] = &procCursor{query: c.Query}
	}
	nf.handlers = b.Handlers
	fl, err := r.list(nf, b.Body)
	if fl != nil && (fl.exit == nf || (!fl.iterate && fl.exit == nil && fl.label != "" && strings.EqualFold(fl.label, b.Label))) {
		fl = nil
	}
	return fl, err
}

func (r *procRun) loop(f *procFrame, l *compound.Loop) (*flow, error) {
	for {
		if l.Kind == compound.WhileLoop {
			ok, err := r.truth(f, l.Cond)
			if err != nil || !ok {
				return nil, err
			}
		}
		fl, err := r.list(f, l.Body)
		if err != nil {
			return nil, err
		}
		if fl != nil {
			mine := fl.exit == nil && l.Label != "" && strings.EqualFold(fl.label, l.Label)
			switch {
			case !mine:
				return fl, nil
			case !fl.iterate:
				return nil, nil
			}
			continue // ITERATE starts the loop again, before any UNTIL
		}
		if l.Kind == compound.RepeatLoop {
			ok, err := r.truth(f, l.Cond)
			if err != nil || ok {
				return nil, err
			}
		}
		if err := r.ctx.Err(); err != nil {
			return nil, &unhandled{sqlError(err)}
		}
	}
}

// raise finds the handler for a statement's error: a flow when an EXIT
// handler ran, nothing when a CONTINUE handler did, and the error itself,
// unhandled, when no handler takes it.
func (r *procRun) raise(f *procFrame, err error) (*flow, error) {
	var u *unhandled
	if errors.As(err, &u) {
		return nil, err
	}
	if r.ctx.Err() != nil {
		return nil, &unhandled{sqlError(err)} // KILL QUERY ends the CALL
	}
	c := conditionOf(err)
	r.da = []condition{c}
	var rs *raised
	if errors.As(err, &rs) {
		r.da = rs.da
	}
	r.rowCount = -1
	r.ctx.SetLastQueryInfoInt(sql.RowCount, -1)
	h, hf := r.handlerFor(f, c)
	if h == nil {
		return nil, &unhandled{c.err()}
	}
	return r.handle(h, hf, c)
}

// warned runs the handler of the first warning the last statement raised
// that a handler takes, if any.
func (r *procRun) warned(f *procFrame) (*flow, error) {
	for _, c := range r.da {
		if c.class() != "01" && c.class() != "02" {
			continue
		}
		if h, hf := r.handlerFor(f, c); h != nil {
			return r.handle(h, hf, c)
		}
	}
	return nil, nil
}

func (r *procRun) handle(h *compound.Handler, hf *procFrame, c condition) (*flow, error) {
	r.handled = append(r.handled, c)
	defer func() { r.handled = r.handled[:len(r.handled)-1] }()
	hframe := newProcFrame(hf)
	hframe.handling = hf
	fl, err := r.list(hframe, []compound.Stmt{h.Body})
	if err != nil || fl != nil {
		return fl, err // an EXIT of an outer block, by a handler of an error of this one's statement
	}
	if h.Exit {
		return &flow{exit: hf}, nil
	}
	return nil, nil
}

// handlerFor is the handler that takes c raised in frame f, and the frame
// that declared it: the innermost block with a handler for c, and in it
// the handler for c's error code before one for its SQLSTATE before one
// for its class, as in MySQL. The frames a running handler was declared
// in are passed over.
func (r *procRun) handlerFor(f *procFrame, c condition) (*compound.Handler, *procFrame) {
	passed := map[*procFrame]bool{}
	for fr := f; fr != nil; fr = fr.parent {
		if fr.handling != nil {
			passed[fr.handling] = true
		}
		if passed[fr] {
			continue
		}
		var best *compound.Handler
		bestRank := 0
		for _, h := range fr.handlers {
			for _, hc := range h.Conds {
				if rank := matchRank(fr, hc, c); rank > bestRank {
					best, bestRank = h, rank
				}
			}
		}
		if best != nil {
			return best, fr
		}
	}
	return nil, nil
}

// matchRank says how closely a handler's condition value takes c: 3 for
// its error code, 2 for its SQLSTATE, 1 for its class, 0 not at all.
func matchRank(f *procFrame, hc compound.Condition, c condition) int {
	if hc.Kind == compound.Named {
		var ok bool
		if hc, ok = f.condition(hc.Name); !ok {
			return 0
		}
	}
	switch hc.Kind {
	case compound.ErrorCode:
		if hc.Code == c.code {
			return 3
		}
	case compound.SQLState:
		if hc.State == c.state {
			return 2
		}
	case compound.SQLWarning:
		if c.class() == "01" {
			return 1
		}
	case compound.NotFound:
		if c.class() == "02" {
			return 1
		}
	case compound.SQLException:
		if k := c.class(); k != "00" && k != "01" && k != "02" {
			return 1
		}
	}
	return 0
}

func (r *procRun) open(f *procFrame, name string) error {
	c := f.cursor(name)
	if c.open {
		return procErr(erSPCursorOpen, "24000", "Cursor is already open")
	}
	_, rows, err := r.rows(f, c.query)
	if err != nil {
		return err
	}
	c.rows, c.next, c.open = rows, 0, true
	return nil
}

func (r *procRun) fetch(f *procFrame, s *compound.Fetch) error {
	c := f.cursor(s.Cursor)
	if !c.open {
		return procErr(erSPCursorNotOpen, "24000", "Cursor is not open")
	}
	if c.next >= len(c.rows) {
		return noData.err()
	}
	row := c.rows[c.next]
	c.next++
	if len(row) != len(s.Into) {
		return procErr(erSPFetchArgs, "HY000", "Incorrect number of FETCH variables")
	}
	r.da = nil
	for i, name := range s.Into {
		if err := r.set(f.variable(name), row[i]); err != nil {
			return err
		}
	}
	return nil
}

// signal raises a condition: a warning goes on in the diagnostics area
// for a handler to take; any other ends the statement as an error.
func (r *procRun) signal(f *procFrame, s *compound.Signal) error {
	var c condition
	if s.Resignal {
		if len(r.handled) == 0 {
			return procErr(erResignalNoHandler, "0K000", "RESIGNAL when handler not active")
		}
		c = r.handled[len(r.handled)-1]
	}
	if s.Cond != nil {
		cond := *s.Cond
		if cond.Kind == compound.Named {
			cond, _ = f.condition(cond.Name)
		}
		if cond.Kind != compound.SQLState {
			return procErr(erSignalBadCond, "HY000", "SIGNAL/RESIGNAL can only use a CONDITION defined with SQLSTATE")
		}
		// The condition's SQLSTATE brings the error number of its class;
		// a RESIGNAL keeps the handled condition's text.
		c.state = cond.State
		msg := ""
		switch c.class() {
		case "01":
			c.code, msg = 1642, "Unhandled user-defined warning condition"
		case "02":
			c.code, msg = 1643, "Unhandled user-defined not found condition"
		default:
			c.code, msg = 1644, "Unhandled user-defined exception condition"
		}
		if !s.Resignal {
			c.msg = msg
		}
	}
	for _, it := range s.Items {
		v, _, err := r.eval(f, it.Expr)
		if err != nil {
			return err
		}
		switch it.Name {
		case "MESSAGE_TEXT":
			if v == nil {
				return procErr(1231, "42000", "Variable 'MESSAGE_TEXT' can't be set to the value of 'NULL'")
			}
			c.msg = fmt.Sprint(v)
		case "MYSQL_ERRNO":
			n, _, err := types.Int64.Convert(r.ctx, v)
			if err != nil || v == nil || n.(int64) <= 0 || n.(int64) > 65535 {
				return procErr(1231, "42000", "Variable 'MYSQL_ERRNO' can't be set to the value of '%v'", v)
			}
			c.code = int(n.(int64))
		}
	}
	da := []condition{c}
	if s.Resignal && s.Cond != nil {
		da = []condition{r.handled[len(r.handled)-1], c}
	}
	// A warning (class 01), or a warning raised again, goes on as one.
	if c.warning = c.class() == "01" || (s.Resignal && s.Cond == nil && c.warning); c.warning {
		r.ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: c.code, Message: c.msg})
		da[len(da)-1] = c
		r.da = da
		return nil
	}
	return &raised{c: c, da: da}
}

func (r *procRun) diagnostics(f *procFrame, d *compound.Diagnostics) error {
	da := r.da
	if d.Stacked {
		if len(r.handled) == 0 {
			return procErr(erStackedNoHandler, "0Z002", "GET STACKED DIAGNOSTICS when handler not active")
		}
		da = []condition{r.handled[len(r.handled)-1]}
	}
	var c condition
	if d.Condition != "" {
		v, _, err := r.eval(f, d.Condition)
		if err != nil {
			return err
		}
		n, _, err := types.Int64.Convert(r.ctx, v)
		if err != nil || v == nil || n.(int64) < 1 || n.(int64) > int64(len(da)) {
			return procErr(erDAInvalidCondNo, "35000", "Invalid condition number")
		}
		c = da[n.(int64)-1]
	}
	for _, it := range d.Items {
		var v any
		switch it.Name {
		case "NUMBER":
			v = int64(len(da))
		case "ROW_COUNT":
			v = r.rowCount
		case "RETURNED_SQLSTATE":
			v = c.state
		case "MESSAGE_TEXT":
			v = c.msg
		case "MYSQL_ERRNO":
			v = int64(c.code)
		case "CLASS_ORIGIN", "SUBCLASS_ORIGIN":
			v = "MySQL"
			if standardClass(c.class()) {
				v = "ISO 9075"
			}
		default:
			v = ""
		}
		if err := r.assign(f, it.Expr, v); err != nil {
			return err
		}
	}
	return nil
}

// standardClass says whether SQLSTATE class k is one the SQL standard
// defines, whose CLASS_ORIGIN is 'ISO 9075'.
func standardClass(k string) bool {
	return strings.Contains(" 00 01 02 07 08 0A 0D 0E 0F 0K 0L 0M 0P 0T 0U 0V 0W 0X 0Y 0Z 10 20 21 22 23 24 25 26 27 28 2B 2C 2D 2E 2F 2H 30 33 34 35 36 38 39 3B 3C 3D 3F 40 42 44 45 46 HZ ", " "+k+" ")
}

// assign sets a GET DIAGNOSTICS or SELECT INTO target: a local variable
// or, written @name, a user variable.
func (r *procRun) assign(f *procFrame, target string, v any) error {
	if name, ok := strings.CutPrefix(target, "@"); ok {
		name = strings.Trim(name, "`'\"")
		return r.ctx.SetUserVariable(r.ctx, name, v, types.ApproximateTypeFromValue(v))
	}
	return r.set(f.variable(target), v)
}

// set gives a variable a value of its type: in strict mode a value it
// cannot hold is MySQL's error for a column of that type, otherwise the
// nearest value it holds.
func (r *procRun) set(pv *procVar, v any) error {
	if v == nil {
		pv.val = nil
		return nil
	}
	if r.strict == nil {
		mode := sqlMode(r.ctx)
		strict := mode.ModeEnabled("STRICT_TRANS_TABLES") || mode.ModeEnabled("STRICT_ALL_TABLES")
		r.strict = &strict
	}
	strict := *r.strict
	col := &sql.Column{Name: pv.name, Type: pv.typ, Nullable: true}
	if bad := columnValueError(r.ctx, col, v, 1); bad != nil {
		if strict {
			pv.val = nil // as in MySQL, a failed assignment leaves NULL
			return bad
		}
		// What MySQL stores outside strict mode, with its warning; a value
		// it has no rule for is converted as the engine converts it.
		if lenient, err := lenientValue(r.ctx, col, v, 1, bad, false, false); err == nil {
			v = lenient
		}
	}
	cv, _, err := pv.typ.Convert(r.ctx, v)
	if err != nil && strict {
		pv.val = nil
		return err
	}
	if err != nil {
		cv = nil
	}
	pv.val = cv
	return nil
}
