package ml

import (
	"context"
	"math"
)

// Boosted is a fitted gradient-boosted ensemble. The raw score of output
// r is Init[r] + LearningRate × Σ over stages of Trees[stage*Outputs+r]'s
// leaf value; regression returns it, binary classification (Outputs 1)
// maps it through the logistic function, multiclass (Outputs = classes)
// through softmax.
type Boosted struct {
	Classes      int // 0 for regression
	Outputs      int
	Init         []float64
	LearningRate float64
	Trees        []*Tree
}

var _ estimator = (*Boosted)(nil)

func (b *Boosted) outputs() int {
	if b.Classes > 0 {
		return b.Classes
	}
	return 1
}

func (b *Boosted) raw(x, out []float64) {
	copy(out, b.Init)
	for s, t := range b.Trees {
		out[s%b.Outputs] += b.LearningRate * t.Value[t.leaf(x)]
	}
}

func (b *Boosted) predict(x, out []float64) {
	b.raw(x, out[:b.Outputs])
	switch {
	case b.Classes == 2:
		p := sigmoid(out[0])
		out[0], out[1] = 1-p, p
	case b.Classes > 2:
		softmaxInPlace(out)
	}
}

// trainBoosted follows scikit-learn's GradientBoostingClassifier and
// Regressor: each stage fits a squared-error tree per output to the
// negative gradient of the loss (log-loss or squared error), then, for
// log-loss, replaces each leaf's value by one Newton step, Σr / Σh over
// the leaf's rows ((K-1)/K scaled for K > 2 classes). Initial scores are
// the log-odds, log class priors or target mean.
func trainBoosted(ctx context.Context, m *Model, data *binned, y []int, t []float64, classes int, o Options) error {
	n := data.n
	outs := 1
	if classes > 2 {
		outs = classes
	}
	b := &Boosted{Classes: classes, Outputs: outs, Init: make([]float64, outs), LearningRate: o.LearningRate}
	switch {
	case classes == 0:
		var s float64
		for _, v := range t {
			s += v
		}
		b.Init[0] = s / float64(n)
	case classes == 2:
		var pos float64
		for _, c := range y {
			pos += float64(c)
		}
		pr := pos / float64(n)
		b.Init[0] = math.Log(pr / (1 - pr))
	default:
		for _, c := range y {
			b.Init[c]++
		}
		for c := range b.Init {
			b.Init[c] = math.Log(b.Init[c] / float64(n))
		}
	}
	raw := make([]float64, n*outs)
	for i := 0; i < n; i++ {
		copy(raw[i*outs:(i+1)*outs], b.Init)
	}
	prob := make([]float64, n*outs) // current probabilities (classification)
	resid := make([][]float64, outs)
	for r := range resid {
		resid[r] = make([]float64, n)
	}
	workers := o.workers()
	for stage := 0; stage < o.NEstimators; stage++ {
		loss := boostGradients(raw, prob, resid, y, t, classes, outs, workers)
		if err := o.report(ctx, Progress{Iteration: stage, MaxIterations: o.NEstimators, Loss: loss, Rows: int64(stage) * int64(n)}); err != nil {
			return err
		}
		for r := 0; r < outs; r++ {
			rr := resid[r]
			tb := &treeBuilder{ctx: ctx, data: data, target: rr, maxDepth: o.MaxDepth,
				minSplit: o.MinSamplesSplit, minLeaf: o.MinSamplesLeaf, workers: workers, outputs: 1}
			if classes > 0 {
				pr, scale := prob, 1.0
				if classes > 2 {
					scale = float64(classes-1) / float64(classes)
				}
				tb.leafValue = func(rows []int32, out []float64) {
					var num, den float64
					for _, i := range rows {
						num += rr[i]
						// h = p(1-p) of this output; |r|(1-|r|) equals it
						// for the multiclass one-vs-rest residual.
						pi := pr[int(i)*outs+r]
						den += pi * (1 - pi)
					}
					if den < 1e-150 {
						out[0] = 0
						return
					}
					out[0] = scale * num / den
				}
			}
			tree, err := tb.grow(allRows(n))
			if err != nil {
				return err
			}
			b.Trees = append(b.Trees, tree)
			forWorkers(workers, n, func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					// Rows' leaves are found by their bins: a row is left
					// of a threshold exactly when its bin is.
					raw[i*outs+r] += b.LearningRate * tree.Value[tree.leafBinned(data, i)]
				}
			})
		}
	}
	m.est = b
	loss := boostGradients(raw, prob, resid, y, t, classes, outs, workers)
	return o.report(ctx, Progress{Iteration: o.NEstimators, MaxIterations: o.NEstimators, Loss: loss, Rows: int64(o.NEstimators) * int64(n)})
}

// leafBinned walks the tree for training row i using its bins, which is
// cheaper than re-reading the encoded row.
func (t *Tree) leafBinned(data *binned, i int) int {
	j := int32(0)
	for t.Feature[j] >= 0 {
		f := t.Feature[j]
		// The last bin has no upper edge and lies right of every split.
		if b := int(data.bins[f][i]); b < len(data.edges[f]) && data.edges[f][b] <= t.Threshold[j] {
			j = t.Left[j]
		} else {
			j = t.Right[j]
		}
	}
	return int(j)
}

// boostGradients computes probabilities, residuals (negative gradients)
// and the mean training loss for the current raw scores.
func boostGradients(raw, prob []float64, resid [][]float64, y []int, t []float64, classes, outs, workers int) float64 {
	n := len(raw) / outs
	part := make([]float64, workers)
	forWorkers(workers, n, func(w, lo, hi int) {
		var loss float64
		for i := lo; i < hi; i++ {
			switch {
			case classes == 0:
				d := t[i] - raw[i]
				resid[0][i] = d
				loss += d * d
			case classes == 2:
				p := sigmoid(raw[i])
				prob[i] = p
				yi := float64(y[i])
				resid[0][i] = yi - p
				loss -= yi*math.Log(max(p, 1e-300)) + (1-yi)*math.Log(max(1-p, 1e-300))
			default:
				pr := prob[i*outs : (i+1)*outs]
				copy(pr, raw[i*outs:(i+1)*outs])
				softmaxInPlace(pr)
				for c := 0; c < outs; c++ {
					yc := 0.0
					if y[i] == c {
						yc = 1
					}
					resid[c][i] = yc - pr[c]
				}
				loss -= math.Log(max(pr[y[i]], 1e-300))
			}
		}
		part[w] = loss
	})
	var s float64
	for _, v := range part {
		s += v
	}
	return s / float64(n)
}
