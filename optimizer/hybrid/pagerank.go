package hybrid

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// PageRankOptions follow networkx's pagerank: damping alpha, tolerance
// tol checked as ‖x_k − x_{k−1}‖₁ < N·tol, and a uniform start,
// personalisation and dangling distribution.
type PageRankOptions struct {
	Damping       float64
	Tolerance     float64
	MaxIterations int
	// Budget is the carried residual allowed at the end, as a fraction of
	// the convergence threshold N·tol; 0 means 0.1. Relative is the
	// fraction of the current change that may be carried besides (see
	// Loop.Relative); 0 keeps the budget absolute, which measured best:
	// carrying a share of early changes costs more iterations than the
	// sparser steps save (docs/benchmarks-hybrid.md).
	Budget   float64
	Relative float64
	Options  Options
}

// DefaultPageRankOptions are networkx's defaults.
func DefaultPageRankOptions() PageRankOptions {
	return PageRankOptions{Damping: 0.85, Tolerance: 1e-6, MaxIterations: 100}
}

// PageRankResult gives each vertex's rank, vertices in increasing id order.
type PageRankResult struct {
	Vertices []int64
	Ranks    []float64
	Result
}

// Graph is a directed graph prepared for PageRank: vertex ids compacted,
// duplicate edges collapsed (as in a networkx DiGraph), M = Pᵀ with P the
// row-stochastic transition matrix, and the dangling vertices listed.
type Graph struct {
	Vertices []int64
	M        *CSR
	Dangling []int32
	InDegree []float64
}

// NewGraph builds a Graph from parallel source and destination lists. A
// self-loop is an ordinary edge: it counts in its vertex's out-degree and
// sends it part of its own rank, as networkx does.
func NewGraph(src, dst []int64) (*Graph, error) {
	if len(src) != len(dst) {
		return nil, fmt.Errorf("%w: %d sources and %d destinations", ErrShape, len(src), len(dst))
	}
	ids := make([]int64, 0, 2*len(src))
	ids = append(append(ids, src...), dst...)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		return nil, ErrEmptyGraph
	}
	if len(ids) > math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d vertices", ErrArgument, len(ids))
	}
	index := func(v int64) int32 {
		i, _ := slices.BinarySearch(ids, v)
		return int32(i)
	}
	n := len(ids)
	// Edges sorted by (src, dst) so duplicates are adjacent.
	edges := make([]int64, len(src))
	for k := range src {
		edges[k] = int64(index(src[k]))<<32 | int64(index(dst[k]))
	}
	slices.Sort(edges)
	edges = slices.Compact(edges)
	out := make([]int32, n)
	for _, e := range edges {
		out[e>>32]++
	}
	is := make([]int32, len(edges))
	js := make([]int32, len(edges))
	vs := make([]float64, len(edges))
	in := make([]float64, n)
	for k, e := range edges {
		s, d := int32(e>>32), int32(e&math.MaxUint32)
		is[k], js[k], vs[k] = d, s, 1/float64(out[s])
		in[d]++
	}
	m, err := NewCSR(n, n, is, js, vs)
	if err != nil {
		return nil, err
	}
	g := &Graph{Vertices: ids, M: m, InDegree: in}
	for i, o := range out {
		if o == 0 {
			g.Dangling = append(g.Dangling, int32(i))
		}
	}
	return g, nil
}

// PageRank runs the power iteration of networkx's pagerank on g.
func PageRank(ctx context.Context, g *Graph, opt PageRankOptions, mode Mode) (PageRankResult, error) {
	if !(opt.Damping >= 0 && opt.Damping <= 1) {
		return PageRankResult{}, fmt.Errorf("%w: damping %g is outside [0, 1]", ErrArgument, opt.Damping)
	}
	if !(opt.Tolerance > 0) || opt.MaxIterations <= 0 {
		return PageRankResult{}, fmt.Errorf("%w: tolerance %g and max_iterations %d must be positive", ErrArgument, opt.Tolerance, opt.MaxIterations)
	}
	loop := pageRankLoop(g, opt)
	res, err := loop.Run(ctx, mode)
	if err != nil {
		return PageRankResult{}, err
	}
	return PageRankResult{Vertices: g.Vertices, Ranks: res.X, Result: res}, nil
}

// pageRankLoop is networkx's power iteration as a Loop over M = Pᵀ.
func pageRankLoop(g *Graph, opt PageRankOptions) *Loop {
	n := len(g.Vertices)
	fn := float64(n)
	alpha := opt.Damping
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 1 / fn
	}
	tPrev := 0.0
	update := func(y, x, next []float64) (change, shift float64) {
		dsum := 0.0
		for _, i := range g.Dangling {
			dsum += x[i]
		}
		// networkx: alpha·(x·A + dsum·p) + (1−alpha)·p with p = 1/N.
		t := alpha*dsum/fn + (1-alpha)/fn
		for j := range next {
			v := alpha*y[j] + t
			change += math.Abs(v - x[j])
			next[j] = v
		}
		shift, tPrev = t-tPrev, t
		return change, shift
	}
	budget, rel := opt.Budget, opt.Relative
	if budget == 0 {
		budget = 0.1
	}
	o := opt.Options
	if o.Proxy == nil && o.Reorg == ReorgDegree {
		// A vertex's column is active while its rank moves, and rank
		// moves longest where much rank flows in: in-degree is the
		// structural proxy for late convergence.
		o.Proxy = g.InDegree
	}
	return &Loop{M: g.M, X0: x0, Update: update, Tolerance: fn * opt.Tolerance,
		MaxIterations: opt.MaxIterations, ResidualBudget: budget * fn * opt.Tolerance, Relative: rel, Options: o}
}
