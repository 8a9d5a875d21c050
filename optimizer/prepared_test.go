package optimizer

import (
	"context"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
)

// TestPreparedReusesPlans runs the DFP script through one Prepared on
// several inputs: results equal Run's, a second run with the same shapes
// plans nothing, and new shapes are planned again.
func TestPreparedReusesPlans(t *testing.T) {
	src := readScript(t, "dfp.la")
	p, err := Prepare(src)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	for i, c := range []struct {
		rows, cols int
		seed       int64
		replans    bool
	}{{300, 7, 1, true}, {300, 7, 2, false}, {300, 7, 3, false}, {200, 5, 4, true}, {200, 5, 5, false}} {
		env := leastSquaresEnv(t, c.rows, c.cols, 20)
		x, err := matrix.Rand(c.rows, c.cols, c.seed, 1)
		if err != nil {
			t.Fatal(err)
		}
		env.vars["X"] = x
		want, err := Run(context.Background(), src, env, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Run(context.Background(), env, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(got.Value, want.Value); d > 1e-12 {
			t.Errorf("run %d: differs from Run by %g", i, d)
		}
		if planned := got.Stats.Units > 0; planned != c.replans {
			t.Errorf("run %d (%dx%d): planned %d units, want planning %v", i, c.rows, c.cols, got.Stats.Units, c.replans)
		}
	}
}
