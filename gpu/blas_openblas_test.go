//go:build openblas

package gpu

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
)

// TestBandedDgemm holds the split DGEMM to OpenBLAS's own result for
// every transpose and shapes that split unevenly, with leading dimensions
// wider than the operands and an accumulating beta, to the rounding of a
// differently ordered sum. Where C's rows are banded each element is the
// same dot product either way, but OpenBLAS picks its kernel (and so the
// order of the additions) by the shape of the call: a band of a few rows
// came out a last bit away from the whole on this machine.
func TestBandedDgemm(t *testing.T) {
	for _, sh := range [][3]int{{300, 200, 100}, {28, 28, 7000}, {129, 3, 9000}, {17, 500, 700}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				ar, ac := m, k
				if tA == blas.Trans {
					ar, ac = k, m
				}
				br, bc := k, n
				if tB == blas.Trans {
					br, bc = n, k
				}
				lda, ldb, ldc := ac+3, bc+1, n+2
				a, b := lcg(ar*lda, 3), lcg(br*ldb, 4)
				want, got := lcg(m*ldc, 5), lcg(m*ldc, 5)
				netlib.Implementation{}.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.5, want, ldc)
				bandedBLAS{}.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.5, got, ldc)
				name := fmt.Sprintf("%dx%dx%d %c%c", m, n, k, tA, tB)
				// Operands lie in [-1, 1]: a sum of k products reordered
				// moves by at most about k·ε·1.5.
				tol := 4 * float64(k) * 1.5 * 0x1p-52
				for i := range want {
					if math.Abs(got[i]-want[i]) > tol || math.IsNaN(got[i]) != math.IsNaN(want[i]) {
						t.Fatalf("%s: element %d is %v, want %v", name, i, got[i], want[i])
					}
				}
			}
		}
	}
}
