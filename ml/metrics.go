package ml

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
)

// Average selects how per-class precision, recall and F1 combine, with
// scikit-learn's meanings.
type Average uint8

const (
	// Binary scores only the positive class, index 1 (the second label in
	// sorted order: 1 for a 0/1 target).
	Binary Average = iota
	// Macro is the unweighted mean over classes.
	Macro
	// Micro pools every decision; for single-label data it equals accuracy.
	Micro
	// Weighted weights each class by its support.
	Weighted
)

// Accuracy is the fraction of rows whose predicted class is the true one.
func Accuracy(y, pred []int) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	hit := 0
	for i := range y {
		if y[i] == pred[i] {
			hit++
		}
	}
	return float64(hit) / float64(len(y))
}

// PrecisionRecallF1 computes the three scores over k classes. A class
// with no predicted (or no true) rows scores 0 for precision (recall), as
// scikit-learn's zero_division default does. Rows whose true class is
// outside 0..k-1 count as misses.
func PrecisionRecallF1(y, pred []int, k int, avg Average) (precision, recall, f1 float64) {
	tp := make([]float64, k)
	predCount := make([]float64, k)
	trueCount := make([]float64, k)
	for i := range y {
		if pred[i] >= 0 && pred[i] < k {
			predCount[pred[i]]++
		}
		if y[i] >= 0 && y[i] < k {
			trueCount[y[i]]++
			if y[i] == pred[i] {
				tp[y[i]]++
			}
		}
	}
	ratio := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	fscore := func(p, r float64) float64 { return ratio(2*p*r, p+r) }
	switch avg {
	case Binary:
		p, r := ratio(tp[1], predCount[1]), ratio(tp[1], trueCount[1])
		return p, r, fscore(p, r)
	case Micro:
		var t, pc, tc float64
		for c := 0; c < k; c++ {
			t, pc, tc = t+tp[c], pc+predCount[c], tc+trueCount[c]
		}
		p, r := ratio(t, pc), ratio(t, tc)
		return p, r, fscore(p, r)
	}
	var total float64
	for c := 0; c < k; c++ {
		wt := 1.0
		if avg == Weighted {
			wt = trueCount[c]
		}
		p, r := ratio(tp[c], predCount[c]), ratio(tp[c], trueCount[c])
		precision += wt * p
		recall += wt * r
		f1 += wt * fscore(p, r)
		total += wt
	}
	return precision / total, recall / total, f1 / total
}

// ROCAUC is the area under the ROC curve: for two classes it scores the
// probability of class 1 (proba is rows × k); for more it is the
// one-vs-rest macro average (scikit-learn's roc_auc_ovr). Tied scores
// count half, as the trapezoidal rule gives.
func ROCAUC(y []int, proba []float64, k int) float64 {
	if k == 2 {
		return binaryAUC(y, proba, 2, 1)
	}
	var s float64
	for c := 0; c < k; c++ {
		s += binaryAUC(y, proba, k, c)
	}
	return s / float64(k)
}

func binaryAUC(y []int, proba []float64, k, pos int) float64 {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(proba[a*k+pos], proba[b*k+pos]) })
	// Mann-Whitney U from average ranks.
	var rankSum, npos float64
	for i := 0; i < n; {
		j := i
		for j < n && proba[idx[j]*k+pos] == proba[idx[i]*k+pos] {
			j++
		}
		avgRank := float64(i+j+1) / 2
		for t := i; t < j; t++ {
			if y[idx[t]] == pos {
				rankSum += avgRank
				npos++
			}
		}
		i = j
	}
	nneg := float64(n) - npos
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	return (rankSum - npos*(npos+1)/2) / (npos * nneg)
}

// LogLoss is the mean negative log-likelihood of the true classes, with
// probabilities clipped to [1e-15, 1-1e-15].
func LogLoss(y []int, proba []float64, k int) float64 {
	var s float64
	for i, c := range y {
		p := 1e-15
		if c >= 0 && c < k {
			p = min(max(proba[i*k+c], 1e-15), 1-1e-15)
		}
		s -= math.Log(p)
	}
	return s / float64(len(y))
}

// MeanSquaredError is mean((y-pred)²).
func MeanSquaredError(y, pred []float64) float64 {
	var s float64
	for i := range y {
		d := y[i] - pred[i]
		s += d * d
	}
	return s / float64(len(y))
}

// RMSE is the square root of MeanSquaredError.
func RMSE(y, pred []float64) float64 { return math.Sqrt(MeanSquaredError(y, pred)) }

// MeanAbsoluteError is mean(|y-pred|).
func MeanAbsoluteError(y, pred []float64) float64 {
	var s float64
	for i := range y {
		s += math.Abs(y[i] - pred[i])
	}
	return s / float64(len(y))
}

// R2 is the coefficient of determination, 1 - SSres/SStot.
func R2(y, pred []float64) float64 {
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	var res, tot float64
	for i := range y {
		res += (y[i] - pred[i]) * (y[i] - pred[i])
		tot += (y[i] - mean) * (y[i] - mean)
	}
	if tot == 0 {
		if res == 0 {
			return 1
		}
		return 0
	}
	return 1 - res/tot
}

// Metrics lists the metric names Score accepts, with scikit-learn's scorer
// spellings as HeatWave's ML_SCORE uses them. "precision", "recall" and
// "f1" average binary on two classes and macro on more (where
// scikit-learn would refuse); the neg_ forms are the negated losses.
var Metrics = []string{
	"accuracy", "balanced_accuracy",
	"precision", "precision_macro", "precision_micro", "precision_weighted",
	"recall", "recall_macro", "recall_micro", "recall_weighted",
	"f1", "f1_macro", "f1_micro", "f1_weighted",
	"roc_auc", "log_loss", "neg_log_loss",
	"r2", "mean_squared_error", "neg_mean_squared_error",
	"mean_absolute_error", "neg_mean_absolute_error", "rmse", "root_mean_squared_error",
	"inertia",
}

// Score predicts d with m and compares with d's target by metric.
func Score(ctx context.Context, m *Model, d *Dataset, metric string) (float64, error) {
	s, err := ScoreAll(ctx, m, d, []string{metric})
	if err != nil {
		return 0, err
	}
	return s[0], nil
}

// ScoreAll is Score for several metrics of one dataset, predicting it once.
func ScoreAll(ctx context.Context, m *Model, d *Dataset, metrics []string) ([]float64, error) {
	names := make([]string, len(metrics))
	for i, metric := range metrics {
		names[i] = strings.ToLower(metric)
		if !slices.Contains(Metrics, names[i]) {
			return nil, fmt.Errorf("%w: %q", ErrUnknownMetric, metric)
		}
	}
	if d.Rows() == 0 {
		return nil, ErrEmptyDataset
	}
	out := make([]float64, len(names))
	if m.task == Clustering {
		for i, metric := range names {
			if metric != "inertia" {
				return nil, fmt.Errorf("%w: %s on %v", ErrMetricTask, metric, m.task)
			}
			v, err := m.inertia(ctx, d)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	if d.Target == nil {
		return nil, fmt.Errorf("%w: no target column", ErrMissingColumn)
	}
	pr, err := m.PredictBatch(ctx, d)
	if err != nil {
		return nil, err
	}
	if m.task == Classification {
		y, err := m.labels.classIndex(d.Target)
		if err != nil {
			return nil, err
		}
		for i, metric := range names {
			if out[i], err = classificationScore(metric, y, pr); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	y, err := numericTarget(d.Target)
	if err != nil {
		return nil, err
	}
	for i, metric := range names {
		if out[i], err = regressionScore(m.task, metric, y, pr); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// regressionScore is one regression metric of predictions against y.
func regressionScore(task Task, metric string, y []float64, pr *Predictions) (float64, error) {
	neg := 1.0
	if strings.HasPrefix(metric, "neg_") {
		neg, metric = -1, strings.TrimPrefix(metric, "neg_")
	}
	switch metric {
	case "r2":
		return R2(y, pr.Values), nil
	case "mean_squared_error":
		return neg * MeanSquaredError(y, pr.Values), nil
	case "mean_absolute_error":
		return neg * MeanAbsoluteError(y, pr.Values), nil
	case "rmse", "root_mean_squared_error":
		return RMSE(y, pr.Values), nil
	}
	return 0, fmt.Errorf("%w: %s on %v", ErrMetricTask, metric, task)
}

func classificationScore(metric string, y []int, pr *Predictions) (float64, error) {
	k := len(pr.Classes)
	pred := make([]int, len(pr.Values))
	for i, v := range pr.Values {
		pred[i] = int(v)
	}
	avg := Macro
	if k == 2 {
		avg = Binary
	}
	base, suffix, _ := strings.Cut(metric, "_")
	switch suffix {
	case "macro":
		avg = Macro
	case "micro":
		avg = Micro
	case "weighted":
		avg = Weighted
	}
	switch metric {
	case "accuracy":
		return Accuracy(y, pred), nil
	case "balanced_accuracy":
		_, r, _ := PrecisionRecallF1(y, pred, k, Macro)
		return r, nil
	case "roc_auc":
		return ROCAUC(y, pr.Proba, k), nil
	case "log_loss":
		return LogLoss(y, pr.Proba, k), nil
	case "neg_log_loss":
		return -LogLoss(y, pr.Proba, k), nil
	}
	p, r, f := PrecisionRecallF1(y, pred, k, avg)
	switch base {
	case "precision":
		return p, nil
	case "recall":
		return r, nil
	case "f1":
		return f, nil
	}
	return 0, fmt.Errorf("%w: %s on classification", ErrMetricTask, metric)
}

// inertia is the k-means objective of d under m: the sum of squared
// distances from each encoded row to its nearest centre.
func (m *Model) inertia(ctx context.Context, d *Dataset) (float64, error) {
	km, ok := m.est.(*KMeansModel)
	if !ok {
		return 0, fmt.Errorf("%w: inertia needs a k-means model", ErrMetricTask)
	}
	x, err := m.prep.transform(d, runtime.GOMAXPROCS(0))
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := d.Rows()
	var s float64
	for i := 0; i < n; i++ {
		_, dist := km.nearest(x[i*km.Dim : (i+1)*km.Dim])
		s += dist
	}
	return s, nil
}
