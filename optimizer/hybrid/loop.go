package hybrid

import (
	"context"
	"fmt"
	"time"
)

// Loop is an iterative computation x_{k+1} = Update(M·x_k, x_k): one large
// constant sparse product per iteration followed by cheap element-wise
// work. It is the shape the LA optimizer recognises in a `while` loop whose
// body multiplies a loop-constant matrix by the loop variable; it can then
// hand M, the initial value and the rest of the body (as Update) to Run
// without knowing how the product is evaluated.
type Loop struct {
	M     *CSR
	X0    []float64 // M.Cols × Width, row-major
	Width int       // columns of x; 0 means 1

	// Update writes x_{k+1} into next from y ≈ M·x_k and x = x_k. It
	// returns the change norm ‖next − x‖ that decides convergence, and the
	// uniform shift of next − x when it has one (see Delta.Shift), else 0.
	Update func(y, x, next []float64) (change, shift float64)

	Tolerance     float64 // converged when change < Tolerance
	MaxIterations int

	// ResidualBudget bounds the ℓ1 norm of the change carried instead of
	// propagated (see Delta.Budget). Incremental steps propagate the
	// largest residuals first, so the fewer units that carry most of
	// the change are the only ones multiplied.
	//
	// Relative lets the budget follow the change: max(ResidualBudget,
	// Relative·change). The iteration is then an inexact one whose carried
	// mass shrinks geometrically with the change, so it converges to the
	// same fixed point and ends within the floor of full evaluation.
	ResidualBudget float64
	Relative       float64

	Options Options
}

// Result is what Run returns.
type Result struct {
	X               []float64
	Iterations      int
	Converged       bool
	Change          float64 // the last change norm
	Full            int     // iterations evaluated in full
	Incremental     int     // iterations evaluated incrementally
	Reorganisations int
	Elapsed         time.Duration
	Trace           []Step
}

// Run iterates until the change drops below the tolerance or the
// iteration limit is reached; ctx is checked every iteration.
func (l *Loop) Run(ctx context.Context, mode Mode) (Result, error) {
	w := max(l.Width, 1)
	if l.M == nil || len(l.X0) != l.M.Cols*w {
		return Result{}, fmt.Errorf("%w: x0 has %d entries for a matrix with %d columns and width %d", ErrShape, len(l.X0), colsOf(l.M), w)
	}
	if l.Update == nil || l.MaxIterations <= 0 {
		return Result{}, fmt.Errorf("%w: a loop needs Update and a positive MaxIterations", ErrArgument)
	}
	t0 := time.Now()
	opt := l.Options
	opt.Mode = mode
	p, err := NewProduct(l.M, w, opt)
	if err != nil {
		return Result{}, err
	}
	x := append([]float64(nil), l.X0...)
	next := make([]float64, len(x))
	var res Result
	y, st := p.Start(x)
	var decay Decay
	for k := 1; ; k++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		change, shift := l.Update(y, x, next)
		st.Change = change
		res.Trace = append(res.Trace, st)
		if st.Mode == ModeFull {
			res.Full++
		} else {
			res.Incremental++
		}
		x, next = next, x
		res.Iterations, res.Change = k, change
		if change < l.Tolerance {
			res.Converged = true
			break
		}
		if k >= l.MaxIterations {
			break
		}
		decay.Observe(change)
		remaining := decay.Remaining(l.Tolerance, l.MaxIterations-k)
		y, st = p.Step(Delta{Prev: next, Next: x, Shift: shift, Budget: max(l.ResidualBudget, l.Relative*change), Change: change, Remaining: remaining})
	}
	res.X = x
	res.Reorganisations = p.Reorganisations()
	res.Elapsed = time.Since(t0)
	return res, nil
}

func colsOf(m *CSR) int {
	if m == nil {
		return 0
	}
	return m.Cols
}
