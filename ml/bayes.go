package ml

import (
	"context"
	"math"
)

// Bayes is a fitted naive Bayes classifier over mixed features: numeric
// columns are Gaussian per class (scikit-learn's GaussianNB, variances
// smoothed by 1e-9 × the largest feature variance), categorical columns
// are categorical per class with Laplace smoothing alpha = 1
// (scikit-learn's CategoricalNB). Categorical columns are not one-hot
// encoded: a categorical likelihood models a level directly and keeps the
// per-feature independence assumption honest.
type Bayes struct {
	Classes  int
	LogPrior []float64
	// Per encoded column: Categorical marks level-coded columns.
	Categorical []bool
	// Numeric columns: Mean and Var are Classes × len(Categorical); the
	// entries of categorical columns are unused.
	Mean, Var []float64
	// Categorical columns: LogProb[j] is Classes × levels(j), row-major.
	LogProb [][]float64
}

var _ estimator = (*Bayes)(nil)

func (b *Bayes) outputs() int { return b.Classes }

func (b *Bayes) predict(x, out []float64) {
	p := len(b.Categorical)
	for c := 0; c < b.Classes; c++ {
		s := b.LogPrior[c]
		for j, v := range x {
			if b.Categorical[j] {
				levels := len(b.LogProb[j]) / b.Classes
				lvl := int(v)
				if lvl >= 0 && lvl < levels {
					s += b.LogProb[j][c*levels+lvl]
				}
				continue
			}
			mu, va := b.Mean[c*p+j], b.Var[c*p+j]
			s += -0.5*math.Log(2*math.Pi*va) - (v-mu)*(v-mu)/(2*va)
		}
		out[c] = s
	}
	softmaxInPlace(out)
}

func trainBayes(ctx context.Context, m *Model, d *Dataset, o Options) error {
	lab, y, err := fitLabels(d.Target, o.workers())
	if err != nil {
		return err
	}
	m.labels = lab
	x, n, p, err := m.prepare(d, ordinal, false, false, o)
	if err != nil {
		return err
	}
	k := len(lab.Classes)
	b := &Bayes{Classes: k, LogPrior: make([]float64, k), Categorical: make([]bool, p),
		Mean: make([]float64, k*p), Var: make([]float64, k*p), LogProb: make([][]float64, p)}
	count := make([]float64, k)
	for _, c := range y {
		count[c]++
	}
	for c := range count {
		b.LogPrior[c] = math.Log(count[c] / float64(n))
	}
	var numCols, catCols []int
	levels := make([]int, p)
	for j, f := range m.prep.Features {
		if f.Kind == Categorical {
			b.Categorical[j] = true
			levels[j] = len(f.Levels)
			b.LogProb[j] = make([]float64, k*levels[j])
			catCols = append(catCols, j)
		} else {
			numCols = append(numCols, j)
		}
	}
	// Two passes over the rows, in row order: per-class and overall sums
	// and level counts, then centred squares. The overall variance feeds
	// var_smoothing below.
	total := make([]float64, p)
	for i := 0; i < n; i++ {
		c, row := y[i], x[i*p:(i+1)*p]
		mean := b.Mean[c*p : (c+1)*p]
		for _, j := range numCols {
			mean[j] += row[j]
			total[j] += row[j]
		}
		for _, j := range catCols {
			b.LogProb[j][c*levels[j]+int(row[j])]++
		}
	}
	for c := 0; c < k; c++ {
		for j := 0; j < p; j++ {
			b.Mean[c*p+j] /= count[c]
		}
	}
	for j := range total {
		total[j] /= float64(n)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ss := make([]float64, p)
	for i := 0; i < n; i++ {
		c, row := y[i], x[i*p:(i+1)*p]
		mean, vr := b.Mean[c*p:(c+1)*p], b.Var[c*p:(c+1)*p]
		for _, j := range numCols {
			dv, dt := row[j]-mean[j], row[j]-total[j]
			vr[j] += dv * dv
			ss[j] += dt * dt
		}
	}
	// var_smoothing: 1e-9 times the largest variance of any numeric column
	// over all rows, which keeps constant-within-class columns finite.
	var maxVar float64
	for _, j := range numCols {
		maxVar = max(maxVar, ss[j]/float64(n))
	}
	eps := 1e-9 * maxVar
	for c := 0; c < k; c++ {
		for j := 0; j < p; j++ {
			if b.Categorical[j] {
				row := b.LogProb[j][c*levels[j] : (c+1)*levels[j]]
				for l := range row {
					row[l] = math.Log((row[l] + 1) / (count[c] + float64(levels[j])))
				}
				continue
			}
			b.Var[c*p+j] = b.Var[c*p+j]/count[c] + eps
			if b.Var[c*p+j] == 0 {
				// Every numeric column is constant: any positive width
				// gives the same ranking.
				b.Var[c*p+j] = 1
			}
		}
	}
	m.est = b
	return o.report(ctx, Progress{Iteration: 1, MaxIterations: 1, Rows: int64(n)})
}
