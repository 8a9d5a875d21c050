package optimizer

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// nstmt is a statement in normal form.
type nstmt struct {
	src    lang.Stmt
	assign string
	value  *sum   // assignment or bare expression
	effect string // "print" or "save" for effect statements
	args   []*sum // effect arguments (nil where strs holds a string)
	strs   []string
	entry  []*leaf // variables read before any assignment in the segment
}

type shapeSig struct {
	name       string
	session    bool
	rows, cols int
}

// segPlan is a segment's plan for the input shapes in sig; nil stmts
// means the segment runs as written.
type segPlan struct {
	stmts []*planStmt
	sig   []shapeSig
}

func (sp *segPlan) matches(in *interp) bool {
	for _, s := range sp.sig {
		var v *matrix.Matrix
		if s.session {
			if in.env == nil {
				return false
			}
			v, _ = in.sessionVar(s.name)
		} else {
			v = in.vars[s.name]
		}
		if v == nil || v.Rows() != s.rows || v.Cols() != s.cols {
			return false
		}
	}
	return true
}

// stillValid reports whether every segment plan's shapes hold now.
func (u *unitPlan) stillValid(in *interp) bool {
	for _, sp := range u.segs {
		if !sp.matches(in) {
			return false
		}
	}
	return len(u.segs) > 0
}

// unitPlan is the plan of one optimisation unit: a loop body (every
// segment in it outside nested loops) or a straight-line segment.
type unitPlan struct {
	title      string
	loop       bool
	iters      float64 // estimated iterations
	segs       map[*segment]*segPlan
	segOrder   []*segment
	hoisted    []*pnode
	exitShapes map[string]leaf
	iterations int // counted while running

	original   [][]*planStmt // as written, per segment
	optimized  [][]*planStmt // chosen plan, per segment (nil when kept as written)
	normalized []string
	cands      []*cand
	treeCands  int
	blocks     int
	estBefore  float64
	estAfter   float64
	applied    bool
	decision   string
	optTime    time.Duration
	routes     []string // products the hybrid runtime will take, by shape
}

// collectSegments lists the segments of a loop body, through if branches
// but not into nested loops (they are planned at their own entry).
func (in *interp) collectSegments(stmts []lang.Stmt, out []*segment) []*segment {
	for _, it := range in.group(stmts) {
		if it.seg != nil {
			out = append(out, it.seg)
			continue
		}
		if s, ok := it.ctrl.(*lang.If); ok {
			out = in.collectSegments(s.Then, out)
			out = in.collectSegments(s.Else, out)
		}
	}
	return out
}

func assignedIn(stmts []lang.Stmt, out map[string]bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Assign:
			out[s.Name] = true
		case *lang.While:
			assignedIn(s.Body, out)
		case *lang.For:
			out[s.Var] = true
			assignedIn(s.Body, out)
		case *lang.If:
			assignedIn(s.Then, out)
			assignedIn(s.Else, out)
		}
	}
}

// estimateIterations reads the trip count of a for loop, and of a while
// loop whose condition starts with `i < n` (or <=) for a counter that
// the body steps by one; other loops get the configured default.
func (in *interp) estimateIterations(s lang.Stmt, fr *forRange) float64 {
	if fr != nil {
		return math.Max(1, float64(fr.to-fr.from+1))
	}
	w := s.(*lang.While)
	cond := w.Cond
	for {
		b, ok := cond.(*lang.Binary)
		if ok && (b.Op == "&&" || b.Op == "&") {
			cond = b.L
			continue
		}
		break
	}
	b, ok := cond.(*lang.Binary)
	if ok && (b.Op == "<" || b.Op == "<=") {
		if id, ok := b.L.(*lang.Ident); ok && !id.Session && stepsByOne(w.Body, id.Name) {
			cur, ok1 := in.vars[id.Name]
			bound, err := in.evalExpr(b.R)
			if ok1 && err == nil && isScalar(cur) && isScalar(bound) {
				c, _ := scalarOf(cur)
				n, _ := scalarOf(bound)
				if b.Op == "<=" {
					n++
				}
				return math.Max(1, n-c)
			}
		}
	}
	return float64(in.opts.WhileIterations)
}

func stepsByOne(body []lang.Stmt, name string) bool {
	for _, s := range body {
		a, ok := s.(*lang.Assign)
		if !ok || a.Name != name {
			continue
		}
		if b, ok := a.Value.(*lang.Binary); ok && b.Op == "+" {
			l, lok := b.L.(*lang.Ident)
			r, rok := b.R.(*lang.Num)
			return lok && l.Name == name && rok && r.Value == 1
		}
	}
	return false
}

func (in *interp) planLoop(s lang.Stmt, body []lang.Stmt, fr *forRange) *unitPlan {
	kind := "while"
	if fr != nil {
		kind = "for"
	}
	u := &unitPlan{title: fmt.Sprintf("%s loop at line %d", kind, s.Pos().Line), loop: true,
		iters: in.estimateIterations(s, fr)}
	assigned := map[string]bool{}
	assignedIn(body, assigned)
	if fr != nil {
		assigned[fr.name] = true
		in.vars[fr.name] = scalar(float64(fr.from))
	}
	in.planUnit(u, in.collectSegments(body, nil), assigned)
	segs := u.original
	if u.applied {
		segs = u.optimized
	}
	u.routes = staticRoutes(segs, assigned)
	return u
}

func (in *interp) planSegment(seg *segment) *unitPlan {
	u := &unitPlan{title: fmt.Sprintf("statements at line %d", seg.stmts[0].Pos().Line), iters: 1}
	assigned := map[string]bool{}
	assignedIn(seg.stmts, assigned)
	in.planUnit(u, []*segment{seg}, assigned)
	return u
}

// normalizeUnit puts every statement of the unit in normal form. Loop
// bodies go through twice so that variables carried from one iteration to
// the next have their shapes; symmetry of loop-assigned variables is the
// largest set that every assignment preserves.
func (in *interp) normalizeUnit(u *unitPlan, segs []*segment, assigned map[string]bool) ([][]nstmt, *normalizer, error) {
	shapes := map[string]leaf{}
	for name, v := range in.vars {
		shapes[name] = shapeOf(v)
	}
	sym := map[string]bool{}
	if u.loop {
		for name := range assigned {
			if sh, ok := shapes[name]; !ok || sh.sym {
				sym[name] = true
			}
		}
	}
	var out [][]nstmt
	var nz *normalizer
	for round := 0; ; round++ {
		entry := map[string]leaf{}
		for k, v := range shapes {
			entry[k] = v
		}
		nz = &normalizer{in: in, loop: u.loop, assigned: assigned, symVars: sym, shapes: entry, leaves: map[string]*leaf{}}
		passes := 1
		if u.loop {
			passes = 2
		}
		var err error
		for pass := range passes {
			// The first of two passes only learns the shapes of variables
			// carried round the loop; its errors are not final.
			nz.tolerant = pass < passes-1
			out, err = nz.segments(segs)
		}
		if err != nil {
			return nil, nil, err
		}
		if !u.loop {
			break
		}
		// Drop variables whose assignments are not provably symmetric.
		changed := false
		for _, ss := range out {
			for _, st := range ss {
				if st.assign != "" && sym[st.assign] && !symmetricSum(st.value) {
					delete(sym, st.assign)
					changed = true
				}
			}
		}
		for name := range assigned {
			if a, b := shapes[name], nz.shapes[name]; (a.rows != b.rows || a.cols != b.cols) && a.rows+a.cols > 0 {
				return nil, nil, unplannable("%s changes shape inside the loop", name)
			}
		}
		if !changed || round > 8 {
			u.exitShapes = nz.shapes
			break
		}
	}
	return out, nz, nil
}

func (nz *normalizer) segments(segs []*segment) ([][]nstmt, error) {
	out := make([][]nstmt, len(segs))
	for i, seg := range segs {
		nz.seg = seg.id
		nz.env = map[string]*leaf{}
		nz.version = map[string]int{}
		if !seg.plannable {
			// A statement that binds inputs runs as written; its target's
			// shape stays unknown to the rest of the unit.
			for _, s := range seg.stmts {
				if a, ok := s.(*lang.Assign); ok {
					delete(nz.shapes, a.Name)
				}
			}
			continue
		}
		for _, s := range seg.stmts {
			st, err := nz.stmt(s)
			if err != nil && nz.tolerant {
				if a, ok := s.(*lang.Assign); ok {
					delete(nz.shapes, a.Name)
				}
				continue
			}
			if err != nil {
				return nil, posError(s.Pos(), err)
			}
			out[i] = append(out[i], st)
		}
	}
	return out, nil
}

func (nz *normalizer) stmt(s lang.Stmt) (nstmt, error) {
	st := nstmt{src: s}
	switch s := s.(type) {
	case *lang.Assign:
		v, err := nz.norm(s.Value)
		if err != nil {
			return st, err
		}
		st.assign, st.value = s.Name, v
		nz.assign(s.Name, v, s.At)
	case *lang.ExprStmt:
		if c, ok := s.X.(*lang.Call); ok && (c.Name == "print" || c.Name == "save") {
			if ar := builtinArity[c.Name]; len(c.Args) < ar[0] || len(c.Args) > ar[1] {
				return st, unplannable("%s arguments", c.Name)
			}
			st.effect = c.Name
			st.args = make([]*sum, len(c.Args))
			st.strs = make([]string, len(c.Args))
			for i, a := range c.Args {
				if str, ok := a.(*lang.Str); ok {
					st.strs[i] = str.Value
					continue
				}
				v, err := nz.norm(a)
				if err != nil {
					return st, err
				}
				st.args[i] = v
			}
			return st, nil
		}
		v, err := nz.norm(s.X)
		if err != nil {
			return st, err
		}
		st.value = v
	}
	return st, nil
}

// planUnit runs the whole method on one unit and records what it did. On
// any reason not to rewrite, the unit runs as written (segs left unset).
func (in *interp) planUnit(u *unitPlan, segs []*segment, assigned map[string]bool) {
	start := time.Now()
	defer func() {
		u.optTime = time.Since(start)
		in.units = append(in.units, u)
		in.stats.Units++
		in.stats.Candidates += len(u.cands)
		in.stats.TreeCandidates += u.treeCands
		for _, c := range u.cands {
			if c.chosen {
				in.stats.Chosen++
				if c.loopConst {
					in.stats.Hoisted++
				}
			}
		}
	}()
	u.segs = map[*segment]*segPlan{}
	u.segOrder = segs
	for _, seg := range segs {
		var stmts []*planStmt
		for _, s := range seg.stmts {
			ps, err := in.lowerStmt(s)
			if err != nil {
				u.decision = "kept as written: " + err.Error()
				return
			}
			stmts = append(stmts, ps)
		}
		u.original = append(u.original, stmts)
	}
	u.treeCands = treeCandidates(segs, assigned, u.loop)
	norm, _, err := in.normalizeUnit(u, segs, assigned)
	if err != nil {
		if !errors.Is(err, errUnplannable) {
			u.decision = "kept as written: " + err.Error()
		} else {
			u.decision = "kept as written: " + strings.TrimPrefix(err.Error(), errUnplannable.Error()+": ")
		}
		in.estimateOriginal(u)
		return
	}
	for _, ss := range norm {
		for _, st := range ss {
			u.normalized = append(u.normalized, st.text())
		}
	}
	if !in.opts.RedundancyElimination {
		u.decision = "redundancy elimination is off"
		in.estimateOriginal(u)
		return
	}
	blocks := collectBlocks(norm, segs)
	u.blocks = len(blocks)
	cands, ix := search(blocks, u.loop, u.iters, maxCandidates)
	u.cands = cands
	prob := in.newProblem(blocks, cands, ix, u)
	best := prob.solve()
	lw := newLowerer(in, u, prob, best)
	for i, ss := range norm {
		u.optimized = append(u.optimized, lw.segment(ss))
		u.segs[segs[i]] = &segPlan{stmts: u.optimized[i], sig: lw.sigs[i]}
	}
	for i, c := range cands {
		c.chosen = best.set.has(i)
		c.defEst = prob.fixedCost(prob.defs[i], best.set.without(i))
	}
	u.hoisted = lw.hoisted
	in.estimateOriginal(u)
	u.estAfter = in.estimatePlans(u.optimized, u, true)
	explainChoices(u, prob, best)
	if u.estAfter < u.estBefore {
		u.applied = true
		u.decision = fmt.Sprintf("rewritten: estimated %.4g ms per iteration instead of %.4g ms", u.estAfter*1e3, u.estBefore*1e3)
		return
	}
	u.decision = fmt.Sprintf("kept as written: the rewrite is estimated at %.4g ms per iteration, the original at %.4g ms", u.estAfter*1e3, u.estBefore*1e3)
	// The decision holds while the shapes do: a plan with no statements
	// runs the segment as written without planning it again.
	u.segs = map[*segment]*segPlan{}
	for i := range norm {
		u.segs[segs[i]] = &segPlan{sig: lw.sigs[i]}
	}
	u.hoisted = nil
	for _, c := range cands {
		c.chosen = false
	}
}

func (in *interp) estimateOriginal(u *unitPlan) {
	u.estBefore = in.estimatePlans(u.original, u, false)
}

// collectBlocks lists every chain of two or more leaves reachable from
// the unit's statements and numbers them in their terms.
func collectBlocks(norm [][]nstmt, segs []*segment) []*block {
	var blocks []*block
	seenSum := map[*sum]bool{}
	seenLeaf := map[*leaf]bool{}
	var visit func(s *sum, seg int, where string)
	visit = func(s *sum, seg int, where string) {
		if s == nil || seenSum[s] {
			return
		}
		seenSum[s] = true
		for i := range s.terms {
			t := &s.terms[i]
			for _, x := range t.num {
				visit(x, seg, where)
			}
			for _, x := range t.den {
				visit(x, seg, where)
			}
			for _, f := range t.chain {
				if !seenLeaf[f.l] {
					seenLeaf[f.l] = true
					for _, a := range f.l.args {
						visit(a, seg, where)
					}
				}
			}
			if len(t.chain) >= 2 {
				t.blk = len(blocks)
				blocks = append(blocks, &block{chain: t.chain, seg: seg, stmt: where})
			}
		}
	}
	for i, ss := range norm {
		for _, st := range ss {
			where := fmt.Sprintf("line %d", st.src.Pos().Line)
			visit(st.value, segs[i].id, where)
			for _, a := range st.args {
				visit(a, segs[i].id, where)
			}
		}
	}
	return blocks
}

func (in *interp) newProblem(blocks []*block, cands []*cand, ix *candIndex, u *unitPlan) *dpProblem {
	cm := in.costs
	p := &dpProblem{cm: cm, cands: cands, maxKeep: 64, readCost: make([][2]float64, len(cands))}
	transpose := func(rows, cols int, density float64, sparse bool) float64 {
		if rows == 1 || cols == 1 {
			return 0 // a vector's transpose shares its data layout; the copy is negligible
		}
		bytes := 16 * float64(rows) * float64(cols)
		if sparse {
			bytes *= 1.5 * density
		}
		return cm.stream(bytes)
	}
	leafCost := func(f factor) float64 {
		if !f.t {
			return 0
		}
		c := transpose(f.l.rows, f.l.cols, f.l.density, f.l.sparse)
		if f.l.kind == lkVar || f.l.kind == lkSession {
			// The executor keeps the transpose of an unchanged variable.
			if f.l.invariant {
				return c / u.iters
			}
		}
		return c
	}
	for i, c := range cands {
		t := transpose(c.rows, c.cols, 1, false)
		if c.loopConst {
			t /= u.iters
		}
		p.readCost[i] = [2]float64{0, t}
	}
	for _, b := range blocks {
		p.blocks = append(p.blocks, newDPBlock(b.chain, ix, -1, leafCost))
	}
	for _, c := range cands {
		p.defs = append(p.defs, newDPBlock(c.seq, ix, c.id, leafCost))
	}
	return p
}

// treeCandidates counts what a search of each expression tree on its own
// finds, the baseline the block-wise search is compared with: subtrees of
// %*% and t() as written that repeat within one statement, or whose
// variables are all loop-invariant.
func treeCandidates(segs []*segment, assigned map[string]bool, loop bool) int {
	n := 0
	for _, seg := range segs {
		for _, s := range seg.stmts {
			e := stmtExpr(s)
			counts := map[string]int{}
			invariant := map[string]bool{}
			var visit func(e lang.Expr) bool
			visit = func(e lang.Expr) bool {
				inv := true
				switch x := e.(type) {
				case *lang.Ident:
					return x.Session || !assigned[x.Name]
				case *lang.Unary:
					return visit(x.X)
				case *lang.Binary:
					l, r := visit(x.L), visit(x.R)
					inv = l && r
					if x.Op != "%*%" {
						return inv
					}
				case *lang.Call:
					for _, a := range x.Args {
						inv = visit(a) && inv
					}
					if x.Name != "t" {
						return inv
					}
					if _, leafArg := x.Args[0].(*lang.Ident); leafArg {
						return inv
					}
				default:
					return true
				}
				k := lang.Format(e)
				counts[k]++
				invariant[k] = inv
				return inv
			}
			visit(e)
			for k, c := range counts {
				if c >= 2 || loop && invariant[k] {
					n++
				}
			}
		}
	}
	return n
}

func (st nstmt) text() string {
	switch {
	case st.effect != "":
		parts := make([]string, len(st.args))
		for i, a := range st.args {
			if a == nil {
				parts[i] = fmt.Sprintf("%q", st.strs[i])
			} else {
				parts[i] = sumText(a)
			}
		}
		return st.effect + "(" + strings.Join(parts, ", ") + ")"
	case st.assign != "":
		return st.assign + " = " + sumText(st.value)
	}
	return sumText(st.value)
}

// sumText writes a normal form in script syntax.
func sumText(s *sum) string {
	var b strings.Builder
	for i, t := range s.terms {
		coef := t.coef
		switch {
		case i == 0 && coef < 0:
			b.WriteString("-")
			coef = -coef
		case i > 0 && coef < 0:
			b.WriteString(" - ")
			coef = -coef
		case i > 0:
			b.WriteString(" + ")
		}
		var parts []string
		if coef != 1 || len(t.chain) == 0 && len(t.num) == 0 {
			parts = append(parts, fmt.Sprintf("%g", coef))
		}
		for _, n := range t.num {
			parts = append(parts, "("+sumText(n)+")")
		}
		text := strings.Join(parts, " * ")
		if len(t.chain) > 0 {
			if text != "" {
				text += " * "
			}
			text += chainText(t.chain)
		}
		for _, d := range t.den {
			text += " / (" + sumText(d) + ")"
		}
		b.WriteString(text)
	}
	return b.String()
}
