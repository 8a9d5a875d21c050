package ml

import (
	"context"
	"math"
	"math/rand"
	"testing"
)

// TestLASolversMatchNormalEquations fits the same data with the normal
// equations and with each LA-program solver.
func TestLASolversMatchNormalEquations(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n, p = 400, 6
	cols := make([][]float64, p)
	y := make([]float64, n)
	for j := range cols {
		cols[j] = make([]float64, n)
		for i := range cols[j] {
			cols[j][i] = rng.NormFloat64() * float64(j+1) * 10
		}
	}
	for i := range y {
		y[i] = 3
		for j := range cols {
			y[i] += float64(j-2) * cols[j][i]
		}
		y[i] += rng.NormFloat64()
	}
	d := &Dataset{Target: func() *Column { c := NumericColumn("y", y, nil); return &c }()}
	for j := range cols {
		d.Features = append(d.Features, NumericColumn(string(rune('a'+j)), cols[j], nil))
	}
	fit := func(solver string) *Linear {
		m, err := Train(context.Background(), d, Options{Task: Regression, Algorithm: LinearRegression, Solver: solver})
		if err != nil {
			t.Fatalf("%s: %v", solver, err)
		}
		return m.Estimator().(*Linear)
	}
	want := fit("normal")
	for _, tc := range []struct {
		solver string
		tol    float64
	}{{"dfp", 1e-8}, {"bfgs", 1e-8}, {"gd", 1e-4}} {
		got := fit(tc.solver)
		for j := range want.Coef {
			if rel := math.Abs(got.Coef[j]-want.Coef[j]) / math.Max(math.Abs(want.Coef[j]), 1e-12); rel > tc.tol {
				t.Errorf("%s: coefficient %d is %g, normal equations give %g", tc.solver, j, got.Coef[j], want.Coef[j])
			}
		}
		if math.Abs(got.Intercept-want.Intercept) > tc.tol*math.Max(1, math.Abs(want.Intercept)) {
			t.Errorf("%s: intercept %g, want %g", tc.solver, got.Intercept, want.Intercept)
		}
	}
	if _, err := Train(context.Background(), d, Options{Task: Regression, Algorithm: Ridge, Solver: "dfp"}); err == nil {
		t.Fatal("an LA solver was accepted for Ridge")
	}
	if _, err := Train(context.Background(), d, Options{Task: Regression, Algorithm: LinearRegression, Solver: "newton"}); err == nil {
		t.Fatal("an unknown solver was accepted")
	}
}
