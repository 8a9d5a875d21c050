package hybrid

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// CSR is a sparse matrix in compressed sparse row form. The package keeps
// its own type rather than the matrix package's because the kernels here
// index the raw arrays directly and reorganise them, which matrix's
// immutable values do not allow.
type CSR struct {
	Rows, Cols int
	Ptr        []int     // row r holds entries Ptr[r]..Ptr[r+1]
	Ind        []int32   // column of each entry, increasing within a row
	Val        []float64 // value of each entry

	// scale caches ColumnScale: the arrays must not change once it has
	// been asked for.
	scale struct {
		once sync.Once
		s    []float64
	}
}

// NNZ is the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Ind) }

// NewCSR builds a CSR matrix from coordinate triples. Duplicate
// coordinates are summed, as in Matrix Market and scipy's coo→csr.
func NewCSR(rows, cols int, is, js []int32, vs []float64) (*CSR, error) {
	if len(is) != len(js) || len(is) != len(vs) {
		return nil, fmt.Errorf("%w: %d rows, %d columns and %d values in the triples", ErrShape, len(is), len(js), len(vs))
	}
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("%w: negative dimension %dx%d", ErrShape, rows, cols)
	}
	m := &CSR{Rows: rows, Cols: cols, Ptr: make([]int, rows+1)}
	for k := range is {
		if is[k] < 0 || int(is[k]) >= rows || js[k] < 0 || int(js[k]) >= cols {
			return nil, fmt.Errorf("%w: entry (%d, %d) outside %dx%d", ErrShape, is[k], js[k], rows, cols)
		}
		m.Ptr[is[k]+1]++
	}
	for r := 0; r < rows; r++ {
		m.Ptr[r+1] += m.Ptr[r]
	}
	ind := make([]int32, len(is))
	val := make([]float64, len(is))
	next := slices.Clone(m.Ptr[:rows])
	for k := range is {
		p := next[is[k]]
		next[is[k]]++
		ind[p], val[p] = js[k], vs[k]
	}
	// Sort each row by column and fold duplicates, compacting in place.
	out := 0
	type entry struct {
		c int32
		v float64
	}
	var buf []entry
	for r := 0; r < rows; r++ {
		lo, hi := m.Ptr[r], m.Ptr[r+1]
		buf = buf[:0]
		for p := lo; p < hi; p++ {
			buf = append(buf, entry{ind[p], val[p]})
		}
		slices.SortStableFunc(buf, func(a, b entry) int { return int(a.c) - int(b.c) })
		m.Ptr[r] = out
		for i, e := range buf {
			if i > 0 && e.c == ind[out-1] {
				val[out-1] += e.v
				continue
			}
			ind[out], val[out] = e.c, e.v
			out++
		}
	}
	m.Ptr[rows] = out
	m.Ind, m.Val = ind[:out:out], val[:out:out]
	return m, nil
}

// T returns the transpose, also in CSR form (that is, the matrix in CSC).
func (m *CSR) T() *CSR {
	t := &CSR{Rows: m.Cols, Cols: m.Rows, Ptr: make([]int, m.Cols+1),
		Ind: make([]int32, len(m.Ind)), Val: make([]float64, len(m.Val))}
	for _, c := range m.Ind {
		t.Ptr[c+1]++
	}
	for c := 0; c < m.Cols; c++ {
		t.Ptr[c+1] += t.Ptr[c]
	}
	next := slices.Clone(t.Ptr[:m.Cols])
	for r := 0; r < m.Rows; r++ {
		for p := m.Ptr[r]; p < m.Ptr[r+1]; p++ {
			q := next[m.Ind[p]]
			next[m.Ind[p]]++
			t.Ind[q], t.Val[q] = int32(r), m.Val[p]
		}
	}
	return t
}

// MulVec computes y = M·x for x of Cols×w and y of Rows×w, both row-major.
// It is the full evaluation kernel: each output row is a gather over its
// entries, so writes are sequential and rows are independent.
func (m *CSR) MulVec(x, y []float64, w int) {
	m.parallelRows(w, func(lo, hi int) { m.mulRows(x, y, w, lo, hi) })
}

// parallelRows runs rows(lo, hi) over all rows: large products split
// their rows across the cores, in ranges of about equal nonzeros, so each
// worker writes its own rows of the output.
func (m *CSR) parallelRows(w int, rows func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	nnz := m.Ptr[m.Rows]
	if workers < 2 || nnz*w < parallelNNZ {
		rows(0, m.Rows)
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for k := 1; k <= workers; k++ {
		hi := m.Rows
		if k < workers {
			target := nnz * k / workers
			hi = sort.Search(m.Rows, func(r int) bool { return m.Ptr[r] >= target })
		}
		if hi > lo {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				rows(lo, hi)
			}(lo, hi)
		}
		lo = hi
	}
	wg.Wait()
}

// ColumnScale returns s such that every stored entry of column c equals
// s[c], or nil when some column holds two different values. A matrix that
// has it (a transition matrix, whose column j is 1/outdeg(j) wherever j
// has an edge) is its pattern times a diagonal, and MulPattern multiplies
// by it reading the column indices alone.
//
// It is computed once per matrix; the result must not be written.
func (m *CSR) ColumnScale() []float64 {
	m.scale.once.Do(func() { m.scale.s = columnScale(m) })
	return m.scale.s
}

func columnScale(m *CSR) []float64 {
	s := make([]float64, m.Cols)
	seen := make([]bool, m.Cols)
	ind, val := m.Ind, m.Val[:len(m.Ind)]
	for p, c := range ind {
		v := val[p]
		switch {
		case !seen[c]:
			s[c], seen[c] = v, true
		case math.Float64bits(s[c]) != math.Float64bits(v):
			return nil
		}
	}
	return s
}

// MulPattern computes y = M·x for w = 1 given xs = x ⊙ s, where s is
// ColumnScale's result: each term Val[p]·x[c] is the same product s[c]·x[c]
// and the terms add in the same order (see mulRows), so y is bit for bit
// MulVec's, from a third of the memory traffic (no values read).
func (m *CSR) MulPattern(xs, y []float64) {
	m.parallelRows(1, func(lo, hi int) {
		ind := m.Ind
		for r := lo; r < hi; r++ {
			row := ind[m.Ptr[r]:m.Ptr[r+1]]
			if len(row) < splitRow {
				s := 0.0
				for _, c := range row {
					s += xs[c]
				}
				y[r] = s
				continue
			}
			var s0, s1, s2, s3 float64
			for ; len(row) >= 4; row = row[4:] {
				s0 += xs[row[0]]
				s1 += xs[row[1]]
				s2 += xs[row[2]]
				s3 += xs[row[3]]
			}
			for _, c := range row {
				s0 += xs[c]
			}
			y[r] = (s0 + s1) + (s2 + s3)
		}
	})
}

// splitRow is the row length from which a row's terms go to four sums
// (mulRows); shorter rows keep one, where the four cost more to set up and
// combine than they save.
const splitRow = 32

// parallelNNZ is the product size (nonzeros times width) above which
// MulVec uses every core; below it the goroutines cost more than they save.
const parallelNNZ = 1 << 16

// mulRows computes rows lo to hi of y = M·x. For w = 1 a row of at least
// splitRow terms sends them to four sums in turn (term i to sum i mod 4,
// the last len mod 4 to the first), added as (s0 + s1) + (s2 + s3): one
// running sum makes every term wait for the addition before it, four
// keep the adder busy where the gathers hit the cache
// (BenchmarkMulPattern: wiki-Vote −27 %, soc-Slashdot0902, whose gathers
// miss it, unchanged). MulPattern adds in the same order.
func (m *CSR) mulRows(x, y []float64, w, lo, hi int) {
	if w == 1 {
		for r := lo; r < hi; r++ {
			ind, val := m.Ind[m.Ptr[r]:m.Ptr[r+1]], m.Val[m.Ptr[r]:m.Ptr[r+1]]
			if len(ind) < splitRow {
				s := 0.0
				for i, c := range ind {
					s += val[i] * x[c]
				}
				y[r] = s
				continue
			}
			var s0, s1, s2, s3 float64
			for ; len(ind) >= 4 && len(val) >= 4; ind, val = ind[4:], val[4:] {
				s0 += val[0] * x[ind[0]]
				s1 += val[1] * x[ind[1]]
				s2 += val[2] * x[ind[2]]
				s3 += val[3] * x[ind[3]]
			}
			for i, c := range ind {
				s0 += val[i] * x[c]
			}
			y[r] = (s0 + s1) + (s2 + s3)
		}
		return
	}
	for r := lo; r < hi; r++ {
		yr := y[r*w : r*w+w]
		clear(yr)
		for p := m.Ptr[r]; p < m.Ptr[r+1]; p++ {
			v, c := m.Val[p], int(m.Ind[p])
			xc := x[c*w : c*w+w]
			for k := range yr {
				yr[k] += v * xc[k]
			}
		}
	}
}
