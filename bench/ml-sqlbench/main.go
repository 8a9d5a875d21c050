// Command ml-sqlbench times training through CALL sys.ML_TRAIN (tables
// already loaded) against scikit-learn's fit on the same rows in the same
// run, compares held-out quality through ML_SCORE, and measures
// ML_PREDICT_TABLE throughput, split into prediction and writing the
// output table through the engine. bench/ml-sql.sh runs it.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/internal/gctune"
	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/udf"
)

type benchCase struct {
	data    string
	task    ml.Task
	algo    ml.Algorithm
	sqlOpts string
	params  map[string]any
	metric  string
}

func main() {
	repeats := flag.Int("repeats", 3, "timed runs per side; medians are reported")
	predictRows := flag.Int("predict-rows", 50000, "rows of the synthetic ML_PREDICT_TABLE input")
	flag.BoolVar(&predictOnly, "predict-only", false, "skip the training comparison")
	flag.StringVar(&predictAlgorithm, "predict-algorithm", "LinearRegression", "the linear model ML_PREDICT_TABLE is measured with: LinearRegression, or LogisticRegression (a binary label, so each row's ml_results holds class probabilities)")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the timed ML_TRAIN calls (with -only) or ML_PREDICT_TABLE calls (with -predict-only) to this file")
	flag.StringVar(&memProfile, "memprofile", "", "write a profile of the memory allocated by the same calls as -cpuprofile to this file")
	flag.StringVar(&only, "only", "", "train only the cases whose dataset or algorithm is this, then stop")
	flag.StringVar(&raftLog, "raft-log", replication.LogBolt, "the server's Raft log store: bolt or wal")
	flag.Parse()
	if err := run(*repeats, *predictRows); err != nil {
		fmt.Fprintln(os.Stderr, "ml-sqlbench:", err)
		os.Exit(1)
	}
}

var (
	predictOnly bool
	// predictAlgorithm is the model ML_PREDICT_TABLE is measured with.
	predictAlgorithm string
	cpuProfile       string
	memProfile       string
	raftLog          string
	only             string
)

func run(repeats, predictRows int) error {
	dir, err := os.MkdirTemp("", "ml-sqlbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := sqlext.DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.Extensions, cfg.Logger = "127.0.0.1:0", dir, udf.Extensions, nil
	cfg.Replication.LogStore = raftLog
	gctune.ApplyDefault() // as sqlearn serve runs
	srv, err := sqlext.Open(context.Background(), cfg)
	if err != nil {
		return err
	}
	go srv.Serve()
	defer srv.Close()
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", srv.Addr()))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE b"); err != nil {
		return err
	}
	if _, err := db.Exec("USE b"); err != nil {
		return err
	}

	if predictOnly {
		return predictThroughput(db, repeats, predictRows)
	}
	cases := []benchCase{
		{"diabetes", ml.Regression, ml.LinearRegression, "'algorithm', 'LinearRegression'", nil, "r2"},
		{"breast_cancer", ml.Classification, ml.LogisticRegression, "'algorithm', 'LogisticRegression'", nil, "accuracy"},
		{"adult", ml.Classification, ml.LogisticRegression, "'algorithm', 'LogisticRegression'", nil, "accuracy"},
		{"adult", ml.Classification, ml.DecisionTree, "'algorithm', 'DecisionTree', 'max_depth', 8", map[string]any{"max_depth": 8}, "accuracy"},
		{"adult", ml.Classification, ml.GradientBoosting, "'algorithm', 'GradientBoosting'", nil, "accuracy"},
	}
	fmt.Printf("GOMAXPROCS %d, %d runs per side, medians\n\n", runtime.GOMAXPROCS(0), repeats)
	fmt.Println("| algorithm | dataset | train rows | ML_TRAIN s | scikit-learn fit s | ratio | scikit-learn with encoders s | ratio | metric | ML_SCORE | scikit-learn |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	loaded := map[string]bool{}
	for _, c := range cases {
		if only != "" && !strings.EqualFold(only, c.data) && !strings.EqualFold(only, string(c.algo)) {
			continue
		}
		d, err := refdata.Load(c.data)
		if err != nil {
			return err
		}
		tr, te := ml.SplitIndices(d.Rows(), 0.2, 42)
		slices.Sort(tr)
		slices.Sort(te)
		if !loaded[c.data] {
			if err := load(db, c.data+"_train", d, tr); err != nil {
				return err
			}
			if err := load(db, c.data+"_test", d, te); err != nil {
				return err
			}
			loaded[c.data] = true
		}
		var secs []float64
		stop := func() {}
		if only != "" {
			if stop, err = startProfile(); err != nil {
				return err
			}
		}
		for r := 0; r < repeats; r++ {
			if _, err := db.Exec("SET @m = NULL"); err != nil {
				return err
			}
			t0 := time.Now()
			_, err := db.Exec(fmt.Sprintf("CALL sys.ML_TRAIN('b.%s_train', '%s', JSON_OBJECT('task', '%s', 'exclude_column_list', JSON_ARRAY('id'), %s), @m)",
				c.data, d.Target.Name, c.task, c.sqlOpts))
			if err != nil {
				return fmt.Errorf("%s/%s: %w", c.algo, c.data, err)
			}
			secs = append(secs, time.Since(t0).Seconds())
		}
		stop()
		var score float64
		if _, err := db.Exec(fmt.Sprintf("CALL sys.ML_SCORE('b.%s_test', '%s', @m, '%s', @s, NULL)", c.data, d.Target.Name, c.metric)); err != nil {
			return err
		}
		if err := db.QueryRow("SELECT @s").Scan(&score); err != nil {
			return err
		}
		ref, err := refdata.Reference(d, refdata.Spec{Algorithm: string(c.algo), Task: c.task.String(), Params: c.params,
			Train: tr, Test: te, Repeats: repeats, WithEncoders: true})
		if err != nil {
			return err
		}
		ours, theirs, pipe := refdata.Median(secs), ref.MedianSeconds(), ref.MedianPipelineSeconds()
		fmt.Printf("| %s | %s | %d | %.3f | %.3f | %.2f | %.3f | %.2f | %s | %.4f | %.4f |\n", c.algo, c.data, len(tr), ours, theirs,
			ours/theirs, pipe, ours/pipe, c.metric, score, ref.Metrics[c.metric])
	}
	if only != "" {
		return nil
	}
	return predictThroughput(db, repeats, predictRows)
}

// startProfile starts the profiles -cpuprofile and -memprofile ask for,
// of the calls timed from here on; stop ends them.
func startProfile() (stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, s := range stops {
			s()
		}
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if memProfile != "" {
		// Every allocation counts, and the profile holds only what was
		// allocated after this point: the difference of two snapshots.
		runtime.MemProfileRate = 1 << 10
		runtime.GC()
		base := pprof.Lookup("allocs")
		var before bytes.Buffer
		if err := base.WriteTo(&before, 0); err != nil {
			return nil, err
		}
		path := memProfile
		stops = append(stops, func() {
			if f, err := os.Create(path); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
				_ = os.WriteFile(path+".base", before.Bytes(), 0o644)
			}
		})
	}
	cpuProfile, memProfile = "", "" // one profile per run
	return stop, nil
}

// predictThroughput loads a synthetic regression table and times
// ML_PREDICT_TABLE with a linear model, reporting where the time goes,
// next to batch prediction through ml alone on the same rows.
func predictThroughput(db *sql.DB, repeats, n int) error {
	const p = 8
	rng := rand.New(rand.NewPCG(1, 2))
	cols := make([]ml.Column, p)
	for j := range cols {
		cols[j] = ml.NumericColumn("x"+strconv.Itoa(j), make([]float64, n), nil)
	}
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := range cols {
			cols[j].Num[i] = rng.NormFloat64()
			y[i] += float64(j+1) * cols[j].Num[i]
		}
		y[i] += rng.NormFloat64()
	}
	logistic := predictAlgorithm == "LogisticRegression"
	if logistic {
		for i := range y {
			y[i] = float64(min(1, max(0, math.Round(y[i]/10+0.5))))
		}
	}
	target := ml.NumericColumn("y", y, nil)
	d := &ml.Dataset{Features: cols, Target: &target}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	t0 := time.Now()
	if err := load(db, "synth", d, idx); err != nil {
		return err
	}
	loadSecs := time.Since(t0).Seconds()
	if _, err := db.Exec("SET @lin = NULL"); err != nil {
		return err
	}
	task := "regression"
	if logistic {
		task = "classification"
	}
	if _, err := db.Exec("CALL sys.ML_TRAIN('b.synth', 'y', JSON_OBJECT('task', ?, 'algorithm', ?, 'exclude_column_list', JSON_ARRAY('id')), @lin)", task, predictAlgorithm); err != nil {
		return err
	}
	var total, pred, write []float64
	stop, err := startProfile()
	if err != nil {
		return err
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	cpu0 := processCPU()
	for r := 0; r < repeats; r++ {
		out := fmt.Sprintf("b.synth_pred%d", r)
		var name string
		var rows int64
		var ps, ws float64
		t0 := time.Now()
		if err := db.QueryRow("CALL sys.ML_PREDICT_TABLE('b.synth', @lin, ?, NULL)", out).Scan(&name, &rows, &ps, &ws); err != nil {
			return err
		}
		total = append(total, time.Since(t0).Seconds())
		pred, write = append(pred, ps), append(write, ws)
	}
	cpuPerCall := (processCPU() - cpu0) / float64(repeats)
	// The profiles cover the calls only, not the comparison below.
	stop()
	stopped = true
	opts := ml.Options{Algorithm: ml.LinearRegression}
	if logistic {
		opts = ml.Options{Algorithm: ml.LogisticRegression, Task: ml.Classification}
	}
	m, err := ml.Train(context.Background(), d, opts)
	if err != nil {
		return err
	}
	var direct []float64
	for r := 0; r < repeats; r++ {
		t0 := time.Now()
		if _, err := m.PredictBatch(context.Background(), d); err != nil {
			return err
		}
		direct = append(direct, time.Since(t0).Seconds())
	}
	med := refdata.Median
	fmt.Printf("\nML_PREDICT_TABLE, %s, %d rows × %d DOUBLE features (loaded by INSERT in %.1f s)\n\n", predictAlgorithm, n, p, loadSecs)
	fmt.Println("| stage | median s | rows/s |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| whole CALL | %.3f | %.0f |\n", med(total), float64(n)/med(total))
	fmt.Printf("| of which prediction (read + PredictBatch) | %.3f | %.0f |\n", med(pred), float64(n)/med(pred))
	fmt.Printf("| of which writing the output through the engine | %.3f | %.0f |\n", med(write), float64(n)/med(write))
	fmt.Printf("| ml PredictBatch alone, no SQL | %.4f | %.0f |\n", med(direct), float64(n)/med(direct))
	fmt.Printf("\nCPU time of the whole process per CALL (mean): %.3f s, %.0f rows per CPU second\n", cpuPerCall, float64(n)/cpuPerCall)
	return nil
}

// processCPU is the user and system CPU time this process has used, in
// seconds: on a shared machine it moves less with other load than the
// wall clock does.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// load creates table name (id BIGINT PRIMARY KEY + d's columns) holding
// d's rows idx, in multi-row INSERTs of 1000 rows.
func load(db *sql.DB, name string, d *ml.Dataset, idx []int) error {
	for _, q := range refdata.TableSQL(name, d, idx) {
		if _, err := db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}
