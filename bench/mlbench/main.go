// Command mlbench times sqlearn's ml training against scikit-learn (and a
// numpy ALS) on the shared reference datasets, in the same run and on the
// same rows, and reports quality side by side; it also measures batch
// prediction throughput of a linear model. bench/ml.sh runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/sqlearn/sqlearn/internal/gctune"
	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

type benchCase struct {
	data   string
	opts   ml.Options
	params map[string]any
	metric string // compared on the held-out rows; "inertia" is on the training rows
	rows   int    // training rows used (0: all)
}

func main() {
	repeats := flag.Int("repeats", 3, "timed fits per side; medians are reported")
	only := flag.String("only", "", "run only cases whose algorithm or dataset equals this")
	flag.Parse()
	// Train under the collector settings sqlearn serve runs with.
	gctune.ApplyDefault()
	gcPercent := debug.SetGCPercent(100) // read back, GOGC included
	debug.SetGCPercent(gcPercent)
	cases := []benchCase{
		{"california", ml.Options{Algorithm: ml.LinearRegression}, nil, "r2", 0},
		{"california", ml.Options{Algorithm: ml.Ridge, Alpha: 1}, map[string]any{"alpha": 1}, "r2", 0},
		{"digits", ml.Options{Algorithm: ml.LogisticRegression}, nil, "accuracy", 0},
		{"adult", ml.Options{Algorithm: ml.LogisticRegression}, nil, "accuracy", 0},
		{"higgs-train", ml.Options{Algorithm: ml.LogisticRegression}, nil, "accuracy", 0},
		{"digits", ml.Options{Algorithm: ml.KMeans, K: 10, Seed: 1}, map[string]any{"k": 10, "seed": 1}, "inertia", 0},
		{"california", ml.Options{Algorithm: ml.KMeans, K: 8, Seed: 1}, map[string]any{"k": 8, "seed": 1}, "inertia", 0},
		{"adult", ml.Options{Algorithm: ml.NaiveBayes}, nil, "accuracy", 0},
		{"higgs-train", ml.Options{Algorithm: ml.NaiveBayes}, nil, "accuracy", 0},
		{"adult", ml.Options{Algorithm: ml.DecisionTree, Task: ml.Classification, MaxDepth: 8}, map[string]any{"max_depth": 8}, "accuracy", 0},
		{"california", ml.Options{Algorithm: ml.DecisionTree, Task: ml.Regression, MaxDepth: 10}, map[string]any{"max_depth": 10}, "r2", 0},
		{"higgs-train", ml.Options{Algorithm: ml.GradientBoosting, Task: ml.Classification}, nil, "accuracy", 0},
		{"adult", ml.Options{Algorithm: ml.GradientBoosting, Task: ml.Classification}, nil, "accuracy", 0},
		{"california", ml.Options{Algorithm: ml.GradientBoosting, Task: ml.Regression}, nil, "r2", 0},
		{"movielens", ml.Options{Algorithm: ml.ALS, Rank: 10, Lambda: 0.1, MaxIter: 10, Seed: 7},
			map[string]any{"rank": 10, "lambda": 0.1, "max_iter": 10, "seed": 7}, "rmse", 0},
	}
	fmt.Printf("GOMAXPROCS %d, GC percent %d as sqlearn serve sets it, %d timed fits per side, medians\n\n", runtime.GOMAXPROCS(0), gcPercent, *repeats)
	fmt.Println("| algorithm | dataset | train rows | sqlearn s | reference fit s | ratio | reference with encoders s | ratio | metric | sqlearn | reference |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range cases {
		if *only != "" && *only != string(c.opts.Algorithm) && *only != c.data {
			continue
		}
		if err := runCase(c, *repeats); err != nil {
			fmt.Fprintf(os.Stderr, "%s/%s: %v\n", c.opts.Algorithm, c.data, err)
			os.Exit(1)
		}
	}
	if *only == "" || *only == "predict" {
		if err := predictThroughput(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func load(data string) (*ml.Dataset, []int, []int, error) {
	d, err := refdata.Load(data)
	if err != nil {
		return nil, nil, nil, err
	}
	if data != "higgs-train" {
		tr, te := ml.SplitIndices(d.Rows(), 0.2, 42)
		return d, tr, te, nil
	}
	test, err := refdata.Load("higgs-test")
	if err != nil {
		return nil, nil, nil, err
	}
	for i := range d.Features {
		d.Features[i].Num = append(d.Features[i].Num, test.Features[i].Num...)
	}
	n := d.Target.Len()
	d.Target.Num = append(d.Target.Num, test.Target.Num...)
	var tr, te []int
	for i := 0; i < d.Rows(); i++ {
		if i < n {
			tr = append(tr, i)
		} else {
			te = append(te, i)
		}
	}
	return d, tr, te, nil
}

func runCase(c benchCase, repeats int) error {
	d, tr, te, err := load(c.data)
	if err != nil {
		return err
	}
	if c.rows > 0 && c.rows < len(tr) {
		tr = tr[:c.rows]
	}
	task := map[ml.Algorithm]string{ml.LinearRegression: "regression", ml.Ridge: "regression",
		ml.KMeans: "clustering", ml.ALS: "recommendation"}[c.opts.Algorithm]
	if task == "" {
		task = "classification"
		if c.opts.Task == ml.Regression {
			task = "regression"
		}
	}
	if task == "clustering" {
		d.Target = nil
	}
	train, test := d.Subset(tr), d.Subset(te)
	var secs []float64
	var m *ml.Model
	for r := 0; r < repeats; r++ {
		runtime.GC()
		t0 := time.Now()
		if m, err = ml.Train(context.Background(), train, c.opts); err != nil {
			return err
		}
		secs = append(secs, time.Since(t0).Seconds())
	}
	var ours float64
	if c.metric == "inertia" {
		ours = m.Estimator().(*ml.KMeansModel).Inertia
	} else if ours, err = ml.Score(context.Background(), m, test, c.metric); err != nil {
		return err
	}
	ref, err := refdata.Reference(d, refdata.Spec{Algorithm: string(c.opts.Algorithm), Task: task,
		Params: c.params, Train: tr, Test: te, Repeats: repeats, WithEncoders: true})
	if err != nil {
		return err
	}
	o, s, p := refdata.Median(secs), ref.MedianSeconds(), ref.MedianPipelineSeconds()
	fmt.Printf("| %s | %s | %d | %.4f | %.4f | %.2f | %.4f | %.2f | %s | %.4f | %.4f |\n", c.opts.Algorithm, c.data, len(tr),
		o, s, o/s, p, o/p, c.metric, ours, ref.Metrics[c.metric])
	return nil
}

// predictThroughput replicates California housing to about a million
// rows and times PredictBatch of a ridge model over it.
func predictThroughput() error {
	d, err := refdata.Load("california")
	if err != nil {
		return err
	}
	m, err := ml.Train(context.Background(), d, ml.Options{Algorithm: ml.Ridge})
	if err != nil {
		return err
	}
	const copies = 50
	big := &ml.Dataset{}
	for _, c := range d.Features {
		bc := ml.Column{Name: c.Name, Kind: c.Kind}
		for k := 0; k < copies; k++ {
			bc.Num = append(bc.Num, c.Num...)
			bc.Str = append(bc.Str, c.Str...)
			if c.Null != nil {
				bc.Null = append(bc.Null, c.Null...)
			}
		}
		big.Features = append(big.Features, bc)
	}
	n := d.Rows() * copies
	var secs []float64
	for r := 0; r < 5; r++ {
		runtime.GC()
		t0 := time.Now()
		if _, err := m.PredictBatch(context.Background(), big); err != nil {
			return err
		}
		secs = append(secs, time.Since(t0).Seconds())
	}
	med := refdata.Median(secs)
	fmt.Printf("\nRidge PredictBatch on %d rows (9 columns, one categorical): median %.3f s = %.0f rows/s\n", n, med, float64(n)/med)
	return nil
}
