//go:build cuda

package gpu

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tolerances against the CPU device, relative to max(1, |want|). cuBLAS
// and the reduction kernels sum in a different order; libdevice's exp,
// log and pow are within 2 ulp; float32 GEMM is compared with float32
// error growth over k ≤ 1000.
const (
	tolGemm    = 1e-12
	tolSgemm   = 1e-3
	tolMath    = 1e-14
	tolReduce  = 1e-12
	tolExact   = 0
	tolSparse  = 1e-13
	tolScaling = 1e-15
)

func cudaOrSkip(t testing.TB) *cudaDevice {
	t.Helper()
	disc := Discover()
	if disc.GPU == nil {
		t.Skipf("no CUDA device: %s", disc.Reason)
	}
	return disc.GPU.(*cudaDevice)
}

// noFallback fails the test if the device quietly ran anything on the
// CPU, which would make every comparison pass vacuously.
func noFallback(t *testing.T, d *cudaDevice) {
	t.Helper()
	if n, err := d.LastError(); n != 0 {
		t.Fatalf("%d calls fell back to the CPU; last: %v", n, err)
	}
}

type gemmShape struct{ m, n, k int }

var gemmShapes = []gemmShape{
	{1, 1, 1}, {3, 5, 4}, {70, 33, 129}, {257, 129, 65},
	{4096, 2, 3}, {2, 3, 1000}, // tall-skinny and a long inner product
	{4, 3, 0}, {0, 3, 2}, {3, 0, 2}, // empty
}

func TestCUDAGemm(t *testing.T) {
	d := cudaOrSkip(t)
	for _, s := range gemmShapes {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				for _, beta := range []float64{0, 0.5} {
					lda, ldb := s.k, s.n
					if ta {
						lda = s.m
					}
					if tb {
						ldb = s.k
					}
					a, b, c := lcg(s.m*s.k, 1), lcg(s.k*s.n, 2), lcg(s.m*s.n, 3)
					want := append([]float64(nil), c...)
					CPU().Gemm(ta, tb, s.m, s.n, s.k, 1.5, a, max(lda, 1), b, max(ldb, 1), beta, want, max(s.n, 1))
					d.Gemm(ta, tb, s.m, s.n, s.k, 1.5, a, max(lda, 1), b, max(ldb, 1), beta, c, max(s.n, 1))
					near(t, fmt.Sprintf("gemm %v ta=%v tb=%v beta=%v", s, ta, tb, beta), c, want, tolGemm)
				}
			}
		}
	}
	// A leading dimension wider than the row: the gap must survive.
	m, n, k, ldc := 5, 3, 4, 7
	a, b := lcg(m*k, 4), lcg(k*n, 5)
	c := lcg(m*ldc, 6)
	want := append([]float64(nil), c...)
	CPU().Gemm(false, false, m, n, k, 1, a, k, b, n, 0, want, ldc)
	d.Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, ldc)
	near(t, "gemm ldc>n", c, want, tolGemm)
	noFallback(t, d)
}

func TestCUDASgemm(t *testing.T) {
	d := cudaOrSkip(t)
	for _, s := range gemmShapes {
		for _, ta := range []bool{false, true} {
			lda := s.k
			if ta {
				lda = s.m
			}
			a, b, c := f32(lcg(s.m*s.k, 1)), f32(lcg(s.k*s.n, 2)), f32(lcg(s.m*s.n, 3))
			want := append([]float32(nil), c...)
			CPU().(Sgemmer).Sgemm(ta, false, s.m, s.n, s.k, 1, a, max(lda, 1), b, max(s.n, 1), 0.5, want, max(s.n, 1))
			d.Sgemm(ta, false, s.m, s.n, s.k, 1, a, max(lda, 1), b, max(s.n, 1), 0.5, c, max(s.n, 1))
			near(t, fmt.Sprintf("sgemm %v ta=%v", s, ta), f64(c), f64(want), tolSgemm)
		}
	}
	noFallback(t, d)
}

func f32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

func f64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func TestCUDAGemv(t *testing.T) {
	d := cudaOrSkip(t)
	for _, s := range []struct{ m, n int }{{1, 1}, {7, 3}, {3, 7}, {5000, 2}, {2, 5000}, {0, 3}, {3, 0}} {
		for _, trans := range []bool{false, true} {
			xl, yl := s.n, s.m
			if trans {
				xl, yl = s.m, s.n
			}
			a, x, y := lcg(s.m*s.n, 1), lcg(xl, 2), lcg(yl, 3)
			want := append([]float64(nil), y...)
			CPU().(Gemver).Gemv(trans, s.m, s.n, 2, a, max(s.n, 1), x, 0.5, want)
			d.Gemv(trans, s.m, s.n, 2, a, max(s.n, 1), x, 0.5, y)
			near(t, fmt.Sprintf("gemv %v trans=%v", s, trans), y, want, tolGemm)
		}
	}
	noFallback(t, d)
}

// edgeValues are the inputs where element-wise kernels most often part
// ways with the CPU: signed zeros, infinities, NaN, subnormals and values
// near the overflow threshold of exp.
var edgeValues = []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
	5e-324, 1e-300, 709.7, 710, -745, 1e300, -1e300, 0.5, 2}

func TestCUDAElementwise(t *testing.T) {
	d := cudaOrSkip(t)
	for _, n := range []int{0, 1, len(edgeValues), 100_003} {
		x := lcg(n, 11)
		copy(x, edgeValues)
		y := lcg(n, 12)
		for _, c := range []struct {
			op  UnaryOp
			s   float64
			tol float64
		}{{Exp, 0, tolMath}, {Log, 0, tolMath}, {Sqrt, 0, tolExact}, {Pow, 1.5, tolMath}, {Pow, -2, tolMath}, {Scale, -3, tolExact}} {
			want, got := make([]float64, n), make([]float64, n)
			CPU().Unary(c.op, c.s, want, x)
			d.Unary(c.op, c.s, got, x)
			near(t, fmt.Sprintf("unary %d(%v) n=%d", c.op, c.s, n), got, want, c.tol)
		}
		for _, op := range []BinaryOp{Add, Sub, Mul, Div} {
			want, got := make([]float64, n), make([]float64, n)
			CPU().Binary(op, want, x, y)
			d.Binary(op, got, x, y)
			near(t, fmt.Sprintf("binary %d n=%d", op, n), got, want, tolExact)
		}
		// In place, as the matrix library calls it.
		got := append([]float64(nil), x...)
		d.Unary(Scale, 2, got, got)
		want := make([]float64, n)
		CPU().Unary(Scale, 2, want, x)
		near(t, "unary in place", got, want, tolExact)
	}
	noFallback(t, d)
}

func TestCUDAReduce(t *testing.T) {
	d := cudaOrSkip(t)
	big := lcg(1_000_003, 13)
	huge := lcg(300_000, 14)
	for i := range huge {
		huge[i] *= 1e300 // squares overflow without scaling
	}
	withNaN := lcg(5000, 15)
	withNaN[4321] = math.NaN()
	withInf := lcg(5000, 16)
	withInf[17] = math.Inf(-1)
	for name, x := range map[string][]float64{
		"empty": nil, "one": {-2.5}, "255": lcg(255, 1), "256": lcg(256, 2), "257": lcg(257, 3),
		"1M": big, "huge": huge, "nan": withNaN, "inf": withInf, "zeros": make([]float64, 1000),
	} {
		for _, op := range []ReduceOp{Sum, Nrm2, MaxAbs} {
			want, got := CPU().Reduce(op, x), d.Reduce(op, x)
			near(t, fmt.Sprintf("reduce %d %s", op, name), []float64{got}, []float64{want}, tolReduce)
			// The fold order is fixed, so runs agree bit for bit.
			if again := d.Reduce(op, x); math.Float64bits(again) != math.Float64bits(got) && !math.IsNaN(got) {
				t.Errorf("reduce %d %s: %v then %v", op, name, got, again)
			}
		}
	}
	noFallback(t, d)
}

func TestCUDASparse(t *testing.T) {
	d := cudaOrSkip(t)
	for _, s := range []gemmShape{{1, 1, 1}, {5, 3, 7}, {300, 64, 200}, {2000, 3, 2000}, {3, 0, 4}, {0, 3, 4}} {
		sp := sparsify(lcg(s.m*s.k, 4))
		if len(sp) > 2 {
			sp[1] = math.Inf(1) // a stored Inf must poison its products
		}
		dense := lcg(s.k*s.n, 5)
		want, got := make([]float64, s.m*s.n), lcg(s.m*s.n, 9)
		a := csrOf(s.m, s.k, sp)
		CPU().SpMM(a, dense, s.n, want)
		d.SpMM(a, dense, s.n, got)
		near(t, fmt.Sprintf("spmm %v", s), got, want, tolSparse)

		left := lcg(s.m*s.k, 6)
		spB := sparsify(lcg(s.k*s.n, 7))
		b := csrOf(s.k, s.n, spB)
		want, got = make([]float64, s.m*s.n), lcg(s.m*s.n, 10)
		CPU().MMSp(s.m, left, b, want)
		d.MMSp(s.m, left, b, got)
		near(t, fmt.Sprintf("mmsp %v", s), got, want, tolSparse)
	}
	// All-zero sparse operand: no stored entries at all.
	empty := CSR{Rows: 4, Cols: 4, Indptr: make([]int, 5)}
	got := lcg(4*2, 1)
	d.SpMM(empty, lcg(4*2, 2), 2, got)
	near(t, "spmm empty", got, make([]float64, 8), tolExact)
	noFallback(t, d)
}

func TestCUDAResident(t *testing.T) {
	d := cudaOrSkip(t)
	var r Resident = d
	n := 64
	a, b := lcg(n*n, 1), lcg(n*n, 2)
	bufs := map[string]Buffer{}
	for name, e := range map[string]Elem{"a": F64, "b": F64, "c": F64, "s": F32, "empty": F64} {
		size := n * n
		if name == "empty" {
			size = 0
		}
		buf, err := r.Alloc(e, size)
		if err != nil {
			t.Fatal(err)
		}
		bufs[name] = buf
	}
	if err := r.CopyIn(bufs["a"], a); err != nil {
		t.Fatal(err)
	}
	if err := r.CopyIn(bufs["b"], b); err != nil {
		t.Fatal(err)
	}
	if err := r.GemmBuf(false, true, n, n, n, 1, bufs["a"], n, bufs["b"], n, 0, bufs["c"], n); err != nil {
		t.Fatal(err)
	}
	// Chain on the device: c = 2*c; c = c + a; then fold.
	if err := r.UnaryBuf(Scale, 2, bufs["c"], bufs["c"]); err != nil {
		t.Fatal(err)
	}
	if err := r.BinaryBuf(Add, bufs["c"], bufs["c"], bufs["a"]); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, n*n)
	if err := r.CopyOut(got, bufs["c"]); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, n*n)
	CPU().Gemm(false, true, n, n, n, 1, a, n, b, n, 0, want, n)
	CPU().Unary(Scale, 2, want, want)
	CPU().Binary(Add, want, want, a)
	near(t, "resident chain", got, want, tolGemm)
	sum, err := r.ReduceBuf(Sum, bufs["c"])
	if err != nil {
		t.Fatal(err)
	}
	near(t, "resident sum", []float64{sum}, []float64{CPU().Reduce(Sum, want)}, tolReduce)

	// Misuse is an error, never a crash.
	if err := r.CopyIn(bufs["s"], a); !errors.Is(err, ErrElem) {
		t.Errorf("float64 into float32 buffer: %v", err)
	}
	if err := r.CopyIn(bufs["a"], make([]float64, n*n+1)); !errors.Is(err, ErrShape) {
		t.Errorf("overlong copy: %v", err)
	}
	if err := r.GemmBuf(false, false, n, n, n, 1, bufs["a"], n, bufs["s"], n, 0, bufs["c"], n); !errors.Is(err, ErrElem) {
		t.Errorf("mixed element types: %v", err)
	}
	if err := r.UnaryBuf(Exp, 0, bufs["a"], foreignBuffer{}); !errors.Is(err, ErrForeignBuffer) {
		t.Errorf("foreign buffer: %v", err)
	}
	if _, err := r.Alloc(F64, -1); !errors.Is(err, ErrShape) {
		t.Errorf("negative alloc: %v", err)
	}
	for _, buf := range bufs {
		if err := r.Free(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.CopyIn(bufs["a"], a); !errors.Is(err, ErrForeignBuffer) {
		t.Errorf("use after free: %v", err)
	}
	if err := r.Free(bufs["a"]); !errors.Is(err, ErrForeignBuffer) {
		t.Errorf("double free: %v", err)
	}
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
}

type foreignBuffer struct{}

func (foreignBuffer) Len() int   { return 1 }
func (foreignBuffer) Elem() Elem { return F64 }

// gpuOut writes a device-check result under $SQLEARN_GPU_OUT, where
// bench/gpu-check.sh collects them.
func gpuOut(t *testing.T, name string, v any) {
	dir := os.Getenv("SQLEARN_GPU_OUT")
	if dir == "" {
		return
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCUDAGemmThroughput times DGEMM and SGEMM on resident buffers, the
// kernel alone as a GPU library reports it. It runs only when asked: the
// largest sizes take seconds and gigabytes.
func TestCUDAGemmThroughput(t *testing.T) {
	sizes := os.Getenv("SQLEARN_GPU_GEMM_SIZES")
	if sizes == "" {
		t.Skip("set SQLEARN_GPU_GEMM_SIZES (e.g. 1024,2048,4096) to time GEMM")
	}
	d := cudaOrSkip(t)
	type row struct {
		Elem    string  `json:"elem"`
		N       int     `json:"n"`
		Seconds float64 `json:"seconds"`
		TFLOPS  float64 `json:"tflops"`
	}
	var rows []row
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			t.Fatalf("bad size %q", f)
		}
		for _, e := range []Elem{F64, F32} {
			secs, err := timeGemm(d, e, n)
			if err != nil {
				t.Fatalf("n=%d elem=%d: %v", n, e, err)
			}
			name := map[Elem]string{F64: "dgemm", F32: "sgemm"}[e]
			rows = append(rows, row{name, n, secs, 2 * math.Pow(float64(n), 3) / secs / 1e12})
			t.Logf("%s n=%5d  %9.3f ms  %7.2f TFLOP/s", name, n, secs*1e3, rows[len(rows)-1].TFLOPS)
		}
	}
	gpuOut(t, "gemm.json", rows)
}

func timeGemm(d *cudaDevice, e Elem, n int) (secs float64, err error) {
	var bufs []Buffer
	defer func() {
		for _, b := range bufs {
			d.Free(b)
		}
	}()
	for range 3 {
		b, err := d.Alloc(e, n*n)
		if err != nil {
			return 0, err
		}
		bufs = append(bufs, b)
	}
	host := filled(n * n)
	if e == F64 {
		err = d.CopyIn(bufs[0], host)
	} else {
		err = d.CopyIn32(bufs[0], f32(host))
	}
	if err != nil {
		return 0, err
	}
	gemm := func() error { return d.GemmBuf(false, false, n, n, n, 1, bufs[0], n, bufs[0], n, 0, bufs[2], n) }
	if err := gemm(); err != nil { // warm-up: cuBLAS picks its kernel
		return 0, err
	}
	if err := d.Sync(); err != nil {
		return 0, err
	}
	// At least three runs and a quarter second, so small sizes are not
	// timed by launch jitter.
	start := time.Now()
	reps := 0
	for reps < 3 || time.Since(start) < 250*time.Millisecond {
		if err := gemm(); err != nil {
			return 0, err
		}
		reps++
	}
	if err := d.Sync(); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds() / float64(reps), nil
}

// TestCUDACrossover calibrates both devices on this machine and reports
// the smallest sizes at which the dispatcher sends each operator to the
// GPU, with operands on the host.
func TestCUDACrossover(t *testing.T) {
	d := cudaOrSkip(t)
	path := filepath.Join(t.TempDir(), "profiles.json")
	cpuProf, err := LoadOrCalibrate(path, CPU(), DefaultCalibrateOptions())
	if err != nil {
		t.Fatal(err)
	}
	gpuProf, err := LoadOrCalibrate(path, d, DefaultCalibrateOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cpu profile: %+v", cpuProf)
	t.Logf("gpu profile: %+v", gpuProf)
	disp := NewDispatcher(CPU(), cpuProf, d, gpuProf, "")
	shapes := map[string]func(n int) Op{
		"gemm (n×n·n×n)":        func(n int) Op { return Op{Kind: OpGemm, M: n, N: n, K: n} },
		"sgemm (n×n·n×n)":       func(n int) Op { return Op{Kind: OpSgemm, M: n, N: n, K: n} },
		"gemm (n×64·64×64)":     func(n int) Op { return Op{Kind: OpGemm, M: n, N: 64, K: 64} },
		"gemv (n×n)":            func(n int) Op { return Op{Kind: OpGemv, M: n, N: n} },
		"spmm (n×n 1%, 64 col)": func(n int) Op { return Op{Kind: OpSpMM, M: n, K: n, N: 64, NNZ: n * n / 100} },
		"binary (n elements)":   func(n int) Op { return Op{Kind: OpBinary, N: n} },
		"reduce (n elements)":   func(n int) Op { return Op{Kind: OpReduce, N: n} },
	}
	result := map[string]any{"cpu_profile": cpuProf, "gpu_profile": gpuProf}
	cross := map[string]string{}
	for name, shape := range shapes {
		found := "never (up to 2^26)"
		for n := 1; n <= 1<<26; n = n*5/4 + 1 {
			if c := disp.Choose(shape(n)); c.Device == d.Name() {
				found = fmt.Sprintf("n=%d (%v)", n, c)
				break
			}
		}
		cross[name] = found
		t.Logf("%-24s gpu from %s", name, found)
	}
	result["crossover"] = cross
	gpuOut(t, "crossover.json", result)
}

// TestCUDAFallsBackOnFailure checks that a device error leaves a correct
// CPU result: an allocation larger than any GPU fails, and Gemm still
// answers.
func TestCUDAFallsBackOnFailure(t *testing.T) {
	d := cudaOrSkip(t)
	if _, err := d.Alloc(F64, 1<<50); !errors.Is(err, ErrDevice) {
		t.Fatalf("petabyte allocation: %v", err)
	}
	before, _ := d.LastError()
	var got float64
	d.hostCall(func(*scratch) error { return fmt.Errorf("%w: injected", ErrDevice) }, func() { got = 42 })
	if after, err := d.LastError(); after != before+1 || got != 42 || !errors.Is(err, ErrDevice) {
		t.Fatalf("fallback not taken: %d→%d, %v, %v", before, after, got, err)
	}
	d.mu.Lock()
	d.mu.failures, d.mu.lastErr = 0, nil
	d.mu.Unlock()
}
