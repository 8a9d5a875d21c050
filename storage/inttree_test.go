package storage

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/btree"
)

// checkIntTree holds t to want (sorted, distinct): every key found and in
// order, keys between them absent, scans from each key and past it, and
// the tree's shape (separators bound their children, no empty node below
// the root, no node over intNodeMax).
func checkIntTree(t *testing.T, tr *intTree, want []int64) {
	t.Helper()
	if tr.Len() != len(want) {
		t.Fatalf("Len %d, want %d", tr.Len(), len(want))
	}
	var got []int64
	tr.Ascend(func(k int64) bool { got = append(got, k); return true })
	if !slices.Equal(got, want) {
		t.Fatalf("Ascend gives %d keys, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
	}
	for i, k := range want {
		if !tr.Has(k) {
			t.Fatalf("key %d missing", k)
		}
		if k > math.MinInt64 && (i == 0 || want[i-1] != k-1) && tr.Has(k-1) {
			t.Fatalf("key %d found, never inserted", k-1)
		}
		if i%37 == 0 {
			var from []int64
			tr.AscendGreaterOrEqual(k, func(k int64) bool { from = append(from, k); return len(from) < 5 })
			if !slices.Equal(from, want[i:min(i+5, len(want))]) {
				t.Fatalf("from %d: %v, want %v", k, from, want[i:min(i+5, len(want))])
			}
		}
	}
	checkIntNode(t, tr.root, math.MinInt64, math.MaxInt64, true, tr.root == nil || tr.root.kids == nil)
}

func firstDiff(a, b []int64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// checkIntNode checks that every key under x lies in [lo, hi] (hi
// inclusive only for the last subtree).
func checkIntNode(t *testing.T, x *intNode, lo, hi int64, root, leafRoot bool) {
	t.Helper()
	if x.kids == nil {
		if len(x.keys) == 0 && !leafRoot {
			t.Fatal("an empty leaf below the root")
		}
		if len(x.keys) > intNodeMax || !slices.IsSorted(x.keys) {
			t.Fatalf("leaf of %d keys, sorted %v", len(x.keys), slices.IsSorted(x.keys))
		}
		for _, k := range x.keys {
			if k < lo || k > hi {
				t.Fatalf("key %d outside [%d, %d]", k, lo, hi)
			}
		}
		return
	}
	if len(x.kids) != len(x.keys)+1 || len(x.kids) > intNodeMax || (root && len(x.kids) < 2) {
		t.Fatalf("inner node of %d children and %d separators", len(x.kids), len(x.keys))
	}
	for i, c := range x.kids {
		clo, chi := lo, hi
		if i > 0 {
			clo = x.keys[i-1]
		}
		if i < len(x.keys) {
			chi = x.keys[i] - 1
		}
		checkIntNode(t, c, clo, chi, false, false)
	}
}

// The tree holds what a sorted slice given the same inserts and deletes
// holds: ascending runs (as AUTO_INCREMENT gives), descending runs,
// random keys across the whole int64 range, re-inserts and deletes of
// missing keys, then deletes until it is empty and inserts after that.
func TestIntTreeMatchesSortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	tr := newIntTree()
	var want []int64
	insert := func(k int64) {
		i, found := slices.BinarySearch(want, k)
		if added := tr.Insert(k); added == found {
			t.Fatalf("Insert(%d) says added %v, held before %v", k, added, found)
		}
		if !found {
			want = slices.Insert(want, i, k)
		}
	}
	remove := func(k int64) {
		i, found := slices.BinarySearch(want, k)
		if removed := tr.Delete(k); removed != found {
			t.Fatalf("Delete(%d) says removed %v, held %v", k, removed, found)
		}
		if found {
			want = slices.Delete(want, i, i+1)
		}
	}
	checkIntTree(t, tr, want)
	for k := int64(1); k <= 20000; k++ {
		insert(k)
	}
	checkIntTree(t, tr, want)
	for k := int64(-1); k >= -5000; k-- {
		insert(k)
	}
	insert(math.MinInt64)
	insert(math.MaxInt64)
	for range 30000 {
		switch r := rng.IntN(10); {
		case r < 5:
			insert(rng.Int64N(60000) - 30000)
		case r < 6:
			insert(int64(rng.Uint64()))
		default:
			remove(rng.Int64N(60000) - 30000)
		}
	}
	checkIntTree(t, tr, want)
	for _, k := range slices.Clone(want) {
		if rng.IntN(3) > 0 {
			remove(k)
		}
	}
	checkIntTree(t, tr, want)
	for len(want) > 0 {
		remove(want[rng.IntN(len(want))])
	}
	checkIntTree(t, tr, want)
	for k := int64(100); k > 0; k-- {
		insert(k * 3)
	}
	checkIntTree(t, tr, want)
}

// BenchmarkIntTreeInsert inserts 50,000 keys in the order a hash
// partitioned table's scan gives them (each partition's keys ascending,
// partitions one after another), as ML_PREDICT_TABLE's output takes its
// input's keys; beside it, the generic B-tree the index used before.
func BenchmarkIntTreeInsert(b *testing.B) {
	const n = 50000
	keys := make([]int64, 0, n)
	for p := int64(0); p < 16; p++ {
		for k := p; k < n; k += 16 {
			keys = append(keys, k*7919%n)
		}
	}
	b.Run("intTree", func(b *testing.B) {
		for b.Loop() {
			tr := newIntTree()
			for _, k := range keys {
				tr.Insert(k)
			}
		}
	})
	// The generic B-tree the index kept before, for comparison.
	b.Run("btree", func(b *testing.B) {
		for b.Loop() {
			tr := btree.NewOrderedG[int64](32)
			for _, k := range keys {
				tr.ReplaceOrInsert(k)
			}
		}
	})
}
