package optimizer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/internal/testenv"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
)

// BenchmarkLeastSquares runs the ReMac evaluation's three least-squares
// scripts with redundancy elimination on and off: on a dense n x 47 X with
// 60% nonzeros (n from SQLEARN_LA_ROWS, default 200000) and on the HIGGS
// sample. bench/la.sh runs it and turns the figures into ratios.
func BenchmarkLeastSquares(b *testing.B) {
	rows := 200000
	if s := os.Getenv("SQLEARN_LA_ROWS"); s != "" {
		var err error
		if rows, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	costs, err := LoadCostModel("")
	if err != nil {
		b.Fatal(err)
	}
	datasets := []struct {
		name string
		load func(testing.TB) *testEnv
	}{
		{fmt.Sprintf("synthetic%dx47", rows), func(tb testing.TB) *testEnv { return syntheticEnv(tb, rows) }},
		{"higgs7k", higgsEnv},
	}
	only := os.Getenv("SQLEARN_LA_DATA")
	for _, ds := range datasets {
		if only != "" && !strings.Contains(ds.name, only) {
			continue
		}
		for _, sc := range []struct {
			name  string
			iters int
		}{{"gd", 200}, {"dfp", 50}, {"bfgs", 50}} {
			src := readScript(b, sc.name+".la")
			for _, re := range []bool{true, false} {
				mode := "off"
				if re {
					mode = "on"
				}
				b.Run(fmt.Sprintf("data=%s/script=%s/elimination=%s", ds.name, sc.name, mode), func(b *testing.B) {
					env := ds.load(b)
					env.vars["iters"] = scalar(float64(sc.iters))
					opts := DefaultOptions()
					opts.RedundancyElimination, opts.Costs = re, costs
					var st Stats
					var optimize time.Duration
					for b.Loop() {
						r, err := Run(context.Background(), src, env, opts)
						if err != nil {
							b.Fatal(err)
						}
						st = r.Stats
						optimize += st.OptimizeTime
					}
					b.ReportMetric(float64(optimize.Microseconds())/1e3/float64(b.N), "opt-ms")
					b.ReportMetric(float64(st.Candidates), "cands")
					b.ReportMetric(float64(st.TreeCandidates), "tree-cands")
					b.ReportMetric(float64(st.Hoisted), "hoisted")
				})
			}
		}
	}
}

var (
	benchData   = map[string]*testEnv{}
	benchDataMu sync.Mutex
)

func cachedEnv(key string, build func() *testEnv) *testEnv {
	benchDataMu.Lock()
	defer benchDataMu.Unlock()
	e, ok := benchData[key]
	if !ok {
		e = build()
		benchData[key] = e
	}
	// A fresh Env per run over the shared, immutable matrices.
	out := newTestEnv()
	for k, v := range e.vars {
		out.vars[k] = v
	}
	return out
}

func syntheticEnv(tb testing.TB, rows int) *testEnv {
	return cachedEnv(fmt.Sprint("synthetic", rows), func() *testEnv { return leastSquaresEnv(tb, rows, 47, 0) })
}

// higgsEnv reads the HIGGS sample: tab separated, label first, no header.
// The datasets folder is $SQLEARN_DATASETS or ../shared/datasets from the
// repository root.
func higgsEnv(tb testing.TB) *testEnv {
	return cachedEnv("higgs", func() *testEnv {
		dir := os.Getenv("SQLEARN_DATASETS")
		if dir == "" {
			dir = filepath.Join("..", "..", "shared", "datasets")
		}
		f, err := os.Open(filepath.Join(dir, "tabular", "higgs-7k.train.tsv"))
		if err != nil {
			tb.Skipf("HIGGS sample not available: %v", err)
		}
		defer f.Close()
		var xs, ys [][]float64
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Split(strings.TrimSpace(sc.Text()), "\t")
			row := make([]float64, len(fields))
			for i, s := range fields {
				if row[i], err = strconv.ParseFloat(s, 64); err != nil {
					tb.Fatal(err)
				}
			}
			ys, xs = append(ys, row[:1]), append(xs, row[1:])
		}
		x, err := matrix.FromRows(xs)
		if err != nil {
			tb.Fatal(err)
		}
		y, _ := matrix.FromRows(ys)
		env := newTestEnv()
		env.vars["X"], env.vars["y"] = x, y
		return env
	})
}

// BenchmarkPlan times planning alone (LA_EXPLAIN without ANALYZE) of each
// least-squares script on the HIGGS sample: the optimizer's share of an
// LA_RUN, which the 50 ms budget bounds.
func BenchmarkPlan(b *testing.B) {
	costs, err := LoadCostModel("")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"gd", "dfp", "bfgs"} {
		src := readScript(b, name+".la")
		b.Run("script="+name, func(b *testing.B) {
			env := higgsEnv(b)
			env.vars["iters"] = scalar(50)
			opts := DefaultOptions()
			opts.Costs = costs
			for b.Loop() {
				if _, err := Explain(context.Background(), src, env, opts, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLAPageRank runs sys.ML_PAGERANK's LA program (udf/pagerank.la)
// with the procedure's options on the SNAP graphs in each iteration mode,
// beside the hybrid package's own PageRank loop on the same graph: the
// cost of going through the interpreter.
func BenchmarkLAPageRank(b *testing.B) {
	dir := testenv.Datasets(b)
	script, err := os.ReadFile(filepath.Join("..", "udf", "pagerank.la"))
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"wiki-Vote.txt", "soc-Slashdot0902.txt.gz"} {
		src, dst := testenv.SNAPEdges(b, filepath.Join(dir, "graphs", name))
		g, err := hybrid.NewGraph(src, dst)
		if err != nil {
			b.Fatal(err)
		}
		n := g.M.Rows
		is, js := make([]int, 0, g.M.NNZ()), make([]int, 0, g.M.NNZ())
		for r := range n {
			for p := g.M.Ptr[r]; p < g.M.Ptr[r+1]; p++ {
				is, js = append(is, r), append(js, int(g.M.Ind[p]))
			}
		}
		m, err := matrix.FromTriples(n, n, is, js, g.M.Val)
		if err != nil {
			b.Fatal(err)
		}
		d := make([]float64, n)
		for _, v := range g.Dangling {
			d[v] = 1
		}
		dm, err := matrix.NewDense(n, 1, d)
		if err != nil {
			b.Fatal(err)
		}
		const tol = 1e-10
		env := newTestEnv()
		env.vars["M"], env.vars["D"], env.vars["tol"] = m, dm, scalar(tol)
		env.vars["damping"], env.vars["max_iterations"] = scalar(0.85), scalar(1000)
		graph := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".txt")
		for _, mode := range []hybrid.Mode{hybrid.ModeFull, hybrid.ModeIncremental, hybrid.ModeHybrid} {
			b.Run(fmt.Sprintf("graph=%s/path=la/mode=%s", graph, mode), func(b *testing.B) {
				opts := DefaultOptions()
				opts.IterationMode, opts.IterationBudget, opts.IterationResidual = mode, 0, 0.1*float64(n)*tol
				var r Result
				for b.Loop() {
					if r, err = Run(context.Background(), string(script), env, opts); err != nil {
						b.Fatal(err)
					}
				}
				steps := r.Iterations[0].Steps
				inc := 0
				for _, s := range steps {
					if s.Mode == hybrid.ModeIncremental {
						inc++
					}
				}
				b.ReportMetric(float64(len(steps)), "iters")
				b.ReportMetric(float64(inc), "incremental")
			})
			b.Run(fmt.Sprintf("graph=%s/path=direct/mode=%s", graph, mode), func(b *testing.B) {
				opt := hybrid.DefaultPageRankOptions()
				opt.Tolerance, opt.MaxIterations = tol, 1000
				var res hybrid.PageRankResult
				for b.Loop() {
					if res, err = hybrid.PageRank(context.Background(), g, opt, mode); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Iterations), "iters")
				b.ReportMetric(float64(res.Incremental), "incremental")
			})
		}
	}
}
