package ml

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestDecodeMutations corrupts encoded models deterministically and checks
// that Decode either refuses them or returns a model that predicts, and
// that neither allocates more than the input can justify: a corrupted count
// must be refused against the bytes left, not trusted for a make. It
// complements FuzzDecode in plain go test.
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
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := Decode(b)
		if err == nil {
			_, _ = m.Predict(anyRow(m))
		}
		runtime.ReadMemStats(&after)
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(decodeAllocPerByte*len(b)+decodeAllocSlack); got > limit {
			t.Fatalf("mutation %d allocated %d bytes for a %d-byte model (limit %d): err=%v", it, got, len(b), limit, err)
		}
	}
}

// The allocation a Decode and one Predict may make: a model's in-memory
// form is a small multiple of its encoding (slices of float64 for 8-byte
// values, maps and strings for names), plus a fixed allowance for the
// model's structs and the prediction's row.
const (
	decodeAllocPerByte = 64
	decodeAllocSlack   = 64 << 10
)
