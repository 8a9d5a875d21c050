package hybrid

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"
)

// TestPushOrderReport measures whether doing the incremental work in
// another order would cut it: an asynchronous residual push (each
// vertex's residual is added to its rank and pushed to its
// out-neighbours at once, so later vertices of the same sweep see it, as
// in Gauss-Seidel or delta-based accumulative iteration), pushing in a
// sweep only the vertices whose residual is at least c times the mean.
// It reports edges visited, in units of nnz(M), against the power
// iteration's iterations, both stopped when ‖residual‖₁ < N·tol, and
// each one's ℓ1 distance to a reference at tolerance 1e-14. Skipped
// unless SQLEARN_BENCH_PUSH is set (docs/benchmarks-hybrid.md).
func TestPushOrderReport(t *testing.T) {
	if os.Getenv("SQLEARN_BENCH_PUSH") == "" {
		t.Skip("set SQLEARN_BENCH_PUSH=1")
	}
	for _, name := range snapGraphs {
		g := snapGraph(t, name)
		opt := DefaultPageRankOptions()
		opt.Tolerance, opt.MaxIterations = 1e-14, 1000
		exact, err := PageRank(context.Background(), g, opt, ModeFull)
		if err != nil {
			t.Fatal(err)
		}
		for _, tol := range []float64{1e-6, 1e-8, 1e-10} {
			opt.Tolerance = tol
			full, err := PageRank(context.Background(), g, opt, ModeFull)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("%s tol %g: power iteration %d iterations = %d nnz, error %.2g\n",
				name, tol, full.Iterations, full.Iterations, l1(full.Ranks, exact.Ranks))
			for _, c := range []float64{0, 0.5, 1} {
				x, work, sweeps := pushPageRank(g, opt.Damping, tol, c, 1000)
				fmt.Printf("  push c=%-3g %4d sweeps, %5.1f nnz, error %.2g\n", c, sweeps, work, l1(x, exact.Ranks))
			}
		}
	}
}

func l1(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += math.Abs(a[i] - b[i])
	}
	return s
}

// pushPageRank runs the asynchronous push from networkx's uniform start
// and returns the ranks, the edges visited over nnz(M) (the initial
// residual's product included) and the sweeps made. A dangling vertex's
// push spreads over every vertex at once: every residual is r[i] + u.
func pushPageRank(g *Graph, d, tol, c float64, maxSweeps int) (x []float64, work float64, sweeps int) {
	n := len(g.Vertices)
	fn := float64(n)
	out := g.M.T() // row j: the out-edges of j, each of value 1/outdeg(j)
	x = make([]float64, n)
	for i := range x {
		x[i] = 1 / fn
	}
	r := make([]float64, n)
	g.M.MulVec(x, r, 1)
	dangling := make([]bool, n)
	dsum := 0.0
	for _, i := range g.Dangling {
		dangling[i] = true
		dsum += x[i]
	}
	shift := d*dsum/fn + (1-d)/fn
	for i := range r {
		r[i] = d*r[i] + shift - x[i]
	}
	edges := g.M.NNZ()
	u := 0.0
	for sweeps = 0; sweeps < maxSweeps; sweeps++ {
		norm, most := 0.0, 0.0
		for _, v := range r {
			norm += math.Abs(v + u)
			most = math.Max(most, math.Abs(v+u))
		}
		if norm < fn*tol {
			break
		}
		theta := math.Min(c*norm/fn, most)
		for j := range r {
			rho := r[j] + u
			if math.Abs(rho) < theta || rho == 0 {
				continue
			}
			r[j] = -u
			x[j] += rho
			if dangling[j] {
				u += d * rho / fn
				continue
			}
			lo, hi := out.Ptr[j], out.Ptr[j+1]
			v := d * rho * out.Val[lo]
			for _, i := range out.Ind[lo:hi] {
				r[i] += v
			}
			edges += hi - lo
		}
	}
	return x, float64(edges) / float64(g.M.NNZ()), sweeps
}
