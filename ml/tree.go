package ml

import (
	"context"
	"math"
	"slices"
	"sort"
)

// Tree is a fitted binary decision tree over the encoded columns
// (categorical columns ordinal-coded). Node i is a leaf when Feature[i] is
// -1; otherwise rows with x[Feature[i]] <= Threshold[i] go to Left[i] and
// the rest to Right[i]. A leaf's Outputs values start at Value[i*Outputs]:
// class probabilities for classification, the mean for regression, the
// stage's additive step inside a boosted model.
type Tree struct {
	Outputs   int
	Feature   []int32
	Threshold []float64
	Left      []int32
	Right     []int32
	Value     []float64
}

var _ estimator = (*Tree)(nil)

func (t *Tree) outputs() int { return t.Outputs }

func (t *Tree) leaf(x []float64) int {
	i := int32(0)
	for t.Feature[i] >= 0 {
		if x[t.Feature[i]] <= t.Threshold[i] {
			i = t.Left[i]
		} else {
			i = t.Right[i]
		}
	}
	return int(i)
}

func (t *Tree) predict(x, out []float64) {
	l := t.leaf(x)
	copy(out, t.Value[l*t.Outputs:(l+1)*t.Outputs])
}

// Nodes is the number of nodes.
func (t *Tree) Nodes() int { return len(t.Feature) }

// binned holds every encoded column reduced to at most maxBins ordered
// bins, so split search builds histograms instead of sorting rows at
// every node. Bin b
// of column j holds values in (Edges[j][b-1], Edges[j][b]]; a split after
// bin b is the threshold Edges[j][b]. Columns with few distinct values get
// one bin per value and midpoint edges, which are exactly the thresholds
// an exhaustive CART search would try; the default of 65535 bins keeps
// that true for most real columns, because coarse global quantiles cost
// deep trees and small boosting stages measurable accuracy (2 points on
// HIGGS with 255 bins).
type binned struct {
	n, p  int
	bins  [][]uint16 // per column, per row
	edges [][]float64
}

func binColumns(x []float64, n, p, maxBins, workers int) *binned {
	b := &binned{n: n, p: p, bins: make([][]uint16, p), edges: make([][]float64, p)}
	forWorkers(workers, p, func(_, lo, hi int) {
		col := make([]float64, n)
		for j := lo; j < hi; j++ {
			for i := 0; i < n; i++ {
				col[i] = x[i*p+j]
			}
			sorted := slices.Clone(col)
			slices.Sort(sorted)
			distinct := slices.Compact(slices.Clone(sorted))
			var edges []float64
			if len(distinct) <= maxBins {
				for i := 1; i < len(distinct); i++ {
					edges = append(edges, distinct[i-1]+(distinct[i]-distinct[i-1])/2)
				}
			} else {
				for q := 1; q < maxBins; q++ {
					pos := q * n / maxBins
					if pos == 0 || sorted[pos-1] == sorted[pos] {
						continue
					}
					e := sorted[pos-1] + (sorted[pos]-sorted[pos-1])/2
					if len(edges) == 0 || e > edges[len(edges)-1] {
						edges = append(edges, e)
					}
				}
			}
			bins := make([]uint16, n)
			for i, v := range col {
				bins[i] = uint16(sort.SearchFloat64s(edges, v))
			}
			b.bins[j], b.edges[j] = bins, edges
		}
	})
	return b
}

// treeBuilder grows one CART tree depth first. Classification trees
// (classes > 0) score splits by Gini or entropy over class counts;
// regression trees by squared error over target, which is also how a
// boosting stage fits its residuals.
type treeBuilder struct {
	ctx      context.Context
	data     *binned
	classes  int
	y        []int
	target   []float64
	entropy  bool
	maxDepth int
	minSplit int
	minLeaf  int
	workers  int
	// leafValue computes a leaf's outputs from its rows; nil means class
	// fractions or the target mean.
	leafValue func(rows []int32, out []float64)
	outputs   int

	idx     []int32
	tree    *Tree
	scratch []*histScratch // per worker
}

// histScratch is one worker's histogram: per-bin statistics, per-bin row
// counts and the list of bins the current node touches, so that small
// nodes cost time in their rows rather than in the number of bins.
type histScratch struct {
	h       []float64
	cnt     []float64
	touched []int
}

type split struct {
	gain      float64
	feature   int
	bin       int
	threshold float64
}

func (tb *treeBuilder) grow(rows []int32) (*Tree, error) {
	tb.idx = rows
	stride := 2
	if tb.classes > 0 {
		stride = tb.classes
	}
	maxBins := 0
	for _, e := range tb.data.edges {
		maxBins = max(maxBins, len(e)+1)
	}
	tb.scratch = make([]*histScratch, tb.workers)
	for w := range tb.scratch {
		tb.scratch[w] = &histScratch{h: make([]float64, maxBins*stride), cnt: make([]float64, maxBins)}
	}
	tb.tree = &Tree{Outputs: tb.outputs}
	if _, err := tb.node(0, len(rows), 0); err != nil {
		return nil, err
	}
	return tb.tree, nil
}

func (tb *treeBuilder) newNode() int32 {
	t := tb.tree
	t.Feature = append(t.Feature, -1)
	t.Threshold = append(t.Threshold, 0)
	t.Left = append(t.Left, -1)
	t.Right = append(t.Right, -1)
	t.Value = append(t.Value, make([]float64, t.Outputs)...)
	return int32(len(t.Feature) - 1)
}

func (tb *treeBuilder) node(lo, hi, depth int) (int32, error) {
	if err := tb.ctx.Err(); err != nil {
		return 0, err
	}
	id := tb.newNode()
	rows := tb.idx[lo:hi]
	n := hi - lo
	canSplit := n >= tb.minSplit && n >= 2*tb.minLeaf && (tb.maxDepth == 0 || depth < tb.maxDepth) && !tb.pure(rows)
	var best split
	if canSplit {
		best = tb.bestSplit(rows)
	}
	if !canSplit || best.feature < 0 {
		tb.setLeaf(id, rows)
		return id, nil
	}
	// Partition rows in place: left bins first.
	bins := tb.data.bins[best.feature]
	i, j := lo, hi-1
	for i <= j {
		if int(bins[tb.idx[i]]) <= best.bin {
			i++
		} else {
			tb.idx[i], tb.idx[j] = tb.idx[j], tb.idx[i]
			j--
		}
	}
	left, err := tb.node(lo, i, depth+1)
	if err != nil {
		return 0, err
	}
	right, err := tb.node(i, hi, depth+1)
	if err != nil {
		return 0, err
	}
	t := tb.tree
	t.Feature[id], t.Threshold[id], t.Left[id], t.Right[id] = int32(best.feature), best.threshold, left, right
	return id, nil
}

func (tb *treeBuilder) pure(rows []int32) bool {
	if tb.classes > 0 {
		for _, r := range rows[1:] {
			if tb.y[r] != tb.y[rows[0]] {
				return false
			}
		}
		return true
	}
	for _, r := range rows[1:] {
		if tb.target[r] != tb.target[rows[0]] {
			return false
		}
	}
	return true
}

func (tb *treeBuilder) setLeaf(id int32, rows []int32) {
	out := tb.tree.Value[int(id)*tb.outputs : int(id+1)*tb.outputs]
	switch {
	case tb.leafValue != nil:
		tb.leafValue(rows, out)
	case tb.classes > 0:
		for _, r := range rows {
			out[tb.y[r]]++
		}
		for c := range out {
			out[c] /= float64(len(rows))
		}
	default:
		var s float64
		for _, r := range rows {
			s += tb.target[r]
		}
		out[0] = s / float64(len(rows))
	}
}

// bestSplit searches every column's histogram, in parallel over columns
// when the node is large enough to pay for the goroutines.
func (tb *treeBuilder) bestSplit(rows []int32) split {
	p := tb.data.p
	workers := tb.workers
	if len(rows)*p < 50000 {
		workers = 1
	}
	bests := make([]split, workers)
	forWorkers(workers, p, func(w, lo, hi int) {
		best := split{feature: -1}
		for j := lo; j < hi; j++ {
			s := tb.scanFeature(rows, j, tb.scratch[w])
			if s.feature >= 0 && (best.feature < 0 || s.gain > best.gain) {
				best = s
			}
		}
		bests[w] = best
	})
	best := split{feature: -1}
	for _, s := range bests {
		// Ties go to the lower column index, whatever the worker count.
		if s.feature >= 0 && (best.feature < 0 || s.gain > best.gain || (s.gain == best.gain && s.feature < best.feature)) {
			best = s
		}
	}
	return best
}

// scanFeature builds column j's histogram over rows and returns its best
// split; gain is the decrease in total impurity (n × impurity summed over
// children). Only bins holding rows of this node are visited, in order.
func (tb *treeBuilder) scanFeature(rows []int32, j int, hs *histScratch) split {
	edges := tb.data.edges[j]
	best := split{feature: -1}
	if len(edges) == 0 {
		return best
	}
	bins := tb.data.bins[j]
	stride := 2
	if tb.classes > 0 {
		stride = tb.classes
	}
	h, cnt, touched := hs.h, hs.cnt, hs.touched[:0]
	for _, r := range rows {
		b := int(bins[r])
		if cnt[b] == 0 {
			touched = append(touched, b)
		}
		cnt[b]++
		if tb.classes > 0 {
			h[b*stride+tb.y[r]]++
		} else {
			h[b*stride] += tb.target[r]
		}
	}
	slices.Sort(touched)
	defer func() {
		for _, b := range touched {
			cnt[b] = 0
			clear(h[b*stride : (b+1)*stride])
		}
		hs.touched = touched
	}()
	n := float64(len(rows))
	minLeaf := float64(tb.minLeaf)
	total := make([]float64, stride)
	for _, b := range touched {
		for c := 0; c < stride; c++ {
			total[c] += h[b*stride+c]
		}
	}
	left := make([]float64, stride)
	right := make([]float64, stride)
	var base float64
	if tb.classes > 0 {
		base = tb.impurity(total, n)
	} else {
		base = total[0] * total[0] / n
	}
	var nl float64
	for _, b := range touched[:len(touched)-1] {
		for c := 0; c < stride; c++ {
			left[c] += h[b*stride+c]
		}
		nl += cnt[b]
		nr := n - nl
		if nl < minLeaf || nr < minLeaf {
			continue
		}
		var gain float64
		if tb.classes > 0 {
			for c := 0; c < stride; c++ {
				right[c] = total[c] - left[c]
			}
			gain = base - tb.impurity(left, nl) - tb.impurity(right, nr)
		} else {
			// Squared-error decrease: Σ over children of S²/n, minus the
			// parent's.
			sl, sr := left[0], total[0]-left[0]
			gain = sl*sl/nl + sr*sr/nr - base
		}
		// Demand a real decrease, not rounding noise, before splitting.
		if gain > best.gain && gain > 1e-12*max(math.Abs(base), 1) {
			best = split{gain: gain, feature: j, bin: b, threshold: edges[b]}
		}
	}
	return best
}

// impurity is n × (Gini or entropy) of a node with the given class counts.
func (tb *treeBuilder) impurity(counts []float64, n float64) float64 {
	if n == 0 {
		return 0
	}
	if tb.entropy {
		var h float64
		for _, c := range counts {
			if c > 0 {
				h -= c * math.Log2(c/n)
			}
		}
		return h
	}
	var s float64
	for _, c := range counts {
		s += c * c
	}
	return n - s/n
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// trainTrees fits a single CART tree or a boosted ensemble.
func trainTrees(ctx context.Context, m *Model, d *Dataset, o Options) error {
	var (
		lab labels
		y   []int
		t   []float64
		err error
	)
	if o.Task == Classification {
		if lab, y, err = fitLabels(d.Target, o.workers()); err != nil {
			return err
		}
		m.labels = lab
	} else if t, err = numericTarget(d.Target); err != nil {
		return err
	}
	x, n, p, err := m.prepare(d, ordinal, false, false, o)
	if err != nil {
		return err
	}
	data := binColumns(x, n, p, o.MaxBins, o.workers())
	if o.Algorithm == GradientBoosting {
		return trainBoosted(ctx, m, data, y, t, len(lab.Classes), o)
	}
	tb := &treeBuilder{ctx: ctx, data: data, classes: len(lab.Classes), y: y, target: t,
		entropy: o.Criterion == "entropy", maxDepth: o.MaxDepth, minSplit: o.MinSamplesSplit,
		minLeaf: o.MinSamplesLeaf, workers: o.workers(), outputs: max(len(lab.Classes), 1)}
	tree, err := tb.grow(allRows(n))
	if err != nil {
		return err
	}
	m.est = tree
	return o.report(ctx, Progress{Iteration: 1, MaxIterations: 1, Rows: int64(n)})
}
