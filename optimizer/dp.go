package optimizer

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// The adaptive elimination: an interval dynamic programme over every
// chain, like matrix-chain ordering, except that each interval keeps a
// small Pareto set of sub-plans keyed by the candidates they read (their
// dependency set). Reading a candidate costs nothing in a chain; the
// candidate's own computation is paid once, weighted by how often it runs
// (once per iteration, or once per loop for a hoisted loop constant).
// A sub-plan is dropped only when another one is no dearer and reads a
// subset of its candidates, which never loses the optimum: the cost of a
// choice can only grow with the set of candidates it must pay for.

type entryKind uint8

const (
	eLeaf entryKind = iota + 1
	eRead
	eSplit
)

type dpEntry struct {
	set         cset
	cost        float64
	kind        entryKind
	cand        int
	flipped     bool
	split       int
	left, right *dpEntry
}

type candRef struct {
	c       int // -1 when the range is no candidate
	flipped bool
}

// dpBlock is one chain to plan: a real block, or a candidate's own chain
// (which must not read the candidate itself at its root).
type dpBlock struct {
	chain    []factor
	match    [][]candRef // match[l][r]
	leafCost []float64
	noRoot   int // candidate not readable at the whole range, or -1
	density  [][]float64
	sparse   [][]bool
	table    [][][]*dpEntry
}

type dpProblem struct {
	cm       *CostModel
	cands    []*cand
	blocks   []*dpBlock
	defs     []*dpBlock // one per candidate
	readCost [][2]float64
	maxKeep  int
	scratch  []dpEntry // solveBlock's per-interval list, reused
	pareto   pareto
}

func newDPBlock(chain []factor, ix *candIndex, noRoot int, leafCost func(factor) float64) *dpBlock {
	n := len(chain)
	b := &dpBlock{chain: chain, noRoot: noRoot, match: make([][]candRef, n), leafCost: make([]float64, n),
		density: make([][]float64, n), sparse: make([][]bool, n)}
	for i := range n {
		b.match[i] = make([]candRef, n)
		b.density[i] = make([]float64, n)
		b.sparse[i] = make([]bool, n)
		for j := range b.match[i] {
			b.match[i][j].c = -1
		}
		b.leafCost[i] = leafCost(chain[i])
		d, sp := chain[i].l.density, chain[i].l.sparse
		b.density[i][i], b.sparse[i][i] = d, sp
		for j := i + 1; j < n; j++ {
			d = mulDensity(chain[j].rows(), d, chain[j].l.density)
			sp = sp && chain[j].l.sparse
			b.density[i][j], b.sparse[i][j] = d, sp
		}
	}
	rangeHashes(chain, func(l, r int, key rangeKey, _ bool) {
		if c, flipped := ix.lookup(key, chain[l:r+1]); c != nil {
			b.match[l][r] = candRef{c: c.id, flipped: flipped}
		}
	})
	return b
}

func (p *dpProblem) mulCost(b *dpBlock, l, m, r int) float64 {
	return p.cm.mul(b.chain[l].rows(), b.chain[m].cols(), b.chain[r].cols(),
		b.density[l][m], b.density[m+1][r], b.sparse[l][m], b.sparse[m+1][r])
}

// readable reports whether range [l, r] of b may read a candidate.
func (b *dpBlock) readable(l, r int) (candRef, bool) {
	ref := b.match[l][r]
	if ref.c < 0 || (l == 0 && r == len(b.chain)-1 && ref.c == b.noRoot) {
		return ref, false
	}
	return ref, true
}

// solveBlock fills b's table and returns the Pareto set of whole-chain plans.
// Sub-plans of an interval are gathered as values in a scratch list and
// pruned before any is allocated: most pairs are dominated.
func (p *dpProblem) solveBlock(b *dpBlock) []*dpEntry {
	n := len(b.chain)
	b.table = make([][][]*dpEntry, n)
	for i := range n {
		b.table[i] = make([][]*dpEntry, n)
		b.table[i][i] = []*dpEntry{{kind: eLeaf, cost: b.leafCost[i]}}
	}
	mask := fullSet(maxCandidates)
	for length := 2; length <= n; length++ {
		for l := 0; l+length-1 < n; l++ {
			r := l + length - 1
			list := p.scratch[:0]
			if ref, ok := b.readable(l, r); ok {
				list = append(list, dpEntry{set: cset{}.with(ref.c), cost: p.readCost[ref.c][b2i(ref.flipped)],
					kind: eRead, cand: ref.c, flipped: ref.flipped})
			}
			for m := l; m < r; m++ {
				mc := p.mulCost(b, l, m, r)
				for _, x := range b.table[l][m] {
					for _, y := range b.table[m+1][r] {
						list = append(list, dpEntry{set: x.set.union(y.set), cost: x.cost + y.cost + mc,
							kind: eSplit, split: m, left: x, right: y})
					}
				}
			}
			p.scratch = list
			kept := p.pareto.keep(len(list), func(i int) (float64, cset) { return list[i].cost, list[i].set }, mask, p.maxKeep)
			block := make([]dpEntry, len(kept))
			out := make([]*dpEntry, len(kept))
			for j, k := range kept {
				block[j] = list[k]
				out[j] = &block[j]
			}
			b.table[l][r] = out
		}
	}
	return b.table[0][n-1]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pareto prunes lists of sub-plans to their Pareto set: an entry goes
// when a kept entry costs no more and its candidates (projected on mask)
// are a subset of the entry's. Among equal costs fewer candidates come
// first: reuse that saves nothing is not worth keeping a value alive for.
// A cap on the set keeps the cheapest, and the result is then no longer
// guaranteed optimal. Its buffers are reused from call to call.
type pareto struct {
	keys []paretoKey
	sets []cset
	out  []int
}

type paretoKey struct {
	cost  float64
	count int
	set   cset
	i     int
}

// keep returns the indices of the entries of a list of n that survive,
// cheapest first; at reads entry i. The slice is reused by the next call.
func (pr *pareto) keep(n int, at func(i int) (float64, cset), mask cset, limit int) []int {
	pr.keys = pr.keys[:0]
	for i := range n {
		c, s := at(i)
		pr.keys = append(pr.keys, paretoKey{cost: c, count: s.count(), set: s.and(mask), i: i})
	}
	slices.SortFunc(pr.keys, func(a, b paretoKey) int {
		if a.cost != b.cost {
			return cmp.Compare(a.cost, b.cost)
		}
		if a.count != b.count {
			return a.count - b.count
		}
		return a.i - b.i
	})
	pr.sets, pr.out = pr.sets[:0], pr.out[:0]
next:
	for _, k := range pr.keys {
		for _, s := range pr.sets {
			if s.subsetOf(k.set) {
				continue next
			}
		}
		pr.sets = append(pr.sets, k.set)
		pr.out = append(pr.out, k.i)
		if len(pr.out) == limit {
			break
		}
	}
	return pr.out
}

// plan is a complete choice: one entry per block and per candidate used.
type plan struct {
	set    cset
	cost   float64
	blocks []*dpEntry
	defs   map[int]*dpEntry
}

type partial struct {
	pick  *dpEntry
	which int // block index, or -(candidate+1) for a candidate's own chain
	prev  *partial
}

// frontEntry is a plan for the blocks and candidate chains combined so
// far; its last pick is held unallocated until the entry survives pruning.
type frontEntry struct {
	set   cset
	cost  float64
	prev  *partial
	pick  *dpEntry
	which int
}

// solve returns the cheapest plan over every subset of candidates.
func (p *dpProblem) solve() plan {
	roots := make([][]*dpEntry, len(p.blocks))
	for i, b := range p.blocks {
		roots[i] = p.solveBlock(b)
	}
	defRoots := make([][]*dpEntry, len(p.defs))
	for i, b := range p.defs {
		defRoots[i] = p.solveBlock(b)
	}
	all := fullSet(len(p.cands))
	type head struct {
		set  cset
		cost float64
		pt   *partial
	}
	front := []head{{}}
	var next []frontEntry
	// advance prunes next and makes its survivors the new front.
	advance := func(mask cset) {
		kept := p.pareto.keep(len(next), func(i int) (float64, cset) { return next[i].cost, next[i].set }, mask, p.maxKeep*4)
		front = front[:0]
		for _, k := range kept {
			e := next[k]
			pt := e.prev
			if e.pick != nil {
				pt = &partial{pick: e.pick, which: e.which, prev: e.prev}
			}
			front = append(front, head{set: e.set, cost: e.cost, pt: pt})
		}
	}
	for bi, rs := range roots {
		next = next[:0]
		for _, e := range front {
			for _, r := range rs {
				next = append(next, frontEntry{set: e.set.union(r.set), cost: e.cost + r.cost, prev: e.pt, pick: r, which: bi})
			}
		}
		advance(all)
	}
	// A candidate's chain reads only shorter candidates, so paying for the
	// longest first leaves every later obligation still to be met.
	order := make([]int, len(p.cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(p.cands[order[i]].seq) > len(p.cands[order[j]].seq) })
	pending := all
	for _, c := range order {
		pending = pending.without(c)
		next = next[:0]
		for _, e := range front {
			if !e.set.has(c) {
				next = append(next, frontEntry{set: e.set, cost: e.cost, prev: e.pt})
				continue
			}
			for _, d := range defRoots[c] {
				next = append(next, frontEntry{set: e.set.union(d.set), cost: e.cost + p.cands[c].w*d.cost, prev: e.pt, pick: d, which: -(c + 1)})
			}
		}
		advance(pending)
	}
	best := front[0] // pruning sorts by cost
	out := plan{set: best.set, cost: best.cost, blocks: make([]*dpEntry, len(p.blocks)), defs: map[int]*dpEntry{}}
	for pt := best.pt; pt != nil; pt = pt.prev {
		if pt.which >= 0 {
			out.blocks[pt.which] = pt.pick
		} else {
			out.defs[-pt.which-1] = pt.pick
		}
	}
	return out
}

// exhaustive is the reference the DP is tested against: it tries every
// subset of candidates, planning each chain by plain interval DP in which
// the chosen candidates are free to read.
func (p *dpProblem) exhaustive() float64 {
	best := math.Inf(1)
	for mask := 0; mask < 1<<len(p.cands); mask++ {
		var s cset
		for i := range p.cands {
			if mask&(1<<i) != 0 {
				s = s.with(i)
			}
		}
		best = math.Min(best, p.costOf(s))
	}
	return best
}

// costOf is the cost of reusing exactly the candidates in s.
func (p *dpProblem) costOf(s cset) float64 {
	total := 0.0
	for _, b := range p.blocks {
		total += p.fixedCost(b, s)
	}
	for i := range p.cands {
		if s.has(i) {
			total += p.cands[i].w * p.fixedCost(p.defs[i], s)
		}
	}
	return total
}

func (p *dpProblem) fixedCost(b *dpBlock, s cset) float64 {
	n := len(b.chain)
	c := make([][]float64, n)
	for i := range n {
		c[i] = make([]float64, n)
		c[i][i] = b.leafCost[i]
	}
	for length := 2; length <= n; length++ {
		for l := 0; l+length-1 < n; l++ {
			r := l + length - 1
			c[l][r] = math.Inf(1)
			if ref, ok := b.readable(l, r); ok && s.has(ref.c) {
				c[l][r] = p.readCost[ref.c][b2i(ref.flipped)]
			}
			for m := l; m < r; m++ {
				c[l][r] = math.Min(c[l][r], c[l][m]+c[m+1][r]+p.mulCost(b, l, m, r))
			}
		}
	}
	return c[0][n-1]
}
