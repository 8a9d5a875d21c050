package ml

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Linear is a fitted linear or ridge regression over the encoded columns
// (Model.EncodedColumns): prediction = Intercept + Coef·x.
type Linear struct {
	Coef      []float64
	Intercept float64
}

var _ estimator = (*Linear)(nil)

func (l *Linear) outputs() int { return 1 }

func (l *Linear) predict(x, out []float64) {
	s := l.Intercept
	for j, c := range l.Coef {
		s += c * x[j]
	}
	out[0] = s
}

// trainLinear solves the normal equations of the centred problem, as
// scikit-learn's LinearRegression and Ridge(fit_intercept=True) do, so the
// intercept is never penalised. Categorical columns are one-hot encoded;
// plain least squares drops each first level (dummy coding) because the
// full set of indicators is collinear with the intercept.
func trainLinear(ctx context.Context, m *Model, d *Dataset, o Options) error {
	y, err := numericTarget(d.Target)
	if err != nil {
		return err
	}
	alpha := 0.0
	if o.Algorithm == Ridge {
		alpha = o.Alpha
	}
	x, n, p, err := m.prepare(d, oneHot, false, alpha == 0, o)
	if err != nil {
		return err
	}
	xmean := columnMeans(x, n, p)
	var ymean float64
	for _, v := range y[:n] {
		ymean += v
	}
	ymean /= float64(n)
	if err := ctx.Err(); err != nil {
		return err
	}
	var coef []float64
	if o.Solver != "" && o.Solver != "normal" {
		if o.Algorithm != LinearRegression {
			return errorf(ErrBadOption, "solver '%s' applies to LinearRegression only", o.Solver)
		}
		xc := make([]float64, n*p)
		yc := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				xc[i*p+j] = x[i*p+j] - xmean[j]
			}
			yc[i] = y[i] - ymean
		}
		if coef, err = solveLA(ctx, o.Solver, xc, yc, n, p, o.MaxIter, o.Tol, o.Devices); err != nil {
			return err
		}
	} else {
		gram, rhs := centredGram(x, y, xmean, ymean, n, p, o.workers())
		if err := ctx.Err(); err != nil {
			return err
		}
		if coef, err = solveNormal(gram, rhs, p, alpha); err != nil {
			return err
		}
	}
	icpt := ymean
	for j := range coef {
		icpt -= xmean[j] * coef[j]
	}
	m.est = &Linear{Coef: coef, Intercept: icpt}
	return o.report(ctx, Progress{Iteration: 1, MaxIterations: 1, Rows: int64(n)})
}

// centredGram forms (X-x̄)ᵀ(X-x̄) and (X-x̄)ᵀ(y-ȳ) with BLAS, centring x
// in place (the caller's encoded copy, not read afterwards). Centring
// first, rather than correcting XᵀX by n·x̄x̄ᵀ, keeps the digits that large
// feature means would cancel.
func centredGram(x, y, xmean []float64, ymean float64, n, p, workers int) ([]float64, []float64) {
	yc := make([]float64, n)
	forWorkers(passWorkers(workers, n), n, func(_, lo, hi int) {
		xmean := xmean[:p]
		for i := lo; i < hi; i++ {
			row := x[i*p : (i+1)*p]
			for j := range row {
				row[j] -= xmean[j]
			}
			yc[i] = y[i] - ymean
		}
	})
	g, b := make([]float64, p*p), make([]float64, p)
	if n == 0 || p == 0 {
		return g, b
	}
	impl := blas64.Implementation()
	// XᵀX as a symmetric rank-k update: half the flops of a general
	// product, one triangle, mirrored for the solver.
	impl.Dsyrk(blas.Upper, blas.Trans, p, n, 1, x, p, 0, g, p)
	impl.Dgemv(blas.Trans, n, p, 1, x, p, yc, 1, 0, b, 1)
	for j := 0; j < p; j++ {
		for k := j + 1; k < p; k++ {
			g[k*p+j] = g[j*p+k]
		}
	}
	return g, b
}

// columnMeans is the mean of each of the p columns of the n×p row-major
// x, as one matrix-vector product.
func columnMeans(x []float64, n, p int) []float64 {
	mean := make([]float64, p)
	if n == 0 || p == 0 {
		return mean
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 / float64(n)
	}
	blas64.Implementation().Dgemv(blas.Trans, n, p, 1, x, p, w, 1, 0, mean, 1)
	return mean
}

// solveNormal solves (G + αI)w = b. It scales G to unit diagonal first:
// raw features differ in scale by many orders of magnitude and Cholesky
// on the scaled matrix loses far fewer digits. Unpenalised problems that
// are still singular fall back to the minimum-norm solution, which is what
// scikit-learn's least-squares solver returns.
func solveNormal(g, b []float64, p int, alpha float64) ([]float64, error) {
	dscale := make([]float64, p)
	for j := 0; j < p; j++ {
		dscale[j] = math.Sqrt(g[j*p+j] + alpha)
		if dscale[j] == 0 {
			dscale[j] = 1
		}
	}
	s := mat.NewSymDense(p, nil)
	for j := 0; j < p; j++ {
		for k := j; k < p; k++ {
			v := g[j*p+k]
			if j == k {
				v += alpha
			}
			s.SetSym(j, k, v/(dscale[j]*dscale[k]))
		}
	}
	bs := mat.NewVecDense(p, nil)
	for j := 0; j < p; j++ {
		bs.SetVec(j, b[j]/dscale[j])
	}
	var chol mat.Cholesky
	w := mat.NewVecDense(p, nil)
	if chol.Factorize(s) && chol.Cond() < 1e13 {
		if err := chol.SolveVecTo(w, bs); err == nil {
			out := make([]float64, p)
			for j := range out {
				out[j] = w.AtVec(j) / dscale[j]
			}
			return out, nil
		}
	}
	if alpha > 0 {
		return nil, ErrSingular
	}
	return minNormSolve(g, b, p)
}

// minNormSolve returns the minimum-norm least-squares solution of the
// unscaled system through its eigen-decomposition.
func minNormSolve(g, b []float64, p int) ([]float64, error) {
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(p, append([]float64(nil), g...)), true) {
		return nil, ErrSingular
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := 0.0
	for _, v := range vals {
		top = max(top, v)
	}
	cut := top * float64(p) * 1e-15
	out := make([]float64, p)
	for k, lam := range vals {
		if lam <= cut {
			continue
		}
		var proj float64
		for j := 0; j < p; j++ {
			proj += vecs.At(j, k) * b[j]
		}
		proj /= lam
		for j := 0; j < p; j++ {
			out[j] += proj * vecs.At(j, k)
		}
	}
	return out, nil
}
