package ml

import (
	"math"
	"slices"
)

// minRowsPerWorker is the share of rows below which splitting a pass over
// a column across goroutines costs more than it saves.
const minRowsPerWorker = 4096

// passWorkers is how many goroutines a pass over n rows uses.
func passWorkers(workers, n int) int {
	return max(1, min(workers, n/minRowsPerWorker))
}

// columnLevels is a column coded by level: Codes[i] indexes Levels for
// row i (-1 for NULL) and Counts[k] is how many rows hold Levels[k].
type columnLevels struct {
	Codes  []int32
	Levels []string
	Counts []int
}

// codeLevels codes the rows of c by their text, Levels sorted by order.
// A numeric column (ALS ids, numeric class labels) is read as FormatLabel
// writes it, but hashed by its bits, so each distinct value is formatted
// once. Each row is hashed once: the rows are split among workers, each
// coding its share in order of first appearance with its own table, and
// the shares' levels are merged and sorted afterwards, which costs only
// their number and one pass renumbering the codes.
func codeLevels(c *Column, workers int, order func(a, b string) int) columnLevels {
	n := c.Len()
	workers = passWorkers(workers, n)
	codes := make([]int32, n)
	levels := make([][]string, workers)
	counts := make([][]int, workers)
	forWorkers(workers, n, func(w, lo, hi int) {
		if c.Kind == Numeric {
			var vals []float64
			vals, counts[w] = codeShare(func(i int) float64 { return c.Num[i] }, math.Float64bits, nil, c.Null, codes, lo, hi)
			levels[w] = make([]string, len(vals))
			for k, v := range vals {
				levels[w][k] = FormatLabel(v)
			}
			return
		}
		levels[w], counts[w] = codeStrings(c.Str, c.Null, codes, lo, hi)
	})
	// Distinct bit patterns can share a text (NaN payloads), so shares
	// merge by text even with one worker.
	var out columnLevels
	index := make(map[string]int32)
	remaps := make([][]int32, workers)
	for w := range levels {
		remaps[w] = make([]int32, len(levels[w]))
		for k, s := range levels[w] {
			g, ok := index[s]
			if !ok {
				g = int32(len(out.Levels))
				index[s] = g
				out.Levels, out.Counts = append(out.Levels, s), append(out.Counts, 0)
			}
			out.Counts[g] += counts[w][k]
			remaps[w][k] = g
		}
	}
	perm := make([]int32, len(out.Levels))
	for g := range perm {
		perm[g] = int32(g)
	}
	slices.SortFunc(perm, func(a, b int32) int { return order(out.Levels[a], out.Levels[b]) })
	rank := make([]int32, len(perm))
	sorted, sortedCounts := make([]string, len(perm)), make([]int, len(perm))
	for r, g := range perm {
		rank[g], sorted[r], sortedCounts[r] = int32(r), out.Levels[g], out.Counts[g]
	}
	out.Levels, out.Counts = sorted, sortedCounts
	for _, remap := range remaps {
		for k, g := range remap {
			remap[k] = rank[g]
		}
	}
	forWorkers(workers, n, func(w, lo, hi int) {
		remap := remaps[w]
		for i, k := range codes[lo:hi] {
			if k >= 0 {
				codes[lo+i] = remap[k]
			}
		}
	})
	out.Codes = codes
	return out
}

// codeShare codes rows [lo,hi) in order of first appearance, hashing each
// row's key once; it returns each code's first value and row count. touch,
// when not nil, is called on each block of rows before they are hashed.
func codeShare[V any, K comparable](value func(i int) V, key func(V) K, touch func(lo, hi int), null []bool, codes []int32, lo, hi int) (first []V, counts []int) {
	seen := make(map[K]int32)
	for b := lo; b < hi; b += touchBlock {
		e := min(b+touchBlock, hi)
		if touch != nil {
			touch(b, e)
		}
		for i := b; i < e; i++ {
			if null != nil && null[i] {
				codes[i] = -1
				continue
			}
			v := value(i)
			k, ok := seen[key(v)]
			if !ok {
				k = int32(len(first))
				seen[key(v)] = k
				first, counts = append(first, v), append(counts, 0)
			}
			counts[k]++
			codes[i] = k
		}
	}
	return first, counts
}

// fewLevels is how many distinct strings codeStrings compares a row with
// before it hashes: below it a few length-first comparisons cost less than
// hashing the row's text.
const fewLevels = 8

// codeStrings is codeShare for text. While a share has at most fewLevels
// levels, a row is compared with the level the previous row matched, then
// with each level in turn; a share that turns out to have more is coded
// again from its start by codeShare. The codes and counts are codeShare's.
func codeStrings(s []string, null []bool, codes []int32, lo, hi int) (first []string, counts []int) {
	last := int32(-1)
	for b := lo; b < hi; b += touchBlock {
		e := min(b+touchBlock, hi)
		touchSink(s[b:e])
		for i := b; i < e; i++ {
			if null != nil && null[i] {
				codes[i] = -1
				continue
			}
			v := s[i]
			k := int32(-1)
			if last >= 0 && first[last] == v {
				k = last
			} else {
				k = int32(slices.Index(first, v))
			}
			if k < 0 {
				if len(first) == fewLevels {
					return codeShare(func(i int) string { return s[i] }, func(s string) string { return s }, touchText(s), null, codes, lo, hi)
				}
				k = int32(len(first))
				first, counts = append(first, v), append(counts, 0)
			}
			counts[k]++
			codes[i], last = k, k
		}
	}
	return first, counts
}

// touchBlock is how many rows' text is touched ahead of hashing them.
const touchBlock = 16

// touchText returns a touch for codeShare that reads the first byte of
// each row's text. Strings from a loader or a driver usually sit each in
// its own allocation, scattered over the heap, so hashing them one by one
// waits on a cache miss per row; reading a block's first bytes in a short
// loop of independent loads overlaps those misses.
func touchText(s []string) func(lo, hi int) {
	return func(lo, hi int) { touchSink(s[lo:hi]) }
}

// touchSink is kept out of line so that the loads it exists for are not
// optimised away with its unused result.
//
//go:noinline
func touchSink(s []string) byte {
	var t byte
	for _, v := range s {
		if len(v) > 0 {
			t ^= v[0]
		}
	}
	return t
}
