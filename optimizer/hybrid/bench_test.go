package hybrid

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBenchmarkReport prints the figures of docs/benchmarks-hybrid.md
// (run by bench/pagerank.sh; skipped unless SQLEARN_BENCH_HYBRID is set).
// Times are medians of SQLEARN_BENCH_RUNS runs (default 3), all modes
// measured in the same process one after another.
func TestBenchmarkReport(t *testing.T) {
	if os.Getenv("SQLEARN_BENCH_HYBRID") == "" {
		t.Skip("set SQLEARN_BENCH_HYBRID=1 (bench/pagerank.sh does)")
	}
	runs := 3
	fmt.Sscan(os.Getenv("SQLEARN_BENCH_RUNS"), &runs)
	fmt.Printf("calibrated costs (ns): %+v\n", Calibrated())
	for _, name := range snapGraphs {
		g := snapGraph(t, name)
		fmt.Printf("\n%s: %d vertices, %d edges after collapsing duplicates\n", name, len(g.Vertices), g.M.NNZ())
		fmt.Printf("%-8s %-12s %10s %6s %5s %5s\n", "tol", "mode", "median", "iters", "full", "inc")
		for _, tol := range []float64{1e-6, 1e-8, 1e-10} {
			var trace []Step
			modes := []Mode{ModeFull, ModeIncremental, ModeHybrid}
			results := make([]PageRankResult, len(modes))
			cases := make([]func() time.Duration, len(modes))
			for i, mode := range modes {
				cases[i] = func() time.Duration {
					opt := DefaultPageRankOptions()
					opt.Tolerance, opt.MaxIterations = tol, 1000
					res, err := PageRank(context.Background(), g, opt, mode)
					if err != nil {
						t.Fatal(err)
					}
					results[i] = res
					return res.Elapsed
				}
			}
			for i, d := range medians(runs, cases) {
				res := results[i]
				fmt.Printf("%-8g %-12s %10v %6d %5d %5d\n", tol, modes[i], d.Round(10*time.Microsecond), res.Iterations, res.Full, res.Incremental)
			}
			trace = results[2].Trace
			var b strings.Builder
			for _, s := range trace {
				if s.ActiveFraction >= 0 {
					fmt.Fprintf(&b, " %c%.2f", s.Mode.String()[0], s.ActiveFraction)
				} else {
					fmt.Fprintf(&b, " %c", s.Mode.String()[0])
				}
			}
			fmt.Printf("  hybrid trace at %g (mode, active fraction when measured):%s\n", tol, b.String())
		}
		// Blocks touched by incremental steps at 1e-10 with each layout.
		reorgs := []Reorg{ReorgNever, ReorgAuto, ReorgDegree}
		results := make([]PageRankResult, len(reorgs))
		cases := make([]func() time.Duration, len(reorgs))
		for i, reorg := range reorgs {
			cases[i] = func() time.Duration {
				opt := DefaultPageRankOptions()
				opt.Tolerance, opt.MaxIterations = 1e-10, 1000
				opt.Options.Reorg = reorg
				res, err := PageRank(context.Background(), g, opt, ModeIncremental)
				if err != nil {
					t.Fatal(err)
				}
				results[i] = res
				return res.Elapsed
			}
		}
		for i, d := range medians(runs, cases) {
			res := results[i]
			touched, blocks := 0, 0
			for _, s := range res.Trace[1:] {
				touched += s.BlocksTouched
				blocks += s.Blocks
			}
			fmt.Printf("incremental at 1e-10, reorg=%-6s: blocks touched %d of %d (%.1f%%), reorganisations %d, median %v\n",
				[]string{"auto", "never", "degree"}[reorgs[i]], touched, blocks, 100*float64(touched)/float64(blocks), res.Reorganisations, d.Round(10*time.Microsecond))
		}
	}
	v := movieLens(t)
	fmt.Printf("\nGNMF on MovieLens %dx%d, %d ratings, rank 10, 50 iterations\n", v.Rows, v.Cols, v.NNZ())
	modes := []Mode{ModeFull, ModeIncremental, ModeHybrid}
	results := make([]GNMFResult, len(modes))
	cases := make([]func() time.Duration, len(modes))
	for i, mode := range modes {
		cases[i] = func() time.Duration {
			res, err := GNMF(context.Background(), v, DefaultGNMFOptions(), mode)
			if err != nil {
				t.Fatal(err)
			}
			results[i] = res
			return res.Elapsed
		}
	}
	for i, d := range medians(runs, cases) {
		res := results[i]
		active := 0.0
		n := 0
		for _, s := range res.Trace {
			if s.ActiveFraction >= 0 {
				active += s.ActiveFraction
				n++
			}
		}
		if n > 0 {
			active /= float64(n)
		}
		fmt.Printf("%-12s median %v, products full=%d incremental=%d, mean active fraction %.2f, loss %.6g → %.6g\n",
			modes[i], d.Round(10*time.Microsecond), res.Full, res.Incremental, active, res.Loss[0], res.Loss[len(res.Loss)-1])
	}
}

// medians times the cases round robin, each round led by the next case,
// after one untimed round that warms caches and the matrix's lazily
// built layouts, and collects garbage before each run, so that no case
// gains or loses from running after another (incremental evaluation allocates copies of M whose collection
// would otherwise fall in the next case's run); it repeats the rounds at least runs times
// and until every case has run for minTimed in all (at most maxRounds),
// so that a case of a few milliseconds is not one run's noise. It
// returns each case's median.
func medians(runs int, cases []func() time.Duration) []time.Duration {
	const minTimed, maxRounds = 300 * time.Millisecond, 200
	for _, c := range cases {
		c()
	}
	ds := make([][]time.Duration, len(cases))
	total := make([]time.Duration, len(cases))
	for round := 0; round < maxRounds; round++ {
		if round >= runs && slices.Min(total) >= minTimed {
			break
		}
		for j := range cases {
			i := (round + j) % len(cases) // each case leads in turn
			runtime.GC()
			d := cases[i]()
			ds[i] = append(ds[i], d)
			total[i] += d
		}
	}
	out := make([]time.Duration, len(cases))
	for i := range ds {
		slices.Sort(ds[i])
		out[i] = ds[i][len(ds[i])/2]
	}
	return out
}

// BenchmarkPageRank times PageRank in full and in hybrid mode on both
// graphs at a loose and a tight tolerance; with -cpuprofile it shows what
// hybrid evaluation's comparisons cost:
//
//	go test -run '^$' -bench PageRank/ -count 10 ./optimizer/hybrid
func BenchmarkPageRank(b *testing.B) {
	for _, name := range []string{"wiki-Vote.txt", "soc-Slashdot0902.txt.gz"} {
		src, dst := snapEdges(b, filepath.Join(datasets(b), "graphs", name))
		g, err := NewGraph(src, dst)
		if err != nil {
			b.Fatal(err)
		}
		Calibrated()
		graph := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".txt")
		for _, tol := range []float64{1e-6, 1e-10} {
			for _, mode := range []Mode{ModeFull, ModeHybrid} {
				b.Run(fmt.Sprintf("%s/tol=%g/%s", graph, tol, mode), func(b *testing.B) {
					opt := DefaultPageRankOptions()
					opt.Tolerance, opt.MaxIterations = tol, 1000
					for b.Loop() {
						if _, err := PageRank(context.Background(), g, opt, mode); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkGNMF times GNMF on MovieLens (rank 10, 50 iterations) in each
// mode and reports how many products compared the modes:
//
//	go test -run '^$' -bench GNMF -count 6 ./optimizer/hybrid
func BenchmarkGNMF(b *testing.B) {
	v := movieLens(b)
	Calibrated()
	for _, mode := range []Mode{ModeFull, ModeHybrid} {
		b.Run(mode.String(), func(b *testing.B) {
			var res GNMFResult
			for b.Loop() {
				var err error
				if res, err = GNMF(context.Background(), v, DefaultGNMFOptions(), mode); err != nil {
					b.Fatal(err)
				}
			}
			compared := 0
			for _, s := range res.Trace {
				if s.Compared {
					compared++
				}
			}
			b.ReportMetric(float64(compared), "compared")
		})
	}
}

// BenchmarkMulPattern times full evaluation's kernel, one product of each
// graph's transition matrix through its pattern (w = 1), on every core:
//
//	go test -run '^$' -bench MulPattern -count 6 ./optimizer/hybrid
func BenchmarkMulPattern(b *testing.B) {
	for _, name := range []string{"wiki-Vote.txt", "soc-Slashdot0902.txt.gz"} {
		src, dst := snapEdges(b, filepath.Join(datasets(b), "graphs", name))
		g, err := NewGraph(src, dst)
		if err != nil {
			b.Fatal(err)
		}
		xs := make([]float64, g.M.Cols)
		for i := range xs {
			xs[i] = 1 / float64(i+1)
		}
		y := make([]float64, g.M.Rows)
		b.Run(strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".txt"), func(b *testing.B) {
			for b.Loop() {
				g.M.MulPattern(xs, y)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.M.NNZ()), "ns/nnz")
		})
	}
}
