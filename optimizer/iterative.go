package optimizer

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
)

// Loops whose expensive part is a product of a constant sparse matrix with
// a matrix the loop keeps changing (PageRank, Jacobi sweeps, label
// propagation: x = f(M %*% x)) are evaluated by the hybrid runtime of
// optimizer/hybrid: each iteration, its cost model chooses between
// multiplying M in full and propagating only the entries of x that moved
// (the HyMAC method). The interpreter needs no knowledge of the loop's
// shape beyond the product itself: the product node keeps a
// hybrid.Product for as long as its left operand is the same matrix, and
// feeds it the previous and the current right operand each time the node
// is evaluated.
//
// Detection is dynamic, on values: inside a loop, a two-factor product
// whose left factor is sparse and identical (the same immutable value) to
// the one of the previous evaluation, and whose right factor is a dense
// variable, is routed; its first evaluation runs as written. LA_EXPLAIN
// also flags the products that have the shape statically (a
// loop-invariant left factor, a right factor the loop assigns), so the
// plan says what will be routed before it runs.

// loopRun is one execution of a loop: the routed products' states live as
// long as it does.
type loopRun struct {
	unit      *unitPlan // nil when the loop was not planned
	iteration int
	states    map[*pnode]*iterState
	order     []*pnode // states' nodes in first-evaluation order
}

// iterState is a routed product between evaluations.
type iterState struct {
	m *matrix.Matrix // the left factor the product was built for
	// seen is the left factor of a product evaluated once, as written: a
	// product is routed from its second evaluation with the same left
	// factor on, so a factor the loop replaces (an identity that becomes
	// a dense update) never pays for building the runtime's state.
	seen  *matrix.Matrix
	prod  *hybrid.Product
	prev  []float64 // the right factor at the last evaluation
	label string
	steps []hybrid.Step
	decay hybrid.Decay
}

// IterTrace is one routed product's per-iteration record, as LA_EXPLAIN
// ANALYZE and sys.la_iteration_trace show it.
type IterTrace struct {
	Unit  int    // the loop's unit in the explanation
	Label string // the product, e.g. "M %*% x [1000x1000 sparse, nnz 5000]"
	Steps []hybrid.Step
}

// routable reports whether a product with these factors can be routed.
func routable(n *pnode, ops []operand) bool {
	if len(ops) != 2 || n.args[1].op != opVar {
		return false
	}
	m, x := ops[0], ops[1]
	return !m.t && !x.t && m.m.IsSparse() && !x.m.IsSparse() && m.m.Cols() == x.m.Rows() &&
		m.m.Rows() > 0 && x.m.Cols() > 0
}

// iterate evaluates a routed product through its hybrid state.
func (in *interp) iterate(run *loopRun, n *pnode, ops []operand) (*matrix.Matrix, error) {
	m, x := ops[0].m, ops[1].m
	xv, _ := x.DenseValues()
	st := run.states[n]
	if st == nil {
		st = &iterState{}
		run.states[n] = st
		run.order = append(run.order, n)
	}
	if st.prod != nil && (st.m != m || len(st.prev) != len(xv)) {
		// The left factor was replaced: file what ran and watch again.
		in.finishIter(run, st)
		*st = iterState{}
	}
	if st.prod == nil && st.seen != m {
		// First sight of this left factor: multiply as written, and
		// keep the step in case the factor turns out to be constant.
		st.seen, st.steps = m, st.steps[:0]
		t0 := time.Now()
		v, err := in.mul(ops[0], ops[1])
		st.steps = append(st.steps, hybrid.Step{Iteration: 1, Mode: hybrid.ModeFull, ActiveFraction: -1,
			BlocksTouched: -1, EstFull: -1, EstIncremental: -1, Measured: time.Since(t0)})
		return v, err
	}
	if st.prod == nil {
		// The same left factor again: from now on the runtime keeps the
		// product.
		ptr, ind, val, _ := m.CSRArrays()
		csr := &hybrid.CSR{Rows: m.Rows(), Cols: m.Cols(), Ptr: ptr, Ind: ind, Val: val}
		p, err := hybrid.NewProduct(csr, x.Cols(), hybrid.Options{Mode: in.opts.IterationMode})
		if err != nil {
			return nil, err
		}
		st.m, st.prod, st.label = m, p, productLabel(n, m, x)
		y, step := p.Start(xv)
		st.record(step)
		// Matrices are immutable, so the previous x is kept by reference.
		st.prev = xv
		return matrix.NewDense(m.Rows(), x.Cols(), slices.Clone(y))
	}
	change := 0.0
	for i, v := range xv {
		change += math.Abs(v - st.prev[i])
	}
	st.decay.Observe(change)
	y, step := st.prod.Step(hybrid.Delta{
		Prev: st.prev, Next: xv, Shift: commonShift(st.prev, xv),
		Budget: max(in.opts.IterationResidual, in.opts.IterationBudget*change), Change: change, Remaining: in.remaining(run, st, change)})
	step.Change = change
	st.record(step)
	st.prev = xv
	return matrix.NewDense(m.Rows(), x.Cols(), slices.Clone(y))
}

// remaining estimates the iterations left: the loop's estimate, or fewer
// when the change decays to a millionth of its current size sooner.
func (in *interp) remaining(run *loopRun, st *iterState, change float64) int {
	left := 100
	if run.unit != nil {
		left = max(int(run.unit.iters)-run.iteration, 1)
	}
	return max(st.decay.Remaining(1e-6*change, left), 1)
}

// commonShift estimates the part of next−prev shared by every entry (a
// teleport term, a constant added each iteration), which the product
// applies through M's row sums instead of making every entry active. The
// median of a strided sample of the change is taken when it removes at
// least half of the sample's mass; any value is correct, only speed
// depends on it.
func commonShift(prev, next []float64) float64 {
	const samples = 255
	n := len(next)
	if n < 2*samples {
		return 0
	}
	d := make([]float64, samples)
	stride := n / samples
	for i := range d {
		j := i * stride
		d[i] = next[j] - prev[j]
	}
	var before float64
	for _, v := range d {
		before += math.Abs(v)
	}
	slices.Sort(d)
	med := d[samples/2]
	var after float64
	for _, v := range d {
		after += math.Abs(v - med)
	}
	if med == 0 || after > before/2 {
		return 0
	}
	return med
}

// record appends a step of the runtime, numbered after the evaluations
// before it.
func (st *iterState) record(step hybrid.Step) {
	step.Iteration = len(st.steps) + 1
	st.steps = append(st.steps, step)
}

// finishIter files a routed product's trace with its loop's unit; a
// product never routed leaves none.
func (in *interp) finishIter(run *loopRun, st *iterState) {
	if st.prod == nil {
		return
	}
	in.iterTraces = append(in.iterTraces, IterTrace{Unit: in.unitID(run.unit), Label: st.label, Steps: st.steps})
}

// unitID is u's number in the explanation, or 0.
func (in *interp) unitID(u *unitPlan) int {
	for i, v := range in.units {
		if v == u {
			return i + 1
		}
	}
	return 0
}

func productLabel(n *pnode, m, x *matrix.Matrix) string {
	return fmt.Sprintf("%s %%*%% %s [%dx%d sparse, %d nonzeros, by %dx%d]",
		factorName(n.args[0]), factorName(n.args[1]), m.Rows(), m.Cols(), m.NNZ(), x.Rows(), x.Cols())
}

// factorName is how EXPLAIN names a product's factor.
func factorName(a *pnode) string {
	switch a.op {
	case opVar:
		return a.name
	case opSession:
		return "@" + a.name
	case opHoisted:
		return a.label
	case opConst:
		return "a constant"
	}
	return "(expression)"
}

// staticRoutes lists the products of a loop plan that have the routed
// shape by construction: a left factor the loop does not change, estimated
// sparse, and a right factor it assigns, and places them on the CPU, where
// the hybrid runtime runs. Whether one is routed is decided on the values:
// the left factor must be stored sparse.
func staticRoutes(segs [][]*planStmt, assigned map[string]bool) []string {
	var out []string
	seen := map[*pnode]bool{}
	var walk func(n *pnode)
	walk = func(n *pnode) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, a := range n.args {
			walk(a)
		}
		if (n.op != opMatMul && n.op != opChain) || len(n.args) != 2 {
			return
		}
		l, r := n.args[0], n.args[1]
		invariant := l.op == opSession || l.op == opHoisted || l.op == opConst || (l.op == opVar && !assigned[l.name])
		if invariant && l.density < 0.5 && r.op == opVar && assigned[r.name] {
			// The hybrid runtime's kernels run on the CPU, whatever
			// @@ml_device would pick for a plain product.
			n.setPlacement(deviceCPU, "hybrid runtime, full or incremental per iteration")
			left := factorName(l)
			out = append(out, fmt.Sprintf("%s %%*%% %s [%dx%d]: %s is loop-constant and the loop assigns %s; evaluated by the hybrid runtime (full or incremental per iteration) when %s is stored sparse",
				left, r.name, n.rows, n.cols, left, r.name, left))
		}
	}
	for _, seg := range segs {
		for _, ps := range seg {
			if ps.root != nil {
				walk(ps.root)
			}
		}
	}
	return out
}
