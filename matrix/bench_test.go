package matrix

import (
	"testing"

	"github.com/sqlearn/sqlearn/gpu"
)

// BenchmarkSpMM multiplies the shared Matrix Market matrices (CSR) by a
// dense matrix of 47 columns, the sparse×dense kernel of iterative methods
// such as PageRank with many start vectors.
func BenchmarkSpMM(b *testing.B) {
	for _, file := range []string{"bcsstk13.mtx", "pushpull.mtx"} {
		b.Run(file+"/"+gpu.BLASName(), func(b *testing.B) {
			s, err := readMatrixFile(b, file)
			if err != nil {
				b.Fatal(err)
			}
			x := mustRand(b, s.Cols(), 47, 1, 1)
			for b.Loop() {
				if _, err := Mul(s, x); err != nil {
					b.Fatal(err)
				}
			}
			flops := 2 * float64(len(s.data)) * 47 * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkTallSkinnyGram times XᵀX for a 7,000 × 28 X (the HIGGS sample's
// shape), split into the transpose and the product, as the LA optimizer
// evaluates a hoisted t(X) %*% X.
func BenchmarkTallSkinnyGram(b *testing.B) {
	x, err := Rand(7000, 28, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	xt := T(x)
	b.Run("transpose", func(b *testing.B) {
		for b.Loop() {
			T(x)
		}
	})
	b.Run("product", func(b *testing.B) {
		for b.Loop() {
			if _, err := Mul(xt, x); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("flagged", func(b *testing.B) {
		for b.Loop() {
			if _, err := MulT(x, true, x, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
