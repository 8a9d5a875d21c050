package hybrid

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// GNMFOptions configure Gaussian non-negative matrix factorisation with
// Lee and Seung's multiplicative updates.
type GNMFOptions struct {
	Rank       int
	Iterations int
	Seed       uint64
	// Tolerance is the ℓ1 mass of a factor's change that an incremental
	// product may carry, relative to the factor's own ℓ1 mass.
	Tolerance float64
	Options   Options
}

// DefaultGNMFOptions: rank 10, 50 iterations, seed 1, tolerance 1e-6.
func DefaultGNMFOptions() GNMFOptions {
	return GNMFOptions{Rank: 10, Iterations: 50, Seed: 1, Tolerance: 1e-6}
}

// GNMFResult holds V ≈ W·H as W (rows×rank) and Hᵀ (cols×rank), both
// row-major, and the loss ‖V − W·H‖²_F after each iteration (missing
// entries of V count as zeros, as in the classic GNMF benchmark). Full
// and Incremental count product evaluations, two per iteration.
type GNMFResult struct {
	W, Ht []float64
	Loss  []float64
	Result
}

// GNMF factorises the sparse non-negative matrix v. Each iteration
//
//	H ← H ∘ (WᵀV) / (WᵀW·H),   W ← W ∘ (V·Hᵀ) / (W·H·Hᵀ)
//
// needs the two products with the constant V, and those are what the
// hybrid runtime evaluates: VᵀW moves with W, V·Hᵀ with H.
func GNMF(ctx context.Context, v *CSR, opt GNMFOptions, mode Mode) (GNMFResult, error) {
	if opt.Rank <= 0 || opt.Iterations <= 0 || opt.Tolerance < 0 {
		return GNMFResult{}, fmt.Errorf("%w: rank %d, iterations %d and tolerance %g must be positive", ErrArgument, opt.Rank, opt.Iterations, opt.Tolerance)
	}
	for _, x := range v.Val {
		if x < 0 || math.IsNaN(x) {
			return GNMFResult{}, fmt.Errorf("%w: GNMF needs non-negative values, got %g", ErrArgument, x)
		}
	}
	t0 := time.Now()
	m, n, r := v.Rows, v.Cols, opt.Rank
	o := opt.Options
	o.Mode = mode
	pW, err := NewProduct(v.T(), r, o) // Vᵀ·W, n×r
	if err != nil {
		return GNMFResult{}, err
	}
	pH, err := NewProduct(v, r, o) // V·Hᵀ, m×r
	if err != nil {
		return GNMFResult{}, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	w, wNext := make([]float64, m*r), make([]float64, m*r)
	ht, htNext := make([]float64, n*r), make([]float64, n*r)
	for i := range w {
		w[i] = rng.Float64()
	}
	for i := range ht {
		ht[i] = rng.Float64()
	}
	normV := 0.0
	for _, x := range v.Val {
		normV += x * x
	}
	// A tiny floor in the denominators keeps a row without ratings at
	// zero instead of 0/0.
	const eps = 1e-12
	var res GNMFResult
	record := func(st Step, loss float64) {
		st.Change = loss
		res.Trace = append(res.Trace, st)
		if st.Mode == ModeFull {
			res.Full++
		} else {
			res.Incremental++
		}
	}
	// update writes x∘num/(x·G) into next and returns ‖next − x‖₁ and
	// ‖next‖₁.
	update := func(x, num, g, next []float64) (change, mass float64) {
		for i := 0; i < len(x); i += r {
			xi, ni, out := x[i:i+r], num[i:i+r], next[i:i+r]
			for c := range r {
				den := eps
				for k := range r {
					den += xi[k] * g[k*r+c]
				}
				nv := xi[c] * ni[c] / den
				change += math.Abs(nv - xi[c])
				mass += nv
				out[c] = nv
			}
		}
		return change, mass
	}
	a, stW := pW.Start(w)
	var b []float64
	var stH Step
	for it := 1; it <= opt.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return GNMFResult{}, err
		}
		change, mass := update(ht, a, gram(w, r), htNext)
		if it == 1 {
			b, stH = pH.Start(htNext)
		} else {
			b, stH = pH.Step(Delta{Prev: ht, Next: htNext, Budget: opt.Tolerance * mass, Change: change, Remaining: opt.Iterations - it})
		}
		ht, htNext = htNext, ht
		hht := gram(ht, r)
		change, mass = update(w, b, hht, wNext)
		w, wNext = wNext, w
		// ‖V − WH‖² = ‖V‖² − 2⟨W, V·Hᵀ⟩ + ⟨WᵀW, H·Hᵀ⟩.
		cross := 0.0
		for i := range w {
			cross += w[i] * b[i]
		}
		wtw := gram(w, r)
		quad := 0.0
		for i := range wtw {
			quad += wtw[i] * hht[i]
		}
		loss := normV - 2*cross + quad
		res.Loss = append(res.Loss, loss)
		record(stW, loss)
		record(stH, loss)
		if it < opt.Iterations {
			a, stW = pW.Step(Delta{Prev: wNext, Next: w, Budget: opt.Tolerance * mass, Change: change, Remaining: opt.Iterations - it})
		}
	}
	res.W, res.Ht = w, ht
	res.Iterations, res.Converged = opt.Iterations, true
	res.Change = res.Loss[len(res.Loss)-1]
	res.Reorganisations = pW.Reorganisations() + pH.Reorganisations()
	res.Elapsed = time.Since(t0)
	return res, nil
}

// gram is XᵀX for X of len(x)/r rows and r columns, row-major.
func gram(x []float64, r int) []float64 {
	g := make([]float64, r*r)
	for i := 0; i < len(x); i += r {
		xi := x[i : i+r]
		for a, va := range xi {
			row := g[a*r : a*r+r]
			for b, vb := range xi {
				row[b] += va * vb
			}
		}
	}
	return g
}
