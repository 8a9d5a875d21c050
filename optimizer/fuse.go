package optimizer

import (
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
)

// Element-wise fusion. A tree of element-wise operators over dense
// matrices of one shape (and 1x1 values) is evaluated in one pass over
// the elements, a cache-sized chunk at a time, instead of one operator at a
// time with a full temporary matrix each: PageRank's update
// (@damping * (@M %*% x + s) + t, then sum(abs(xn - x))) made eight
// n-vectors per iteration that way. Every element goes through the same
// floating-point operations in the same order as the unfused operators
// (matrix.Add, AddScalar, Scale, ...), so results are bit for bit the same;
// the tests hold the two paths to that.
//
// Only operators no other plan node reads are folded into their parent
// (the frame's parent counts), so a value that ReMac shares is still
// computed once. Anything else (sparse operands, products, calls other
// than abs and sqrt) is a leaf, evaluated as usual.

// fuseChunk is the elements a worker evaluates at a time: small enough for
// a buffer per operator to stay in the L1/L2 caches.
const fuseChunk = 1024

// fuseParallel is the size above which the elements are split across the
// cores.
const fuseParallel = 1 << 15

// fusable reports whether a node is an element-wise operator a kernel can
// evaluate.
func fusable(n *pnode) bool {
	switch n.op {
	case opAdd, opSub, opEMul, opEDiv, opNeg, opScale:
		return true
	case opCall:
		return (n.name == "abs" || n.name == "sqrt") && len(n.args) == 1
	}
	return false
}

// kern is one node of a fused kernel: an operator over its kids, or a leaf
// holding a dense matrix's values or a 1x1 value.
type kern struct {
	op     opKind
	name   string
	kids   []*kern
	scalar bool    // the node's value is 1x1: s
	s      float64 // a 1x1 value, or opScale's combined factor
	vals   []float64
	id     int // index of the node's buffer in a worker's scratch
}

// kernelBuilder collects a kernel's leaves and checks they share a shape.
type kernelBuilder struct {
	f          *frame
	rows, cols int
	vector     bool // some leaf is not 1x1
	bad        bool // a leaf that cannot be fused: sparse, or another shape
	ops        int  // operator nodes
	bufs       int
}

// fused evaluates n as one kernel when n heads an element-wise tree of at
// least two operators over dense values of one shape; ok is false when it
// does not, and the caller evaluates n as usual (the leaves evaluated here
// are memoised, so nothing is computed twice).
func (f *frame) fused(n *pnode) (v *matrix.Matrix, ok bool, err error) {
	if !fusable(n) || !f.inlinesAny(n) {
		return nil, false, nil
	}
	k, b, ok := f.kernel(n, 2)
	if !ok {
		return nil, false, nil
	}
	var start time.Time
	if f.time {
		start = time.Now()
	}
	out := make([]float64, b.rows*b.cols)
	runKernel(k, b.bufs, out)
	if f.time {
		n.calls++
		n.elapsed += time.Since(start)
	}
	m, err := matrix.NewDense(b.rows, b.cols, out)
	return m, err == nil, err
}

// fusedSum is sum(a) for an element-wise tree a that only this sum reads:
// the tree's values go to a buffer the interpreter reuses and the device
// sums them as matrix.Sum would, so the vector is never allocated. ok is
// false when a is not such a tree.
func (f *frame) fusedSum(a *pnode) (float64, bool) {
	if !fusable(a) || !f.private(a) {
		return 0, false
	}
	k, b, ok := f.kernel(a, 1)
	if !ok {
		return 0, false
	}
	size := b.rows * b.cols
	if cap(f.in.sumScratch) < size {
		f.in.sumScratch = make([]float64, size)
	}
	buf := f.in.sumScratch[:size]
	runKernel(k, b.bufs, buf)
	return matrix.Device().Reduce(gpu.Sum, buf), true
}

// kernel builds the kernel of the element-wise tree rooted at n, which
// must have at least minOps operators over dense values of one shape
// (and 1x1 values); ok is false otherwise, or when fusion is off.
func (f *frame) kernel(n *pnode, minOps int) (*kern, *kernelBuilder, bool) {
	if f.parents == nil || !f.in.opts.ElementwiseFusion {
		return nil, nil, false
	}
	b := &kernelBuilder{f: f}
	k, err := b.build(n, true)
	if err != nil || b.bad || !b.vector || k.scalar || b.ops < minOps {
		return nil, nil, false
	}
	f.in.fusedKernels++
	return k, b, true
}

// inlinesAny reports whether some operand of n would be folded into it.
func (f *frame) inlinesAny(n *pnode) bool {
	for _, a := range n.args {
		if f.private(a) && fusable(a) {
			return true
		}
	}
	return false
}

// private says a node is read by one parent only and has no value yet, so
// folding it into that parent loses nothing.
func (f *frame) private(n *pnode) bool {
	if _, done := f.memo[n]; done {
		return false
	}
	return f.parents[n] == 1
}

func (b *kernelBuilder) build(n *pnode, root bool) (*kern, error) {
	if !root && !(fusable(n) && b.f.private(n)) {
		return b.leaf(n)
	}
	b.ops++
	k := &kern{op: n.op, name: n.name, s: n.coef}
	for _, a := range n.args {
		c, err := b.build(a, false)
		if err != nil {
			return nil, err
		}
		k.kids = append(k.kids, c)
	}
	if n.op == opScale {
		// The extra operands are 1x1 factors, combined in the order the
		// unfused operator combines them.
		for i, c := range k.kids[1:] {
			if !c.scalar {
				b.bad = true
				return k, nil
			}
			if i < n.nNum {
				k.s *= c.s
			} else {
				k.s /= c.s
			}
		}
		k.kids = k.kids[:1]
	}
	if b.bad {
		return k, nil
	}
	allScalar := true
	for _, c := range k.kids {
		allScalar = allScalar && c.scalar
	}
	if allScalar {
		// Folded now, as the unfused operators compute 1x1 values.
		k.scalar, k.s = true, foldScalar(k)
		k.kids = nil
		return k, nil
	}
	k.id = b.bufs
	b.bufs++
	return k, nil
}

func (b *kernelBuilder) leaf(n *pnode) (*kern, error) {
	if !n.pure() {
		// Not evaluated here: if the kernel then gave up, the usual path
		// would run it a second time.
		b.bad = true
		return &kern{}, nil
	}
	m, err := b.f.eval(n)
	if err != nil {
		return nil, err
	}
	if isScalar(m) {
		x, _ := scalarOf(m)
		return &kern{scalar: true, s: x}, nil
	}
	vals, dense := m.DenseValues()
	switch {
	case !dense:
		b.bad = true
	case !b.vector:
		b.vector, b.rows, b.cols = true, m.Rows(), m.Cols()
	case m.Rows() != b.rows || m.Cols() != b.cols:
		b.bad = true
	}
	return &kern{vals: vals}, nil
}

// foldScalar is an operator's value over 1x1 operands, as elementwise,
// matrix.Scale and the builtins give it.
func foldScalar(k *kern) float64 {
	switch k.op {
	case opNeg:
		return k.kids[0].s * -1
	case opScale:
		return k.kids[0].s * k.s
	case opCall:
		if k.name == "abs" {
			return math.Abs(k.kids[0].s)
		}
		return math.Sqrt(k.kids[0].s)
	}
	return scalarOp(k.op, k.kids[0].s, k.kids[1].s)
}

// runKernel fills out with the kernel's value, chunk by chunk, on every
// core when out is large.
func runKernel(k *kern, bufs int, out []float64) {
	work := func(lo, hi int) {
		scratch := make([][]float64, bufs)
		for i := range scratch {
			scratch[i] = make([]float64, fuseChunk)
		}
		for c := lo; c < hi; c += fuseChunk {
			e := min(c+fuseChunk, hi)
			k.compute(out[c:e], scratch, c, e)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(out) < fuseParallel {
		work(0, len(out))
		return
	}
	per := (len(out)/workers + fuseChunk - 1) / fuseChunk * fuseChunk
	var wg sync.WaitGroup
	for lo := 0; lo < len(out); lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			work(lo, hi)
		}(lo, min(lo+per, len(out)))
	}
	wg.Wait()
}

// chunk returns the node's values for elements lo..hi: a leaf's own slice,
// or the node's scratch buffer filled by compute. It is called only on
// nodes that are not 1x1.
func (k *kern) chunk(scratch [][]float64, lo, hi int) []float64 {
	if k.vals != nil {
		return k.vals[lo:hi]
	}
	d := scratch[k.id][:hi-lo]
	k.compute(d, scratch, lo, hi)
	return d
}

// compute writes an operator node's values for elements lo..hi into d.
func (k *kern) compute(d []float64, scratch [][]float64, lo, hi int) {
	a := k.kids[0]
	switch k.op {
	case opNeg:
		x := a.chunk(scratch, lo, hi)
		d = d[:len(x)]
		for i, v := range x {
			d[i] = v * -1
		}
		return
	case opScale:
		x, s := a.chunk(scratch, lo, hi), k.s
		d = d[:len(x)]
		for i, v := range x {
			d[i] = v * s
		}
		return
	case opCall:
		x := a.chunk(scratch, lo, hi)
		d = d[:len(x)]
		if k.name == "abs" {
			for i, v := range x {
				d[i] = math.Abs(v)
			}
		} else {
			for i, v := range x {
				d[i] = math.Sqrt(v)
			}
		}
		return
	}
	b := k.kids[1]
	switch {
	case b.scalar:
		binaryScalarRight(k.op, d, a.chunk(scratch, lo, hi), b.s)
	case a.scalar:
		binaryScalarLeft(k.op, d, a.s, b.chunk(scratch, lo, hi))
	default:
		x, y := a.chunk(scratch, lo, hi), b.chunk(scratch, lo, hi)
		x, y = x[:len(d)], y[:len(d)]
		switch k.op {
		case opAdd:
			for i := range d {
				d[i] = x[i] + y[i]
			}
		case opSub:
			for i := range d {
				d[i] = x[i] - y[i]
			}
		case opEMul:
			for i := range d {
				d[i] = x[i] * y[i]
			}
		case opEDiv:
			for i := range d {
				d[i] = x[i] / y[i]
			}
		}
	}
}

// binaryScalarRight is x op y for a 1x1 y, as elementwise computes it:
// through Scale (by 1/y for a division) or AddScalar (of -y for a
// subtraction).
func binaryScalarRight(op opKind, d, x []float64, y float64) {
	d = d[:len(x)]
	switch op {
	case opEMul:
		for i, v := range x {
			d[i] = v * y
		}
	case opEDiv:
		r := 1 / y
		for i, v := range x {
			d[i] = v * r
		}
	case opAdd:
		for i, v := range x {
			d[i] = v + y
		}
	case opSub:
		ny := -y
		for i, v := range x {
			d[i] = v + ny
		}
	}
}

// binaryScalarLeft is x op y for a 1x1 x, as elementwise computes it:
// Scale or AddScalar for * and + (which commute, bit for bit), the
// operator itself for - and /.
func binaryScalarLeft(op opKind, d []float64, x float64, y []float64) {
	d = d[:len(y)]
	switch op {
	case opEMul, opAdd:
		binaryScalarRight(op, d, y, x)
	case opSub:
		for i, v := range y {
			d[i] = x - v
		}
	case opEDiv:
		for i, v := range y {
			d[i] = x / v
		}
	}
}

// parentsOf returns the parent counts of a segment's statements: counted
// once per cached plan, since a loop runs the same plan every iteration,
// and afresh for statements lowered without a plan.
func (in *interp) parentsOf(stmts []*planStmt, planned bool) map[*pnode]int {
	if planned && len(stmts) > 0 {
		if p, ok := in.parents[stmts[0]]; ok {
			return p
		}
	}
	roots := make([]*pnode, len(stmts))
	for i, ps := range stmts {
		roots[i] = ps.root
	}
	p := countParents(roots)
	if planned && len(stmts) > 0 {
		if in.parents == nil {
			in.parents = make(map[*planStmt]map[*pnode]int)
		}
		in.parents[stmts[0]] = p
	}
	return p
}

// countParents counts, for every node reachable from the roots, how many
// parent edges (and statement roots) lead to it.
func countParents(roots []*pnode) map[*pnode]int {
	parents := make(map[*pnode]int)
	var walk func(n *pnode)
	walk = func(n *pnode) {
		for _, a := range n.args {
			parents[a]++
			if parents[a] == 1 {
				walk(a)
			}
		}
	}
	for _, r := range roots {
		parents[r]++
		if parents[r] == 1 {
			walk(r)
		}
	}
	return parents
}
