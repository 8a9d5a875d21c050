package optimizer

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestCalibrateAndCache(t *testing.T) {
	if testing.Short() {
		t.Skip("calibration times kernels for about a second")
	}
	path := filepath.Join(t.TempDir(), "costs.json")
	c, err := LoadCostModel(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]float64{"op": c.OpSec, "flop": c.FlopSec, "spflop": c.SpFlopSec, "byte": c.ByteSec} {
		if !(v > 0 && v < 1e-3) {
			t.Errorf("%s constant %g is not a plausible time", name, v)
		}
	}
	// A dense GEMM flop should cost less than streaming a byte on any CPU
	// with a vector unit; a broken calibration usually flips this.
	if c.FlopSec > 8*c.ByteSec {
		t.Errorf("flop %g s against byte %g s", c.FlopSec, c.ByteSec)
	}
}

func TestExplainAnalyze(t *testing.T) {
	env := leastSquaresEnv(t, 500, 10, 20)
	x, err := Explain(context.Background(), readScript(t, "dfp.la"), env, testOptions(true), true)
	if err != nil {
		t.Fatal(err)
	}
	measured := 0
	for _, r := range x.Rows {
		if len(r.Values()) != len(Columns()) {
			t.Fatalf("row has %d cells for %d columns", len(r.Values()), len(Columns()))
		}
		if !math.IsNaN(r.MeasuredMs) && r.Section == "after" {
			measured++
			if r.Calls == 0 {
				t.Errorf("measured row without calls: %+v", r)
			}
		}
	}
	if measured == 0 {
		t.Errorf("ANALYZE measured nothing:\n%s", x.Text())
	}
	text := x.Text()
	if !strings.Contains(text, "ran 20") || !strings.Contains(text, "measured_ms") {
		t.Errorf("ANALYZE text lacks the iteration count or measured column:\n%s", text)
	}
	if len(env.printed) != 1 {
		t.Errorf("ANALYZE should run print once, printed %q", env.printed)
	}
	// Plain EXPLAIN runs no loop and no effects.
	env.printed = nil
	if _, err := Explain(context.Background(), readScript(t, "dfp.la"), env, testOptions(true), false); err != nil {
		t.Fatal(err)
	}
	if len(env.printed) != 0 {
		t.Errorf("EXPLAIN printed %q", env.printed)
	}
}
