package ml

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// estimator is the fitted core of a model: it maps one encoded row to the
// task's outputs (class probabilities, a regression value, a cluster
// index or a rating).
type estimator interface {
	outputs() int
	predict(x, out []float64)
}

// Model is a trained model with its preprocessing. It is immutable and
// safe for concurrent prediction.
type Model struct {
	task      Task
	algorithm Algorithm
	target    string
	prep      *preprocessor
	labels    labels
	est       estimator
}

// FeatureInfo describes one input column a model needs.
type FeatureInfo struct {
	Name string
	Kind Kind
}

func (m *Model) Task() Task           { return m.task }
func (m *Model) Algorithm() Algorithm { return m.algorithm }

// Target is the name of the training target column ("" for clustering).
func (m *Model) Target() string { return m.target }

// Classes lists a classifier's labels in index order (nil otherwise).
func (m *Model) Classes() []string { return m.labels.Classes }

// Features lists the columns prediction binds by name.
func (m *Model) Features() []FeatureInfo {
	out := make([]FeatureInfo, len(m.prep.Features))
	for i, f := range m.prep.Features {
		out[i] = FeatureInfo{Name: f.Name, Kind: f.Kind}
	}
	return out
}

// EncodedColumns names the columns of the encoded design matrix, in the
// order the estimator's parameters use ("col" or "col=level").
func (m *Model) EncodedColumns() []string { return m.prep.ColumnNames() }

// Estimator returns the fitted parameters: *Linear, *Logistic,
// *KMeansModel, *Bayes, *Tree, *Boosted or *Factorization.
func (m *Model) Estimator() any { return m.est }

// Prediction is one row's result. Value is the predicted class label
// (string, or float64 for a numeric target), the regression value or
// rating (float64), or the cluster index (int64). Probabilities maps each
// class label to its probability for classifiers.
type Prediction struct {
	Value         any
	Probabilities map[string]float64
}

// Predict scores one row given as column name → value (the JSON object of
// ML_PREDICT_ROW). Columns the model does not use are ignored; a missing
// feature or a value of the wrong type is an error naming the column.
func (m *Model) Predict(row map[string]any) (Prediction, error) {
	x := make([]float64, m.prep.Width())
	if err := m.prep.encodeRow(row, x); err != nil {
		return Prediction{}, err
	}
	out := make([]float64, m.est.outputs())
	m.est.predict(x, out)
	switch m.task {
	case Classification:
		p := Prediction{Probabilities: make(map[string]float64, len(out))}
		best := 0
		for k, v := range out {
			p.Probabilities[m.labels.Classes[k]] = v
			if v > out[best] {
				best = k
			}
		}
		p.Value = m.labels.value(best)
		return p, nil
	case Clustering:
		return Prediction{Value: int64(out[0])}, nil
	}
	return Prediction{Value: out[0]}, nil
}

// Predictions holds batch results. Values has one entry per row: the
// class index into Classes, the regression value or rating, or the
// cluster index. Proba is row-major rows × len(Classes) for classifiers.
type Predictions struct {
	Task    Task
	Values  []float64
	Classes []string
	Proba   []float64
	labels  *labels
}

// Label is row i's prediction as Predict's Value would give it.
func (p *Predictions) Label(i int) any {
	switch p.Task {
	case Classification:
		return p.labels.value(int(p.Values[i]))
	case Clustering:
		return int64(p.Values[i])
	}
	return p.Values[i]
}

// batchRows is the block of rows encoded at a time: large enough to
// amortise the per-block work, small enough to stay in cache.
const batchRows = 512

// PredictBatch scores every row of d, binding columns by name, on
// GOMAXPROCS goroutines. The target column, if any, is ignored.
func (m *Model) PredictBatch(ctx context.Context, d *Dataset) (*Predictions, error) {
	cols, err := m.prep.bind(d)
	if err != nil {
		return nil, err
	}
	n := d.Rows()
	if n == 0 {
		if len(d.Features) > 0 {
			n = d.Features[0].Len()
		}
	}
	k := m.est.outputs()
	res := &Predictions{Task: m.task, Values: make([]float64, n), labels: &m.labels}
	if m.task == Classification {
		res.Classes = m.labels.Classes
		res.Proba = make([]float64, n*k)
	}
	w := m.prep.Width()
	err = parallelChunks(ctx, runtime.GOMAXPROCS(0), n, batchRows, func(lo, hi int) error {
		x := make([]float64, (hi-lo)*w)
		if err := m.prep.transformRange(cols, lo, hi, x); err != nil {
			return err
		}
		var out []float64
		if m.task != Classification {
			out = make([]float64, k)
		}
		for i := lo; i < hi; i++ {
			xi := x[(i-lo)*w : (i-lo+1)*w]
			if m.task == Classification {
				pr := res.Proba[i*k : (i+1)*k]
				m.est.predict(xi, pr)
				res.Values[i] = float64(argmax(pr))
				continue
			}
			m.est.predict(xi, out)
			res.Values[i] = out[0]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// parallelChunks runs fn over [0,n) in chunks of at most chunk rows on up
// to workers goroutines, stopping at the first error or when ctx ends.
func parallelChunks(ctx context.Context, workers, n, chunk int, fn func(lo, hi int) error) error {
	if chunk < 1 {
		chunk = 1
	}
	nchunks := (n + chunk - 1) / chunk
	if workers > nchunks {
		workers = nchunks
	}
	if workers <= 1 {
		for lo := 0; lo < n; lo += chunk {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(lo, min(lo+chunk, n)); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		ferr error
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if ferr != nil || next >= nchunks {
			return 0, false
		}
		if err := ctx.Err(); err != nil {
			ferr = err
			return 0, false
		}
		c := next
		next++
		return c, true
	}
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, ok := take()
				if !ok {
					return
				}
				lo := c * chunk
				if err := fn(lo, min(lo+chunk, n)); err != nil {
					mu.Lock()
					if ferr == nil {
						ferr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return ferr
}

// splitRange gives worker w of workers its share of [0,n).
func splitRange(n, workers, w int) (lo, hi int) {
	return n * w / workers, n * (w + 1) / workers
}

// forWorkers runs fn(w, lo, hi) for each worker's contiguous share of
// [0,n) and waits; it is for short per-iteration kernels whose callers
// check ctx between calls.
func forWorkers(workers, n int, fn func(w, lo, hi int)) {
	if workers > n {
		workers = max(n, 1)
	}
	if workers == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := splitRange(n, workers, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}

// algorithmTasks lists the tasks each algorithm can learn.
var algorithmTasks = map[Algorithm][]Task{
	LinearRegression:   {Regression},
	Ridge:              {Regression},
	LogisticRegression: {Classification},
	KMeans:             {Clustering},
	NaiveBayes:         {Classification},
	DecisionTree:       {Classification, Regression},
	GradientBoosting:   {Classification, Regression},
	ALS:                {Recommendation},
}

// Train fits a model on d. opts.Algorithm is required; opts.Task defaults
// to the algorithm's natural task where it has only one.
func Train(ctx context.Context, d *Dataset, opts Options) (*Model, error) {
	if d == nil {
		return nil, ErrEmptyDataset
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.Task == 0 {
		o.Task = map[Algorithm]Task{
			LinearRegression: Regression, Ridge: Regression, LogisticRegression: Classification,
			KMeans: Clustering, NaiveBayes: Classification, ALS: Recommendation,
		}[o.Algorithm]
	}
	allowed := algorithmTasks[o.Algorithm]
	if allowed == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownAlgorithm, o.Algorithm)
	}
	if !slices.Contains(allowed, o.Task) {
		return nil, fmt.Errorf("%w: algorithm %s does not do task %v", ErrBadOption, o.Algorithm, o.Task)
	}
	if o.Task != Clustering && d.Target == nil {
		return nil, fmt.Errorf("%w: task %v needs a target column", ErrBadOption, o.Task)
	}
	m := &Model{task: o.Task, algorithm: o.Algorithm}
	if d.Target != nil && o.Task != Clustering {
		m.target = d.Target.Name
	}
	switch o.Algorithm {
	case LinearRegression, Ridge:
		err = trainLinear(ctx, m, d, o)
	case LogisticRegression:
		err = trainLogistic(ctx, m, d, o)
	case KMeans:
		err = trainKMeans(ctx, m, d, o)
	case NaiveBayes:
		err = trainBayes(ctx, m, d, o)
	case DecisionTree, GradientBoosting:
		err = trainTrees(ctx, m, d, o)
	case ALS:
		err = trainALS(ctx, m, d, o)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// prepare fits the preprocessing and encodes the training features.
func (m *Model) prepare(d *Dataset, enc catEncoding, standardize, dropFirst bool, o Options) (x []float64, n, p int, err error) {
	m.prep, err = fitPreprocessor(d, enc, standardize, dropFirst, o.Nulls, o.workers())
	if err != nil {
		return nil, 0, 0, err
	}
	x, err = m.prep.transform(d, o.workers())
	for i := range m.prep.Features {
		m.prep.Features[i].fitCol, m.prep.Features[i].fitCodes = nil, nil
	}
	return x, d.Rows(), m.prep.Width(), err
}

// softmaxInPlace turns scores into probabilities without overflow.
func softmaxInPlace(z []float64) {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	var s float64
	for i, v := range z {
		z[i] = math.Exp(v - mx)
		s += z[i]
	}
	for i := range z {
		z[i] /= s
	}
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}
