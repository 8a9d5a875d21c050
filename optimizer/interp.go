package optimizer

import (
	"context"
	"fmt"
	"time"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

type runMode uint8

const (
	modeRun     runMode = iota + 1
	modeExplain         // plan loops without running them; no effects
	modeAnalyze         // run everything and time every operator
)

// segment is a maximal run of assignments and expression statements: the
// unit the optimiser rewrites. A statement that calls query() stands alone,
// because the shapes after it are unknown until it has run.
type segment struct {
	id        int
	stmts     []lang.Stmt
	plannable bool
}

// item is one entry of a statement list after grouping: a segment or a
// control statement.
type item struct {
	seg  *segment
	ctrl lang.Stmt
}

type interp struct {
	ctx   context.Context
	env   Env
	opts  Options
	mode  runMode
	costs *CostModel
	// fusedKernels counts element-wise trees run as one kernel;
	// sumScratch holds the values of the last one summed (fusedSum);
	// parents keeps each cached plan's parent counts (fuse.go), keyed by
	// its first statement.
	fusedKernels int
	sumScratch   []float64
	parents      map[*planStmt]map[*pnode]int

	vars    map[string]*matrix.Matrix
	session map[string]*matrix.Matrix // session variables read so far
	hoisted map[*pnode]*matrix.Matrix
	tcache  map[string]tcached

	groups   map[lang.Stmt][]item // statement lists by their first statement
	nsegs    int
	lowered  map[lang.Stmt]*planStmt
	exprs    map[lang.Expr]*pnode
	active   []*unitPlan // planned loops, innermost last
	segPlans map[*segment]*unitPlan
	loops    map[lang.Stmt]*unitPlan // last plan of each loop, reused while its shapes hold
	units    []*unitPlan             // every unit planned, in order, for EXPLAIN
	last     *matrix.Matrix
	lastStmt lang.Stmt
	stats    Stats
	stopped  error // EXPLAIN: why planning stopped early

	loopRuns   []*loopRun  // loops running, innermost last
	iterTraces []IterTrace // routed products of loops that have ended
}

func newInterp(ctx context.Context, env Env, opts Options, mode runMode) (*interp, error) {
	in := &interp{ctx: ctx, env: env, opts: opts, mode: mode,
		vars: map[string]*matrix.Matrix{}, session: map[string]*matrix.Matrix{}, hoisted: map[*pnode]*matrix.Matrix{},
		tcache: map[string]tcached{}, groups: map[lang.Stmt][]item{},
		lowered: map[lang.Stmt]*planStmt{}, exprs: map[lang.Expr]*pnode{},
		segPlans: map[*segment]*unitPlan{}, loops: map[lang.Stmt]*unitPlan{}}
	if opts.WhileIterations <= 0 {
		in.opts.WhileIterations = DefaultOptions().WhileIterations
	}
	in.costs = opts.Costs
	if in.costs == nil && (opts.RedundancyElimination || mode != modeRun) {
		c, err := LoadCostModel(opts.CostCachePath)
		if err != nil {
			return nil, err
		}
		in.costs = c
	}
	return in, nil
}

func (in *interp) run(p *lang.Program) error {
	if n := len(p.Stmts); n > 0 {
		in.lastStmt = p.Stmts[n-1]
	}
	err := in.execList(p.Stmts)
	if err != nil && in.mode == modeExplain && in.stopped == nil && len(in.units) > 0 {
		// Code after a loop that was planned but not run may need values
		// the loop would have computed; the plans so far are the answer.
		in.stopped = err
		return nil
	}
	return err
}

func (in *interp) result() Result {
	vars := make(map[string]*matrix.Matrix, len(in.vars))
	for k, v := range in.vars {
		vars[k] = v
	}
	return Result{Value: in.last, Vars: vars, Stats: in.stats, Iterations: in.iterTraces}
}

// group splits a statement list into segments and control statements,
// once per list.
func (in *interp) group(stmts []lang.Stmt) []item {
	if len(stmts) == 0 {
		return nil
	}
	if g, ok := in.groups[stmts[0]]; ok {
		return g
	}
	var out []item
	var cur *segment
	for _, s := range stmts {
		switch s.(type) {
		case *lang.Assign, *lang.ExprStmt:
			bindsInput := callsQuery(s)
			if cur == nil || bindsInput || !cur.plannable {
				in.nsegs++
				cur = &segment{id: in.nsegs, plannable: !bindsInput}
				out = append(out, item{seg: cur})
			}
			cur.stmts = append(cur.stmts, s)
		default:
			cur = nil
			out = append(out, item{ctrl: s})
		}
	}
	in.groups[stmts[0]] = out
	return out
}

// stmtExpr is the expression of an assignment or expression statement.
func stmtExpr(s lang.Stmt) lang.Expr {
	switch s := s.(type) {
	case *lang.Assign:
		return s.Value
	case *lang.ExprStmt:
		return s.X
	}
	return nil
}

func callsQuery(s lang.Stmt) bool {
	found := false
	walkExpr(stmtExpr(s), func(x lang.Expr) {
		if c, ok := x.(*lang.Call); ok && c.Name == "query" {
			found = true
		}
	})
	return found
}

func walkExpr(e lang.Expr, fn func(lang.Expr)) {
	fn(e)
	switch e := e.(type) {
	case *lang.Unary:
		walkExpr(e.X, fn)
	case *lang.Binary:
		walkExpr(e.L, fn)
		walkExpr(e.R, fn)
	case *lang.Call:
		for _, a := range e.Args {
			walkExpr(a, fn)
		}
	}
}

func (in *interp) checkCtx(at lang.Pos) error {
	if err := in.ctx.Err(); err != nil {
		return posError(at, err)
	}
	return nil
}

func (in *interp) execList(stmts []lang.Stmt) error {
	for _, it := range in.group(stmts) {
		var err error
		if it.seg != nil {
			err = in.execSegment(it.seg)
		} else {
			err = in.execControl(it.ctrl)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) newFrame() *frame {
	return &frame{in: in, memo: map[*pnode]*matrix.Matrix{}, time: in.mode == modeAnalyze}
}

func (in *interp) execSegment(seg *segment) error {
	stmts := in.planFor(seg)
	planned := stmts != nil
	if stmts == nil {
		stmts = make([]*planStmt, len(seg.stmts))
		for i, s := range seg.stmts {
			ps, err := in.lowerStmt(s)
			if err != nil {
				return err
			}
			stmts[i] = ps
		}
	}
	f := in.newFrame()
	f.parents = in.parentsOf(stmts, planned)
	for _, ps := range stmts {
		if err := in.checkCtx(ps.src.Pos()); err != nil {
			return err
		}
		v, err := f.eval(ps.root)
		if err != nil {
			return err
		}
		if ps.assign != "" {
			in.vars[ps.assign] = v
			// Later statements of the segment must see the new value.
			f.forget(ps.assign)
		} else if ps.src == in.lastStmt && !isEffect(ps.root) {
			in.last = v
		}
	}
	return nil
}

// forget drops memoised reads of a variable just assigned; nodes of a
// planned segment name one version each, so this only matters for the
// unplanned form, where one node may be read before and after.
func (f *frame) forget(name string) {
	for n := range f.memo {
		if n.op == opVar && n.name == name {
			delete(f.memo, n)
		}
	}
}

func isEffect(n *pnode) bool { return n.op == opCall && (n.name == "print" || n.name == "save") }

func (in *interp) evalExpr(e lang.Expr) (*matrix.Matrix, error) {
	n, ok := in.exprs[e]
	if !ok {
		var err error
		if n, err = in.lower(e); err != nil {
			return nil, err
		}
		in.exprs[e] = n
	}
	return in.newFrame().eval(n)
}

func (in *interp) truth(e lang.Expr) (bool, error) {
	v, err := in.evalExpr(e)
	if err != nil {
		return false, err
	}
	x, err := scalarOf(v)
	if err != nil {
		return false, posError(e.Pos(), fmt.Errorf("condition: %w", err))
	}
	return x != 0, nil
}

func (in *interp) execControl(s lang.Stmt) error {
	if err := in.checkCtx(s.Pos()); err != nil {
		return err
	}
	switch s := s.(type) {
	case *lang.If:
		ok, err := in.truth(s.Cond)
		if err != nil {
			return err
		}
		if ok {
			return in.execList(s.Then)
		}
		return in.execList(s.Else)
	case *lang.While:
		return in.loop(s, s.Body, nil, func() (bool, error) { return in.truth(s.Cond) })
	case *lang.For:
		from, err := in.evalInt(s.From)
		if err != nil {
			return err
		}
		to, err := in.evalInt(s.To)
		if err != nil {
			return err
		}
		i := from
		return in.loop(s, s.Body, &forRange{name: s.Var, from: from, to: to}, func() (bool, error) {
			if i > to {
				return false, nil
			}
			in.vars[s.Var] = scalar(float64(i))
			i++
			return true, nil
		})
	}
	return fmt.Errorf("optimizer: unknown statement %T", s)
}

func (in *interp) evalInt(e lang.Expr) (int, error) {
	v, err := in.evalExpr(e)
	if err != nil {
		return 0, err
	}
	k, err := intArg(v)
	if err != nil {
		return 0, posError(e.Pos(), err)
	}
	return k, nil
}

type forRange struct {
	name     string
	from, to int
}

// loop runs a while or for loop. With redundancy elimination on, the body
// is planned at entry, when every input of the loop has its shape.
func (in *interp) loop(s lang.Stmt, body []lang.Stmt, fr *forRange, next func() (bool, error)) error {
	var unit *unitPlan
	if in.opts.RedundancyElimination || in.mode != modeRun {
		// A nested loop is entered once per outer iteration; replanning it
		// each time would cost more than it could save.
		unit = in.loops[s]
		if unit == nil || !unit.stillValid(in) {
			start := time.Now()
			unit = in.planLoop(s, body, fr)
			in.stats.OptimizeTime += time.Since(start)
			in.loops[s] = unit
		}
		if unit != nil {
			in.active = append(in.active, unit)
			defer func() {
				in.active = in.active[:len(in.active)-1]
				for _, h := range unit.hoisted {
					delete(in.hoisted, h)
				}
			}()
		}
	}
	if in.mode == modeExplain {
		// Plan only; leave loop-assigned variables with placeholders of
		// their inferred shapes so that later code can still be planned.
		if unit != nil {
			for name, sh := range unit.exitShapes {
				if _, ok := in.vars[name]; !ok {
					if z, err := matrix.Zeros(sh.rows, sh.cols); err == nil {
						in.vars[name] = z
					}
				}
			}
		}
		return nil
	}
	run := &loopRun{unit: unit, states: map[*pnode]*iterState{}}
	in.loopRuns = append(in.loopRuns, run)
	defer func() {
		in.loopRuns = in.loopRuns[:len(in.loopRuns)-1]
		for _, n := range run.order {
			in.finishIter(run, run.states[n])
		}
	}()
	for {
		if err := in.checkCtx(s.Pos()); err != nil {
			return err
		}
		ok, err := next()
		if err != nil || !ok {
			return err
		}
		run.iteration++
		if unit != nil {
			unit.iterations++
		}
		if err := in.execList(body); err != nil {
			return err
		}
	}
}

// planFor returns the planned statements for seg, or nil to run it as
// written.
func (in *interp) planFor(seg *segment) []*planStmt {
	if !seg.plannable {
		return nil
	}
	for i := len(in.active) - 1; i >= 0; i-- {
		if sp, ok := in.active[i].segs[seg]; ok {
			if sp.matches(in) {
				return sp.stmts
			}
			return nil
		}
	}
	if !in.opts.RedundancyElimination && in.mode == modeRun {
		return nil
	}
	if u, ok := in.segPlans[seg]; ok {
		if sp := u.segs[seg]; sp != nil && sp.matches(in) {
			return sp.stmts
		}
	}
	start := time.Now()
	u := in.planSegment(seg)
	in.stats.OptimizeTime += time.Since(start)
	if u == nil {
		return nil
	}
	in.segPlans[seg] = u
	if sp := u.segs[seg]; sp != nil && sp.matches(in) {
		return sp.stmts
	}
	return nil
}

// lowerStmt turns a statement into its plan as written: no rewriting
// beyond choosing each %*% chain's order at run time.
func (in *interp) lowerStmt(s lang.Stmt) (*planStmt, error) {
	if ps, ok := in.lowered[s]; ok {
		return ps, nil
	}
	ps := &planStmt{src: s}
	var err error
	switch s := s.(type) {
	case *lang.Assign:
		ps.assign = s.Name
		ps.root, err = in.lower(s.Value)
	case *lang.ExprStmt:
		ps.root, err = in.lower(s.X)
	}
	if err != nil {
		return nil, err
	}
	in.lowered[s] = ps
	return ps, nil
}

var binaryOps = map[string]opKind{
	"+": opAdd, "-": opSub, "*": opEMul, "/": opEDiv, "^": opPow,
	"==": opCmp, "!=": opCmp, "<": opCmp, "<=": opCmp, ">": opCmp, ">=": opCmp,
	"&&": opAnd, "&": opAnd, "||": opOr, "|": opOr,
}

func (in *interp) lower(e lang.Expr) (*pnode, error) {
	switch e := e.(type) {
	case *lang.Num:
		return &pnode{op: opConst, val: scalar(e.Value), pos: e.At}, nil
	case *lang.Str:
		return &pnode{op: opStr, str: e.Value, pos: e.At}, nil
	case *lang.Ident:
		if e.Session {
			return &pnode{op: opSession, name: e.Name, pos: e.At}, nil
		}
		return &pnode{op: opVar, name: e.Name, pos: e.At}, nil
	case *lang.Unary:
		x, err := in.lower(e.X)
		if err != nil {
			return nil, err
		}
		op := opNeg
		if e.Op == "!" {
			op = opNot
		}
		return &pnode{op: op, args: []*pnode{x}, pos: e.At}, nil
	case *lang.Binary:
		if e.Op == "%*%" {
			var factors []*pnode
			for _, f := range flattenMatMul(e, nil) {
				n, err := in.lower(f)
				if err != nil {
					return nil, err
				}
				factors = append(factors, n)
			}
			return &pnode{op: opChain, args: factors, pos: e.At}, nil
		}
		l, err := in.lower(e.L)
		if err != nil {
			return nil, err
		}
		r, err := in.lower(e.R)
		if err != nil {
			return nil, err
		}
		return &pnode{op: binaryOps[e.Op], name: e.Op, args: []*pnode{l, r}, pos: e.At}, nil
	case *lang.Call:
		ar, ok := builtinArity[e.Name]
		if !ok {
			return nil, posError(e.At, fmt.Errorf("%w: %s", ErrUnknownFunction, e.Name))
		}
		if len(e.Args) < ar[0] || len(e.Args) > ar[1] {
			return nil, posError(e.At, fmt.Errorf("%w: %s takes %d to %d arguments, got %d",
				ErrArgument, e.Name, ar[0], ar[1], len(e.Args)))
		}
		args := make([]*pnode, len(e.Args))
		for i, a := range e.Args {
			n, err := in.lower(a)
			if err != nil {
				return nil, err
			}
			args[i] = n
		}
		if e.Name == "t" {
			return &pnode{op: opT, args: args, pos: e.At}, nil
		}
		return &pnode{op: opCall, name: e.Name, args: args, pos: e.At}, nil
	}
	return nil, fmt.Errorf("optimizer: unknown expression %T", e)
}

// flattenMatMul lists the factors of a %*% tree: matrix multiplication is
// associative, so the parenthesisation written carries no meaning.
func flattenMatMul(e lang.Expr, out []lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.Binary); ok && b.Op == "%*%" {
		return flattenMatMul(b.R, flattenMatMul(b.L, out))
	}
	return append(out, e)
}
