package matrix

import (
	"fmt"
	"math"
	"slices"
)

// singularRcond is the reciprocal condition number below which a matrix
// counts as singular: its inverse would carry no correct digits. R's solve
// uses the same threshold; numpy only rejects exactly zero pivots.
const singularRcond = 0x1p-52

func square(op string, a *Matrix) error {
	if a.rows != a.cols {
		return fmt.Errorf("%w: %s of %s", ErrNotSquare, op, shape(a))
	}
	return nil
}

// denseCopy returns a fresh dense copy of m's elements, for kernels that
// work in place.
func denseCopy(m *Matrix) ([]float64, error) {
	d, err := ToDense(m)
	if err != nil {
		return nil, err
	}
	if d == m {
		return slices.Clone(m.data), nil
	}
	return d.data, nil
}

// luFactor returns the LU factors of the square matrix a and their pivots,
// or ErrSingular.
func luFactor(op string, a *Matrix) ([]float64, []int, error) {
	lu, err := denseCopy(a)
	if err != nil {
		return nil, nil, err
	}
	ipiv := make([]int, a.rows)
	if rcond := solver().LU(a.rows, lu, ipiv); rcond < singularRcond {
		return nil, nil, fmt.Errorf("%w: %s of %s (reciprocal condition number %.3g)", ErrSingular, op, shape(a), rcond)
	}
	return lu, ipiv, nil
}

// Inv returns the inverse of a square matrix, dense.
func Inv(a *Matrix) (*Matrix, error) {
	if err := square("INV", a); err != nil {
		return nil, err
	}
	lu, ipiv, err := luFactor("INV", a)
	if err != nil {
		return nil, err
	}
	n := a.rows
	x := denseLike(n, n)
	for i := range n {
		x.data[i*n+i] = 1
	}
	solver().LUSolve(n, n, lu, ipiv, x.data)
	return x, nil
}

// Solve returns the dense x with a·x = b for a square a, by LU with partial
// pivoting; b may have several columns.
func Solve(a, b *Matrix) (*Matrix, error) {
	if err := square("SOLVE", a); err != nil {
		return nil, err
	}
	if b.rows != a.rows {
		return nil, mismatch("SOLVE", a, b)
	}
	lu, ipiv, err := luFactor("SOLVE", a)
	if err != nil {
		return nil, err
	}
	x, err := denseCopy(b)
	if err != nil {
		return nil, err
	}
	solver().LUSolve(a.rows, b.cols, lu, ipiv, x)
	return &Matrix{rows: b.rows, cols: b.cols, layout: LayoutDense, data: x}, nil
}

// symmetryTol is the relative asymmetry Cholesky tolerates, so a matrix
// built as A·Aᵀ, whose halves may differ in the last bits, is accepted.
const symmetryTol = 1e-10

// Cholesky returns the dense lower-triangular L with a = L·Lᵀ, or
// ErrNotPositiveDefinite when a is not symmetric positive definite.
func Cholesky(a *Matrix) (*Matrix, error) {
	if err := square("CHOLESKY", a); err != nil {
		return nil, err
	}
	l, err := denseCopy(a)
	if err != nil {
		return nil, err
	}
	n := a.rows
	var scale float64
	for _, v := range l {
		scale = max(scale, math.Abs(v))
	}
	for i := range n {
		for j := range i {
			if d := math.Abs(l[i*n+j] - l[j*n+i]); d > symmetryTol*scale || math.IsNaN(d) {
				return nil, fmt.Errorf("%w: CHOLESKY of %s: not symmetric at (%d, %d)", ErrNotPositiveDefinite, shape(a), i, j)
			}
		}
	}
	if !solver().Cholesky(n, l) {
		return nil, fmt.Errorf("%w: CHOLESKY of %s", ErrNotPositiveDefinite, shape(a))
	}
	for i := range n {
		clear(l[i*n+i+1 : (i+1)*n])
	}
	return &Matrix{rows: n, cols: n, layout: LayoutDense, data: l}, nil
}
