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
// loop (a HIGGS DFP run went from 6.1 to 4.6 ms with one thread), and a
// server running several sessions' products at once is better served by
// one thread per call than by pools contending for the same cores.

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int);
import "C"

import (
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

// bandedBLAS is OpenBLAS with DGEMM split into bands of C's rows, one
// single-threaded call per core, for every caller of gonum's BLAS
// (gonum's LAPACK included).
type bandedBLAS struct{ netlib.Implementation }

// minBandedWork is the flop count below which a product runs as one call:
// splitting a product that small costs more in goroutine start-up and
// repeated reads of B than it saves.
const minBandedWork = 1 << 22

func (bb bandedBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	work := 2 * m * n * k
	if m < 16 || work < minBandedWork {
		bb.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Bands are whole multiples of 8 rows, the kernels' register block.
	parallelFor((m+7)/8, work, func(lo, hi int) {
		r0, r1 := lo*8, min(hi*8, m)
		off := r0 * lda // rows of op(A) are rows of A...
		if tA != blas.NoTrans {
			off = r0 // ...or its columns
		}
		bb.Implementation.Dgemm(tA, tB, r1-r0, n, k, alpha, a[off:], lda, b, ldb, beta, c[r0*ldc:], ldc)
	})
}
