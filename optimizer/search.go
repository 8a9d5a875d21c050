package optimizer

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// block is one maximal multiplication chain of the normal form.
type block struct {
	chain []factor
	seg   int
	stmt  string // where it comes from, for EXPLAIN
}

// occurrence is one place a candidate's chain appears; flipped means the
// place reads the transpose of the candidate's canonical chain.
type occurrence struct {
	blk, l, r int
	flipped   bool
}

// cand is a redundancy candidate: a chain that occurs at least twice
// without overlapping, or one whose leaves are all loop-invariant.
type cand struct {
	id         int
	text       string   // canonical chain as script text
	seq        []factor // canonical chain
	occ        []occurrence
	loopConst  bool
	w          float64 // evaluations per loop iteration: 1, or 1/N when hoisted
	rows, cols int

	chosen bool
	reason string
	defEst float64 // estimated seconds to compute it once
}

func chainText(fs []factor) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = leafText(f)
	}
	return strings.Join(parts, " %*% ")
}

func leafText(f factor) string {
	s := f.l.name
	switch f.l.kind {
	case lkSession:
		s = "@" + f.l.name
	case lkOpaque:
		s = opaqueText(f.l)
	case lkSum:
		s = "(" + sumText(f.l.args[0]) + ")"
	}
	if f.t {
		return "t(" + s + ")"
	}
	return s
}

// Polynomial hashing of leaf ranges. A transposed leaf hashes as its base
// times an odd constant (a symmetric leaf never carries the flag), so the
// backward reading of a range, each leaf flipped, hashes the range's
// transpose: a range and the transpose of another get equal keys.
const (
	hashBase  = 0x9e3779b97f4a7c15
	hashTrans = 0xc2b2ae3d27d4eb4f
)

func factorHash(f factor) uint64 {
	if f.t {
		return f.l.hash*hashTrans + 1
	}
	return f.l.hash
}

type rangeKey [2]uint64

// rangeHashes returns, for every range [l, r] of chain, the order-free key
// (larger hash first) and whether the forward hash is the larger one.
func rangeHashes(chain []factor, visit func(l, r int, key rangeKey, fwdFirst bool)) {
	for l := range chain {
		var fwd, bwd uint64
		pow := uint64(1)
		for r := l; r < len(chain); r++ {
			fwd += factorHash(chain[r]) * pow
			pow *= hashBase
			bwd = factorHash(chain[r].flip()) + bwd*hashBase
			if r == l {
				continue
			}
			if fwd >= bwd {
				visit(l, r, rangeKey{fwd, bwd}, true)
			} else {
				visit(l, r, rangeKey{bwd, fwd}, false)
			}
		}
	}
}

func reversedFlipped(fs []factor) []factor {
	out := make([]factor, len(fs))
	for i, f := range fs {
		out[len(fs)-1-i] = f.flip()
	}
	return out
}

func seqKey(fs []factor) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.key()
	}
	return strings.Join(parts, " ")
}

// candIndex finds candidates by the key of a range; hash collisions are
// ruled out by comparing the chains themselves.
type candIndex struct {
	byKey map[rangeKey][]*cand
}

// lookup returns the candidate whose chain is the range or its transpose,
// and whether the range is the transposed reading.
func (ix *candIndex) lookup(key rangeKey, rng []factor) (*cand, bool) {
	fk := seqKey(rng)
	for _, c := range ix.byKey[key] {
		ck := seqKey(c.seq)
		if ck == fk {
			return c, false
		}
		if ck == seqKey(reversedFlipped(rng)) {
			return c, true
		}
	}
	return nil, false
}

// search is the block-wise search: every range of every block is hashed
// both ways and grouped; groups with two non-overlapping occurrences, or
// made only of loop-invariant leaves, become candidates.
func search(blocks []*block, loop bool, iters float64, maxCands int) ([]*cand, *candIndex) {
	ix := &candIndex{byKey: map[rangeKey][]*cand{}}
	var all []*cand
	for bi, b := range blocks {
		rangeHashes(b.chain, func(l, r int, key rangeKey, _ bool) {
			rng := b.chain[l : r+1]
			c, flipped := ix.lookup(key, rng)
			if c == nil {
				c = &cand{seq: append([]factor(nil), rng...), rows: rng[0].rows(), cols: rng[len(rng)-1].cols()}
				ix.byKey[key] = append(ix.byKey[key], c)
				all = append(all, c)
			}
			c.occ = append(c.occ, occurrence{blk: bi, l: l, r: r, flipped: flipped})
		})
	}
	var out []*cand
	for _, c := range all {
		invariant := loop
		for _, f := range c.seq {
			invariant = invariant && f.l.invariant
		}
		switch {
		case invariant:
			c.loopConst, c.w = true, 1/iters
		case nonOverlapping(c.occ) >= 2:
			c.w = 1
		default:
			continue
		}
		c.text = chainText(c.seq)
		out = append(out, c)
	}
	if len(out) > maxCands {
		// Keep the candidates that could save most: many and long occurrences.
		sort.SliceStable(out, func(i, j int) bool {
			return len(out[i].occ)*len(out[i].seq) > len(out[j].occ)*len(out[j].seq)
		})
		out = out[:maxCands]
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].seq) != len(out[j].seq) {
			return len(out[i].seq) < len(out[j].seq)
		}
		return out[i].text < out[j].text
	})
	kept := &candIndex{byKey: map[rangeKey][]*cand{}}
	for i, c := range out {
		c.id = i
		rangeHashes(c.seq, func(l, r int, key rangeKey, _ bool) {
			if l == 0 && r == len(c.seq)-1 {
				kept.byKey[key] = append(kept.byKey[key], c)
			}
		})
	}
	return out, kept
}

// nonOverlapping counts occurrences that can be reused together, taking
// them left to right within each block.
func nonOverlapping(occ []occurrence) int {
	n, lastBlk, lastEnd := 0, -1, -1
	for _, o := range occ { // occurrences arrive block by block, by start
		if o.blk != lastBlk {
			lastBlk, lastEnd = o.blk, -1
		}
		if o.l > lastEnd {
			n++
			lastEnd = o.r
		}
	}
	return n
}

// cset is a set of candidate ids; plans are limited to 128 candidates.
type cset [2]uint64

const maxCandidates = 128

func (s cset) has(i int) bool       { return s[i/64]&(1<<(i%64)) != 0 }
func (s cset) with(i int) cset      { s[i/64] |= 1 << (i % 64); return s }
func (s cset) union(o cset) cset    { return cset{s[0] | o[0], s[1] | o[1]} }
func (s cset) and(o cset) cset      { return cset{s[0] & o[0], s[1] & o[1]} }
func (s cset) subsetOf(o cset) bool { return s[0]&^o[0] == 0 && s[1]&^o[1] == 0 }
func (s cset) count() int           { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }
func (s cset) without(i int) cset   { s[i/64] &^= 1 << (i % 64); return s }
func fullSet(n int) (s cset) {
	for i := range n {
		s = s.with(i)
	}
	return s
}

func opaqueText(l *leaf) string {
	args := make([]string, len(l.args))
	for i, a := range l.args {
		if a == nil {
			args[i] = fmt.Sprintf("%q", l.strs[i])
		} else {
			args[i] = sumText(a)
		}
	}
	switch l.opk {
	case opCall:
		return l.name + "(" + strings.Join(args, ", ") + ")"
	case opNot:
		return "!(" + args[0] + ")"
	}
	for i, a := range args {
		if strings.Contains(a, " ") {
			args[i] = "(" + a + ")"
		}
	}
	return "(" + strings.Join(args, " "+l.name+" ") + ")"
}
