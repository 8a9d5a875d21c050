package hybrid

import (
	"math/rand/v2"
	"sync"
	"time"
)

// Costs are the cost model's constants, in nanoseconds per unit of work.
// They are measured, not guessed: Calibrate times the package's own
// kernels on a synthetic matrix, and each Product then corrects them by
// the times it measures on the real one.
type Costs struct {
	GatherNNZ  float64 // full evaluation, per stored entry × column of x
	GatherRow  float64 // full evaluation, per output row
	PassUnit   float64 // incremental bookkeeping: residual update per entry of x
	ScanUnit   float64 // per unit scanned in a touched block
	Block      float64 // per touched block
	ScatterNNZ float64 // incremental propagation, per entry × column
	ReorgNNZ   float64 // reorganisation, per stored entry (and per unit)
}

var calibration struct {
	once  sync.Once
	costs Costs
}

// Calibrated returns this machine's constants, measuring them at first use
// (a few tens of milliseconds) and caching them for the process.
func Calibrated() Costs {
	calibration.once.Do(func() { calibration.costs = Calibrate() })
	return calibration.costs
}

// Calibrate times the kernels on a random sparse matrix the size of a
// mid-range cache-resident-to-memory-bound workload, taking the fastest of
// a few repetitions so that a busy machine's interruptions count less.
func Calibrate() Costs {
	const n, perCol = 1 << 15, 10
	rng := rand.New(rand.NewPCG(1, 2))
	is := make([]int32, 0, n*perCol)
	js := make([]int32, 0, n*perCol)
	vs := make([]float64, 0, n*perCol)
	for j := 0; j < n; j++ {
		for range perCol {
			is = append(is, int32(rng.IntN(n)))
			js = append(js, int32(j))
			vs = append(vs, rng.Float64())
		}
	}
	m, err := NewCSR(n, n, is, js, vs)
	if err != nil {
		panic(err) // the triples above are in range by construction
	}
	fixed := Costs{GatherNNZ: 1, GatherRow: 1, PassUnit: 1, ScanUnit: 1, Block: 1, ScatterNNZ: 1, ReorgNNZ: 1}
	p, err := NewProduct(m, 1, Options{Costs: &fixed, Reorg: ReorgNever, BlockSize: 512})
	if err != nil {
		panic(err)
	}
	x := make([]float64, n)
	next := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()
		next[i] = x[i]
	}
	nnz := float64(m.NNZ())
	best := func(f func()) float64 {
		b := time.Duration(1 << 62)
		for range 5 {
			t0 := time.Now()
			f()
			b = min(b, time.Since(t0))
		}
		return float64(b.Nanoseconds())
	}
	var c Costs
	p.ensureColumns()
	full := best(func() { p.full(x) })
	// Rows cost about as much as a few entries; split by a second run on
	// an empty matrix of the same shape.
	empty := &CSR{Rows: n, Cols: n, Ptr: make([]int, n+1)}
	c.GatherRow = best(func() { empty.MulVec(x, p.y, 1) }) / n
	c.GatherNNZ = max(full-c.GatherRow*n, 0) / nnz
	// No unit over an infinite threshold: the pass alone.
	quiet := Delta{Prev: x, Next: next, Budget: 1e300}
	c.PassUnit = best(func() { p.pass(quiet) }) / n
	// Every block marked touched with nothing active: the scan alone.
	scanAll := func() {
		p.ensureColumns()
		for b := range p.blockMax {
			p.blockMax[b] = 3
		}
		p.scatter(quiet, 2)
	}
	c.ScanUnit = best(scanAll) / n
	c.Block = c.ScanUnit * 4
	// Everything active: scan plus propagation of every entry.
	for i := range next {
		next[i] = x[i] + 1
	}
	all := Delta{Prev: x, Next: next}
	c.ScatterNNZ = max(best(func() {
		for i := range p.r {
			p.r[i] = 1
		}
		for b := range p.blockMax {
			p.blockMax[b] = 1
		}
		p.scatter(all, 0.5)
	})-c.ScanUnit*n, 0) / nnz
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(n - 1 - i)
	}
	c.ReorgNNZ = best(func() { p.relayout(order) }) / (nnz + n)
	// A timer tick or a kernel's rounding to zero must not make any work
	// look free.
	for _, v := range []*float64{&c.GatherNNZ, &c.GatherRow, &c.PassUnit, &c.ScanUnit, &c.Block, &c.ScatterNNZ, &c.ReorgNNZ} {
		*v = max(*v, 0.05)
	}
	return c
}
