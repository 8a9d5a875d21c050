package optimizer

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
)

const pageRankScript = `
n = nrow(@M)
x = matrix(1 / n, n, 1)
change = 1
k = 0
while (change > 1e-11 && k < 300) {
  xn = 0.85 * (@M %*% x) + 0.15 / n
  change = sum(abs(xn - x))
  x = xn
  k = k + 1
}
print("iterations", k)
x
`

// transitionEnv binds @M to the column-stochastic transition matrix of a
// random graph whose in-degrees are skewed, so that vertices converge at
// different speeds.
func transitionEnv(t testing.TB, n int) *testEnv {
	rng := rand.New(rand.NewPCG(7, 9))
	var is, js []int
	for src := range n {
		deg := 1 + rng.IntN(6)
		for range deg {
			dst := int(float64(n) * math.Pow(rng.Float64(), 3)) // skewed towards low ids
			is, js = append(is, dst), append(js, src)
		}
	}
	outdeg := make([]float64, n)
	for _, j := range js {
		outdeg[j]++
	}
	vs := make([]float64, len(is))
	for k, j := range js {
		vs[k] = 1 / outdeg[j]
	}
	m, err := matrix.FromTriples(n, n, is, js, vs)
	if err != nil {
		t.Fatal(err)
	}
	env := newTestEnv()
	env.vars["M"] = m
	return env
}

// TestHybridLoopAgrees runs a PageRank loop with its product routed to the
// hybrid runtime in every mode and checks the ranks against the loop run
// with plain products, and that each mode did what it was told.
func TestHybridLoopAgrees(t *testing.T) {
	env := transitionEnv(t, 3000)
	plain := DefaultOptions()
	plain.Hybrid = false
	ref, err := Run(context.Background(), pageRankScript, env, plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Iterations) != 0 {
		t.Fatalf("routing off, yet %d routed products", len(ref.Iterations))
	}
	want, _ := ref.Value.DenseValues()
	for _, mode := range []hybrid.Mode{hybrid.ModeFull, hybrid.ModeIncremental, hybrid.ModeHybrid} {
		for _, re := range []bool{true, false} {
			opts := DefaultOptions()
			opts.IterationMode, opts.RedundancyElimination = mode, re
			r, err := Run(context.Background(), pageRankScript, env, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := r.Value.DenseValues()
			worst := 0.0
			for i := range want {
				worst = max(worst, math.Abs(got[i]-want[i]))
			}
			// The loop stops at an ℓ1 change of 1e-11; carrying 1% of the
			// change leaves each rank within a few times that.
			if worst > 1e-10 {
				t.Errorf("%v (elimination %v): ranks differ from plain products by %g", mode, re, worst)
			}
			if len(r.Iterations) != 1 {
				t.Fatalf("%v: %d routed products, want 1", mode, len(r.Iterations))
			}
			steps := r.Iterations[0].Steps
			if !strings.HasPrefix(r.Iterations[0].Label, "@M %*% x [3000x3000 sparse") {
				t.Errorf("label %q", r.Iterations[0].Label)
			}
			// The first evaluation runs as written and the second starts the
			// runtime with a full product; the mode rules the rest.
			incremental := 0
			for _, st := range steps[2:] {
				if st.Mode == hybrid.ModeIncremental {
					incremental++
				}
			}
			for i, st := range steps[:2] {
				if st.Mode != hybrid.ModeFull || st.Iteration != i+1 {
					t.Errorf("%v: step %d is %+v, want a full one", mode, i+1, st)
				}
			}
			switch mode {
			case hybrid.ModeFull:
				if incremental != 0 {
					t.Errorf("full: %d incremental steps", incremental)
				}
			case hybrid.ModeIncremental:
				if incremental != len(steps)-2 {
					t.Errorf("incremental: %d of %d steps incremental", incremental, len(steps)-2)
				}
			}
			t.Logf("%v (elimination %v): %d steps, %d incremental, max diff %g", mode, re, len(steps), incremental, worst)
		}
	}
}

// TestHybridExplain checks that EXPLAIN flags the routed product before
// the loop runs and that ANALYZE reports every iteration of it.
func TestHybridExplain(t *testing.T) {
	env := transitionEnv(t, 500)
	x, err := Explain(context.Background(), pageRankScript, env, DefaultOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for _, r := range x.Rows {
		if r.Section == "iterative" {
			flagged++
			if !strings.Contains(r.Detail, "@M %*% x") {
				t.Errorf("iterative row %q", r.Detail)
			}
		}
		if r.Section == "iteration" {
			t.Errorf("EXPLAIN without ANALYZE ran an iteration: %q", r.Detail)
		}
	}
	if flagged != 1 {
		t.Errorf("%d iterative rows, want 1", flagged)
	}
	x, err = Explain(context.Background(), pageRankScript, env, DefaultOptions(), true)
	if err != nil {
		t.Fatal(err)
	}
	iterations, loops := 0, 0
	for _, r := range x.Rows {
		if r.Section == "iteration" {
			iterations++
			if r.Operator != "full" && r.Operator != "incremental" {
				t.Errorf("iteration row operator %q", r.Operator)
			}
			if math.IsNaN(r.MeasuredMs) || r.Calls != 1 || !strings.Contains(r.Detail, "blocks") {
				t.Errorf("iteration row %+v", r)
			}
		}
		if r.Section == "unit" && strings.Contains(r.Detail, "while loop") {
			loops++
			var ran int
			if i := strings.Index(r.Detail, "ran "); i >= 0 {
				for _, c := range r.Detail[i+4:] {
					if c < '0' || c > '9' {
						break
					}
					ran = ran*10 + int(c-'0')
				}
			}
			defer func() {
				if iterations != ran {
					t.Errorf("%d iteration rows for a loop that ran %d times", iterations, ran)
				}
			}()
		}
	}
	if loops != 1 || iterations == 0 {
		t.Errorf("%d loops, %d iteration rows", loops, iterations)
	}
}
