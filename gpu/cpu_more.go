package gpu

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

var (
	_ Gemver  = cpuDevice{}
	_ Sgemmer = cpuDevice{}
)

func (cpuDevice) Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	if m == 0 || n == 0 {
		// BLAS rejects an empty A, yet y = beta*y is well defined.
		ylen := m
		if trans {
			ylen = n
		}
		for i := range y[:ylen] {
			y[i] *= beta
		}
		return
	}
	blas64.Implementation().Dgemv(transpose(trans), m, n, alpha, a, lda, x, 1, beta, y, 1)
}

func (cpuDevice) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		scaleRows(m, n, beta, c, ldc)
		return
	}
	blas32.Implementation().Sgemm(transpose(transA), transpose(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// scaleRows sets C = beta*C for an m×n C with leading dimension ldc: the
// whole of a GEMM whose inner dimension is empty. It multiplies rather
// than stores zeros when beta is 0, so NaNs in C survive as they would in
// C = beta*C.
func scaleRows[T float32 | float64](m, n int, beta T, c []T, ldc int) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			row[j] *= beta
		}
	}
}
