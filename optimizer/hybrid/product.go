package hybrid

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Mode is how a loop evaluates its products.
type Mode uint8

const (
	// ModeHybrid chooses full or incremental evaluation per iteration.
	ModeHybrid Mode = iota
	// ModeFull computes M·x in full every iteration.
	ModeFull
	// ModeIncremental propagates only the changed entries after the first
	// iteration, which must be full to give the incremental steps a base.
	ModeIncremental
)

func (m Mode) String() string {
	switch m {
	case ModeHybrid:
		return "hybrid"
	case ModeFull:
		return "full"
	case ModeIncremental:
		return "incremental"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode reads 'hybrid', 'full' or 'incremental' (any case).
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{ModeHybrid, ModeFull, ModeIncremental} {
		if strings.EqualFold(strings.TrimSpace(s), m.String()) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%w: '%s' (want 'hybrid', 'full' or 'incremental')", ErrMode, s)
}

// Reorg is the policy for reorganising M's column blocks.
type Reorg uint8

const (
	// ReorgAuto reorders columns by observed convergence (the units active
	// most recently first) when the cost model says the one-time copy pays
	// off over the estimated remaining iterations.
	ReorgAuto Reorg = iota
	// ReorgNever keeps the natural column order.
	ReorgNever
	// ReorgDegree orders columns once, before the first iteration, by a
	// structural proxy (Options.Proxy, else the column's entry count),
	// highest first; ReorgAuto's observed reordering may follow.
	ReorgDegree
)

// Options tune a Product; the zero value means the defaults.
type Options struct {
	Mode  Mode
	Reorg Reorg
	// BlockSize is the number of units (entries of x, or rows of x when
	// it has several columns) per column block of M. A block is the unit
	// of work of incremental evaluation: it is scanned whole when any of
	// its units is active, as a task would be in a blocked layout.
	BlockSize int
	// Proxy is a per-unit priority for ReorgDegree (higher goes first).
	Proxy []float64
	// Costs overrides the calibrated constants (tests use this for
	// deterministic decisions); nil means Calibrated().
	Costs *Costs
	// CompareEvery bounds how many iterations pass in the full regime
	// without comparing the two modes; CompareDrop is the factor by which
	// the loop's change must shrink to trigger a comparison sooner.
	CompareEvery int
	CompareDrop  float64
	// MaxReorgs bounds reorganisations per product.
	MaxReorgs int
}

func (o Options) withDefaults() Options {
	if o.BlockSize <= 0 {
		o.BlockSize = 512
	}
	if o.CompareEvery <= 0 {
		o.CompareEvery = 8
	}
	if o.CompareDrop <= 0 || o.CompareDrop >= 1 {
		o.CompareDrop = 0.3
	}
	if o.MaxReorgs <= 0 {
		o.MaxReorgs = 3
	}
	return o
}

// Step is what one evaluation of a product did: one row of the trace.
type Step struct {
	Iteration      int
	Mode           Mode    // how the product was evaluated
	Compared       bool    // whether the cost model compared the modes
	ActiveFraction float64 // units propagated / units; -1 when not measured
	BlocksTouched  int     // column blocks read; all of them in full mode
	Blocks         int
	EstFull        float64 // estimated cost of full evaluation, ns
	EstIncremental float64 // estimated cost of incremental evaluation, ns; -1 unknown
	Measured       time.Duration
	Reorganised    bool    // the column layout was reorganised after this step
	Threshold      float64 // residual magnitude below which a unit was carried
	Change         float64 // the loop's change norm that went into this step
	// Sampled says ActiveFraction and EstIncremental were estimated from
	// a sample of x, which showed incremental evaluation not worth a pass.
	Sampled bool
}

// Product keeps y = M·x̂ current while x moves, where x̂ = x − r and the
// residual r holds, per unit, the part of the change not yet propagated
// because it stayed under the threshold. Every change ends up either in y
// or in r, so incremental evaluation never drops mass; the error of y is
// M·r, bounded by the threshold times M's column sums.
type Product struct {
	m     *CSR // row-major M for full evaluation
	w     int  // columns of x
	opt   Options
	costs Costs

	// M column-major, blocked and possibly permuted: position p holds
	// unit order[p], whose entries are colInd/colVal[colPtr[p]:colPtr[p+1]].
	order   []int32
	posOf   []int32
	blockOf []int32
	colPtr  []int
	colInd  []int32
	colVal  []float64
	colNnz  []int32 // entries of each unit's column, by unit
	rowSums []float64

	// xs is x scaled by M.ColumnScale(), when full evaluation of a vector
	// reads M's pattern alone.
	xs []float64

	y, r       []float64
	rZero      bool
	lastActive []int32
	blockMax   []float64 // largest residual magnitude per block, this step
	hist       struct {  // residual magnitudes by binary exponent
		mass  [2048]float64
		count [2048]int32
		nnz   [2048]int32
	}

	k      int  // steps taken
	regime Mode // the mode hybrid evaluation currently keeps
	cmp    struct {
		k      int
		change float64
		frac   float64
		streak int // clear sampled comparisons in a row (compareDue)
	}
	corr   [2]float64 // measured/estimated ratios: full, incremental
	reorgs int
}

// NewProduct prepares M for evaluation against x of M.Cols×w.
func NewProduct(m *CSR, w int, opt Options) (*Product, error) {
	if w <= 0 {
		return nil, fmt.Errorf("%w: width %d", ErrShape, w)
	}
	opt = opt.withDefaults()
	p := &Product{m: m, w: w, opt: opt, corr: [2]float64{1, 1}}
	if opt.Costs != nil {
		p.costs = *opt.Costs
	} else {
		p.costs = Calibrated()
	}
	if opt.Proxy != nil && len(opt.Proxy) != m.Cols {
		return nil, fmt.Errorf("%w: proxy has %d entries for %d columns", ErrShape, len(opt.Proxy), m.Cols)
	}
	p.y = make([]float64, m.Rows*w)
	p.rZero = true
	return p, nil
}

// ensureStats prepares what the residual pass needs (per-column counts,
// block membership, the residual), cheap next to the column copy; it runs
// at the first comparison.
func (p *Product) ensureStats() {
	if p.colNnz != nil {
		return
	}
	n := p.m.Cols
	p.colNnz = make([]int32, n)
	for _, c := range p.m.Ind {
		p.colNnz[c]++
	}
	p.order = make([]int32, n)
	p.posOf = make([]int32, n)
	for i := range n {
		p.order[i], p.posOf[i] = int32(i), int32(i)
	}
	p.blockOf = make([]int32, n)
	p.setBlocks()
	p.r = make([]float64, n*p.w)
	p.lastActive = make([]int32, n)
	for i := range p.lastActive {
		p.lastActive[i] = -1
	}
}

// ensureColumns builds the column-major blocked copy of M on the first
// incremental step, so full evaluation never pays for it; the cost model
// charges it to that step.
func (p *Product) ensureColumns() {
	p.ensureStats()
	if p.colPtr != nil {
		return
	}
	opt := p.opt
	t := p.m.T()
	p.colPtr, p.colInd, p.colVal = t.Ptr, t.Ind, t.Val
	if opt.Reorg == ReorgDegree {
		key := func(i int32) float64 { return float64(p.colNnz[i]) }
		if opt.Proxy != nil {
			key = func(i int32) float64 { return opt.Proxy[i] }
		}
		order := slices.Clone(p.order)
		slices.SortStableFunc(order, func(a, b int32) int {
			ka, kb := key(a), key(b)
			switch {
			case ka > kb:
				return -1
			case ka < kb:
				return 1
			}
			return 0
		})
		p.relayout(order)
		// The pass measured blocks in the old layout; this step's
		// scatter reads the new one.
		w := p.w
		for i := range p.m.Cols {
			b := p.blockOf[i]
			for _, v := range p.r[i*w : i*w+w] {
				p.blockMax[b] = max(p.blockMax[b], math.Abs(v))
			}
		}
	}
}

func (p *Product) blocks() int { return (p.m.Cols + p.opt.BlockSize - 1) / p.opt.BlockSize }

func (p *Product) setBlocks() {
	b := int32(p.opt.BlockSize)
	for pos, i := range p.order {
		p.blockOf[i] = int32(pos) / b
	}
	p.blockMax = make([]float64, p.blocks())
}

// Reorganisations is how many times the layout was reorganised.
func (p *Product) Reorganisations() int { return p.reorgs }

// Start evaluates y = M·x in full and makes x the reference point of the
// following Steps. The returned slice is owned by the Product and is
// overwritten by the next Step.
func (p *Product) Start(x []float64) ([]float64, Step) {
	t0 := time.Now()
	p.full(x)
	st := Step{Iteration: p.k + 1, Mode: ModeFull, ActiveFraction: -1, BlocksTouched: p.blocks(),
		Blocks: p.blocks(), EstFull: p.estFull(), EstIncremental: -1, Measured: time.Since(t0)}
	p.k++
	return p.y, st
}

// Delta describes one move of x for Step.
type Delta struct {
	Prev, Next []float64 // x before and after
	// Shift is a scalar the caller knows to be the common part of
	// Next−Prev (PageRank's teleport and dangling term); it is applied
	// exactly through M's row sums, so a change that touches every entry
	// by the same amount does not make every unit active. Any value is
	// correct; only speed depends on it.
	Shift float64
	// Budget is the ℓ1 mass of residual the step may leave unpropagated;
	// the product's error is M·r, so its ℓ1 norm is at most the budget
	// times M's largest column sum.
	Budget float64
	// Change is the loop's norm of Next−Prev; hybrid evaluation uses its
	// drop as the cheap signal that the active set may have moved.
	Change float64
	// Remaining estimates the iterations left, for reorganisation.
	Remaining int
}

// Step moves the product from d.Prev to d.Next and returns y ≈ M·d.Next.
func (p *Product) Step(d Delta) ([]float64, Step) {
	t0 := time.Now()
	st := Step{Iteration: p.k + 1, ActiveFraction: -1, BlocksTouched: -1, Blocks: p.blocks(),
		EstFull: p.estFull(), EstIncremental: -1, Change: d.Change}
	p.k++
	mode := p.opt.Mode
	if mode == ModeHybrid && p.regime == ModeFull && !p.compareDue(d.Change) {
		// Selective comparison: in the full regime the statistics cost a
		// pass over x, so they are gathered only when the change has
		// dropped enough, or often enough, for the answer to differ.
		mode = ModeFull
	}
	if mode == ModeHybrid && p.regime != ModeIncremental {
		// A comparison outside the incremental regime first looks at a
		// sample of x: a whole pass (and, the first time, counting M's
		// columns) costs a good part of a full product, and most
		// comparisons early in a loop only confirm full evaluation.
		frac, est := p.sampledIncremental(d)
		if est > sampleMargin*st.EstFull {
			st.Compared, st.Sampled, st.ActiveFraction, st.EstIncremental = true, true, frac, est
			p.regime = ModeFull
			p.cmp.k, p.cmp.change, p.cmp.frac = p.k, d.Change, frac
			mode = ModeFull
		}
		if est > clearMargin*st.EstFull {
			p.cmp.streak = min(p.cmp.streak+1, maxStreak)
		} else {
			p.cmp.streak = 0
		}
	}
	if mode == ModeFull {
		p.full(d.Next)
		if !p.rZero {
			clear(p.r)
			p.rZero = true
		}
		st.Mode, st.BlocksTouched = ModeFull, p.blocks()
		st.Measured = time.Since(t0)
		p.learn(0, st.Measured, st.EstFull)
		return p.y, st
	}
	p.ensureStats()
	active, activeNnz, touched, th := p.pass(d)
	st.Threshold = th
	n := float64(p.m.Cols)
	st.ActiveFraction = float64(active) / n
	st.BlocksTouched = touched
	st.EstIncremental = p.estIncremental(activeNnz, touched, d.Shift != 0)
	chosen := ModeIncremental
	if mode == ModeHybrid {
		frac := st.ActiveFraction
		moved := p.regime == ModeFull || p.k <= 2 || math.Abs(frac-p.cmp.frac) > 0.02 ||
			frac < p.cmp.frac/1.5 || frac > p.cmp.frac*1.5
		chosen = p.regime
		if moved {
			st.Compared = true
			// Total costs, the pass included: the choice sets the regime,
			// and staying incremental means paying the pass every step.
			if st.EstIncremental < st.EstFull {
				chosen = ModeIncremental
			} else {
				chosen = ModeFull
			}
			p.regime = chosen
			p.cmp.k, p.cmp.change, p.cmp.frac = p.k, d.Change, frac
		}
	}
	if chosen == ModeFull {
		t1 := time.Now()
		p.full(d.Next)
		p.learn(0, time.Since(t1), st.EstFull)
		clear(p.r)
		p.rZero = true
		st.Mode, st.BlocksTouched = ModeFull, p.blocks()
		st.Measured = time.Since(t0)
		return p.y, st
	}
	p.ensureColumns()
	p.scatter(d, th)
	p.rZero = false
	st.Mode = ModeIncremental
	st.Measured = time.Since(t0)
	p.learn(1, st.Measured, st.EstIncremental)
	if p.opt.Reorg != ReorgNever && p.reorgs < p.opt.MaxReorgs && p.paysToReorganise(active, touched, d.Remaining) {
		p.reorganise()
		st.Reorganised = true
	}
	return p.y, st
}

// clearMargin is how many times dearer than full evaluation a sampled
// estimate must be for the comparison to count as clear, and maxStreak
// bounds how far clear comparisons in a row space out the next.
const (
	clearMargin = 2
	maxStreak   = 3
)

// compareDue reports whether, in the full regime, the next comparison is
// due: after CompareEvery steps, or once the loop's change has dropped by
// CompareDrop since the last one. Each clear comparison in a row doubles
// the steps and takes the drop to the next power, so a loop
// that full evaluation wins throughout (most of PageRank's on a small or
// dense graph) pays for a few samples rather than one every other step,
// where a sample costs a sixth of a small graph's product.
func (p *Product) compareDue(change float64) bool {
	every := p.opt.CompareEvery << p.cmp.streak
	drop := math.Pow(p.opt.CompareDrop, float64(1+p.cmp.streak))
	return p.k-p.cmp.k >= every || change <= p.cmp.change*drop
}

// learn folds a measured step into the per-mode correction of the
// calibrated estimates, so the model follows the real matrix's cache
// behaviour rather than the calibration matrix's.
func (p *Product) learn(mode int, took time.Duration, est float64) {
	if est <= 0 {
		return
	}
	ratio := float64(took.Nanoseconds()) / (est / p.corr[mode])
	ratio = min(max(ratio, 0.1), 10)
	p.corr[mode] = 0.7*p.corr[mode] + 0.3*ratio
}

func (p *Product) estFull() float64 {
	c := p.costs
	return p.corr[0] * (c.GatherNNZ*float64(p.m.NNZ()*p.w) + c.GatherRow*float64(p.m.Rows))
}

// sampledIncremental reads about one unit in sampleShare, but at least
// minSampleUnits and at most maxSampleUnits of them (fewer when x has
// fewer), so that a sample costs a few percent of a pass on a small
// graph, where a fixed 2,048 units cost a third of one and, at a
// comparison every few steps, 6–10 % of the whole loop (wiki-Vote).
// sampleMargin is how much dearer than full evaluation its estimate must
// be for the comparison to stop there rather than make a whole pass.
const (
	sampleShare    = 32
	minSampleUnits = 256
	maxSampleUnits = 2048
	sampleMargin   = 0.9
)

// sampledIncremental estimates from every stride-th unit what a pass
// would find in the full regime, where the residual is zero and a unit's
// residual is its change: the active fraction under the budget and the
// incremental estimate built from it, with the touched blocks
// extrapolated as if active units were spread evenly. The active units'
// entries are counted from the sample once a pass has counted M's
// columns: units that still change are seldom of average degree (in
// PageRank they are the ones much rank flows through), and taking them
// as average made the estimate low enough to send comparisons on to a
// whole pass that then chose full evaluation after all. Before that they
// are taken as average.
func (p *Product) sampledIncremental(d Delta) (frac, est float64) {
	n, w := p.m.Cols, p.w
	units := min(max(n/sampleShare, minSampleUnits), maxSampleUnits)
	stride := max(1, n/units)
	h := &p.hist
	clear(h.mass[:])
	clear(h.count[:])
	clear(h.nnz[:])
	sampled := 0
	for i := 0; i < n; i += stride {
		var a, mass float64
		for c := 0; c < w; c++ {
			v := math.Abs(d.Next[i*w+c] - d.Prev[i*w+c] - d.Shift)
			a = max(a, v)
			mass += v
		}
		e := math.Float64bits(a) >> 52
		h.mass[e] += mass
		h.count[e]++
		if p.colNnz != nil {
			h.nnz[e] += p.colNnz[i]
		}
		sampled++
	}
	scale := float64(n) / float64(sampled)
	cut, carried := 1, h.mass[0]*scale
	for ; cut < len(h.mass); cut++ {
		if carried+h.mass[cut]*scale > d.Budget {
			break
		}
		carried += h.mass[cut] * scale
	}
	active, activeNnz := 0.0, 0.0
	for e := cut; e < len(h.mass); e++ {
		active += float64(h.count[e])
		activeNnz += float64(h.nnz[e])
	}
	frac = active / float64(sampled)
	if p.colNnz != nil {
		activeNnz *= scale
	} else {
		activeNnz = frac * float64(p.m.NNZ())
	}
	blocks := float64(p.blocks())
	touched := blocks * (1 - math.Pow(1-frac, float64(p.opt.BlockSize)))
	return frac, p.estIncremental(int(activeNnz), int(math.Ceil(touched)), d.Shift != 0)
}

func (p *Product) estIncremental(activeNnz, touched int, shift bool) float64 {
	c := p.costs
	e := c.PassUnit*float64(p.m.Cols*p.w) + c.ScatterNNZ*float64(activeNnz*p.w) +
		float64(touched)*(c.Block+c.ScanUnit*float64(p.opt.BlockSize))
	if shift {
		e += c.PassUnit * float64(p.m.Rows*p.w)
	}
	if p.colPtr == nil {
		e += c.ReorgNNZ * float64(p.m.NNZ()+p.m.Cols)
	}
	return p.corr[1] * e
}

func (p *Product) full(x []float64) {
	var scale []float64
	if p.w == 1 {
		scale = p.m.ColumnScale()
	}
	if scale == nil {
		p.m.MulVec(x, p.y, p.w)
		return
	}
	if p.xs == nil {
		p.xs = make([]float64, len(scale))
	}
	for c, s := range scale {
		p.xs[c] = s * x[c]
	}
	p.m.MulPattern(p.xs, p.y)
}

// pass adds Next−Prev−Shift to the residual and picks the threshold: the
// largest power of two such that the units whose residual is below it
// together carry at most d.Budget. Residual magnitudes are histogrammed by
// binary exponent (one bucket per exponent, no sorting), and each block
// keeps its largest residual so that blocks under the threshold are
// skipped without looking at their units.
func (p *Product) pass(d Delta) (active, activeNnz, touched int, th float64) {
	h := &p.hist
	clear(h.mass[:])
	clear(h.count[:])
	clear(h.nnz[:])
	clear(p.blockMax)
	sh, w := d.Shift, p.w
	r, prev, next := p.r, d.Prev, d.Next
	for i := 0; i < p.m.Cols; i++ {
		var a, mass float64
		if w == 1 {
			ri := r[i] + (next[i] - prev[i] - sh)
			r[i] = ri
			a = math.Abs(ri)
			mass = a
		} else {
			ri := r[i*w : i*w+w]
			pi, ni := prev[i*w:i*w+w], next[i*w:i*w+w]
			for c := range ri {
				v := ri[c] + (ni[c] - pi[c] - sh)
				ri[c] = v
				v = math.Abs(v)
				a = max(a, v)
				mass += v
			}
		}
		e := math.Float64bits(a) >> 52
		h.mass[e] += mass
		h.count[e]++
		h.nnz[e] += p.colNnz[i]
		if b := p.blockOf[i]; a > p.blockMax[b] {
			p.blockMax[b] = a
		}
	}
	// Exponent 0 holds zeros (and subnormals, which carry no mass worth
	// a multiplication); the cut is the first exponent whose bucket
	// would overflow the budget.
	cut, carried := 1, h.mass[0]
	for ; cut < len(h.mass); cut++ {
		if carried+h.mass[cut] > d.Budget {
			break
		}
		carried += h.mass[cut]
	}
	if cut >= len(h.mass) {
		return 0, 0, 0, math.Inf(1)
	}
	th = math.Float64frombits(uint64(cut) << 52)
	for e := cut; e < len(h.mass); e++ {
		active += int(h.count[e])
		activeNnz += int(h.nnz[e])
	}
	for _, m := range p.blockMax {
		if m >= th {
			touched++
		}
	}
	return active, activeNnz, touched, th
}

// scatter propagates the units at or over the threshold into y and clears
// their residual; the shift goes in through the row sums.
func (p *Product) scatter(d Delta, th float64) {
	w := p.w
	y, r := p.y, p.r
	if d.Shift != 0 {
		if p.rowSums == nil {
			p.rowSums = make([]float64, p.m.Rows)
			for row := range p.rowSums {
				for q := p.m.Ptr[row]; q < p.m.Ptr[row+1]; q++ {
					p.rowSums[row] += p.m.Val[q]
				}
			}
		}
		for row, s := range p.rowSums {
			if w == 1 {
				y[row] += d.Shift * s
				continue
			}
			for c := range w {
				y[row*w+c] += d.Shift * s
			}
		}
	}
	bs := p.opt.BlockSize
	k := int32(p.k)
	for b, bm := range p.blockMax {
		if bm < th {
			continue
		}
		end := min((b+1)*bs, p.m.Cols)
		for pos := b * bs; pos < end; pos++ {
			i := int(p.order[pos])
			lo, hi := p.colPtr[pos], p.colPtr[pos+1]
			if w == 1 {
				ri := r[i]
				if ri < th && ri > -th {
					continue
				}
				for q := lo; q < hi; q++ {
					y[p.colInd[q]] += p.colVal[q] * ri
				}
				r[i] = 0
				p.lastActive[i] = k
				continue
			}
			ri := r[i*w : i*w+w]
			big := false
			for _, v := range ri {
				big = big || v >= th || v <= -th
			}
			if !big {
				continue
			}
			for q := lo; q < hi; q++ {
				v, row := p.colVal[q], int(p.colInd[q])
				yr := y[row*w : row*w+w]
				for c := range yr {
					yr[c] += v * ri[c]
				}
			}
			clear(ri)
			p.lastActive[i] = k
		}
	}
}

// paysToReorganise compares the one-time cost of copying M's columns into
// a new order with what the remaining iterations would save if the active
// units sat in as few blocks as they need.
func (p *Product) paysToReorganise(active, touched, remaining int) bool {
	if remaining <= 1 || active == 0 {
		return false
	}
	bs := p.opt.BlockSize
	ideal := (active+bs-1)/bs + 1
	if touched < 2*ideal {
		return false
	}
	c := p.costs
	perIter := p.corr[1] * float64(touched-ideal) * (c.Block + c.ScanUnit*float64(bs))
	once := c.ReorgNNZ * float64(p.m.NNZ()+p.m.Cols)
	return perIter*float64(remaining) > 2*once
}

// reorganise orders units by the step in which they were last active,
// most recent first: convergence is roughly monotone per unit, so the
// units active now are the ones most likely active next.
func (p *Product) reorganise() {
	n := p.m.Cols
	buckets := make([]int, p.k+2)
	for _, la := range p.lastActive {
		buckets[int(la)+1]++
	}
	// Prefix sums from the most recent step down give each key's start.
	start := make([]int, len(buckets))
	at := 0
	for key := len(buckets) - 1; key >= 0; key-- {
		start[key] = at
		at += buckets[key]
	}
	order := make([]int32, n)
	for _, i := range p.order { // stable: keeps the current order within a key
		key := int(p.lastActive[i]) + 1
		order[start[key]] = i
		start[key]++
	}
	p.relayout(order)
	p.reorgs++
}

// relayout copies M's columns into the given unit order.
func (p *Product) relayout(order []int32) {
	ptr := make([]int, len(order)+1)
	ind := make([]int32, len(p.colInd))
	val := make([]float64, len(p.colVal))
	at := 0
	for pos, i := range order {
		old := p.posOf[i]
		lo, hi := p.colPtr[old], p.colPtr[old+1]
		copy(ind[at:], p.colInd[lo:hi])
		copy(val[at:], p.colVal[lo:hi])
		at += hi - lo
		ptr[pos+1] = at
	}
	for pos, i := range order {
		p.posOf[i] = int32(pos)
	}
	p.order, p.colPtr, p.colInd, p.colVal = order, ptr, ind, val
	p.setBlocks()
}
