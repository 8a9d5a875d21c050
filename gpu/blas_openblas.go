//go:build openblas

package gpu

// OpenBLAS is reached through gonum's netlib cgo binding. That package's cgo
// stanza names no library, so its build must be given one:
//
//	CGO_LDFLAGS=-lopenblas go build -tags openblas ./...
//
// The Debian package libopenblas-dev puts libopenblas.so on the default
// linker path; elsewhere add -L<dir>. Installing the binding as gonum's
// global BLAS also routes gonum's LAPACK (LU, Cholesky) through OpenBLAS.
//
// OpenBLAS is held to one thread per call, and large products are split
// across cores here instead (bandedBLAS): OpenBLAS's own pool keeps its
// workers spinning for a while after each call, which on a small machine
// takes a core from the Go code between the many small products of an LA
// loop (HIGGS DFP: 5.9 ms with two OpenBLAS threads, 4.6 ms with one), and a
// server running several sessions' products at once is better served by
// one thread per call than by pools contending for the same cores.

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int);
import "C"

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	C.openblas_set_num_threads(1)
	blas64.Use(bandedBLAS{})
}

// BLASName reports the BLAS library behind the CPU device.
func BLASName() string { return "openblas" }

// bandedBLAS is OpenBLAS with large DGEMMs split across cores, one
// single-threaded call per core, for every caller of gonum's BLAS
// (gonum's LAPACK included). How a product is split depends on which way
// its operands are stored, so that no core streams memory another has
// to stream too:
//   - op(A) = A: bands of C's rows, each reading its own rows of A;
//   - op(A) = Aᵀ with a long inner dimension (XᵀX, Xᵀv on a tall X):
//     slices of the inner dimension, each reading its own rows of A and
//     B into a private m×n result that are then summed. Banding C's
//     rows there would have every core read all of A, since a band of
//     Aᵀ's rows is a set of A's columns.
type bandedBLAS struct{ netlib.Implementation }

// minBandedWork is the flop count below which a product runs as one call:
// splitting a product that small costs more in goroutine start-up than it
// saves.
const minBandedWork = 1 << 22

// maxSplitResult bounds the private results of an inner-dimension split.
const maxSplitResult = 1 << 16

func (bb bandedBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	work := 2 * m * n * k
	workers := runtime.GOMAXPROCS(0)
	switch {
	case work < minBandedWork || workers < 2:
	case tA == blas.NoTrans && m >= 16:
		// Bands are whole multiples of 8 rows, the kernels' register block.
		parallelFor((m+7)/8, work, func(lo, hi int) {
			r0, r1 := lo*8, min(hi*8, m)
			bb.Implementation.Dgemm(tA, tB, r1-r0, n, k, alpha, a[r0*lda:], lda, b, ldb, beta, c[r0*ldc:], ldc)
		})
		return
	case tA != blas.NoTrans && k >= 64*workers && m*n <= maxSplitResult:
		bb.splitInner(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, workers)
		return
	}
	bb.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// splitInner computes C = alpha·Σ_w op(A)[:, K_w]·op(B)[K_w, :] + beta·C
// over contiguous slices K_w of the inner dimension; op(A) is Aᵀ, so each
// slice is a block of A's rows.
func (bb bandedBLAS) splitInner(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int, workers int) {
	parts := make([][]float64, workers)
	chunk := (k + workers - 1) / workers
	parallelFor(workers, 2*m*n*k, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			k0, k1 := w*chunk, min((w+1)*chunk, k)
			if k0 >= k1 {
				continue
			}
			off := k0 // rows k0.. of op(B) are B's rows, or its columns
			if tB == blas.NoTrans {
				off = k0 * ldb
			}
			part := make([]float64, m*n)
			bb.Implementation.Dgemm(tA, tB, m, n, k1-k0, 1, a[k0*lda:], lda, b[off:], ldb, 0, part, n)
			parts[w] = part
		}
	})
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			var s float64
			for _, part := range parts {
				if part != nil {
					s += part[i*n+j]
				}
			}
			if beta == 0 {
				row[j] = alpha * s
			} else {
				row[j] = alpha*s + beta*row[j]
			}
		}
	}
}
