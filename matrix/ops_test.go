package matrix

import (
	"errors"
	"math"
	"testing"

	"github.com/sqlearn/sqlearn/gpu"
)

// layouts runs a check on the dense and the sparse form of each operand,
// so every table below covers all four mixes of layouts.
func layouts(m *Matrix) map[string]*Matrix {
	d, err := ToDense(m)
	if err != nil {
		panic(err)
	}
	return map[string]*Matrix{"dense": d, "csr": ToCSR(m)}
}

func TestBinaryOps(t *testing.T) {
	a := [][]float64{{1, 0, 2}, {0, 3, 0}}
	b := [][]float64{{4, 5, 0}, {0, 1, 2}}
	cases := []struct {
		name string
		op   func(a, b *Matrix) (*Matrix, error)
		a, b [][]float64
		want [][]float64
	}{
		{"add", Add, a, b, [][]float64{{5, 5, 2}, {0, 4, 2}}},
		{"sub", Sub, a, b, [][]float64{{-3, -5, 2}, {0, 2, -2}}},
		{"sub to zero", Sub, a, a, [][]float64{{0, 0, 0}, {0, 0, 0}}},
		{"emul", EMul, a, b, [][]float64{{4, 0, 0}, {0, 3, 0}}},
		{"ediv", EDiv, a, [][]float64{{2, 4, 8}, {1, 2, 4}}, [][]float64{{0.5, 0, 0.25}, {0, 1.5, 0}}},
		{"mul", Mul, [][]float64{{1, 2}, {3, 4}}, [][]float64{{5, 6}, {7, 8}}, [][]float64{{19, 22}, {43, 50}}},
		{"mul rect", Mul, a, [][]float64{{1}, {2}, {3}}, [][]float64{{7}, {6}}},
		{"mul inner 0", Mul, [][]float64{{}, {}}, nil, [][]float64{}},
	}
	for _, c := range cases {
		want := mustRows(t, c.want)
		if c.name == "mul inner 0" {
			want = denseLike(2, 0)
			c.b = nil
		}
		for an, am := range layouts(mustRows(t, c.a)) {
			for bn, bm := range layouts(mustRows(t, c.b)) {
				t.Run(c.name+"/"+an+"*"+bn, func(t *testing.T) {
					got, err := c.op(am, bm)
					if err != nil {
						t.Fatal(err)
					}
					assertMatrix(t, got, want, 0)
				})
			}
		}
	}
}

func TestResultLayouts(t *testing.T) {
	d := mustRows(t, [][]float64{{1, 2}, {3, 4}})
	s := sparse(t, [][]float64{{1, 0}, {0, 4}})
	two := func(f func(a, b *Matrix) (*Matrix, error)) func(a, b *Matrix) *Matrix {
		return func(a, b *Matrix) *Matrix {
			m, err := f(a, b)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	one := func(f func(*Matrix) (*Matrix, error)) func(*Matrix) *Matrix {
		return func(a *Matrix) *Matrix {
			m, err := f(a)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	pow := func(p float64) func(*Matrix) (*Matrix, error) {
		return func(m *Matrix) (*Matrix, error) { return Pow(m, p) }
	}
	cases := []struct {
		name string
		got  *Matrix
		want Layout
	}{
		{"sparse*sparse", two(Mul)(s, s), LayoutCSR},
		{"sparse*dense", two(Mul)(s, d), LayoutDense},
		{"dense*sparse", two(Mul)(d, s), LayoutDense},
		{"sparse+sparse", two(Add)(s, s), LayoutCSR},
		{"sparse+dense", two(Add)(s, d), LayoutDense},
		{"sparse.*dense", two(EMul)(s, d), LayoutCSR},
		{"dense.*sparse", two(EMul)(d, s), LayoutCSR},
		{"sparse./dense", two(EDiv)(s, d), LayoutCSR},
		{"dense./sparse", two(EDiv)(d, s), LayoutDense},
		{"scale sparse", Scale(s, 3), LayoutCSR},
		{"T sparse", T(s), LayoutCSR},
		{"exp sparse", one(Exp)(s), LayoutDense},
		{"log sparse", one(Log)(s), LayoutDense},
		{"sqrt sparse", Sqrt(s), LayoutCSR},
		{"pow sparse 2", one(pow(2))(s), LayoutCSR},
		{"pow sparse -1", one(pow(-1))(s), LayoutDense},
		{"pow sparse 0", one(pow(0))(s), LayoutDense},
		{"inv sparse", one(Inv)(s), LayoutDense},
	}
	for _, c := range cases {
		if c.got.Layout() != c.want {
			t.Errorf("%s: layout %v, want %v", c.name, c.got.Layout(), c.want)
		}
	}
}

func TestShapeMismatch(t *testing.T) {
	a, b := denseLike(3, 4), denseLike(5, 2)
	cases := []struct {
		op   func(a, b *Matrix) (*Matrix, error)
		want string
	}{
		{Mul, "matrix: shape mismatch: MUL 3x4 by 5x2"},
		{Add, "matrix: shape mismatch: ADD 3x4 by 5x2"},
		{Sub, "matrix: shape mismatch: SUB 3x4 by 5x2"},
		{EMul, "matrix: shape mismatch: EMUL 3x4 by 5x2"},
		{EDiv, "matrix: shape mismatch: EDIV 3x4 by 5x2"},
	}
	for _, c := range cases {
		for _, pair := range [][2]*Matrix{{a, b}, {ToCSR(a), ToCSR(b)}} {
			_, err := c.op(pair[0], pair[1])
			if !errors.Is(err, ErrShapeMismatch) || err.Error() != c.want {
				t.Errorf("got %v, want %q", err, c.want)
			}
		}
	}
}

func TestTranspose(t *testing.T) {
	m := [][]float64{{1, 0, 2}, {0, 3, 0}}
	want := mustRows(t, [][]float64{{1, 0}, {0, 3}, {2, 0}})
	for name, x := range layouts(mustRows(t, m)) {
		if d := diffMatrices(T(x), want, 0); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
	big := mustRand(t, 70, 45, 1, 1)
	if d := diffMatrices(T(T(big)), big, 0); d != "" {
		t.Error(d)
	}
}

// TestMulT checks every transpose flag against an explicit transpose, in
// all four mixes of layouts, including the tall, thin Gram product.
func TestMulT(t *testing.T) {
	a := mustRand(t, 37, 5, 2, 0.7)
	b := mustRand(t, 37, 9, 3, 0.6)
	c := mustRand(t, 9, 5, 4, 1)
	cases := []struct {
		name   string
		x, y   *Matrix
		tx, ty bool
	}{
		{"tn", a, b, true, false},
		{"nt", c, a, false, true},
		{"tt", c, b, true, true},
		{"nn", c, T(a), false, false},
		{"gram", a, a, true, false},
	}
	for _, k := range cases {
		x, y := k.x, k.y
		if k.tx {
			x = T(x)
		}
		if k.ty {
			y = T(y)
		}
		want, err := Mul(x, y)
		if err != nil {
			t.Fatal(err)
		}
		for ln, lx := range layouts(k.x) {
			for rn, ry := range layouts(k.y) {
				got, err := MulT(lx, k.tx, ry, k.ty)
				if err != nil {
					t.Fatalf("%s %s×%s: %v", k.name, ln, rn, err)
				}
				if d := diffMatrices(got, want, 1e-12); d != "" {
					t.Errorf("%s %s×%s: %s", k.name, ln, rn, d)
				}
			}
		}
	}
	if _, err := MulT(a, false, b, false); !errors.Is(err, ErrShapeMismatch) {
		t.Errorf("37x5 by 37x9: got %v, want a shape mismatch", err)
	}
	if _, err := MulT(a, true, c, true); !errors.Is(err, ErrShapeMismatch) {
		t.Errorf("t(37x5) by t(9x5): got %v, want a shape mismatch", err)
	}
}

// kernelCounter counts the products a device ran.
type kernelCounter struct {
	gpu.Device
	products int
}

func (k *kernelCounter) Gemm(transA, transB bool, m, n, kk int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	k.products++
	k.Device.Gemm(transA, transB, m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (k *kernelCounter) SpMM(a gpu.CSR, b []float64, n int, c []float64) {
	k.products++
	k.Device.SpMM(a, b, n, c)
}

func (k *kernelCounter) MMSp(m int, a []float64, b gpu.CSR, c []float64) {
	k.products++
	k.Device.MMSp(m, a, b, c)
}

// TestMulOnRunsOnGivenDevice: MulOn and MulTOn send every kernel product
// to the device they are given and leave the current device alone, with
// the results of Mul and MulT.
func TestMulOnRunsOnGivenDevice(t *testing.T) {
	global := &kernelCounter{Device: Device()}
	defer SetDevice(SetDevice(global))
	mine := &kernelCounter{Device: gpu.CPU()}
	a := mustRand(t, 30, 6, 5, 1)
	sp := mustRand(t, 30, 6, 6, 0.2)
	for _, c := range []struct {
		name   string
		x, y   *Matrix
		tx, ty bool
		kernel bool
	}{
		{"dense gram", a, a, true, false, true},
		{"dense nt", a, a, false, true, true},
		{"sparse by dense", T(sp), a, false, false, true},
		{"dense by sparse, transposed", a, sp, true, false, true},
		{"sparse by sparse", sp, sp, true, false, false},
	} {
		want, err := MulT(c.x, c.tx, c.y, c.ty)
		if err != nil {
			t.Fatal(err)
		}
		before, globalBefore := mine.products, global.products
		got, err := MulTOn(mine, c.x, c.tx, c.y, c.ty)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffMatrices(got, want, 0); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
		ran := mine.products - before
		if c.kernel && ran != 1 || !c.kernel && ran != 0 {
			t.Errorf("%s: %d products on the given device", c.name, ran)
		}
		if global.products != globalBefore {
			t.Errorf("%s: the current device ran a product", c.name)
		}
	}
}

func TestAbs(t *testing.T) {
	m := [][]float64{{-1, 0, 2.5}, {0, -3, 0}}
	want := mustRows(t, [][]float64{{1, 0, 2.5}, {0, 3, 0}})
	for name, x := range layouts(mustRows(t, m)) {
		got := Abs(x)
		if got.IsSparse() != x.IsSparse() {
			t.Errorf("%s: layout changed", name)
		}
		if d := diffMatrices(got, want, 0); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestAddScalar(t *testing.T) {
	m := [][]float64{{-1, 0, 2.5}, {0, -3, 0}}
	want := mustRows(t, [][]float64{{0.5, 1.5, 4}, {1.5, -1.5, 1.5}})
	for name, x := range layouts(mustRows(t, m)) {
		got, err := AddScalar(x, 1.5)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffMatrices(got, want, 0); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestNewCSR(t *testing.T) {
	m, err := NewCSR(2, 3, []int{0, 2, 3}, []int32{0, 2, 1}, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffMatrices(m, mustRows(t, [][]float64{{1, 0, 2}, {0, 3, 0}}), 0); d != "" {
		t.Error(d)
	}
	for name, bad := range map[string]func() (*Matrix, error){
		"short indptr":  func() (*Matrix, error) { return NewCSR(2, 3, []int{0, 2}, []int32{0, 2}, []float64{1, 2}) },
		"unsorted row":  func() (*Matrix, error) { return NewCSR(1, 3, []int{0, 2}, []int32{2, 0}, []float64{1, 2}) },
		"column range":  func() (*Matrix, error) { return NewCSR(1, 3, []int{0, 1}, []int32{3}, []float64{1}) },
		"stored zero":   func() (*Matrix, error) { return NewCSR(1, 3, []int{0, 1}, []int32{1}, []float64{0}) },
		"offsets order": func() (*Matrix, error) { return NewCSR(2, 3, []int{0, 2, 1}, []int32{0, 1}, []float64{1, 2}) },
	} {
		if _, err := bad(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: got %v, want ErrInvalidArgument", name, err)
		}
	}
}

func TestUnaryOps(t *testing.T) {
	m := [][]float64{{1, 0}, {4, 9}}
	inf := math.Inf(1)
	cases := []struct {
		name string
		op   func(*Matrix) (*Matrix, error)
		want [][]float64
	}{
		{"scale", func(m *Matrix) (*Matrix, error) { return Scale(m, -2), nil }, [][]float64{{-2, 0}, {-8, -18}}},
		{"exp", Exp, [][]float64{{math.E, 1}, {math.Exp(4), math.Exp(9)}}},
		{"log", Log, [][]float64{{0, math.Inf(-1)}, {math.Log(4), math.Log(9)}}},
		{"sqrt", func(m *Matrix) (*Matrix, error) { return Sqrt(m), nil }, [][]float64{{1, 0}, {2, 3}}},
		{"pow 2", func(m *Matrix) (*Matrix, error) { return Pow(m, 2) }, [][]float64{{1, 0}, {16, 81}}},
		{"pow 0.5", func(m *Matrix) (*Matrix, error) { return Pow(m, 0.5) }, [][]float64{{1, 0}, {2, 3}}},
		{"pow 0", func(m *Matrix) (*Matrix, error) { return Pow(m, 0) }, [][]float64{{1, 1}, {1, 1}}},
		{"pow -1", func(m *Matrix) (*Matrix, error) { return Pow(m, -1) }, [][]float64{{1, inf}, {0.25, 1.0 / 9}}},
	}
	for _, c := range cases {
		for name, x := range layouts(mustRows(t, m)) {
			got, err := c.op(x)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffMatrices(got, mustRows(t, c.want), 1e-15); d != "" {
				t.Errorf("%s/%s: %s", c.name, name, d)
			}
		}
	}
	if got := Sqrt(mustRows(t, [][]float64{{-1}})); !math.IsNaN(got.data[0]) {
		t.Errorf("sqrt(-1) = %v, want NaN", got.data[0])
	}
}

func TestReductions(t *testing.T) {
	m := [][]float64{{1, -2, 0}, {0, 3, -4}}
	for name, x := range layouts(mustRows(t, m)) {
		t.Run(name, func(t *testing.T) {
			if got := Sum(x); got != -2 {
				t.Errorf("Sum = %v, want -2", got)
			}
			assertMatrix(t, RowSums(x), mustRows(t, [][]float64{{-1}, {-1}}), 0)
			assertMatrix(t, ColSums(x), mustRows(t, [][]float64{{1, 1, -4}}), 0)
			norms := map[string]float64{"fro": math.Sqrt(30), "": math.Sqrt(30), "FRO": math.Sqrt(30), "1": 5, "inf": 7, "INF": 7}
			for kind, want := range norms {
				got, err := Norm(x, kind)
				if err != nil || !close(got, want, 1e-15) {
					t.Errorf("Norm(%q) = %v, %v; want %v", kind, got, err, want)
				}
			}
			if _, err := Norm(x, "2"); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("Norm(2) error = %v", err)
			}
			if got := x.NNZ(); got != 4 {
				t.Errorf("NNZ = %d, want 4", got)
			}
			if x.Rows() != 2 || x.Cols() != 3 {
				t.Errorf("shape %dx%d", x.Rows(), x.Cols())
			}
		})
	}
	if got, _ := Norm(mustRows(t, [][]float64{{1e200, 1e200}}), "fro"); !close(got, math.Sqrt2*1e200, 1e-15) {
		t.Errorf("Frobenius norm overflowed: %v", got)
	}
	if got, _ := Norm(mustRows(t, [][]float64{{1, math.NaN()}}), "inf"); !math.IsNaN(got) {
		t.Errorf("norm with NaN = %v", got)
	}
}

func TestDiagTrace(t *testing.T) {
	sq := [][]float64{{1, 2, 0}, {3, 0, 5}, {6, 7, 8}}
	for name, x := range layouts(mustRows(t, sq)) {
		d, err := Diag(x)
		if err != nil {
			t.Fatal(err)
		}
		assertMatrix(t, d, mustRows(t, [][]float64{{1}, {0}, {8}}), 0)
		if tr, err := Trace(x); err != nil || tr != 9 {
			t.Errorf("%s: Trace = %v, %v", name, tr, err)
		}
	}
	for _, v := range [][][]float64{{{1, 0, 3}}, {{1}, {0}, {3}}} {
		for name, x := range layouts(mustRows(t, v)) {
			d, err := Diag(x)
			if err != nil {
				t.Fatal(err)
			}
			if d.Layout() != LayoutCSR {
				t.Errorf("%s: diagonal matrix is %v", name, d.Layout())
			}
			assertMatrix(t, d, mustRows(t, [][]float64{{1, 0, 0}, {0, 0, 0}, {0, 0, 3}}), 0)
		}
	}
	one, _ := Diag(mustRows(t, [][]float64{{7}}))
	assertMatrix(t, one, mustRows(t, [][]float64{{7}}), 0)
	rect := denseLike(2, 3)
	if _, err := Diag(rect); !errors.Is(err, ErrNotSquare) {
		t.Errorf("Diag(2x3) error = %v", err)
	}
	if _, err := Trace(rect); !errors.Is(err, ErrNotSquare) {
		t.Errorf("Trace(2x3) error = %v", err)
	}
}

func TestGetSlice(t *testing.T) {
	m := [][]float64{{1, 0, 2, 0}, {0, 3, 0, 4}, {5, 0, 6, 0}}
	for name, x := range layouts(mustRows(t, m)) {
		t.Run(name, func(t *testing.T) {
			for i := range m {
				for j := range m[i] {
					if v, err := Get(x, i, j); err != nil || v != m[i][j] {
						t.Errorf("Get(%d, %d) = %v, %v", i, j, v, err)
					}
				}
			}
			for _, ij := range [][2]int{{-1, 0}, {3, 0}, {0, 4}, {0, -1}} {
				if _, err := Get(x, ij[0], ij[1]); !errors.Is(err, ErrIndexOutOfRange) {
					t.Errorf("Get%v error = %v", ij, err)
				}
			}
			s, err := Slice(x, 1, 3, 1, 4)
			if err != nil {
				t.Fatal(err)
			}
			if s.Layout() != x.Layout() {
				t.Errorf("slice layout %v", s.Layout())
			}
			assertMatrix(t, s, mustRows(t, [][]float64{{3, 0, 4}, {0, 6, 0}}), 0)
			empty, err := Slice(x, 2, 2, 0, 4)
			if err != nil || empty.Rows() != 0 || empty.Cols() != 4 {
				t.Errorf("empty slice = %v, %v", empty, err)
			}
			for _, b := range [][4]int{{-1, 1, 0, 1}, {2, 1, 0, 1}, {0, 4, 0, 1}, {0, 1, 3, 5}} {
				if _, err := Slice(x, b[0], b[1], b[2], b[3]); !errors.Is(err, ErrIndexOutOfRange) {
					t.Errorf("Slice%v error = %v", b, err)
				}
			}
		})
	}
}

func TestConstructors(t *testing.T) {
	z, err := Zeros(2, 3)
	if err != nil || z.Rows() != 2 || z.Cols() != 3 || z.NNZ() != 0 {
		t.Fatalf("Zeros = %v, %v", z, err)
	}
	id, _ := Identity(3)
	assertMatrix(t, id, mustRows(t, [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}), 0)
	if _, err := FromRows([][]float64{{1, 2}, {3}}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ragged rows error = %v", err)
	}
	if _, err := Zeros(-1, 2); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("negative dimension error = %v", err)
	}
	tr, err := FromTriples(2, 3, []int{1, 0, 1, 0}, []int{2, 0, 2, 1}, []float64{1, 5, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, tr, mustRows(t, [][]float64{{5, 0, 0}, {0, 0, 3}}), 0)
	if len(tr.data) != 2 {
		t.Errorf("stored %d entries, want duplicates summed and zeros dropped", len(tr.data))
	}
	if _, err := FromTriples(2, 2, []int{2}, []int{0}, []float64{1}); !errors.Is(err, ErrIndexOutOfRange) {
		t.Errorf("out-of-range triple error = %v", err)
	}
	if _, err := NewDense(2, 2, []float64{1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NewDense short data error = %v", err)
	}
	var seen []float64
	tr.Each(func(i, j int, v float64) { seen = append(seen, float64(i), float64(j), v) })
	if len(seen) != 6 || seen[2] != 5 || seen[3] != 1 || seen[4] != 2 || seen[5] != 3 {
		t.Errorf("Each visited %v", seen)
	}
	rows, _ := tr.ToRows()
	if rows[1][2] != 3 {
		t.Errorf("ToRows = %v", rows)
	}
}

func TestSizeLimit(t *testing.T) {
	old := SetMaxElements(100)
	defer SetMaxElements(old)
	if _, err := Zeros(10, 11); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Zeros over the limit: %v", err)
	}
	if _, err := Zeros(1_000_000, 1_000_000); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Zeros(1e6, 1e6): %v", err)
	}
	if _, err := Zeros(1<<40, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Zeros(2^40, 1): %v", err)
	}
	if _, err := Rand(1000, 1000, 1, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Rand dense over the limit: %v", err)
	}
	big, err := Rand(100, 10000, 1, 0.00005)
	if err != nil {
		t.Fatalf("a sparse matrix with 50 entries: %v", err)
	}
	if _, err := Exp(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("densifying past the limit: %v", err)
	}
	col := denseLike(100, 1)
	if _, err := Mul(col, T(col)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("outer product past the limit: %v", err)
	}
}

func TestRandDeterministic(t *testing.T) {
	a, b := mustRand(t, 3, 4, 42, 1), mustRand(t, 3, 4, 42, 1)
	assertMatrix(t, a, b, 0)
	// Pinned so that a change to the generator, which would change every
	// stored MAT_RAND result, fails here.
	if a.data[0] != 0.7415648787718233 || a.data[11] != 0.49298918579469253 {
		t.Errorf("Rand(3, 4, 42, 1) starts %v and ends %v", a.data[0], a.data[11])
	}
	for _, v := range a.data {
		if !(v > 0 && v < 1) {
			t.Errorf("value %v outside (0, 1)", v)
		}
	}
	s := mustRand(t, 50, 40, 9, 0.1)
	if s.Layout() != LayoutCSR || s.NNZ() != 200 {
		t.Errorf("Rand density 0.1: %v with %d nonzeros", s, s.NNZ())
	}
	dense := mustRand(t, 10, 10, 9, 0.5)
	if dense.NNZ() != 50 {
		t.Errorf("Rand density 0.5: %d nonzeros", dense.NNZ())
	}
	assertMatrix(t, mustRand(t, 50, 40, 9, 0.1), s, 0)
	if d := diffMatrices(mustRand(t, 3, 4, 43, 1), a, 0); d == "" {
		t.Error("different seeds gave the same matrix")
	}
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := Rand(2, 2, 1, bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("density %v: %v", bad, err)
		}
	}
}
