package matrix

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/sqlearn/sqlearn/gpu"
)

// Layout is how a matrix stores its elements. The values are those of the
// layout byte in the binary format.
type Layout uint8

const (
	// LayoutDense stores rows*cols values row by row.
	LayoutDense Layout = 1
	// LayoutCSR stores the nonzero values row by row with their column
	// indices (compressed sparse row).
	LayoutCSR Layout = 2
)

func (l Layout) String() string {
	switch l {
	case LayoutDense:
		return "dense"
	case LayoutCSR:
		return "csr"
	}
	return fmt.Sprintf("layout(%d)", uint8(l))
}

// MaxDim bounds each dimension so that column indices fit in an int32.
const MaxDim = math.MaxInt32

// DefaultMaxElements is the default of MaxElements: 2^27 float64 values,
// 1 GiB.
const DefaultMaxElements = 1 << 27

var maxElements atomic.Int64

func init() { maxElements.Store(DefaultMaxElements) }

// MaxElements is the most values a matrix may hold: rows*cols for a dense
// result, stored entries for a sparse one. It keeps a request such as a
// 10⁶×10⁶ dense matrix from exhausting memory.
func MaxElements() int64 { return maxElements.Load() }

// SetMaxElements changes MaxElements and returns the previous limit.
func SetMaxElements(n int64) (previous int64) {
	if n < 1 {
		n = 1
	}
	return maxElements.Swap(n)
}

// Matrix is an immutable float64 matrix. The zero value is not usable;
// build one with a constructor.
type Matrix struct {
	rows, cols int
	layout     Layout
	// data holds rows*cols values for LayoutDense and the stored values
	// for LayoutCSR.
	data []float64
	// indptr (rows+1 entries) and indices (one per stored value) exist
	// only for LayoutCSR.
	indptr  []int
	indices []int32
	// enc, when set, is the matrix's own encoding, in which data lives.
	enc []byte
	// nnz caches NNZ plus one (0: not counted yet); the values never
	// change, and planners ask for it on every run.
	nnz atomic.Int64
}

func (m *Matrix) Rows() int      { return m.rows }
func (m *Matrix) Cols() int      { return m.cols }
func (m *Matrix) Layout() Layout { return m.layout }
func (m *Matrix) IsSparse() bool { return m.layout == LayoutCSR }

// NNZ counts the elements that are not zero (NaN counts as nonzero), so
// the dense and sparse forms of one matrix agree.
func (m *Matrix) NNZ() int {
	if c := m.nnz.Load(); c > 0 {
		return int(c - 1)
	}
	n := 0
	for _, v := range m.data {
		if v != 0 {
			n++
		}
	}
	m.nnz.Store(int64(n) + 1)
	return n
}

func (m *Matrix) String() string {
	return fmt.Sprintf("%s %s", shape(m), m.layout)
}

func shape(m *Matrix) string { return fmt.Sprintf("%dx%d", m.rows, m.cols) }

func checkDims(r, c int) error {
	if r < 0 || c < 0 {
		return fmt.Errorf("%w: negative dimension %dx%d", ErrInvalidArgument, r, c)
	}
	if r > MaxDim || c > MaxDim {
		return fmt.Errorf("%w: %dx%d exceeds the largest dimension %d", ErrTooLarge, r, c, MaxDim)
	}
	return nil
}

// checkDense is checkElements for an r×c dense matrix, with the message
// built only on failure: it runs on every allocation of a result.
func checkDense(n int64, r, c int) error {
	if n <= MaxElements() {
		return nil
	}
	return checkElements(n, fmt.Sprintf("a dense %dx%d matrix", r, c))
}

// checkElements reports whether n values fit under MaxElements.
func checkElements(n int64, what string) error {
	if limit := MaxElements(); n > limit {
		return fmt.Errorf("%w: %s needs %d elements, limit is %d", ErrTooLarge, what, n, limit)
	}
	return nil
}

func newDense(r, c int) (*Matrix, error) {
	if err := checkDims(r, c); err != nil {
		return nil, err
	}
	// Both dimensions are below 2^31, so the product cannot overflow.
	if err := checkDense(int64(r)*int64(c), r, c); err != nil {
		return nil, err
	}
	return &Matrix{rows: r, cols: c, layout: LayoutDense, data: make([]float64, r*c)}, nil
}

// denseLike allocates a dense matrix no larger than one that already
// exists, so the size checks have been passed before.
func denseLike(r, c int) *Matrix {
	return &Matrix{rows: r, cols: c, layout: LayoutDense, data: make([]float64, r*c)}
}

// Zeros returns an r×c dense matrix of zeros.
func Zeros(r, c int) (*Matrix, error) { return newDense(r, c) }

// Identity returns the n×n identity, stored sparse.
func Identity(n int) (*Matrix, error) {
	if err := checkDims(n, n); err != nil {
		return nil, err
	}
	if err := checkElements(int64(n), fmt.Sprintf("a %dx%d identity", n, n)); err != nil {
		return nil, err
	}
	m := &Matrix{rows: n, cols: n, layout: LayoutCSR,
		data: make([]float64, n), indptr: make([]int, n+1), indices: make([]int32, n)}
	for i := range n {
		m.data[i] = 1
		m.indptr[i+1] = i + 1
		m.indices[i] = int32(i)
	}
	return m, nil
}

// FromRows copies rows into a dense matrix; every row must have the same
// length.
func FromRows(rows [][]float64) (*Matrix, error) {
	c := 0
	if len(rows) > 0 {
		c = len(rows[0])
	}
	for i, row := range rows {
		if len(row) != c {
			return nil, fmt.Errorf("%w: row %d has %d values, row 0 has %d", ErrInvalidArgument, i, len(row), c)
		}
	}
	m, err := newDense(len(rows), c)
	if err != nil {
		return nil, err
	}
	for i, row := range rows {
		copy(m.data[i*c:], row)
	}
	return m, nil
}

// NewDense wraps data, r*c values in row-major order, as a dense matrix.
// The matrix takes ownership: the caller must not modify data afterwards.
func NewDense(r, c int, data []float64) (*Matrix, error) {
	if err := checkDims(r, c); err != nil {
		return nil, err
	}
	if int64(len(data)) != int64(r)*int64(c) {
		return nil, fmt.Errorf("%w: %d values for a %dx%d matrix", ErrInvalidArgument, len(data), r, c)
	}
	if err := checkDense(int64(len(data)), r, c); err != nil {
		return nil, err
	}
	return &Matrix{rows: r, cols: c, layout: LayoutDense, data: data}, nil
}

// NewDenseEncoded makes an r×c dense matrix whose values live inside its
// own encoding, and returns the values to fill (row-major) before the
// matrix is used; Encode then returns the encoding without copying. A
// loader that fills a large matrix once and ships it as a blob saves a copy
// of every value that way. ok is false on hosts whose float layout is not
// the format's (then build with NewDense instead).
func NewDenseEncoded(r, c int) (m *Matrix, vals []float64, ok bool, err error) {
	if err := checkDims(r, c); err != nil {
		return nil, nil, false, err
	}
	n := int64(r) * int64(c)
	if err := checkDense(n, r, c); err != nil {
		return nil, nil, false, err
	}
	if !nativeLittleEndian || n == 0 {
		return nil, nil, false, nil
	}
	// A []uint64 backing keeps the payload 8-byte aligned for the view.
	words := make([]uint64, headerSize/8+n)
	enc := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 8*len(words))
	writeHeader(enc, LayoutDense, r, c, int(n))
	vals = unsafe.Slice((*float64)(unsafe.Pointer(&words[headerSize/8])), n)
	return &Matrix{rows: r, cols: c, layout: LayoutDense, data: vals, enc: enc}, vals, true, nil
}

// FromTriples builds an r×c sparse matrix from (i, j, v) entries, 0-based.
// Entries may come in any order; duplicates are summed and zeros dropped.
func FromTriples(r, c int, is, js []int, vs []float64) (*Matrix, error) {
	if len(is) != len(js) || len(is) != len(vs) {
		return nil, fmt.Errorf("%w: triples of unequal length %d, %d, %d", ErrInvalidArgument, len(is), len(js), len(vs))
	}
	if err := checkDims(r, c); err != nil {
		return nil, err
	}
	if err := checkElements(int64(len(vs)), fmt.Sprintf("a sparse %dx%d matrix with %d entries", r, c, len(vs))); err != nil {
		return nil, err
	}
	if err := checkElements(int64(r), fmt.Sprintf("a sparse matrix with %d rows", r)); err != nil {
		return nil, err
	}
	for k := range is {
		if is[k] < 0 || is[k] >= r || js[k] < 0 || js[k] >= c {
			return nil, fmt.Errorf("%w: entry (%d, %d) outside %dx%d", ErrIndexOutOfRange, is[k], js[k], r, c)
		}
	}
	return buildCSR(r, c, is, js, vs), nil
}

// NewCSR makes an r×c sparse matrix from compressed-sparse-row arrays,
// which it takes over: indptr has r+1 increasing offsets from 0 to
// len(values), and each row's column indices are increasing and inside
// [0, c), and no value is zero (the layout stores nonzeros only). A loader
// that already holds the arrays saves FromTriples' sort that way.
func NewCSR(r, c int, indptr []int, indices []int32, values []float64) (*Matrix, error) {
	if err := checkDims(r, c); err != nil {
		return nil, err
	}
	if len(indptr) != r+1 || indptr[0] != 0 || indptr[r] != len(values) || len(indices) != len(values) {
		return nil, fmt.Errorf("%w: CSR arrays of %d offsets, %d indices and %d values for %d rows", ErrInvalidArgument, len(indptr), len(indices), len(values), r)
	}
	if err := checkElements(int64(len(values)), fmt.Sprintf("a sparse %dx%d matrix", r, c)); err != nil {
		return nil, err
	}
	for i := range r {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo {
			return nil, fmt.Errorf("%w: CSR row %d ends before it starts", ErrInvalidArgument, i)
		}
		for k := lo; k < hi; k++ {
			if j := indices[k]; j < 0 || int(j) >= c || (k > lo && j <= indices[k-1]) {
				return nil, fmt.Errorf("%w: CSR row %d has column %d out of order or outside %d columns", ErrInvalidArgument, i, j, c)
			}
			if values[k] == 0 {
				return nil, fmt.Errorf("%w: CSR row %d stores a zero", ErrInvalidArgument, i)
			}
		}
	}
	return &Matrix{rows: r, cols: c, layout: LayoutCSR, indptr: indptr, indices: indices, data: values}, nil
}

// buildCSR assembles validated triples: a counting sort by row, then a sort
// by column within each row, summing duplicates and dropping zeros.
func buildCSR(r, c int, is, js []int, vs []float64) *Matrix {
	type entry struct {
		col int32
		v   float64
	}
	indptr := make([]int, r+1)
	for _, i := range is {
		indptr[i+1]++
	}
	for i := range r {
		indptr[i+1] += indptr[i]
	}
	next := slices.Clone(indptr[:r])
	entries := make([]entry, len(vs))
	for k, i := range is {
		entries[next[i]] = entry{int32(js[k]), vs[k]}
		next[i]++
	}
	m := &Matrix{rows: r, cols: c, layout: LayoutCSR, indptr: make([]int, r+1),
		data: make([]float64, 0, len(vs)), indices: make([]int32, 0, len(vs))}
	for i := range r {
		row := entries[indptr[i]:indptr[i+1]]
		slices.SortFunc(row, func(a, b entry) int { return cmp.Compare(a.col, b.col) })
		for k := 0; k < len(row); {
			col, v := row[k].col, row[k].v
			for k++; k < len(row) && row[k].col == col; k++ {
				v += row[k].v
			}
			if v != 0 {
				m.indices = append(m.indices, col)
				m.data = append(m.data, v)
			}
		}
		m.indptr[i+1] = len(m.data)
	}
	return m
}

// ToDense returns m in the dense layout (m itself if already dense).
func ToDense(m *Matrix) (*Matrix, error) {
	if m.layout == LayoutDense {
		return m, nil
	}
	d, err := newDense(m.rows, m.cols)
	if err != nil {
		return nil, err
	}
	for i := range m.rows {
		row := d.data[i*m.cols:]
		for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
			row[m.indices[p]] = m.data[p]
		}
	}
	return d, nil
}

// ToCSR returns m in the sparse layout (m itself if already sparse); zeros
// are not stored.
func ToCSR(m *Matrix) *Matrix {
	if m.layout == LayoutCSR {
		return m
	}
	nnz := m.NNZ()
	s := &Matrix{rows: m.rows, cols: m.cols, layout: LayoutCSR, indptr: make([]int, m.rows+1),
		data: make([]float64, 0, nnz), indices: make([]int32, 0, nnz)}
	for i := range m.rows {
		for j, v := range m.data[i*m.cols : (i+1)*m.cols] {
			if v != 0 {
				s.indices = append(s.indices, int32(j))
				s.data = append(s.data, v)
			}
		}
		s.indptr[i+1] = len(s.data)
	}
	return s
}

// Each calls fn for every nonzero element in row-major order.
func (m *Matrix) Each(fn func(i, j int, v float64)) {
	if m.layout == LayoutCSR {
		for i := range m.rows {
			for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
				if m.data[p] != 0 {
					fn(i, int(m.indices[p]), m.data[p])
				}
			}
		}
		return
	}
	for k, v := range m.data {
		if v != 0 {
			fn(k/m.cols, k%m.cols, v)
		}
	}
}

// ToRows returns the elements as a fresh slice of rows.
func (m *Matrix) ToRows() ([][]float64, error) {
	d, err := ToDense(m)
	if err != nil {
		return nil, err
	}
	rows := make([][]float64, m.rows)
	for i := range rows {
		rows[i] = slices.Clone(d.data[i*m.cols : (i+1)*m.cols])
	}
	return rows, nil
}

// at reads one element without bounds checks against the shape.
func (m *Matrix) at(i, j int) float64 {
	if m.layout == LayoutDense {
		return m.data[i*m.cols+j]
	}
	row := m.indices[m.indptr[i]:m.indptr[i+1]]
	if k, ok := slices.BinarySearch(row, int32(j)); ok {
		return m.data[m.indptr[i]+k]
	}
	return 0
}

// DenseValues returns m's row-major values without copying, or false when
// m is sparse. Matrices are immutable: the slice must not be written.
func (m *Matrix) DenseValues() ([]float64, bool) {
	if m.IsSparse() {
		return nil, false
	}
	return m.data, true
}

// CSRArrays returns m's compressed-sparse-row arrays without copying, or
// false when m is dense. Matrices are immutable: the slices must not be
// written.
func (m *Matrix) CSRArrays() (indptr []int, indices []int32, values []float64, ok bool) {
	if !m.IsSparse() {
		return nil, nil, nil, false
	}
	return m.indptr, m.indices, m.data, true
}

func (m *Matrix) csr() gpu.CSR {
	return gpu.CSR{Rows: m.rows, Cols: m.cols, Indptr: m.indptr, Indices: m.indices, Values: m.data}
}
