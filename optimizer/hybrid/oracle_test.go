package hybrid

import (
	"math"
	"slices"
	"testing"
	"time"
)

func (p *Product) cloneForTest() *Product {
	q := *p
	q.y, q.r = slices.Clone(p.y), slices.Clone(p.r)
	q.lastActive, q.blockMax = slices.Clone(p.lastActive), slices.Clone(p.blockMax)
	return &q
}

// TestCostModelAgainstOracle follows PageRank's exact trajectory and, at
// every iteration, times a full and an incremental step from the same
// state (fastest of three), then compares the faster with what the cost
// model predicted before seeing those times. The model learns from the
// timings afterwards, as the runtime learns from the steps it runs.
func TestCostModelAgainstOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("times kernels")
	}
	for _, name := range snapGraphs {
		g := snapGraph(t, name)
		opt := DefaultPageRankOptions()
		opt.Tolerance, opt.MaxIterations = 1e-10, 200
		loop := pageRankLoop(g, opt)
		p, err := NewProduct(g.M, 1, Options{Reorg: ReorgNever})
		if err != nil {
			t.Fatal(err)
		}
		p.ensureColumns() // shared by the clones
		x := slices.Clone(loop.X0)
		next := make([]float64, len(x))
		y, _ := p.Start(x)
		var agree, decisive, agreeDecisive int
		var tModel, tOracle time.Duration
		iters, oracleInc := 0, 0
		for k := 1; k < opt.MaxIterations; k++ {
			change, shift := loop.Update(y, x, next)
			if change < loop.Tolerance {
				break
			}
			d := Delta{Prev: x, Next: next, Shift: shift, Budget: loop.ResidualBudget, Change: change}
			q := p.cloneForTest()
			_, nnz, touched, _ := q.pass(d)
			estFull, estInc := p.estFull(), p.estIncremental(nnz, touched, shift != 0)
			model := ModeFull
			if estInc < estFull {
				model = ModeIncremental
			}
			timeIt := func(f func(q *Product)) time.Duration {
				best := time.Duration(math.MaxInt64)
				for range 3 {
					q := p.cloneForTest()
					t0 := time.Now()
					f(q)
					best = min(best, time.Since(t0))
				}
				return best
			}
			tFull := timeIt(func(q *Product) { q.full(next) })
			tInc := timeIt(func(q *Product) {
				_, _, _, th := q.pass(d)
				q.scatter(d, th)
			})
			oracle, tBest, tChosen := ModeFull, tFull, tFull
			if tInc < tFull {
				oracle, tBest = ModeIncremental, tInc
				oracleInc++
			}
			if model == ModeIncremental {
				tChosen = tInc
			}
			iters++
			tModel += tChosen
			tOracle += tBest
			if model == oracle {
				agree++
			}
			if math.Abs(float64(tFull-tInc)) > 0.1*float64(min(tFull, tInc)) {
				decisive++
				if model == oracle {
					agreeDecisive++
				}
			}
			p.learn(0, tFull, estFull)
			p.learn(1, tInc, estInc)
			p.full(next)
			y = p.y
			x, next = next, x
		}
		pct := 100 * float64(agree) / float64(iters)
		pctDecisive := 100.0
		if decisive > 0 {
			pctDecisive = 100 * float64(agreeDecisive) / float64(decisive)
		}
		t.Logf("%s: the oracle chose incremental on %d iterations; the model agrees with the oracle on %d of %d iterations (%.0f%%); on the %d with a >10%% gap, %.0f%%; chosen steps took %v, the oracle's %v (+%.1f%%)",
			name, oracleInc, agree, iters, pct, decisive, pctDecisive, tModel, tOracle, 100*(float64(tModel)/float64(tOracle)-1))
		if pctDecisive < 70 {
			t.Errorf("%s: the cost model picked the slower mode on %.0f%% of the decisive iterations", name, 100-pctDecisive)
		}
	}
}
