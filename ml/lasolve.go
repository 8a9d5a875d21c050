package ml

import (
	"context"
	"fmt"
	"math"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer"
)

// Iterative least-squares solvers for LinearRegression, written as LA
// programs so that they run through the redundancy-eliminating optimizer
// (t(X) %*% X is hoisted out of the loop; the chains through it that the
// quasi-Newton updates repeat are computed once). Each takes the centred,
// scaled design @X, the centred target @y, @iters and @tol, minimises
// ½‖Xw − y‖² from w = 0 with exact line searches (exact for a quadratic),
// and ends with w.
var laSolvers = map[string]string{
	"gd": `X = @X
y = @y
c = t(X) %*% y
w = matrix(0, ncol(X), 1)
g = -c
i = 0
while (i < @iters && sum(g ^ 2) > @tol) {
  a = sum(g ^ 2) / (t(g) %*% t(X) %*% X %*% g)
  w = w - a * g
  g = t(X) %*% X %*% w - c
  i = i + 1
}
w
`,
	"dfp": quasiNewton(`H = H - (H %*% v %*% t(v) %*% H) / (t(v) %*% H %*% v) + (s %*% t(s)) / (t(v) %*% s)`),
	"bfgs": quasiNewton(`r = 1 / (t(v) %*% s)
  H = H - r * (s %*% t(v) %*% H + H %*% v %*% t(s)) + (r * r * (t(v) %*% H %*% v) + r) * (s %*% t(s))`),
}

// quasiNewton is the loop DFP and BFGS share; they differ only in how the
// inverse-Hessian estimate H takes in the step s and the gradient change v.
func quasiNewton(update string) string {
	return `X = @X
y = @y
c = t(X) %*% y
w = matrix(0, ncol(X), 1)
H = identity(ncol(X))
g = -c
i = 0
while (i < @iters && sum(g ^ 2) > @tol) {
  d = H %*% g
  a = (t(g) %*% d) / (t(d) %*% t(X) %*% X %*% d)
  s = -a * d
  w = w + s
  v = t(X) %*% X %*% s
  ` + update + `
  g = t(X) %*% X %*% w - c
  i = i + 1
}
w
`
}

// UsesMatrixKernels reports whether training with o multiplies matrices on
// the matrix package's devices, as the LA solvers do; every other fit runs
// in this package's own loops on the CPU.
func UsesMatrixKernels(o Options) bool {
	_, ok := laSolvers[o.Solver]
	return ok && o.Algorithm == LinearRegression
}

// solveLA fits centred least squares with an LA-program solver. x is
// row-major n×p, already centred by xmean, y centred. Columns are scaled
// to unit variance for the solve (the iterations need a sane condition
// number) and the coefficients scaled back.
func solveLA(ctx context.Context, solver string, x, y []float64, n, p, iters int, tol float64, devices *gpu.Dispatcher) ([]float64, error) {
	script, ok := laSolvers[solver]
	if !ok {
		return nil, fmt.Errorf("%w: solver '%s' (normal, gd, dfp or bfgs)", ErrBadOption, solver)
	}
	scale := make([]float64, p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			scale[j] += x[i*p+j] * x[i*p+j]
		}
	}
	for j := range scale {
		if scale[j] = math.Sqrt(scale[j] / float64(n)); scale[j] == 0 {
			scale[j] = 1
		}
	}
	xs := make([]float64, n*p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			xs[i*p+j] = x[i*p+j] / scale[j]
		}
	}
	X, err := matrix.NewDense(n, p, xs)
	if err != nil {
		return nil, err
	}
	Y, err := matrix.NewDense(n, 1, append([]float64(nil), y...))
	if err != nil {
		return nil, err
	}
	itm, _ := matrix.NewDense(1, 1, []float64{float64(iters)})
	// The gradient test is on ‖Xᵀ(Xw − y)‖², scaled with the problem.
	var yy float64
	for _, v := range y {
		yy += v * v
	}
	tolm, _ := matrix.NewDense(1, 1, []float64{tol * tol * max(yy, 1) * float64(n)})
	opts := optimizer.DefaultOptions()
	opts.Devices = devices
	res, err := optimizer.Run(ctx, script, optimizer.Inputs{"X": X, "y": Y, "iters": itm, "tol": tolm}, opts)
	if err != nil {
		return nil, err
	}
	w := res.Value
	if w == nil || w.Rows() != p || w.Cols() != 1 {
		return nil, fmt.Errorf("%w: solver '%s' returned no coefficient vector", ErrBadOption, solver)
	}
	coef := make([]float64, p)
	for j := range coef {
		v, err := matrix.Get(w, j, 0)
		if err != nil {
			return nil, err
		}
		coef[j] = v / scale[j]
	}
	return coef, nil
}
