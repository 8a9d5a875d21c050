package udf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKeyOrderSortsDistinctKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := map[string][]int64{
		"sorted":   {-3, 0, 1, 2, 1000},
		"extremes": {math.MaxInt64, 0, math.MinInt64, -1, 1, math.MinInt64 + 1, math.MaxInt64 - 1},
		"one":      {42},
		"counter":  nil,
		"random":   nil,
		"hash":     nil,
	}
	counter := make([]int64, 20000)
	for i := range counter {
		counter[i] = int64(i + 1)
	}
	rng.Shuffle(len(counter), func(i, j int) { counter[i], counter[j] = counter[j], counter[i] })
	cases["counter"] = counter
	random := make([]int64, 5000)
	seen := map[int64]bool{}
	for i := range random {
		for {
			v := int64(rng.Uint64())
			if !seen[v] {
				seen[v] = true
				random[i] = v
				break
			}
		}
	}
	cases["random"] = random
	// Keys laid out as four hash partitions hand them over: ascending runs.
	var runs []int64
	for p := int64(0); p < 4; p++ {
		for k := p; k < 8000; k += 4 {
			runs = append(runs, k-4000)
		}
	}
	cases["hash"] = runs
	for name, keys := range cases {
		perm := keyOrder(keys)
		got := make([]int64, len(keys))
		if perm == nil {
			copy(got, keys)
		} else {
			if len(perm) != len(keys) {
				t.Fatalf("%s: %d positions for %d keys", name, len(perm), len(keys))
			}
			for i, p := range perm {
				got[i] = keys[p]
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: keys not in ascending order after keyOrder", name)
		}
	}
	if keyOrder([]int64{1, 2, 3}) != nil {
		t.Error("sorted keys should need no permutation")
	}
}
