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
// OpenBLAS runs its own thread pool, one thread per core by default
// (OPENBLAS_NUM_THREADS overrides it).

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() { blas64.Use(netlib.Implementation{}) }

// BLASName reports the BLAS library behind the CPU device.
func BLASName() string { return "openblas" }
