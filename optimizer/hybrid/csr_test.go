package hybrid

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestNewCSRSumsDuplicatesAndTransposes(t *testing.T) {
	m, err := NewCSR(2, 3, []int32{1, 0, 1, 1}, []int32{2, 1, 0, 2}, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	dense := func(m *CSR) [][]float64 {
		d := make([][]float64, m.Rows)
		for r := range d {
			d[r] = make([]float64, m.Cols)
			for p := m.Ptr[r]; p < m.Ptr[r+1]; p++ {
				d[r][m.Ind[p]] += m.Val[p]
			}
		}
		return d
	}
	want := [][]float64{{0, 2, 0}, {3, 0, 5}}
	got := dense(m)
	for r := range want {
		for c := range want[r] {
			if got[r][c] != want[r][c] || dense(m.T())[c][r] != want[r][c] {
				t.Fatalf("got %v, transpose %v, want %v", got, dense(m.T()), want)
			}
		}
	}
	if m.NNZ() != 3 {
		t.Fatalf("nnz %d, want 3 after folding the duplicate", m.NNZ())
	}
	for _, bad := range [][2]int32{{2, 0}, {0, 3}, {-1, 0}} {
		if _, err := NewCSR(2, 3, []int32{bad[0]}, []int32{bad[1]}, []float64{1}); err == nil {
			t.Errorf("entry %v accepted", bad)
		}
	}
}

func randomCSR(rng *rand.Rand, rows, cols, nnz int) *CSR {
	is, js, vs := make([]int32, nnz), make([]int32, nnz), make([]float64, nnz)
	for k := range is {
		is[k], js[k], vs[k] = int32(rng.IntN(rows)), int32(rng.IntN(cols)), rng.Float64()
	}
	m, err := NewCSR(rows, cols, is, js, vs)
	if err != nil {
		panic(err)
	}
	return m
}

// TestProductInvariant drives a Product through random moves in every
// mode and layout and checks its invariant: y = M·(x − r) to rounding,
// with the carried residual within the budget.
func TestProductInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	costs := Costs{GatherNNZ: 1, GatherRow: 1, PassUnit: 1, ScanUnit: 1, Block: 1, ScatterNNZ: 1, ReorgNNZ: 0.01}
	for _, w := range []int{1, 3} {
		for _, mode := range []Mode{ModeHybrid, ModeFull, ModeIncremental} {
			for _, reorg := range []Reorg{ReorgAuto, ReorgNever, ReorgDegree} {
				m := randomCSR(rng, 300, 400, 3000)
				p, err := NewProduct(m, w, Options{Mode: mode, Reorg: reorg, BlockSize: 16, Costs: &costs})
				if err != nil {
					t.Fatal(err)
				}
				x := make([]float64, 400*w)
				for i := range x {
					x[i] = rng.Float64()
				}
				p.Start(x)
				for k := 0; k < 30; k++ {
					next := append([]float64(nil), x...)
					// Moves shrink and concentrate, as in a converging loop.
					for i := range next {
						if rng.Float64() < 0.3/float64(k+1) {
							next[i] += rng.NormFloat64() / float64(k+1)
						}
					}
					shift := 0.0
					if k%3 == 0 {
						shift = 1e-3
						for i := range next {
							next[i] += shift
						}
					}
					budget := 1e-3
					y, st := p.Step(Delta{Prev: x, Next: next, Shift: shift, Budget: budget, Change: 1 / float64(k+1), Remaining: 30 - k})
					x = next
					xhat := make([]float64, len(x))
					carried := 0.0
					for i := range x {
						xhat[i] = x[i]
						if p.r != nil { // no incremental step yet
							xhat[i] -= p.r[i]
							carried += math.Abs(p.r[i])
						}
					}
					if carried > budget*(1+1e-9) {
						t.Fatalf("w=%d %s reorg=%d step %d: carried %g over the budget %g", w, mode, reorg, k, carried, budget)
					}
					want := make([]float64, 300*w)
					m.MulVec(xhat, want, w)
					for i := range want {
						if math.Abs(want[i]-y[i]) > 1e-9*(1+math.Abs(want[i])) {
							t.Fatalf("w=%d %s reorg=%d step %d (%s): y[%d] = %g, M·x̂ = %g", w, mode, reorg, k, st.Mode, i, y[i], want[i])
						}
					}
					if mode == ModeFull && st.Mode != ModeFull || mode == ModeIncremental && st.Mode != ModeIncremental {
						t.Fatalf("mode %s ran a %s step", mode, st.Mode)
					}
				}
			}
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"hybrid", "FULL", " Incremental "} {
		if _, err := ParseMode(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseMode("fast"); err == nil {
		t.Error("'fast' accepted")
	}
}

// TestMulPatternIsMulVec checks that a matrix whose columns each hold one
// value multiplies through its pattern to exactly MulVec's result, on one
// core and on all, and that a matrix without that property has no scale.
func TestMulPatternIsMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{50, 3000} {
		m := randomCSR(rng, size, size, 40*size)
		if m.ColumnScale() != nil {
			t.Fatalf("%d: random values have a column scale", size)
		}
		scale := make([]float64, size)
		for c := range scale {
			scale[c] = 1 / float64(1+rng.IntN(9))
		}
		// A new matrix: a CSR's column scale is kept once asked for.
		m = &CSR{Rows: m.Rows, Cols: m.Cols, Ptr: m.Ptr, Ind: m.Ind, Val: make([]float64, len(m.Val))}
		for p, c := range m.Ind {
			m.Val[p] = scale[c]
		}
		s := m.ColumnScale()
		if s == nil {
			t.Fatalf("%d: no column scale found", size)
		}
		x := make([]float64, size)
		xs := make([]float64, size)
		for i := range x {
			x[i] = rng.NormFloat64()
			xs[i] = s[i] * x[i]
		}
		want, got := make([]float64, size), make([]float64, size)
		m.MulVec(x, want, 1)
		m.MulPattern(xs, got)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%d: row %d: %v by pattern, %v by values", size, i, got[i], want[i])
			}
			// Against one running sum, which adds the terms in another
			// order: equal to rounding.
			naive, abs := 0.0, 0.0
			for p := m.Ptr[i]; p < m.Ptr[i+1]; p++ {
				naive += m.Val[p] * x[m.Ind[p]]
				abs += math.Abs(m.Val[p] * x[m.Ind[p]])
			}
			if math.Abs(naive-want[i]) > 1e-14*abs {
				t.Fatalf("%d: row %d: %v, one running sum gives %v", size, i, want[i], naive)
			}
		}
	}
}

// TestHybridSpacesOutClearComparisons: while full evaluation wins by a
// wide margin, hybrid evaluation compares the modes a few times rather
// than every time the change drops by CompareDrop; once the active set
// shrinks so that incremental evaluation wins, the change drops with it
// and the next comparison comes at once and switches.
func TestHybridSpacesOutClearComparisons(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 4000
	m := randomCSR(rng, n, n, 40000)
	costs := Costs{GatherNNZ: 1, GatherRow: 1, PassUnit: 0.1, ScanUnit: 0.1, Block: 1, ScatterNNZ: 50, ReorgNNZ: 0.01}
	p, err := NewProduct(m, 1, Options{Mode: ModeHybrid, Reorg: ReorgNever, BlockSize: 16, Costs: &costs})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()
	}
	p.Start(x)
	compared, switched := 0, -1
	for k := 0; k < 40; k++ {
		next := append([]float64(nil), x...)
		size, share := math.Pow(0.5, float64(k)), 1.0
		if k >= 20 {
			share = 0.002 // from here on only a few entries still move
		}
		change := 0.0
		for i := range next {
			if rng.Float64() < share {
				d := size * (1 + rng.Float64())
				next[i] += d
				change += d
			}
		}
		_, st := p.Step(Delta{Prev: x, Next: next, Budget: 1e-9, Change: change, Remaining: 40 - k})
		x = next
		if k < 20 {
			if st.Mode != ModeFull {
				t.Fatalf("step %d: %s while every entry moves", k, st.Mode)
			}
			if st.Compared {
				compared++
			}
		} else if st.Mode == ModeIncremental && switched < 0 {
			switched = k
		}
	}
	// The change halves every step: CompareDrop (0.3) alone would
	// compare every other step, 10 times in 20; spaced out, the
	// comparisons come after 4, 6 and 7 steps.
	if compared < 2 || compared > 5 {
		t.Errorf("compared %d times in 20 steps where full evaluation wins clearly", compared)
	}
	if switched < 0 || switched > 21 {
		t.Errorf("switched to incremental evaluation at step %d, want by step 21", switched)
	}
}
