package gpu

import (
	"fmt"
	"testing"
)

// BenchmarkGemm reports the rate of C = A·B for square n×n operands on the
// CPU device, with whichever BLAS the build tag selected.
func BenchmarkGemm(b *testing.B) {
	d := CPU()
	for _, n := range []int{512, 1024, 2048} {
		b.Run(fmt.Sprintf("n=%d/%s", n, BLASName()), func(b *testing.B) {
			x, y, c := lcg(n*n, 1), lcg(n*n, 2), make([]float64, n*n)
			for b.Loop() {
				d.Gemm(false, false, n, n, n, 1, x, n, y, n, 0, c, n)
			}
			flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
