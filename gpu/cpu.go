package gpu

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// CPU returns the host device. Its GEMM and factorisations use whichever
// BLAS the build selected (see BLASName); its own loops use every processor
// GOMAXPROCS allows once the work is large enough to pay for it.
func CPU() Device { return cpuDevice{} }

type cpuDevice struct{}

var (
	_ Device = cpuDevice{}
	_ Solver = cpuDevice{}
)

func (cpuDevice) Name() string { return "cpu" }

func transpose(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func (cpuDevice) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		// BLAS rejects a zero leading dimension, yet an empty inner
		// product is well defined: C = beta*C.
		scaleRows(m, n, beta, c, ldc)
		return
	}
	blas64.Implementation().Dgemm(transpose(transA), transpose(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (cpuDevice) SpMM(a CSR, b []float64, n int, c []float64) {
	if len(b) < a.Cols*n || len(c) < a.Rows*n {
		panic("gpu: SpMM operand too short")
	}
	parallelFor(a.Rows, 2*len(a.Values)*n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			crow := c[i*n : (i+1)*n]
			clear(crow)
			for p := a.Indptr[i]; p < a.Indptr[i+1]; p++ {
				col := int(a.Indices[p])
				axpy(a.Values[p], b[col*n:(col+1)*n], crow)
			}
		}
	})
}

func (cpuDevice) MMSp(m int, a []float64, b CSR, c []float64) {
	if len(a) < m*b.Rows || len(c) < m*b.Cols {
		panic("gpu: MMSp operand too short")
	}
	parallelFor(m, 2*len(b.Values)*m, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			arow := a[i*b.Rows : (i+1)*b.Rows]
			crow := c[i*b.Cols : (i+1)*b.Cols]
			clear(crow)
			// No shortcut for av == 0: a stored Inf or NaN in B must
			// still poison the row, as it would in a dense product.
			for k, av := range arow {
				for p := b.Indptr[k]; p < b.Indptr[k+1]; p++ {
					crow[b.Indices[p]] += av * b.Values[p]
				}
			}
		}
	})
}

// axpy sets y += alpha*x; unrolled because it is the inner loop of SpMM.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += alpha * x[i]
		y[i+1] += alpha * x[i+1]
		y[i+2] += alpha * x[i+2]
		y[i+3] += alpha * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

func (cpuDevice) Unary(op UnaryOp, s float64, dst, x []float64) {
	if len(dst) != len(x) {
		panic("gpu: Unary length mismatch")
	}
	var f func(float64) float64
	switch op {
	case Exp:
		f = math.Exp
	case Log:
		f = math.Log
	case Sqrt:
		f = math.Sqrt
	case Pow:
		switch s {
		case 2: // squares, as in sums of squared residuals, are most of them
			f = func(v float64) float64 { return v * v }
		default:
			f = func(v float64) float64 { return math.Pow(v, s) }
		}
	case Scale:
		f = func(v float64) float64 { return v * s }
	default:
		panic("gpu: unknown unary op")
	}
	parallelFor(len(x), 8*len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = f(x[i])
		}
	})
}

func (cpuDevice) Binary(op BinaryOp, dst, x, y []float64) {
	if len(dst) != len(x) || len(x) != len(y) {
		panic("gpu: Binary length mismatch")
	}
	var kernel func(d, x, y []float64)
	switch op {
	case Add:
		kernel = func(d, x, y []float64) {
			for i := range d {
				d[i] = x[i] + y[i]
			}
		}
	case Sub:
		kernel = func(d, x, y []float64) {
			for i := range d {
				d[i] = x[i] - y[i]
			}
		}
	case Mul:
		kernel = func(d, x, y []float64) {
			for i := range d {
				d[i] = x[i] * y[i]
			}
		}
	case Div:
		kernel = func(d, x, y []float64) {
			for i := range d {
				d[i] = x[i] / y[i]
			}
		}
	default:
		panic("gpu: unknown binary op")
	}
	parallelFor(len(x), len(x), func(lo, hi int) {
		kernel(dst[lo:hi], x[lo:hi], y[lo:hi])
	})
}

// reduceChunk fixes the summation order: partial results are formed over
// chunks of this many elements and folded left to right, whatever the
// number of workers.
const reduceChunk = 1 << 13

func (d cpuDevice) Reduce(op ReduceOp, x []float64) float64 {
	switch op {
	case Sum:
		return chunked(x, sum, func(a, b float64) float64 { return a + b })
	case MaxAbs:
		// The max builtin returns NaN if either argument is NaN.
		return chunked(x, maxAbs, func(a, b float64) float64 { return max(a, b) })
	case Nrm2:
		// Scaling by the largest magnitude keeps the squares finite.
		scale := d.Reduce(MaxAbs, x)
		if scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
			return scale
		}
		ssq := chunked(x, func(x []float64) float64 {
			var s float64
			for _, v := range x {
				v /= scale
				s += v * v
			}
			return s
		}, func(a, b float64) float64 { return a + b })
		return scale * math.Sqrt(ssq)
	default:
		panic("gpu: unknown reduce op")
	}
}

func chunked(x []float64, part func([]float64) float64, fold func(a, b float64) float64) float64 {
	if len(x) <= reduceChunk {
		return part(x)
	}
	parts := make([]float64, (len(x)+reduceChunk-1)/reduceChunk)
	parallelFor(len(parts), len(x), func(lo, hi int) {
		for p := lo; p < hi; p++ {
			parts[p] = part(x[p*reduceChunk : min((p+1)*reduceChunk, len(x))])
		}
	})
	acc := parts[0]
	for _, v := range parts[1:] {
		acc = fold(acc, v)
	}
	return acc
}

func sum(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func maxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

func (cpuDevice) LU(n int, a []float64, ipiv []int) float64 {
	if n == 0 {
		return 1
	}
	g := blas64.General{Rows: n, Cols: n, Stride: n, Data: a}
	work := make([]float64, 4*n)
	anorm := lapack64.Lange(lapack.MaxColumnSum, g, work)
	if !lapack64.Getrf(g, ipiv) {
		return 0
	}
	return lapack64.Gecon(lapack.MaxColumnSum, g, anorm, work, make([]int, n))
}

func (cpuDevice) LUSolve(n, nrhs int, lu []float64, ipiv []int, b []float64) {
	if n == 0 || nrhs == 0 {
		return
	}
	lapack64.Getrs(blas.NoTrans,
		blas64.General{Rows: n, Cols: n, Stride: n, Data: lu},
		blas64.General{Rows: n, Cols: nrhs, Stride: nrhs, Data: b}, ipiv)
}

func (cpuDevice) Cholesky(n int, a []float64) bool {
	if n == 0 {
		return true
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a})
	return ok
}
