package gpu

import (
	"math"
	"runtime"
	"strings"
	"testing"
)

// lcg fills test operands without pulling in math/rand's global state.
func lcg(n int, seed uint64) []float64 {
	out := make([]float64, n)
	for i := range out {
		seed = seed*6364136223846793005 + 1442695040888963407
		out[i] = float64(seed>>11)/(1<<53)*2 - 1
	}
	return out
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); d > tol*max(1, math.Abs(want[i])) || math.IsNaN(got[i]) != math.IsNaN(want[i]) {
			t.Fatalf("%s: [%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func naiveGemm(transA, transB bool, m, n, k int, alpha float64, a, b []float64, beta float64, c []float64) []float64 {
	out := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				av := a[i*k+p]
				if transA {
					av = a[p*m+i]
				}
				bv := b[p*n+j]
				if transB {
					bv = b[j*k+p]
				}
				s += av * bv
			}
			out[i*n+j] = alpha*s + beta*c[i*n+j]
		}
	}
	return out
}

func TestGemm(t *testing.T) {
	d := CPU()
	for _, s := range []struct{ m, n, k int }{{1, 1, 1}, {3, 5, 4}, {70, 33, 129}, {4, 3, 0}, {0, 3, 2}} {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				a, b, c := lcg(s.m*s.k, 1), lcg(s.k*s.n, 2), lcg(s.m*s.n, 3)
				want := naiveGemm(ta, tb, s.m, s.n, s.k, 1.5, a, b, 0.5, c)
				lda, ldb := s.k, s.n
				if ta {
					lda = s.m
				}
				if tb {
					ldb = s.k
				}
				d.Gemm(ta, tb, s.m, s.n, s.k, 1.5, a, lda, b, ldb, 0.5, c, s.n)
				near(t, "gemm", c, want, 1e-12)
			}
		}
	}
}

// csrOf compresses a dense row-major matrix, keeping entries that are
// nonzero.
func csrOf(rows, cols int, a []float64) CSR {
	s := CSR{Rows: rows, Cols: cols, Indptr: make([]int, rows+1)}
	for i := range rows {
		for j := range cols {
			if v := a[i*cols+j]; v != 0 {
				s.Indices = append(s.Indices, int32(j))
				s.Values = append(s.Values, v)
			}
		}
		s.Indptr[i+1] = len(s.Values)
	}
	return s
}

func sparsify(a []float64) []float64 {
	for i := range a {
		if math.Abs(a[i]) < 0.7 {
			a[i] = 0
		}
	}
	return a
}

func TestSpMMAndMMSp(t *testing.T) {
	d := CPU()
	// The large shape crosses minParallelWork so the split path runs.
	for _, s := range []struct{ m, n, k int }{{1, 1, 1}, {5, 3, 7}, {300, 64, 200}} {
		sp := sparsify(lcg(s.m*s.k, 4))
		dense := lcg(s.k*s.n, 5)
		zero := make([]float64, s.m*s.n)
		want := naiveGemm(false, false, s.m, s.n, s.k, 1, sp, dense, 0, zero)
		got := lcg(s.m*s.n, 9) // garbage that must be overwritten
		d.SpMM(csrOf(s.m, s.k, sp), dense, s.n, got)
		near(t, "SpMM", got, want, 1e-12)

		left := lcg(s.m*s.k, 6)
		spB := sparsify(lcg(s.k*s.n, 7))
		want = naiveGemm(false, false, s.m, s.n, s.k, 1, left, spB, 0, zero)
		got = lcg(s.m*s.n, 10)
		d.MMSp(s.m, left, csrOf(s.k, s.n, spB), got)
		near(t, "MMSp", got, want, 1e-12)
	}
}

func TestElementwise(t *testing.T) {
	d := CPU()
	for _, n := range []int{0, 5, 100_003} {
		x, y := lcg(n, 11), lcg(n, 12)
		pos := make([]float64, n)
		for i := range x {
			pos[i] = math.Abs(x[i]) + 0.1
		}
		unary := []struct {
			op   UnaryOp
			s    float64
			in   []float64
			want func(float64) float64
		}{
			{Exp, 0, x, math.Exp},
			{Log, 0, pos, math.Log},
			{Sqrt, 0, pos, math.Sqrt},
			{Pow, 1.5, pos, func(v float64) float64 { return math.Pow(v, 1.5) }},
			{Pow, 2, x, func(v float64) float64 { return math.Pow(v, 2) }},
			{Scale, -3, x, func(v float64) float64 { return -3 * v }},
		}
		for _, u := range unary {
			want := make([]float64, n)
			for i, v := range u.in {
				want[i] = u.want(v)
			}
			got := make([]float64, n)
			d.Unary(u.op, u.s, got, u.in)
			near(t, "unary", got, want, 0)
		}
		binary := map[BinaryOp]func(a, b float64) float64{
			Add: func(a, b float64) float64 { return a + b },
			Sub: func(a, b float64) float64 { return a - b },
			Mul: func(a, b float64) float64 { return a * b },
			Div: func(a, b float64) float64 { return a / b },
		}
		for op, f := range binary {
			want := make([]float64, n)
			for i := range want {
				want[i] = f(x[i], y[i])
			}
			got := make([]float64, n)
			d.Binary(op, got, x, y)
			near(t, "binary", got, want, 0)
		}
	}
}

func TestReduce(t *testing.T) {
	d := CPU()
	x := lcg(50_001, 13)
	var sum, ssq, mx float64
	for _, v := range x {
		sum += v
		ssq += v * v
		mx = max(mx, math.Abs(v))
	}
	near(t, "sum", []float64{d.Reduce(Sum, x)}, []float64{sum}, 1e-12)
	near(t, "nrm2", []float64{d.Reduce(Nrm2, x)}, []float64{math.Sqrt(ssq)}, 1e-13)
	if got := d.Reduce(MaxAbs, x); got != mx {
		t.Errorf("MaxAbs = %v, want %v", got, mx)
	}
	if got := d.Reduce(Nrm2, []float64{3e200, 4e200}); math.Abs(got-5e200) > 1e186 {
		t.Errorf("Nrm2 overflowed: %v", got)
	}
	for _, op := range []ReduceOp{Sum, Nrm2, MaxAbs} {
		if got := d.Reduce(op, nil); got != 0 {
			t.Errorf("Reduce(%d, empty) = %v", op, got)
		}
		withNaN := append(lcg(20_000, 1), math.NaN())
		if got := d.Reduce(op, withNaN); !math.IsNaN(got) {
			t.Errorf("Reduce(%d) with NaN = %v", op, got)
		}
	}
	// The sum must not depend on the worker count.
	prev := runtime.GOMAXPROCS(1)
	serial := d.Reduce(Sum, x)
	runtime.GOMAXPROCS(max(prev, 4))
	parallel := d.Reduce(Sum, x)
	runtime.GOMAXPROCS(prev)
	if math.Float64bits(serial) != math.Float64bits(parallel) {
		t.Errorf("sum with 1 worker %v, with more %v", serial, parallel)
	}
}

func TestSolver(t *testing.T) {
	s := CPU().(Solver)
	a := []float64{4, 7, 2, 6}
	ipiv := make([]int, 2)
	if rc := s.LU(2, a, ipiv); rc <= 0 {
		t.Fatalf("rcond = %v", rc)
	}
	b := []float64{1, 0, 0, 1}
	s.LUSolve(2, 2, a, ipiv, b)
	near(t, "inverse", b, []float64{0.6, -0.7, -0.2, 0.4}, 1e-14)
	if rc := s.LU(2, []float64{1, 2, 2, 4}, ipiv); rc != 0 {
		t.Errorf("singular rcond = %v", rc)
	}
	l := []float64{4, 99, 2, 5} // the upper triangle must be ignored
	if !s.Cholesky(2, l) {
		t.Fatal("Cholesky failed")
	}
	near(t, "cholesky", []float64{l[0], l[2], l[3]}, []float64{2, 1, 2}, 1e-15)
	if s.Cholesky(2, []float64{1, 2, 2, 1}) {
		t.Error("Cholesky of an indefinite matrix succeeded")
	}
}

func TestParallelForRepanics(t *testing.T) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "boom") {
			t.Fatalf("recovered %v", r)
		}
	}()
	parallelFor(10, minParallelWork, func(lo, hi int) {
		if lo > 0 {
			panic("boom")
		}
	})
	t.Fatal("no panic")
}

func TestBLASName(t *testing.T) {
	if n := BLASName(); n != "gonum" && n != "openblas" {
		t.Errorf("BLASName = %q", n)
	}
	if CPU().Name() != "cpu" {
		t.Errorf("Name = %q", CPU().Name())
	}
}
