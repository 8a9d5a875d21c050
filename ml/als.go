package ml

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Factorization is a fitted explicit-feedback matrix factorisation: the
// predicted rating of (user u, item i) is Mean + U[u]·V[i]; a user or item
// not seen in training predicts Mean. U is users × Rank, V items × Rank,
// row-major; user and item indices follow the sorted training ids stored
// in the model's preprocessing.
type Factorization struct {
	Rank  int
	Mean  float64
	Users int
	Items int
	U, V  []float64
}

var _ estimator = (*Factorization)(nil)

func (f *Factorization) outputs() int { return 1 }

func (f *Factorization) predict(x, out []float64) {
	u, i := int(x[0]), int(x[1])
	out[0] = f.Mean
	if u < 0 || i < 0 || u >= f.Users || i >= f.Items {
		return
	}
	r := f.Rank
	for k := 0; k < r; k++ {
		out[0] += f.U[u*r+k] * f.V[i*r+k]
	}
}

// ratingsBy groups (row, column, value) triples by row, CSR style.
type ratingsBy struct {
	start []int
	col   []int
	val   []float64
}

func groupRatings(rows, cols []int, vals []float64, nrows int) ratingsBy {
	g := ratingsBy{start: make([]int, nrows+1), col: make([]int, len(rows)), val: make([]float64, len(rows))}
	for _, r := range rows {
		g.start[r+1]++
	}
	for r := 0; r < nrows; r++ {
		g.start[r+1] += g.start[r]
	}
	next := append([]int(nil), g.start[:nrows]...)
	for t, r := range rows {
		g.col[next[r]], g.val[next[r]] = cols[t], vals[t]
		next[r]++
	}
	return g
}

// trainALS fits the factors by alternating least squares with
// weighted-λ regularisation (each user's or item's penalty is λ times its
// rating count, Zhou et al. 2008, as Spark's ALS does) on ratings centred
// by their mean. Item factors start as N(0,1)/√rank; each sweep solves
// every user's rank × rank system, then every item's, in parallel.
func trainALS(ctx context.Context, m *Model, d *Dataset, o Options) error {
	uc, ok := d.Column(o.UserColumn)
	if !ok {
		return fmt.Errorf("%w %q (user column)", ErrMissingColumn, o.UserColumn)
	}
	ic, ok := d.Column(o.ItemColumn)
	if !ok {
		return fmt.Errorf("%w %q (item column)", ErrMissingColumn, o.ItemColumn)
	}
	ratings, err := numericTarget(d.Target)
	if err != nil {
		return err
	}
	ids := &Dataset{Features: []Column{*uc, *ic}, Target: d.Target}
	o.Nulls = NullReject
	x, n, _, err := m.prepare(ids, idIndex, false, false, o)
	if err != nil {
		return err
	}
	nu, ni := len(m.prep.Features[0].Levels), len(m.prep.Features[1].Levels)
	users, items := make([]int, n), make([]int, n)
	var mean float64
	for t := 0; t < n; t++ {
		users[t], items[t] = int(x[2*t]), int(x[2*t+1])
		mean += ratings[t]
	}
	mean /= float64(n)
	centred := make([]float64, n)
	for t := range centred {
		centred[t] = ratings[t] - mean
	}
	byUser := groupRatings(users, items, centred, nu)
	byItem := groupRatings(items, users, centred, ni)
	r := o.Rank
	f := &Factorization{Rank: r, Mean: mean, Users: nu, Items: ni, U: make([]float64, nu*r), V: make([]float64, ni*r)}
	rng := rand.New(rand.NewPCG(o.Seed, 0x616c73))
	scale := 1 / math.Sqrt(float64(r))
	for k := range f.V {
		f.V[k] = rng.NormFloat64() * scale
	}
	workers := o.workers()
	for it := 0; it < o.MaxIter; it++ {
		alsSweep(byUser, f.V, f.U, r, o.Lambda, workers)
		if err := ctx.Err(); err != nil {
			return err
		}
		alsSweep(byItem, f.U, f.V, r, o.Lambda, workers)
		var sse float64
		for t := 0; t < n; t++ {
			e := centred[t]
			for k := 0; k < r; k++ {
				e -= f.U[users[t]*r+k] * f.V[items[t]*r+k]
			}
			sse += e * e
		}
		if err := o.report(ctx, Progress{Iteration: it + 1, MaxIterations: o.MaxIter, Loss: math.Sqrt(sse / float64(n)), Rows: int64(it+1) * int64(n)}); err != nil {
			return err
		}
	}
	m.est = f
	return nil
}

// alsSweep solves, for every row of g, (FᵀF + λ·count·I) x = Fᵀr over the
// fixed factors of its rated columns, writing x into out.
func alsSweep(g ratingsBy, fixed, out []float64, r int, lambda float64, workers int) {
	nrows := len(g.start) - 1
	forWorkers(workers, nrows, func(_, lo, hi int) {
		a := make([]float64, r*r)
		b := make([]float64, r)
		for row := lo; row < hi; row++ {
			clear(a)
			clear(b)
			cnt := g.start[row+1] - g.start[row]
			for t := g.start[row]; t < g.start[row+1]; t++ {
				fv := fixed[g.col[t]*r : (g.col[t]+1)*r]
				for p := 0; p < r; p++ {
					b[p] += fv[p] * g.val[t]
					for q := 0; q <= p; q++ {
						a[p*r+q] += fv[p] * fv[q]
					}
				}
			}
			reg := lambda * float64(max(cnt, 1))
			for p := 0; p < r; p++ {
				a[p*r+p] += reg
			}
			choleskySolve(a, b, r)
			copy(out[row*r:(row+1)*r], b)
		}
	})
}

// choleskySolve solves a x = b in place for a symmetric positive definite
// r × r matrix given by its lower triangle; x replaces b. The systems here
// are tiny and numerous, so this avoids any allocation.
func choleskySolve(a, b []float64, r int) {
	for j := 0; j < r; j++ {
		s := a[j*r+j]
		for k := 0; k < j; k++ {
			s -= a[j*r+k] * a[j*r+k]
		}
		// λ·count > 0 keeps the matrix positive definite.
		d := math.Sqrt(max(s, 1e-300))
		a[j*r+j] = d
		for i := j + 1; i < r; i++ {
			s := a[i*r+j]
			for k := 0; k < j; k++ {
				s -= a[i*r+k] * a[j*r+k]
			}
			a[i*r+j] = s / d
		}
	}
	for i := 0; i < r; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= a[i*r+k] * b[k]
		}
		b[i] = s / a[i*r+i]
	}
	for i := r - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < r; k++ {
			s -= a[k*r+i] * b[k]
		}
		b[i] = s / a[i*r+i]
	}
}
