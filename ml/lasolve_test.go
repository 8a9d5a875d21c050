package ml

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"github.com/sqlearn/sqlearn/gpu"
)

// lsDataset is y = 3 + Σ (j-2)·x_j plus noise over six columns of
// different scales.
func lsDataset() *Dataset {
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
	return d
}

// TestLASolversMatchNormalEquations fits the same data with the normal
// equations and with each LA-program solver.
func TestLASolversMatchNormalEquations(t *testing.T) {
	d := lsDataset()
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

// gemmCounter stands in for a GPU: the CPU under another name, counting
// products.
type gemmCounter struct {
	gpu.Device
	gemms int
}

func (g *gemmCounter) Name() string { return "counting-gpu" }

func (g *gemmCounter) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	g.gemms++
	g.Device.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// TestLASolverRunsOnDevices: an LA solver's products run on the dispatcher
// in Options.Devices, with the same coefficients as on the CPU; the other
// fits use no matrix kernels.
func TestLASolverRunsOnDevices(t *testing.T) {
	d := lsDataset()
	prof := gpu.Profile{Key: "test", Overhead: 1e-7, GemmRate: 1e10, SgemmRate: 1e10, SparseRate: 1e9, StreamRate: 1e10}
	fake := &gemmCounter{Device: gpu.CPU()}
	disp := gpu.NewDispatcher(gpu.CPU(), prof, fake, prof, "")
	var coef [][]float64
	for _, mode := range []gpu.Mode{gpu.ModeCPU, gpu.ModeGPU} {
		view, err := disp.WithMode(mode)
		if err != nil {
			t.Fatal(err)
		}
		before := fake.gemms
		m, err := Train(context.Background(), d, Options{Task: Regression, Algorithm: LinearRegression, Solver: "bfgs", Devices: view})
		if err != nil {
			t.Fatal(err)
		}
		if ran := fake.gemms - before; (mode == gpu.ModeGPU) != (ran > 0) {
			t.Errorf("%v: %d products on the gpu", mode, ran)
		}
		coef = append(coef, m.Estimator().(*Linear).Coef)
	}
	for j := range coef[0] {
		if coef[0][j] != coef[1][j] {
			t.Errorf("coefficient %d: %g on the cpu, %g on the gpu", j, coef[0][j], coef[1][j])
		}
	}
	for _, c := range []struct {
		o    Options
		want bool
	}{
		{Options{Algorithm: LinearRegression, Solver: "gd"}, true},
		{Options{Algorithm: LinearRegression}, false},
		{Options{Algorithm: LinearRegression, Solver: "normal"}, false},
		{Options{Algorithm: KMeans}, false},
	} {
		if got := UsesMatrixKernels(c.o); got != c.want {
			t.Errorf("UsesMatrixKernels(%+v) = %v", c.o, got)
		}
	}
}
