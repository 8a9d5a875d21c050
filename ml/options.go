package ml

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/sqlearn/sqlearn/gpu"
)

// Task is what a model predicts.
type Task uint8

const (
	Classification Task = 1
	Regression     Task = 2
	Clustering     Task = 3
	Recommendation Task = 4
)

var taskNames = map[Task]string{
	Classification: "classification",
	Regression:     "regression",
	Clustering:     "clustering",
	Recommendation: "recommendation",
}

func (t Task) String() string {
	if s, ok := taskNames[t]; ok {
		return s
	}
	return fmt.Sprintf("Task(%d)", uint8(t))
}

// ParseTask reads a task name as ML_TRAIN's 'task' option spells it.
func ParseTask(s string) (Task, error) {
	for t, name := range taskNames {
		if strings.EqualFold(s, name) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("%w: task %q", ErrBadOption, s)
}

// Algorithm names a training algorithm. The canonical names are the
// constants below; ParseAlgorithm also accepts the scikit-learn and
// HeatWave spellings users already know.
type Algorithm string

const (
	LinearRegression   Algorithm = "LinearRegression"
	Ridge              Algorithm = "Ridge"
	LogisticRegression Algorithm = "LogisticRegression"
	KMeans             Algorithm = "KMeans"
	NaiveBayes         Algorithm = "NaiveBayes"
	DecisionTree       Algorithm = "DecisionTree"
	GradientBoosting   Algorithm = "GradientBoosting"
	ALS                Algorithm = "ALS"
)

var algorithmAliases = map[string]Algorithm{
	"linearregression":           LinearRegression,
	"ridge":                      Ridge,
	"logisticregression":         LogisticRegression,
	"kmeans":                     KMeans,
	"naivebayes":                 NaiveBayes,
	"gaussiannb":                 NaiveBayes,
	"decisiontree":               DecisionTree,
	"decisiontreeclassifier":     DecisionTree,
	"decisiontreeregressor":      DecisionTree,
	"gradientboosting":           GradientBoosting,
	"gradientboostingclassifier": GradientBoosting,
	"gradientboostingregressor":  GradientBoosting,
	"xgbclassifier":              GradientBoosting,
	"xgbregressor":               GradientBoosting,
	"lgbmclassifier":             GradientBoosting,
	"lgbmregressor":              GradientBoosting,
	"als":                        ALS,
	"matrixfactorization":        ALS,
}

// ParseAlgorithm maps a user-facing algorithm name onto an Algorithm.
func ParseAlgorithm(s string) (Algorithm, error) {
	key := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
	if a, ok := algorithmAliases[key]; ok {
		return a, nil
	}
	return "", fmt.Errorf("%w: %q", ErrUnknownAlgorithm, s)
}

// NullPolicy says what training and prediction do with NULL features.
type NullPolicy uint8

const (
	// NullImpute replaces NULL with the training mean (numeric) or the most
	// frequent training value (categorical), like scikit-learn's
	// SimpleImputer with strategy "mean" / "most_frequent".
	NullImpute NullPolicy = iota
	// NullReject fails with ErrNullValue naming the column.
	NullReject
)

// Progress is reported during training; Iteration counts the algorithm's
// own unit (L-BFGS iteration, Lloyd step, ALS sweep, boosting stage).
type Progress struct {
	Algorithm     Algorithm
	Iteration     int
	MaxIterations int
	Loss          float64
	Rows          int64
}

// Options configures Train. A zero field means the algorithm's default,
// which follows scikit-learn's where one exists (noted per field).
type Options struct {
	Task      Task
	Algorithm Algorithm
	Seed      uint64
	Nulls     NullPolicy
	// Workers bounds the goroutines training and batch prediction use;
	// zero means GOMAXPROCS.
	Workers int
	// Progress, when set, is called from the training goroutine; it must
	// be quick.
	Progress func(Progress)

	// Alpha is Ridge's L2 penalty (default 1.0); the intercept is not
	// penalised.
	Alpha float64
	// C is LogisticRegression's inverse L2 strength (default 1.0).
	C float64
	// MaxIter: L-BFGS iterations (100), Lloyd iterations per k-means run
	// (300), ALS sweeps (10).
	MaxIter int
	// Tol: L-BFGS projected-gradient tolerance (1e-4); k-means centre
	// shift tolerance relative to the mean feature variance (1e-4); for
	// the LA solvers, the relative gradient norm at which they stop.
	Tol float64
	// Solver picks how LinearRegression fits: "normal" (the normal
	// equations, the default) or an LA program run through the optimizer:
	// "gd" (steepest descent), "dfp" or "bfgs" (quasi-Newton), each with
	// exact line searches; MaxIter bounds their iterations (200 for gd,
	// 50 for the others).
	Solver string
	// Devices runs the LA solvers' products (see UsesMatrixKernels); nil
	// means the process's matrix.Device().
	Devices *gpu.Dispatcher

	// K is the number of clusters (8) and NInit the k-means restarts (10).
	K     int
	NInit int

	// Criterion is "gini" (default) or "entropy" for classification trees;
	// regression trees use squared error.
	Criterion string
	// MaxDepth: 0 means unlimited for DecisionTree and 3 for
	// GradientBoosting.
	MaxDepth        int
	MinSamplesSplit int // 2
	MinSamplesLeaf  int // 1
	// MaxBins caps the histogram bins per feature (65535); columns with
	// more distinct values are binned by quantiles.
	MaxBins int

	LearningRate float64 // 0.1
	NEstimators  int     // 100

	// UserColumn and ItemColumn name ALS's two id columns ("user", "item"
	// when empty); Rank (10) and Lambda (0.1) size and regularise the
	// factors.
	UserColumn string
	ItemColumn string
	Rank       int
	Lambda     float64
}

func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (o *Options) report(ctx context.Context, p Progress) error {
	if o.Progress != nil {
		p.Algorithm = o.Algorithm
		o.Progress(p)
	}
	return ctx.Err()
}

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// withDefaults fills zero fields and rejects values no algorithm accepts.
func (o Options) withDefaults() (Options, error) {
	maxIter := map[Algorithm]int{LogisticRegression: 100, KMeans: 300, ALS: 10}[o.Algorithm]
	if o.Algorithm == LinearRegression {
		maxIter = map[string]int{"gd": 200, "dfp": 50, "bfgs": 50}[o.Solver]
		if maxIter > 0 {
			// The LA solvers stop on a relative gradient norm; they reach
			// the normal equations' answer, so the default asks for that.
			o.Tol = orFloat(o.Tol, 1e-10)
		}
	}
	o.MaxIter = orInt(o.MaxIter, maxIter)
	o.Alpha = orFloat(o.Alpha, 1)
	o.C = orFloat(o.C, 1)
	o.Tol = orFloat(o.Tol, 1e-4)
	o.K = orInt(o.K, 8)
	o.NInit = orInt(o.NInit, 10)
	if o.Criterion == "" {
		o.Criterion = "gini"
	}
	if o.Algorithm == GradientBoosting {
		o.MaxDepth = orInt(o.MaxDepth, 3)
	}
	o.MinSamplesSplit = orInt(o.MinSamplesSplit, 2)
	o.MinSamplesLeaf = orInt(o.MinSamplesLeaf, 1)
	o.MaxBins = orInt(o.MaxBins, 65535)
	o.LearningRate = orFloat(o.LearningRate, 0.1)
	o.NEstimators = orInt(o.NEstimators, 100)
	if o.UserColumn == "" {
		o.UserColumn = "user"
	}
	if o.ItemColumn == "" {
		o.ItemColumn = "item"
	}
	o.Rank = orInt(o.Rank, 10)
	o.Lambda = orFloat(o.Lambda, 0.1)
	bad := func(name string, v any) error { return fmt.Errorf("%w: %s = %v", ErrBadOption, name, v) }
	switch {
	case o.Alpha < 0:
		return o, bad("alpha", o.Alpha)
	case o.C <= 0:
		return o, bad("C", o.C)
	case o.MaxIter < 0:
		return o, bad("max_iter", o.MaxIter)
	case o.Tol < 0:
		return o, bad("tol", o.Tol)
	case o.K < 1:
		return o, bad("n_clusters", o.K)
	case o.NInit < 1:
		return o, bad("n_init", o.NInit)
	case o.Criterion != "gini" && o.Criterion != "entropy":
		return o, bad("criterion", o.Criterion)
	case o.MaxDepth < 0:
		return o, bad("max_depth", o.MaxDepth)
	case o.MinSamplesSplit < 2:
		return o, bad("min_samples_split", o.MinSamplesSplit)
	case o.MinSamplesLeaf < 1:
		return o, bad("min_samples_leaf", o.MinSamplesLeaf)
	case o.MaxBins < 2 || o.MaxBins > 65535:
		return o, bad("max_bins", o.MaxBins)
	case o.LearningRate <= 0:
		return o, bad("learning_rate", o.LearningRate)
	case o.NEstimators < 1:
		return o, bad("n_estimators", o.NEstimators)
	case o.Rank < 1:
		return o, bad("rank", o.Rank)
	case o.Lambda < 0:
		return o, bad("lambda", o.Lambda)
	case o.Workers < 0:
		return o, bad("workers", o.Workers)
	}
	return o, nil
}
