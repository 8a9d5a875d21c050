package matrix

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sqlearn/sqlearn/gpu"
)

// Sum returns the sum of all elements.
func Sum(m *Matrix) float64 { return Device().Reduce(gpu.Sum, m.data) }

// RowSums returns the rows×1 dense column of row sums.
func RowSums(m *Matrix) *Matrix {
	out := denseLike(m.rows, 1)
	for i := range m.rows {
		out.data[i] = sumFloats(m.rowValues(i))
	}
	return out
}

// ColSums returns the 1×cols dense row of column sums.
func ColSums(m *Matrix) *Matrix {
	out := denseLike(1, m.cols)
	m.eachStored(func(_, j int, v float64) { out.data[j] += v })
	return out
}

// rowValues returns row i's stored values: all of them for a dense matrix.
func (m *Matrix) rowValues(i int) []float64 {
	if m.IsSparse() {
		return m.data[m.indptr[i]:m.indptr[i+1]]
	}
	return m.data[i*m.cols : (i+1)*m.cols]
}

// eachStored visits every stored entry, zeros included, row by row.
func (m *Matrix) eachStored(fn func(i, j int, v float64)) {
	for i := range m.rows {
		if m.IsSparse() {
			for p := m.indptr[i]; p < m.indptr[i+1]; p++ {
				fn(i, int(m.indices[p]), m.data[p])
			}
			continue
		}
		for j, v := range m.data[i*m.cols : (i+1)*m.cols] {
			fn(i, j, v)
		}
	}
}

func sumFloats(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// Norm returns a matrix norm: "fro" (Frobenius, the default when kind is
// empty), "1" (largest column sum of absolute values) or "inf" (largest row
// sum of absolute values), as numpy.linalg.norm defines them for matrices.
func Norm(m *Matrix, kind string) (float64, error) {
	switch strings.ToLower(kind) {
	case "", "fro":
		return Device().Reduce(gpu.Nrm2, m.data), nil
	case "1":
		cols := make([]float64, m.cols)
		m.eachStored(func(_, j int, v float64) { cols[j] += math.Abs(v) })
		return maxOf(cols), nil
	case "inf":
		rows := make([]float64, m.rows)
		m.eachStored(func(i, _ int, v float64) { rows[i] += math.Abs(v) })
		return maxOf(rows), nil
	}
	return 0, fmt.Errorf("%w: unknown norm %q (want 'fro', '1' or 'inf')", ErrInvalidArgument, kind)
}

func maxOf(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, v) // NaN wins
	}
	return m
}

// Diag returns the diagonal of a square matrix as a column vector, or the
// diagonal matrix (sparse) whose diagonal is a row or column vector, like
// numpy.diag and R's diag. A 1×1 matrix counts as square.
func Diag(m *Matrix) (*Matrix, error) {
	switch {
	case m.rows == m.cols:
		if m.IsSparse() {
			is, vs := make([]int, 0, m.rows), make([]float64, 0, m.rows)
			for i := range m.rows {
				if v := m.at(i, i); v != 0 {
					is, vs = append(is, i), append(vs, v)
				}
			}
			return buildCSR(m.rows, 1, is, make([]int, len(is)), vs), nil
		}
		out := denseLike(m.rows, 1)
		for i := range m.rows {
			out.data[i] = m.data[i*m.cols+i]
		}
		return out, nil
	case m.rows == 1 || m.cols == 1:
		n := max(m.rows, m.cols)
		if err := checkElements(int64(n), fmt.Sprintf("a %dx%d diagonal matrix", n, n)); err != nil {
			return nil, err
		}
		var is []int
		var vs []float64
		m.Each(func(i, j int, v float64) {
			is, vs = append(is, i+j), append(vs, v)
		})
		return buildCSR(n, n, is, is, vs), nil
	}
	return nil, fmt.Errorf("%w: DIAG of %s needs a square matrix or a vector", ErrNotSquare, shape(m))
}

// Trace returns the sum of the diagonal of a square matrix.
func Trace(m *Matrix) (float64, error) {
	if m.rows != m.cols {
		return 0, fmt.Errorf("%w: TRACE of %s", ErrNotSquare, shape(m))
	}
	var t float64
	for i := range m.rows {
		t += m.at(i, i)
	}
	return t, nil
}

// Get returns element (i, j), counting from 0.
func Get(m *Matrix, i, j int) (float64, error) {
	if i < 0 || i >= m.rows || j < 0 || j >= m.cols {
		return 0, fmt.Errorf("%w: GET (%d, %d) of %s (indices count from 0)", ErrIndexOutOfRange, i, j, shape(m))
	}
	return m.at(i, j), nil
}

// Slice returns rows [r0, r1) and columns [c0, c1), counting from 0, in m's
// layout.
func Slice(m *Matrix, r0, r1, c0, c1 int) (*Matrix, error) {
	if r0 < 0 || r0 > r1 || r1 > m.rows || c0 < 0 || c0 > c1 || c1 > m.cols {
		return nil, fmt.Errorf("%w: SLICE rows [%d, %d) columns [%d, %d) of %s (half-open, counting from 0)",
			ErrIndexOutOfRange, r0, r1, c0, c1, shape(m))
	}
	r, c := r1-r0, c1-c0
	if !m.IsSparse() {
		out := denseLike(r, c)
		for i := range r {
			copy(out.data[i*c:(i+1)*c], m.data[(r0+i)*m.cols+c0:])
		}
		return out, nil
	}
	out := &Matrix{rows: r, cols: c, layout: LayoutCSR, indptr: make([]int, r+1)}
	for i := range r {
		lo, hi := m.indptr[r0+i], m.indptr[r0+i+1]
		row := m.indices[lo:hi]
		from, _ := slices.BinarySearch(row, int32(c0))
		to, _ := slices.BinarySearch(row, int32(c1))
		for p := lo + from; p < lo+to; p++ {
			out.indices = append(out.indices, m.indices[p]-int32(c0))
			out.data = append(out.data, m.data[p])
		}
		out.indptr[i+1] = len(out.data)
	}
	return out, nil
}
