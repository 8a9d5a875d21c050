package optimizer

import (
	"fmt"
	"math"
	"strings"

	"github.com/sqlearn/sqlearn/matrix"
)

// lowerer turns the chosen plan over the normal form into physical
// operators. Every leaf, sum and candidate becomes one node, so a value
// reused in several places is computed once per segment execution.
type lowerer struct {
	in      *interp
	u       *unitPlan
	p       *dpProblem
	best    plan
	leaves  map[*leaf]*pnode
	tleaves map[*leaf]*pnode
	sums    map[*sum]*pnode
	cands   map[int]*pnode
	tcands  map[int]*pnode
	hoisted []*pnode
	sigs    [][]shapeSig
	sig     map[string]bool
}

func newLowerer(in *interp, u *unitPlan, p *dpProblem, best plan) *lowerer {
	return &lowerer{in: in, u: u, p: p, best: best, leaves: map[*leaf]*pnode{}, tleaves: map[*leaf]*pnode{},
		sums: map[*sum]*pnode{}, cands: map[int]*pnode{}, tcands: map[int]*pnode{}}
}

func (lw *lowerer) segment(ss []nstmt) []*planStmt {
	lw.sig = map[string]bool{}
	lw.sigs = append(lw.sigs, nil)
	var out []*planStmt
	for _, st := range ss {
		ps := &planStmt{src: st.src, assign: st.assign}
		if st.effect != "" {
			args := make([]*pnode, len(st.args))
			for i, a := range st.args {
				if a == nil {
					args[i] = &pnode{op: opStr, str: st.strs[i]}
				} else {
					args[i] = lw.sum(a)
				}
			}
			ps.root = &pnode{op: opCall, name: st.effect, args: args, pos: st.src.Pos()}
		} else {
			ps.root = lw.sum(st.value)
		}
		out = append(out, ps)
	}
	return out
}

func (lw *lowerer) sum(s *sum) *pnode {
	if n, ok := lw.sums[s]; ok {
		return n
	}
	var acc *pnode
	for i, t := range s.terms {
		neg := i > 0 && t.coef < 0
		if neg {
			t.coef = -t.coef
		}
		n := lw.term(t, s.rows, s.cols)
		switch {
		case acc == nil:
			acc = n
		case neg:
			acc = &pnode{op: opSub, args: []*pnode{acc, n}}
		default:
			acc = &pnode{op: opAdd, args: []*pnode{acc, n}}
		}
	}
	if acc == nil { // an empty sum cannot arise from a script; keep the shape honest
		z, _ := matrix.Zeros(s.rows, s.cols)
		acc = &pnode{op: opConst, val: z}
	}
	lw.sums[s] = acc
	return acc
}

func (lw *lowerer) term(t term, rows, cols int) *pnode {
	var base *pnode
	switch {
	case len(t.chain) == 0 && len(t.num) == 0 && len(t.den) == 0:
		return &pnode{op: opConst, val: scalar(t.coef)}
	case len(t.chain) == 0:
		base = &pnode{op: opConst, val: scalar(1)}
	case len(t.chain) == 1:
		base = lw.factor(t.chain[0])
	default:
		e := lw.best.blocks[t.blk]
		base = lw.entry(lw.p.blocks[t.blk], e, 0, len(t.chain)-1)
	}
	if t.coef == 1 && len(t.num) == 0 && len(t.den) == 0 {
		return base
	}
	n := &pnode{op: opScale, coef: t.coef, nNum: len(t.num), args: []*pnode{base}}
	for _, x := range t.num {
		n.args = append(n.args, lw.sum(x))
	}
	for _, x := range t.den {
		n.args = append(n.args, lw.sum(x))
	}
	return n
}

func (lw *lowerer) entry(b *dpBlock, e *dpEntry, l, r int) *pnode {
	switch e.kind {
	case eLeaf:
		return lw.factor(b.chain[l])
	case eRead:
		return lw.cand(e.cand, e.flipped)
	}
	n := &pnode{op: opMatMul, args: []*pnode{lw.entry(b, e.left, l, e.split), lw.entry(b, e.right, e.split+1, r)}}
	n.label = chainText(b.chain[l : r+1])
	return n
}

func (lw *lowerer) cand(id int, flipped bool) *pnode {
	n, ok := lw.cands[id]
	if !ok {
		c := lw.p.cands[id]
		def := lw.p.defs[id]
		n = lw.entry(def, lw.best.defs[id], 0, len(def.chain)-1)
		n.label = c.text
		if c.loopConst {
			n = &pnode{op: opHoisted, args: []*pnode{n}, label: c.text}
			lw.hoisted = append(lw.hoisted, n)
		}
		lw.cands[id] = n
	}
	if !flipped {
		return n
	}
	t, ok := lw.tcands[id]
	if !ok {
		t = &pnode{op: opT, args: []*pnode{n}, label: "t(" + lw.p.cands[id].text + ")"}
		lw.tcands[id] = t
	}
	return t
}

func (lw *lowerer) factor(f factor) *pnode {
	n := lw.leaf(f.l)
	if !f.t {
		return n
	}
	t, ok := lw.tleaves[f.l]
	if !ok {
		t = &pnode{op: opT, args: []*pnode{n}}
		lw.tleaves[f.l] = t
	}
	return t
}

func (lw *lowerer) leaf(l *leaf) *pnode {
	if n, ok := lw.leaves[l]; ok {
		return n
	}
	var n *pnode
	switch l.kind {
	case lkVar:
		n = &pnode{op: opVar, name: l.name, pos: l.pos}
		if !strings.Contains(l.ident, "@") || strings.HasSuffix(l.ident, ".0") {
			lw.addSig(shapeSig{name: l.name, rows: l.rows, cols: l.cols})
		}
	case lkSession:
		n = &pnode{op: opSession, name: l.name, pos: l.pos}
		lw.addSig(shapeSig{name: l.name, session: true, rows: l.rows, cols: l.cols})
	case lkConst:
		n = &pnode{op: opConst, val: l.val}
	case lkSum:
		n = lw.sum(l.args[0])
	case lkOpaque:
		n = &pnode{op: l.opk, name: l.name, pos: l.pos}
		for i, a := range l.args {
			if a == nil {
				n.args = append(n.args, &pnode{op: opStr, str: l.strs[i]})
			} else {
				n.args = append(n.args, lw.sum(a))
			}
		}
		if l.opk == opCall && l.name == "t" {
			n.op = opT
		}
	}
	lw.leaves[l] = n
	return n
}

func (lw *lowerer) addSig(s shapeSig) {
	key := fmt.Sprint(s.session, s.name)
	if !lw.sig[key] {
		lw.sig[key] = true
		i := len(lw.sigs) - 1
		lw.sigs[i] = append(lw.sigs[i], s)
	}
}

// estimator fills each node's shape and estimated cost; a node reached
// twice is costed once, and a hoisted node at 1/N per iteration.
type estimator struct {
	in     *interp
	cm     *CostModel
	shapes map[string]leaf
	seen   map[*pnode]bool
	iters  float64
	total  float64
}

// estimatePlans returns the estimated seconds per iteration of a unit's
// segments (per execution for a straight-line unit).
func (in *interp) estimatePlans(segs [][]*planStmt, u *unitPlan, optimized bool) float64 {
	if in.costs == nil {
		return 0
	}
	es := &estimator{in: in, cm: in.costs, shapes: map[string]leaf{}, seen: map[*pnode]bool{}, iters: u.iters}
	for name, v := range in.vars {
		es.shapes[name] = leaf{rows: v.Rows(), cols: v.Cols(), density: 1, sparse: v.IsSparse()}
	}
	for name, sh := range u.exitShapes {
		if _, ok := es.shapes[name]; !ok {
			es.shapes[name] = sh
		}
	}
	for _, stmts := range segs {
		for _, ps := range stmts {
			es.visit(ps.root, 1)
			if ps.assign != "" {
				es.shapes[ps.assign] = leaf{rows: ps.root.rows, cols: ps.root.cols, density: ps.root.density}
			}
		}
	}
	return es.total
}

func (es *estimator) visit(n *pnode, w float64) {
	if es.seen[n] {
		return
	}
	es.seen[n] = true
	n.weight = w
	aw := w
	if n.op == opHoisted {
		aw = w / es.iters
	}
	for _, a := range n.args {
		es.visit(a, aw)
	}
	n.density = 1
	cm := es.cm
	a := n.args
	size := func(m *pnode) float64 { return float64(m.rows) * float64(m.cols) }
	switch n.op {
	case opVar:
		sh, ok := es.shapes[n.name]
		n.rows, n.cols = sh.rows, sh.cols
		if ok {
			n.density = sh.density
		}
	case opSession:
		if es.in.env != nil {
			if v, ok := es.in.sessionVar(n.name); ok && v != nil {
				n.rows, n.cols = v.Rows(), v.Cols()
				if v.IsSparse() && n.rows > 0 && n.cols > 0 {
					n.density = float64(v.NNZ()) / (float64(n.rows) * float64(n.cols))
				}
			}
		}
	case opConst:
		n.rows, n.cols = n.val.Rows(), n.val.Cols()
	case opStr:
	case opHoisted:
		n.rows, n.cols, n.density = a[0].rows, a[0].cols, a[0].density
	case opMatMul:
		n.rows, n.cols = a[0].rows, a[1].cols
		n.est = cm.mul(a[0].rows, a[0].cols, a[1].cols, a[0].density, a[1].density, false, false)
	case opChain:
		n.rows, n.cols = a[0].rows, a[len(a)-1].cols
		n.est = es.chainCost(a)
	case opT:
		n.rows, n.cols, n.density = a[0].cols, a[0].rows, a[0].density
		if n.rows > 1 && n.cols > 1 {
			n.est = cm.stream(16 * size(n))
			if a[0].op == opVar || a[0].op == opSession {
				n.est /= es.iters // cached across iterations while unchanged
			}
		}
	case opNeg:
		n.rows, n.cols = a[0].rows, a[0].cols
		n.est = cm.stream(16 * size(n))
	case opAdd, opSub, opEMul, opEDiv, opPow:
		n.rows, n.cols = max(a[0].rows, a[1].rows), max(a[0].cols, a[1].cols)
		n.est = cm.stream(24 * size(n))
	case opCmp, opAnd, opOr, opNot:
		n.rows, n.cols = 1, 1
		n.est = cm.OpSec
	case opScale:
		n.rows, n.cols, n.density = a[0].rows, a[0].cols, a[0].density
		n.est = cm.stream(16*size(n)) + float64(len(a)-1)*cm.OpSec
	case opCall:
		es.call(n)
	}
	es.place(n)
	es.total += w * n.est
}

func (es *estimator) chainCost(fs []*pnode) float64 {
	cm := es.cm
	k := len(fs)
	if !es.in.opts.ReorderChains {
		total, rows := 0.0, fs[0].rows
		for i := 1; i < k; i++ {
			total += cm.mul(rows, fs[i].rows, fs[i].cols, 1, fs[i].density, false, false)
		}
		return total
	}
	c := make([][]float64, k)
	for i := range c {
		c[i] = make([]float64, k)
	}
	for length := 2; length <= k; length++ {
		for l := 0; l+length-1 < k; l++ {
			r := l + length - 1
			c[l][r] = math.Inf(1)
			for m := l; m < r; m++ {
				c[l][r] = math.Min(c[l][r], c[l][m]+c[m+1][r]+cm.mul(fs[l].rows, fs[m].cols, fs[r].cols, 1, 1, false, false))
			}
		}
	}
	return c[0][k-1]
}

func (es *estimator) call(n *pnode) {
	cm := es.cm
	a := n.args
	n.rows, n.cols = 1, 1
	var in0 float64
	if len(a) > 0 {
		in0 = float64(a[0].rows) * float64(a[0].cols)
	}
	switch n.name {
	case "solve":
		k := float64(a[0].rows)
		n.rows, n.cols = a[0].cols, a[1].cols
		n.est = cm.OpSec + cm.FlopSec*(2*k*k*k/3+2*k*k*float64(a[1].cols)) + cm.ByteSec*8*k*k
	case "inv", "cholesky":
		k := float64(a[0].rows)
		n.rows, n.cols = a[0].rows, a[0].cols
		n.est = cm.OpSec + cm.FlopSec*2*k*k*k + cm.ByteSec*16*k*k
	case "sum", "norm", "trace":
		n.est = cm.stream(8 * in0)
	case "nrow", "ncol":
		n.est = cm.OpSec
	case "rowSums":
		n.rows = a[0].rows
		n.est = cm.stream(8 * in0)
	case "colSums":
		n.cols = a[0].cols
		n.est = cm.stream(8 * in0)
	case "sqrt", "exp", "log", "abs":
		n.rows, n.cols = a[0].rows, a[0].cols
		n.est = cm.stream(16 * in0)
	case "diag":
		if a[0].rows == a[0].cols {
			n.rows = a[0].rows
		} else {
			n.rows, n.cols = a[0].rows*a[0].cols, a[0].rows*a[0].cols
		}
		n.est = cm.stream(16 * float64(n.rows))
	case "matrix", "rand", "identity":
		dims := sizeArgs(n.name, a)
		vals := make([]int, len(dims))
		for i, d := range dims {
			switch {
			case d.op == opConst:
				v, _ := scalarOf(d.val)
				vals[i] = int(v)
			case d.op == opCall && d.name == "nrow":
				vals[i] = d.args[0].rows
			case d.op == opCall && d.name == "ncol":
				vals[i] = d.args[0].cols
			}
		}
		n.rows = vals[0]
		n.cols = vals[len(vals)-1]
		n.est = cm.stream(8 * float64(n.rows) * float64(n.cols))
	case "print", "save":
		n.est = cm.OpSec
	case "query":
		n.est = cm.OpSec
	}
}
