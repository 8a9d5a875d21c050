package ml

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestDecodeMutations corrupts encoded models deterministically and checks
// that Decode either refuses them or returns a model that predicts, and
// that neither takes long; it complements FuzzDecode in plain go test.
func TestDecodeMutations(t *testing.T) {
	var seeds [][]byte
	for _, m := range seedModels(t) {
		seeds = append(seeds, Encode(m))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 20000; it++ {
		b := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for k := 0; k < 1+rng.IntN(4); k++ {
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = byte(rng.IntN(256))
			case 1:
				b[i] ^= 1 << rng.IntN(8)
			case 2:
				b[i] = []byte{0, 0xff, 0x7f, 0x80, 1, 2}[rng.IntN(6)]
			}
		}
		t0 := time.Now()
		m, err := Decode(b)
		if err == nil {
			_, _ = m.Predict(anyRow(m))
		}
		if d := time.Since(t0); d > 50*time.Millisecond {
			t.Fatalf("slow %v: err=%v len=%d", d, err, len(b))
		}
	}
}
