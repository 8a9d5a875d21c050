package matrix

import (
	"fmt"
	"math"
	"slices"

	"github.com/sqlearn/sqlearn/gpu"
)

// Where an operand is sparse, its unstored entries are structural zeros:
// multiplying or dividing them gives zero whatever the other operand holds
// (even Inf or NaN), as in SciPy's sparse matrices. This keeps sparse
// results sparse; the dense forms of the same operands follow IEEE 754.

func mismatch(op string, a, b *Matrix) error {
	return fmt.Errorf("%w: %s %s by %s", ErrShapeMismatch, op, shape(a), shape(b))
}

// Mul returns the matrix product a·b: sparse when both operands are sparse,
// dense otherwise.
func Mul(a, b *Matrix) (*Matrix, error) { return MulOn(Device(), a, b) }

// MulOn is Mul with its kernel run on dev rather than the current device,
// for callers that choose a device per session. A sparse·sparse product
// has no device kernel and runs here whatever dev is.
func MulOn(dev gpu.Device, a, b *Matrix) (*Matrix, error) {
	if a.cols != b.rows {
		return nil, mismatch("MUL", a, b)
	}
	if a.IsSparse() && b.IsSparse() {
		return spgemm(a, b)
	}
	c, err := newDense(a.rows, b.cols)
	if err != nil {
		return nil, err
	}
	switch {
	case a.IsSparse():
		dev.SpMM(a.csr(), b.data, b.cols, c.data)
	case b.IsSparse():
		dev.MMSp(a.rows, a.data, b.csr(), c.data)
	default:
		dev.Gemm(false, false, a.rows, b.cols, a.cols, 1, a.data, a.cols, b.data, b.cols, 0, c.data, c.cols)
	}
	return c, nil
}

// MulT returns op(a)·op(b), where op transposes its operand when the flag
// says so. Dense operands are handed to the device's GEMM with transpose
// flags, so no transposed copy is made: for a tall, thin X, t(X)·X costs
// the product alone. A sparse operand is transposed first.
func MulT(a *Matrix, ta bool, b *Matrix, tb bool) (*Matrix, error) {
	return MulTOn(Device(), a, ta, b, tb)
}

// MulTOn is MulT with its kernel run on dev rather than the current device.
func MulTOn(dev gpu.Device, a *Matrix, ta bool, b *Matrix, tb bool) (*Matrix, error) {
	if a.IsSparse() || b.IsSparse() || !(ta || tb) {
		if ta {
			a = T(a)
		}
		if tb {
			b = T(b)
		}
		return MulOn(dev, a, b)
	}
	m, k := a.rows, a.cols
	if ta {
		m, k = k, m
	}
	kb, n := b.rows, b.cols
	if tb {
		kb, n = n, kb
	}
	if k != kb {
		return nil, fmt.Errorf("%w: MUL %dx%d by %dx%d", ErrShapeMismatch, m, k, kb, n)
	}
	c, err := newDense(m, n)
	if err != nil {
		return nil, err
	}
	dev.Gemm(ta, tb, m, n, k, 1, a.data, a.cols, b.data, b.cols, 0, c.data, c.cols)
	return c, nil
}

// spgemm is Gustavson's row-by-row product with a dense accumulator the
// width of one output row.
func spgemm(a, b *Matrix) (*Matrix, error) {
	if err := checkElements(int64(b.cols), fmt.Sprintf("a product with %d columns", b.cols)); err != nil {
		return nil, err
	}
	limit := MaxElements()
	c := &Matrix{rows: a.rows, cols: b.cols, layout: LayoutCSR, indptr: make([]int, a.rows+1)}
	acc := make([]float64, b.cols)
	seen := make([]int, b.cols) // row number + 1 of the last row that touched each column
	var cols []int32
	for i := range a.rows {
		cols = cols[:0]
		for p := a.indptr[i]; p < a.indptr[i+1]; p++ {
			k, av := a.indices[p], a.data[p]
			for q := b.indptr[k]; q < b.indptr[k+1]; q++ {
				j := b.indices[q]
				if seen[j] != i+1 {
					seen[j], acc[j] = i+1, 0
					cols = append(cols, j)
				}
				acc[j] += av * b.data[q]
			}
		}
		slices.Sort(cols)
		for _, j := range cols {
			if acc[j] != 0 {
				c.indices = append(c.indices, j)
				c.data = append(c.data, acc[j])
			}
		}
		c.indptr[i+1] = len(c.data)
		if int64(len(c.data)) > limit {
			return nil, checkElements(int64(len(c.data)), fmt.Sprintf("a sparse %dx%d product", c.rows, c.cols))
		}
	}
	return c, nil
}

// T returns the transpose of m, in m's layout.
func T(m *Matrix) *Matrix {
	if m.IsSparse() {
		return transposeCSR(m)
	}
	t := denseLike(m.cols, m.rows)
	// Tiles keep both the rows read and the rows written in cache.
	const tile = 32
	for i0 := 0; i0 < m.rows; i0 += tile {
		for j0 := 0; j0 < m.cols; j0 += tile {
			for i := i0; i < min(i0+tile, m.rows); i++ {
				for j := j0; j < min(j0+tile, m.cols); j++ {
					t.data[j*m.rows+i] = m.data[i*m.cols+j]
				}
			}
		}
	}
	return t
}

func transposeCSR(m *Matrix) *Matrix {
	t := &Matrix{rows: m.cols, cols: m.rows, layout: LayoutCSR, indptr: make([]int, m.cols+1),
		data: make([]float64, len(m.data)), indices: make([]int32, len(m.data))}
	for _, j := range m.indices {
		t.indptr[j+1]++
	}
	for j := range m.cols {
		t.indptr[j+1] += t.indptr[j]
	}
	next := slices.Clone(t.indptr[:m.cols])
	// Visiting rows in order leaves each output row's indices sorted.
	for i := range m.rows {
		for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
			j := m.indices[p]
			t.indices[next[j]] = int32(i)
			t.data[next[j]] = m.data[p]
			next[j]++
		}
	}
	return t
}

// Abs returns the absolute value of each element, in m's layout.
func Abs(m *Matrix) *Matrix {
	if m.IsSparse() {
		return mapStored(m, func(_, _ int, v float64) float64 { return math.Abs(v) })
	}
	t := denseLike(m.rows, m.cols)
	for i, v := range m.data {
		t.data[i] = math.Abs(v)
	}
	return t
}

// AddScalar returns m with s added to every element, dense: what a + s
// means when s stands for a matrix of its value, without building that
// matrix.
func AddScalar(m *Matrix, s float64) (*Matrix, error) {
	d, err := ToDense(m)
	if err != nil {
		return nil, err
	}
	c := denseLike(m.rows, m.cols)
	for i, v := range d.data {
		c.data[i] = v + s
	}
	return c, nil
}

// Add returns a + b: sparse when both are sparse.
func Add(a, b *Matrix) (*Matrix, error) { return addSub("ADD", gpu.Add, a, b) }

// Sub returns a - b: sparse when both are sparse.
func Sub(a, b *Matrix) (*Matrix, error) { return addSub("SUB", gpu.Sub, a, b) }

func addSub(name string, op gpu.BinaryOp, a, b *Matrix) (*Matrix, error) {
	if a.rows != b.rows || a.cols != b.cols {
		return nil, mismatch(name, a, b)
	}
	if a.IsSparse() && b.IsSparse() {
		f := func(x, y float64) float64 { return x + y }
		if op == gpu.Sub {
			f = func(x, y float64) float64 { return x - y }
		}
		return mergeCSR(a, b, f, false)
	}
	return denseBinary(op, a, b)
}

// EMul returns the element-wise product; sparse if either operand is.
func EMul(a, b *Matrix) (*Matrix, error) {
	if a.rows != b.rows || a.cols != b.cols {
		return nil, mismatch("EMUL", a, b)
	}
	switch {
	case a.IsSparse() && b.IsSparse():
		return mergeCSR(a, b, func(x, y float64) float64 { return x * y }, true)
	case a.IsSparse():
		return mapStored(a, func(i, j int, v float64) float64 { return v * b.data[i*b.cols+j] }), nil
	case b.IsSparse():
		return mapStored(b, func(i, j int, v float64) float64 { return a.data[i*a.cols+j] * v }), nil
	}
	return denseBinary(gpu.Mul, a, b)
}

// EDiv returns the element-wise quotient a / b; sparse when a is sparse
// (a structural zero divided by anything stays zero).
func EDiv(a, b *Matrix) (*Matrix, error) {
	if a.rows != b.rows || a.cols != b.cols {
		return nil, mismatch("EDIV", a, b)
	}
	if a.IsSparse() {
		return mapStored(a, func(i, j int, v float64) float64 { return v / b.at(i, j) }), nil
	}
	return denseBinary(gpu.Div, a, b)
}

func denseBinary(op gpu.BinaryOp, a, b *Matrix) (*Matrix, error) {
	da, err := ToDense(a)
	if err != nil {
		return nil, err
	}
	db, err := ToDense(b)
	if err != nil {
		return nil, err
	}
	c := denseLike(a.rows, a.cols)
	Device().Binary(op, c.data, da.data, db.data)
	return c, nil
}

// mergeCSR walks two sparse matrices of one shape row by row, over the
// union of their patterns (or the intersection), dropping zero results.
func mergeCSR(a, b *Matrix, f func(x, y float64) float64, intersect bool) (*Matrix, error) {
	c := &Matrix{rows: a.rows, cols: a.cols, layout: LayoutCSR, indptr: make([]int, a.rows+1)}
	for i := range a.rows {
		p, pe := a.indptr[i], a.indptr[i+1]
		q, qe := b.indptr[i], b.indptr[i+1]
		for p < pe || q < qe {
			var (
				j    int32
				x, y float64
				both bool
			)
			switch {
			case q == qe || (p < pe && a.indices[p] < b.indices[q]):
				j, x = a.indices[p], a.data[p]
				p++
			case p == pe || b.indices[q] < a.indices[p]:
				j, y = b.indices[q], b.data[q]
				q++
			default:
				j, x, y, both = a.indices[p], a.data[p], b.data[q], true
				p++
				q++
			}
			if intersect && !both {
				continue
			}
			if v := f(x, y); v != 0 {
				c.indices = append(c.indices, j)
				c.data = append(c.data, v)
			}
		}
		c.indptr[i+1] = len(c.data)
	}
	if err := checkElements(int64(len(c.data)), fmt.Sprintf("a sparse %dx%d result", c.rows, c.cols)); err != nil {
		return nil, err
	}
	return c, nil
}

// mapStored applies f to the stored entries of a sparse matrix, sharing its
// (immutable) structure with the result.
func mapStored(s *Matrix, f func(i, j int, v float64) float64) *Matrix {
	c := &Matrix{rows: s.rows, cols: s.cols, layout: LayoutCSR, indptr: s.indptr, indices: s.indices,
		data: make([]float64, len(s.data))}
	for i := range s.rows {
		for p := s.indptr[i]; p < s.indptr[i+1]; p++ {
			c.data[p] = f(i, int(s.indices[p]), s.data[p])
		}
	}
	return c
}

// unary applies op to every element. keepsZero says op(0) == 0, so a
// sparse operand can keep its pattern; otherwise the result is dense.
func unary(m *Matrix, op gpu.UnaryOp, s float64, keepsZero bool) (*Matrix, error) {
	if m.IsSparse() && keepsZero {
		c := &Matrix{rows: m.rows, cols: m.cols, layout: LayoutCSR, indptr: m.indptr, indices: m.indices,
			data: make([]float64, len(m.data))}
		Device().Unary(op, s, c.data, m.data)
		return c, nil
	}
	d, err := ToDense(m)
	if err != nil {
		return nil, err
	}
	c := denseLike(m.rows, m.cols)
	Device().Unary(op, s, c.data, d.data)
	return c, nil
}

// Scale returns s·m, in m's layout.
func Scale(m *Matrix, s float64) *Matrix {
	c, err := unary(m, gpu.Scale, s, true)
	if err != nil {
		panic(err) // cannot happen: the result is no larger than m
	}
	return c
}

// Exp returns e raised to each element; always dense, as exp(0) = 1.
func Exp(m *Matrix) (*Matrix, error) { return unary(m, gpu.Exp, 0, false) }

// Log returns the natural logarithm of each element; always dense, as
// log(0) = -Inf. Negative elements give NaN.
func Log(m *Matrix) (*Matrix, error) { return unary(m, gpu.Log, 0, false) }

// Sqrt returns the square root of each element, in m's layout. Negative
// elements give NaN.
func Sqrt(m *Matrix) *Matrix {
	c, err := unary(m, gpu.Sqrt, 0, true)
	if err != nil {
		panic(err) // cannot happen: the result is no larger than m
	}
	return c
}

// Pow raises each element to p. A sparse m stays sparse for p > 0, where
// 0^p = 0; other exponents give a dense result.
func Pow(m *Matrix, p float64) (*Matrix, error) { return unary(m, gpu.Pow, p, p > 0) }
