package sqlext

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// A statement in a procedure's loop runs again at every step, and the
// engine plans each statement anew: parsing, binding and the analyzer
// were three quarters of an INSERT's time in a loop, the write itself a
// tenth. As MySQL keeps a stored program's statements prepared, a CALL
// keeps the plan of each statement of a form whose plan does not depend
// on the values of the procedure's variables, and runs that plan again
// while nothing it was made from has changed:
//
//   - INSERT or REPLACE ... VALUES whose variables are among the values
//     (and ON DUPLICATE KEY UPDATE's): each variable is a procVarRef of
//     the variable's declared type, as MySQL reads a local variable,
//     which reads the variable's value as each step runs;
//   - INSERT, UPDATE, DELETE and SELECT that read no variable.
//
// A SELECT of expressions only (how a condition, a DEFAULT or the value
// of a SET is evaluated) reads no table, so its variables may be anywhere
// in it.
//
// A variable anywhere else stays bound as a literal and the statement is
// planned at every step, since the engine chooses index lookups from
// literal values. So is a statement with a subquery, a CTE or a set
// operation, whose plans keep results between runs, and one whose first
// run raised warnings (the engine raises some while planning).
//
// A kept plan is current while the schemas (which also change with
// users and grants) and the session's variables are those it was made
// under, its variables resolve to variables of the same types and the
// current database is the same; otherwise the statement is planned
// again.

// procVarFunc names the function a variable of a kept plan is bound as;
// it exists only while such a statement is planned.
const procVarFunc = "__sqlearn_procedure_variable"

// varSlot is a variable a kept plan reads: cur is the variable it reads
// in the step being run.
type varSlot struct {
	name string   // lower case
	decl sql.Type // the variable's declared type
	typ  sql.Type // the type it is read as: decl, with a collation
	cur  *procVar
}

// procPlan is a procedure statement's kept plan.
type procPlan struct {
	node  sql.Node
	flags *sql.QueryFlags
	slots []*varSlot
	// scoped are the plan's expressions that count what one run of the
	// statement did, reset before each run.
	scoped []statementScoped
	// value is the expression of a plan that only selects it, evaluated
	// directly (see evalKept).
	value sql.Expression
	gen   uint64
	epoch uint64
	db    string
}

// statementScoped is an expression that keeps counts for the run of its
// statement (the rows it stored so far, the warnings it read).
type statementScoped interface {
	resetStatement()
}

// planRunner is the engine's way to run a plan it made before.
type planRunner interface {
	PrepQueryPlanForExecution(ctx *sql.Context, query string, plan sql.Node, qFlags *sql.QueryFlags) (sql.Schema, sql.RowIter, *sql.QueryFlags, error)
}

// plannedSQL runs a statement of the procedure's body, with the plan kept
// for it when there is a current one.
func (r *procRun) plannedSQL(f *procFrame, s *compound.SQL) (*flow, error) {
	sess, ours := r.ctx.Session.(*Session)
	if !ours {
		return r.sql(f, s.Text)
	}
	p, seen := r.plans[s]
	switch {
	case seen && p == nil:
		return r.sql(f, s.Text) // of a form planned at every step
	case seen:
		if r.current(sess, f, p) {
			return r.runPlan(s.Text, p)
		}
		delete(r.plans, s)
	}
	if _, ok := r.runner.(planRunner); !ok || quickSet(s.Text) != nil {
		r.keep(s, nil)
		return r.sql(f, s.Text)
	}
	st, err := r.parse(s.Text)
	if err != nil {
		return nil, err
	}
	if !keepableForm(f, st) {
		r.keep(s, nil)
		return r.sql(f, s.Text)
	}
	slots, ok := bindSlots(r.ctx, f, st)
	if !ok {
		r.keep(s, nil)
		return r.sql(f, s.Text)
	}
	return r.planAndRun(sess, s, st, slots)
}

func (r *procRun) keep(s *compound.SQL, p *procPlan) {
	if r.plans == nil {
		r.plans = map[*compound.SQL]*procPlan{}
	}
	r.plans[s] = p
}

// planAndRun runs a statement of a keepable form, and keeps its plan
// when it may be kept.
func (r *procRun) planAndRun(sess *Session, s *compound.SQL, st ast.Statement, slots []*varSlot) (*flow, error) {
	sch, rows, p, err := r.planOnce(sess, s.Text, st, slots)
	if err != nil {
		return nil, err
	}
	r.noteResult(sch, rows)
	if p != nil {
		r.keep(s, p)
	}
	return nil, nil
}

// planOnce runs st through the engine with its variables bound as slots,
// and gives the plan the engine made for it when that plan may be kept:
// it ran without warnings and holds nothing between runs.
func (r *procRun) planOnce(sess *Session, text string, st ast.Statement, slots []*varSlot) (sql.Schema, []sql.Row, *procPlan, error) {
	gen, epoch, db := sess.p.store.SchemaGeneration(), sess.varEpoch, r.ctx.GetCurrentDatabase()
	prevSlots, prevCapture := sess.procSlots, sess.capture
	capture := &capturedPlan{}
	sess.procSlots, sess.capture = slots, capture
	sch, rows, flags, err := r.queryFlags(text, st)
	sess.procSlots, sess.capture = prevSlots, prevCapture
	if err != nil {
		return nil, nil, nil, err
	}
	var p *procPlan
	if capture.node != nil && r.ctx.Session.WarningCount() == 0 {
		if scoped, ok := reusablePlan(capture.node); ok {
			p = &procPlan{node: capture.node, flags: flags, slots: slots, scoped: scoped, gen: gen, epoch: epoch, db: db}
			if pr, ok := capture.node.(*plan.Project); ok && len(pr.Projections) == 1 {
				if rt, ok := pr.Child.(*plan.ResolvedTable); ok && plan.IsDualTable(rt.Table) && !callsRoutine(pr.Projections[0]) {
					p.value = pr.Projections[0]
				}
			}
		}
	}
	return sch, rows, p, nil
}

// current says whether p can run in frame f, and points its slots at
// f's variables.
func (r *procRun) current(sess *Session, f *procFrame, p *procPlan) bool {
	if sess.p.store.SchemaGeneration() != p.gen || sess.varEpoch != p.epoch || r.ctx.GetCurrentDatabase() != p.db {
		return false
	}
	for _, sl := range p.slots {
		pv := f.variable(sl.name)
		if pv == nil || !pv.typ.Equals(sl.decl) {
			return false
		}
		sl.cur = pv
	}
	return true
}

// keptPlanRuns counts the runs of kept plans.
var keptPlanRuns atomic.Int64

// runPlan runs a statement's kept plan.
func (r *procRun) runPlan(text string, p *procPlan) (*flow, error) {
	sch, rows, err := r.runKept(text, p)
	if err != nil {
		return nil, err
	}
	r.noteResult(sch, rows)
	return nil, nil
}

// runKept runs a kept plan as the engine runs a statement it planned.
func (r *procRun) runKept(text string, p *procPlan) (sql.Schema, []sql.Row, error) {
	sub := r.startKept(text, p)
	sch, iter, _, err := r.runner.(planRunner).PrepQueryPlanForExecution(sub, text, p.node, p.flags)
	if err != nil {
		return nil, nil, r.statementError(text, err)
	}
	return r.drain(sub, text, sch, iter)
}

// startKept starts a run of a kept plan as the engine starts a
// statement: its warnings cleared, its counts from zero, in a context of
// its own.
func (r *procRun) startKept(text string, p *procPlan) *sql.Context {
	keptPlanRuns.Add(1)
	r.ctx.ClearWarnings()
	for _, e := range p.scoped {
		e.resetStatement()
	}
	return sql.NewContext(r.ctx.Context, sql.WithSession(r.ctx.Session), sql.WithQuery(text))
}

// evalKept evaluates text, a SELECT of one of the procedure's
// expressions (st, when it is parsed already), with the plan kept for it
// when there is a current one. Its variables may be anywhere in it: it
// reads no table, so no index is chosen by their values.
func (r *procRun) evalKept(f *procFrame, text string, st ast.Statement) (any, sql.Type, error) {
	sess, ours := r.ctx.Session.(*Session)
	if _, runs := r.runner.(planRunner); !ours || !runs {
		return r.evalParsed(f, text, st)
	}
	p, seen := r.valuePlans[text]
	if seen && p == nil {
		return r.evalParsed(f, text, st)
	}
	var sch sql.Schema
	var rows []sql.Row
	var err error
	current := seen && r.current(sess, f, p)
	switch {
	case current && p.value != nil:
		return r.evalValue(text, p)
	case current:
		sch, rows, err = r.runKept(text, p)
	default:
		if st == nil {
			if st, err = r.parse(text); err != nil {
				return nil, nil, err
			}
		}
		if !keepableValue(st) {
			r.keepValue(text, nil)
			return r.evalSelect(f, st, text)
		}
		slots, ok := bindSlots(r.ctx, f, st)
		if !ok {
			r.keepValue(text, nil)
			return r.evalSelect(f, st, text)
		}
		if sch, rows, p, err = r.planOnce(sess, text, st, slots); err == nil && p != nil {
			r.keepValue(text, p)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return oneValue(sch, rows)
}

// callsRoutine says whether e calls a stored function, whose statements
// must run in a statement the engine begins and commits.
func callsRoutine(e sql.Expression) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		_, ok := e.(*storedFuncCall)
		return ok
	})
}

// evalValue evaluates the expression of a kept plan that only selects
// it, as running the plan would, without building its rows.
func (r *procRun) evalValue(text string, p *procPlan) (any, sql.Type, error) {
	sub := r.startKept(text, p)
	v, err := p.value.Eval(sub, nil)
	if err != nil {
		return nil, nil, r.statementError(text, err)
	}
	return v, p.value.Type(), nil
}

// evalParsed is evalSelect of text, parsed first when st is nil.
func (r *procRun) evalParsed(f *procFrame, text string, st ast.Statement) (any, sql.Type, error) {
	if st == nil {
		var err error
		if st, err = r.parse(text); err != nil {
			return nil, nil, err
		}
	}
	return r.evalSelect(f, st, text)
}

func (r *procRun) keepValue(text string, p *procPlan) {
	if r.valuePlans == nil {
		r.valuePlans = map[string]*procPlan{}
	}
	r.valuePlans[text] = p
}

// keepableValue says whether st is a SELECT of expressions only, whose
// plan can be kept whatever variables it reads.
func keepableValue(st ast.Statement) bool {
	sel, ok := st.(*ast.Select)
	if !ok || sel.With != nil || sel.Into != nil || sel.Where != nil || sel.Having != nil || len(sel.GroupBy) > 0 ||
		len(sel.OrderBy) > 0 || sel.Limit != nil || sel.Lock != "" || sel.QueryOpts.Distinct || len(sel.Window) > 0 {
		return false
	}
	for _, t := range sel.From {
		at, ok := t.(*ast.AliasedTableExpr)
		if !ok {
			return false
		}
		if tn, ok := at.Expr.(ast.TableName); !ok || !strings.EqualFold(tn.Name.String(), "dual") {
			return false
		}
	}
	return !holds(st, func(n ast.SQLNode) bool {
		switch x := n.(type) {
		case *ast.Subquery:
			return x != nil
		case *ast.FuncExpr:
			return x != nil && x.Over != nil
		}
		return false
	})
}

// keepableForm says whether st is of a form whose plan can be kept: see
// the top of this file.
func keepableForm(f *procFrame, st ast.Statement) bool {
	var values ast.SQLNode
	switch x := st.(type) {
	case *ast.Insert:
		if x.With != nil {
			return false
		}
		switch v := x.Rows.(type) {
		case ast.Values:
			values = v
		case *ast.AliasedValues:
			values = v.Values
		}
	case *ast.Update:
		if x.With != nil {
			return false
		}
	case *ast.Delete:
		if x.With != nil {
			return false
		}
	case *ast.Select:
		if x.With != nil || x.Into != nil || x.Lock != "" {
			return false
		}
	default:
		return false
	}
	// Variables may be read only among the values of an INSERT, where
	// bindSlots binds them.
	inValues := map[*ast.ColName]bool{}
	if values != nil {
		colNamesIn(inValues, values)
		colNamesIn(inValues, st.(*ast.Insert).OnDup)
	}
	return !holds(st, func(n ast.SQLNode) bool {
		switch x := n.(type) {
		case *ast.Subquery:
			return x != nil
		case *ast.SetOp:
			return x != nil
		case *ast.ParenSelect:
			return x != nil
		case *ast.With:
			return x != nil
		case *ast.Limit:
			return x != nil // LIMIT takes only literals, and variables
		case *ast.ColName:
			return x != nil && x.Qualifier.IsEmpty() && !inValues[x] && f.variable(x.Name.String()) != nil
		}
		return false
	})
}

// holds says whether is says yes of some node of st.
func holds(st ast.SQLNode, is func(ast.SQLNode) bool) bool {
	found := false
	_ = walkStatement(func(n ast.SQLNode) (bool, error) {
		if !found {
			found = is(n)
		}
		return !found, nil
	}, st)
	return found
}

// colNamesIn adds the names held in n to into.
func colNamesIn(into map[*ast.ColName]bool, n ast.SQLNode) {
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, ok := n.(*ast.ColName); ok {
			into[c] = true
		}
		return true, nil
	}, n)
}

// bindSlots puts a call of procVarFunc in place of each of st's
// variables, which keepableForm allowed only among an INSERT's values,
// and gives the slots those calls read; ok is false when a variable is of
// a type a slot does not take or could not be replaced.
func bindSlots(ctx *sql.Context, f *procFrame, st ast.Statement) (slots []*varSlot, ok bool) {
	nameVariableColumns(f, st)
	index := map[string]int{}
	with := map[*ast.ColName]ast.Expr{}
	targets := assignedNames(st)
	ok = true
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		c, isCol := n.(*ast.ColName)
		if !isCol || targets[c] || !c.Qualifier.IsEmpty() {
			return true, nil
		}
		name := strings.ToLower(c.Name.String())
		pv := f.variable(name)
		if pv == nil {
			return true, nil
		}
		if !slotType(pv.typ) {
			ok = false
			return false, nil
		}
		i, seen := index[name]
		if !seen {
			i = len(slots)
			index[name] = i
			slots = append(slots, &varSlot{name: name, decl: pv.typ, typ: readAs(ctx, pv.typ), cur: pv})
		}
		with[c] = &ast.FuncExpr{Name: ast.NewColIdent(procVarFunc), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: ast.NewIntVal([]byte(strconv.Itoa(i)))}}}
		return true, nil
	}, st)
	if !ok {
		return nil, false
	}
	if len(with) > 0 {
		replaceNames(st, with)
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, isCol := n.(*ast.ColName); isCol && with[c] != nil {
			ok = false // held where replaceNames does not reach
		}
		return ok, nil
	}, st)
	if !ok {
		back := make(map[ast.Expr]ast.Expr, len(with))
		for c, e := range with {
			back[e] = c
		}
		replaceExprs(st, back) // st as it was, for binding as literals
	}
	return slots, ok
}

// readAs is the type a variable of type t is read as: a text type
// declared without a collation has the connection's, as text bound as a
// literal does.
func readAs(ctx *sql.Context, t sql.Type) sql.Type {
	st, ok := t.(sql.StringType)
	if !ok || st.Collation() != sql.Collation_Unspecified {
		return t
	}
	if ct, err := types.CreateString(st.Type(), st.MaxCharacterLength(), ctx.GetCollation()); err == nil {
		return ct
	}
	return t
}

// slotType says whether a variable of type t can be read through a slot:
// numbers, text and dates, whose values the engine converts by type.
func slotType(t sql.Type) bool {
	switch {
	case types.IsEnum(t), types.IsSet(t), types.IsBinaryType(t), types.IsBit(t), types.IsJSON(t), types.IsYear(t):
		return false
	}
	return types.IsNumber(t) || types.IsDecimal(t) || types.IsText(t) || types.IsDateType(t) || types.IsDatetimeType(t) || types.IsTimestampType(t)
}

// reusablePlan says whether plan n can run again, and gives its
// statementScoped expressions. It takes plans made only of nodes that
// keep nothing between runs and write our own tables.
func reusablePlan(n sql.Node) (scoped []statementScoped, ok bool) {
	ok = true
	var visit func(n sql.Node)
	visit = func(n sql.Node) {
		if !ok || n == nil {
			return
		}
		switch x := n.(type) {
		case *plan.InsertInto:
			if writtenTable(x.Destination) == nil {
				ok = false
			}
			visit(x.Source) // not among its children
		case *plan.ResolvedTable:
			if storedTable(x.Table) == nil && !plan.IsDualTable(x.Table) {
				ok = false
			}
		case *plan.InsertDestination, *plan.Values, *plan.Project, *plan.Filter, *plan.Update,
			*plan.UpdateSource, *plan.DeleteFrom, *plan.IndexedTableAccess, *plan.Sort, *plan.GroupBy,
			*plan.TableAlias, *plan.Limit, *plan.TopN, *plan.Having, *plan.Distinct, *plan.OrderedDistinct:
		default:
			ok = false
		}
		if !ok {
			return
		}
		if ex, isExprs := n.(sql.Expressioner); isExprs {
			for _, e := range ex.Expressions() {
				transform.InspectExpr(e, func(e sql.Expression) bool {
					switch x := e.(type) {
					case *plan.Subquery, *memoSubquery:
						ok = false
					case statementScoped:
						scoped = append(scoped, x)
					}
					return !ok
				})
			}
		}
		for _, c := range n.Children() {
			visit(c)
		}
	}
	visit(n)
	return scoped, ok
}

// capturedPlan receives the plan of the statement being planned, for
// planAndRun (see statementBuilder).
type capturedPlan struct{ node sql.Node }

// procVarRef is a procedure variable read by a kept plan.
type procVarRef struct{ slot *varSlot }

var (
	_ sql.Expression                 = (*procVarRef)(nil)
	_ sql.NonDeterministicExpression = (*procVarRef)(nil)
	_ sql.CollationCoercible         = (*procVarRef)(nil)
)

// procVarFunction builds the procVarRef of the session's slot that its
// argument numbers.
func procVarFunction(s *Session) sql.Function1 {
	return sql.Function1{Name: procVarFunc, Fn: func(e sql.Expression) sql.Expression {
		ref := &procVarRef{}
		if lit, ok := e.(*expression.Literal); ok {
			if i, err := strconv.Atoi(fmt.Sprint(lit.Value())); err == nil && i >= 0 && i < len(s.procSlots) {
				ref.slot = s.procSlots[i]
			}
		}
		return ref
	}}
}

func (v *procVarRef) Resolved() bool { return v.slot != nil }
func (v *procVarRef) String() string {
	if v.slot == nil {
		return procVarFunc
	}
	return v.slot.name
}
func (v *procVarRef) Type() sql.Type {
	if v.slot == nil {
		return types.Null
	}
	return v.slot.typ
}
func (v *procVarRef) IsNullable() bool           { return true }
func (v *procVarRef) IsNonDeterministic() bool   { return true }
func (v *procVarRef) Children() []sql.Expression { return nil }

func (v *procVarRef) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(v, len(children), 0)
	}
	return v, nil
}

// CollationCoercibility is a local variable's: its collation, implicit.
func (v *procVarRef) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	if st, ok := v.Type().(sql.StringType); ok {
		return st.Collation(), 2
	}
	return sql.Collation_binary, 5
}

func (v *procVarRef) Eval(*sql.Context, sql.Row) (any, error) {
	if v.slot == nil || v.slot.cur == nil {
		return nil, procErr(erSPBadStatement, "HY000", "a procedure variable read outside its procedure")
	}
	return v.slot.cur.val, nil
}

// The expressions that count a statement's rows or warnings start again
// with each run of a kept plan.
func (w *strictWarnings) resetStatement() { w.seen.Store(0) }
func (x *excessSpaces) resetStatement()   { x.rows.Store(0) }
func (c *checkedStore) resetStatement()   { c.rows.Store(0) }
func (c *valueCheck) resetStatement()     { c.rows.Store(0) }
