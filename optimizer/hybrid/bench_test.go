package hybrid

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	dir := datasets(t)
	fmt.Printf("calibrated costs (ns): %+v\n", Calibrated())
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	for _, name := range []string{"wiki-Vote.txt", "soc-Slashdot0902.txt.gz"} {
		src, dst := snapEdges(t, filepath.Join(dir, "graphs", name))
		g, err := NewGraph(src, dst)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("\n%s: %d vertices, %d edges after collapsing duplicates\n", name, len(g.Vertices), g.M.NNZ())
		fmt.Printf("%-8s %-12s %10s %6s %5s %5s\n", "tol", "mode", "median", "iters", "full", "inc")
		for _, tol := range []float64{1e-6, 1e-8, 1e-10} {
			var trace []Step
			for _, mode := range []Mode{ModeFull, ModeIncremental, ModeHybrid} {
				var ds []time.Duration
				var res PageRankResult
				for range runs {
					opt := DefaultPageRankOptions()
					opt.Tolerance, opt.MaxIterations = tol, 1000
					res, err = PageRank(context.Background(), g, opt, mode)
					if err != nil {
						t.Fatal(err)
					}
					ds = append(ds, res.Elapsed)
				}
				fmt.Printf("%-8g %-12s %10v %6d %5d %5d\n", tol, mode, median(ds).Round(10*time.Microsecond), res.Iterations, res.Full, res.Incremental)
				if mode == ModeHybrid {
					trace = res.Trace
				}
			}
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
		for _, reorg := range []Reorg{ReorgNever, ReorgAuto, ReorgDegree} {
			opt := DefaultPageRankOptions()
			opt.Tolerance, opt.MaxIterations = 1e-10, 1000
			opt.Options.Reorg = reorg
			var ds []time.Duration
			var res PageRankResult
			for range runs {
				res, err = PageRank(context.Background(), g, opt, ModeIncremental)
				if err != nil {
					t.Fatal(err)
				}
				ds = append(ds, res.Elapsed)
			}
			touched, blocks := 0, 0
			for _, s := range res.Trace[1:] {
				touched += s.BlocksTouched
				blocks += s.Blocks
			}
			fmt.Printf("incremental at 1e-10, reorg=%-6s: blocks touched %d of %d (%.1f%%), reorganisations %d, median %v\n",
				[]string{"auto", "never", "degree"}[reorg], touched, blocks, 100*float64(touched)/float64(blocks), res.Reorganisations, median(ds).Round(10*time.Microsecond))
		}
	}
	v := movieLens(t)
	fmt.Printf("\nGNMF on MovieLens %dx%d, %d ratings, rank 10, 50 iterations\n", v.Rows, v.Cols, v.NNZ())
	for _, mode := range []Mode{ModeFull, ModeIncremental, ModeHybrid} {
		var ds []time.Duration
		var res GNMFResult
		for range runs {
			var err error
			res, err = GNMF(context.Background(), v, DefaultGNMFOptions(), mode)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, res.Elapsed)
		}
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
			mode, median(ds).Round(10*time.Microsecond), res.Full, res.Incremental, active, res.Loss[0], res.Loss[len(res.Loss)-1])
	}
}

func BenchmarkPageRankSlashdot(b *testing.B) {
	src, dst := snapEdges(b, filepath.Join(datasets(b), "graphs", "soc-Slashdot0902.txt.gz"))
	g, err := NewGraph(src, dst)
	if err != nil {
		b.Fatal(err)
	}
	Calibrated()
	for _, mode := range []Mode{ModeFull, ModeIncremental, ModeHybrid} {
		b.Run(mode.String(), func(b *testing.B) {
			opt := DefaultPageRankOptions()
			opt.Tolerance, opt.MaxIterations = 1e-10, 1000
			for b.Loop() {
				if _, err := PageRank(context.Background(), g, opt, mode); err != nil {
					b.Fatal(err)
				}
			}
		})
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
