package ml

import (
	"context"
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/optimize"
)

// Logistic is a fitted L2-penalised logistic regression over the encoded
// columns. For two classes there is one weight row (the log-odds of class
// 1); for more, one row per class of a multinomial (softmax) model.
// Coef is rows × P, row-major.
type Logistic struct {
	Classes   int
	P         int
	Coef      []float64
	Intercept []float64
	Iter      int
}

var _ estimator = (*Logistic)(nil)

func (l *Logistic) outputs() int { return l.Classes }

func (l *Logistic) predict(x, out []float64) {
	rows := len(l.Intercept)
	for r := 0; r < rows; r++ {
		z := l.Intercept[r]
		for j, c := range l.Coef[r*l.P : (r+1)*l.P] {
			z += c * x[j]
		}
		out[r] = z
	}
	if rows == 1 {
		p := sigmoid(out[0])
		out[0], out[1] = 1-p, p
		return
	}
	softmaxInPlace(out)
}

// logisticObjective evaluates the mean penalised log-loss and its gradient
// in one pass over the rows, split across workers; gonum asks for the
// value and gradient separately, so the last pair is cached by location.
type logisticObjective struct {
	x []float64
	// Rows as sparse (column, value) lists when most entries are zero, as
	// one-hot encoded categories make them; nil means use x densely.
	start   []int
	col     []int32
	val     []float64
	y       []int
	n, p    int
	rows    int // weight rows: 1 for binary, k for multinomial
	penalty float64
	workers int

	lastX    []float64
	lastF    float64
	lastGrad []float64
	evals    int
}

func (o *logisticObjective) eval(theta []float64) {
	if o.lastX != nil && slices.Equal(theta, o.lastX) {
		return
	}
	o.evals++
	stride := o.p + 1
	losses := make([]float64, o.workers)
	grads := make([][]float64, o.workers)
	forWorkers(o.workers, o.n, func(w, lo, hi int) {
		// Blocks of rows small enough that the gradient pass finds
		// them still in cache after the scores pass.
		z := make([]float64, batchRows*o.rows)
		g := make([]float64, len(theta))
		var loss float64
		for b := lo; b < hi; b += batchRows {
			e := min(b+batchRows, hi)
			o.scores(theta, b, e, z)
			if o.rows == 1 {
				loss += binaryResiduals(z[:e-b], o.y[b:e])
			} else {
				for i := b; i < e; i++ {
					loss += o.residual(z[(i-b)*o.rows:(i-b+1)*o.rows], o.y[i])
				}
			}
			o.gradient(z, b, e, g)
		}
		losses[w], grads[w] = loss, g
	})
	f := 0.0
	grad := make([]float64, len(theta))
	for w := range losses {
		f += losses[w]
		for j, v := range grads[w] {
			grad[j] += v
		}
	}
	inv := 1 / float64(o.n)
	f *= inv
	for j := range grad {
		grad[j] *= inv
	}
	for r := 0; r < o.rows; r++ {
		for j := 0; j < o.p; j++ {
			t := theta[r*stride+j]
			f += 0.5 * o.penalty * t * t
			grad[r*stride+j] += o.penalty * t
		}
	}
	o.lastX = append(o.lastX[:0], theta...)
	o.lastF, o.lastGrad = f, grad
}

// scores writes rows [lo,hi)'s scores, one per weight row, into z
// (row-major): one BLAS product for dense rows.
func (o *logisticObjective) scores(theta []float64, lo, hi int, z []float64) {
	stride := o.p + 1
	if o.start == nil {
		blk, xs := hi-lo, o.x[lo*o.p:hi*o.p]
		impl := blas64.Implementation()
		if o.rows == 1 {
			impl.Dgemv(blas.NoTrans, blk, o.p, 1, xs, o.p, theta[:o.p], 1, 0, z, 1)
		} else {
			impl.Dgemm(blas.NoTrans, blas.Trans, blk, o.rows, o.p, 1, xs, o.p, theta, stride, 0, z, o.rows)
		}
		for i := 0; i < blk; i++ {
			for r := 0; r < o.rows; r++ {
				z[i*o.rows+r] += theta[r*stride+o.p]
			}
		}
		return
	}
	for i := lo; i < hi; i++ {
		cols, xi := o.col[o.start[i]:o.start[i+1]], o.val[o.start[i]:o.start[i+1]]
		for r := 0; r < o.rows; r++ {
			wr := theta[r*stride : r*stride+o.p]
			s := theta[r*stride+o.p]
			for t, j := range cols {
				s += wr[j] * xi[t]
			}
			z[(i-lo)*o.rows+r] = s
		}
	}
}

// binaryResiduals returns the summed log-loss of rows with scores z (the
// log-odds of class 1) and classes y, and overwrites z with each loss's
// derivative by the score, σ(z) − y. A row's loss is
// max(z, 0) − y·z + log(1 + e^−|z|), which is stable for large |z|; the
// logarithms of up to 32 rows are taken as one logarithm of their
// product (each factor is in (1, 2], so the product cannot overflow),
// which leaves most of the objective's cost to one exponential a row.
func binaryResiduals(z []float64, y []int) float64 {
	var linear, logs float64
	prod, k := 1.0, 0
	for i, zz := range z {
		e := math.Exp(-math.Abs(zz))
		u := 1 + e
		linear += max(zz, 0)
		if y[i] == 1 {
			linear -= zz
		}
		prod *= u
		if k++; k == 32 {
			logs += math.Log(prod)
			prod, k = 1, 0
		}
		sig := e / u
		if zz >= 0 {
			sig = 1 / u
		}
		z[i] = sig - float64(y[i])
	}
	return linear + logs + math.Log(prod)
}

// residual returns one row's multinomial log-loss given its scores z and
// class y, and overwrites z with the derivative of that loss by each
// score. (Binary rows go through binaryResiduals.)
func (o *logisticObjective) residual(z []float64, y int) float64 {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	zy := z[y]
	var se float64
	for r, v := range z {
		z[r] = math.Exp(v - mx)
		se += z[r]
	}
	loss := mx + math.Log(se) - zy
	for r := range z {
		z[r] /= se
	}
	z[y]--
	return loss
}

// gradient adds rows [lo,hi)'s loss derivatives z, taken through the
// scores, to g: Xᵀz as one BLAS product for dense rows.
func (o *logisticObjective) gradient(z []float64, lo, hi int, g []float64) {
	stride := o.p + 1
	for i := 0; i < hi-lo; i++ {
		for r := 0; r < o.rows; r++ {
			g[r*stride+o.p] += z[i*o.rows+r]
		}
	}
	if o.start == nil {
		blk, xs := hi-lo, o.x[lo*o.p:hi*o.p]
		impl := blas64.Implementation()
		if o.rows == 1 {
			impl.Dgemv(blas.Trans, blk, o.p, 1, xs, o.p, z, 1, 1, g[:o.p], 1)
		} else {
			impl.Dgemm(blas.Trans, blas.NoTrans, o.rows, o.p, blk, 1, z, o.rows, xs, o.p, 1, g, stride)
		}
		return
	}
	for i := lo; i < hi; i++ {
		cols, xi := o.col[o.start[i]:o.start[i+1]], o.val[o.start[i]:o.start[i+1]]
		for r := 0; r < o.rows; r++ {
			d := z[(i-lo)*o.rows+r]
			if d == 0 {
				continue
			}
			gr := g[r*stride : (r+1)*stride]
			for t, j := range cols {
				gr[j] += d * xi[t]
			}
		}
	}
}

// sparsify switches to row lists when fewer than a third of the entries
// are non-zero; the gradient pass then costs what the data holds.
func (o *logisticObjective) sparsify() {
	nnz := 0
	for _, v := range o.x {
		if v != 0 {
			nnz++
		}
	}
	if nnz*3 > len(o.x) {
		return
	}
	o.start = make([]int, o.n+1)
	o.col = make([]int32, 0, nnz)
	o.val = make([]float64, 0, nnz)
	for i := 0; i < o.n; i++ {
		for j, v := range o.x[i*o.p : (i+1)*o.p] {
			if v != 0 {
				o.col = append(o.col, int32(j))
				o.val = append(o.val, v)
			}
		}
		o.start[i+1] = len(o.col)
	}
}

// progressRecorder turns gonum's iteration callbacks into Progress
// reports and stops the run when ctx ends.
type progressRecorder struct {
	ctx   context.Context
	o     Options
	rows  int64
	iter  int
	limit int
}

func (r *progressRecorder) Init() error { return nil }

func (r *progressRecorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op != optimize.MajorIteration {
		return r.ctx.Err()
	}
	r.iter++
	return r.o.report(r.ctx, Progress{Iteration: r.iter, MaxIterations: r.limit, Loss: loc.F, Rows: int64(r.iter) * r.rows})
}

// trainLogistic minimises mean log-loss + ‖W‖²/(2·C·n) with L-BFGS,
// which is scikit-learn's LogisticRegression(penalty="l2", solver="lbfgs")
// objective (its loss is a sum with ‖W‖²/(2C); dividing by n changes
// nothing but the scale the gradient tolerance applies to, and scikit-learn
// 1.2 divides the same way). Binary targets use one weight row, more
// classes a multinomial model; intercepts are not penalised. Numeric
// features are standardised so the penalty treats them alike.
func trainLogistic(ctx context.Context, m *Model, d *Dataset, o Options) error {
	lab, y, err := fitLabels(d.Target, o.workers())
	if err != nil {
		return err
	}
	m.labels = lab
	x, n, p, err := m.prepare(d, oneHot, true, false, o)
	if err != nil {
		return err
	}
	k := len(lab.Classes)
	rows := k
	if k == 2 {
		rows = 1
	}
	obj := &logisticObjective{x: x, y: y, n: n, p: p, rows: rows,
		penalty: 1 / (o.C * float64(n)), workers: o.workers()}
	obj.sparsify()
	problem := optimize.Problem{
		Func: func(t []float64) float64 { obj.eval(t); return obj.lastF },
		Grad: func(g, t []float64) { obj.eval(t); copy(g, obj.lastGrad) },
	}
	rec := &progressRecorder{ctx: ctx, o: o, rows: int64(n), limit: o.MaxIter}
	settings := &optimize.Settings{
		GradientThreshold: o.Tol,
		MajorIterations:   o.MaxIter,
		// scipy's ftol as scikit-learn sets it: stop once an iteration
		// improves the objective by less than 64 ulps.
		Converger: &optimize.FunctionConverge{Relative: 64 * 2.220446049250313e-16, Iterations: 1},
		Recorder:  rec,
	}
	theta := make([]float64, rows*(p+1))
	// Moré–Thuente's line search, the family scipy's L-BFGS-B uses: on
	// HIGGS it needs fewer iterations and evaluations than gonum's
	// default bisection.
	res, err := optimize.Minimize(problem, theta, settings, &optimize.LBFGS{Store: 10, Linesearcher: &optimize.MoreThuente{}})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil || errors.Is(err, context.Canceled) {
			return cerr
		}
		// A line search that can make no more progress leaves the best
		// point found, which is as close to the optimum as float64 allows.
		if res == nil {
			return err
		}
	}
	best := res.X
	if best == nil {
		best = obj.lastX
	}
	lg := &Logistic{Classes: k, P: p, Coef: make([]float64, rows*p), Intercept: make([]float64, rows), Iter: rec.iter}
	for r := 0; r < rows; r++ {
		copy(lg.Coef[r*p:(r+1)*p], best[r*(p+1):r*(p+1)+p])
		lg.Intercept[r] = best[r*(p+1)+p]
	}
	m.est = lg
	return nil
}
