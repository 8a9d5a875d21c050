package optimizer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

func testOptions(re bool) Options {
	o := DefaultOptions()
	o.RedundancyElimination = re
	o.Costs = FixedCostModel()
	return o
}

// TestScriptsAgree runs every script in testdata/la with and without
// redundancy elimination (and once more left to right, as written) and
// requires every variable to agree within 1e-9 relative error.
func TestScriptsAgree(t *testing.T) {
	for _, name := range []string{"gd.la", "dfp.la", "bfgs.la", "chain.la", "newton.la", "power.la", "elementwise.la"} {
		t.Run(name, func(t *testing.T) {
			src := readScript(t, name)
			iters := 50
			if name == "power.la" {
				iters = 8
			}
			run := func(opts Options) Result {
				env := leastSquaresEnv(t, 300, 8, iters)
				r, err := Run(context.Background(), src, env, opts)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return r
			}
			on, off := run(testOptions(true)), run(testOptions(false))
			naive := testOptions(false)
			naive.ReorderChains = false
			asWritten := run(naive)
			if on.Value == nil || off.Value == nil {
				t.Fatalf("no result value")
			}
			for _, other := range []Result{off, asWritten} {
				for k, v := range other.Vars {
					if d := relDiff(on.Vars[k], v); !(d <= 1e-9) {
						t.Errorf("variable %s differs by %g", k, d)
					}
				}
				if d := relDiff(on.Value, other.Value); !(d <= 1e-9) {
					t.Errorf("result differs by %g", d)
				}
			}
			if on.Stats.Units == 0 {
				t.Errorf("nothing was planned")
			}
		})
	}
}

func TestRunBasics(t *testing.T) {
	env := newTestEnv()
	env.vars["M"], _ = matrix.FromRows([][]float64{{1, 2}, {3, 4}})
	env.queries["SELECT a, b FROM t"], _ = matrix.FromRows([][]float64{{1, 0}, {0, 1}})
	src := `
A = query("SELECT a, b FROM t")
B = @M %*% A + 1
print("sum", sum(B), "n", nrow(B))
save(B, "out")
if (sum(B) > 100) { z = 1 } else if (sum(B) > 10) { z = 2 } else { z = 3 }
s = 0
for (k in 1:4) { s = s + k }
s * z
`
	for _, re := range []bool{true, false} {
		env.printed = nil
		r, err := Run(context.Background(), src, env, testOptions(re))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := scalarOf(r.Value)
		if v != 20 {
			t.Errorf("result %v, want 20", v)
		}
		if len(env.printed) != 1 || env.printed[0] != "sum 14 n 2" {
			t.Errorf("printed %q", env.printed)
		}
		if got := matrix.ToJSON(env.saved["out"]); got != "[[2,3],[4,5]]" {
			t.Errorf("saved %s", got)
		}
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		src  string
		want error
		at   string
	}{
		{"x = y + 1", ErrUndefined, "line 1, column 5"},
		{"x = foo(1)", ErrUnknownFunction, "line 1, column 5"},
		{"x = matrix(1, 2, 3) %*% matrix(1, 2, 3)", matrix.ErrShapeMismatch, "line 1"},
		{"x = matrix(1, 2, 2)\nif (x) { y = 1 }", ErrNotScalar, "line 2"},
		{"x = sum(1, 2)", ErrArgument, "line 1, column 5"},
		{"x = @nothing", ErrUndefined, "line 1"},
		{"x = (1 +", lang.ErrSyntax, "line 1"},
	}
	for _, tc := range tests {
		for _, re := range []bool{true, false} {
			_, err := Run(context.Background(), tc.src, newTestEnv(), testOptions(re))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.at) {
				t.Errorf("Run(%q, re=%v) = %v, want %v at %s", tc.src, re, err, tc.want, tc.at)
			}
		}
	}
}

func TestCancelStopsLoop(t *testing.T) {
	for _, re := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		env := newTestEnv()
		done := make(chan error, 1)
		go func() {
			_, err := Run(ctx, "i = 0\nwhile (1 > 0) { i = i + 1 }", env, testOptions(re))
			done <- err
		}()
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("re=%v: got %v, want context.Canceled", re, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("loop did not stop after cancel")
		}
	}
}

func TestNestedLoopsAgree(t *testing.T) {
	src := `X = @X
v = matrix(1, ncol(X), 1)
s = 0
for (a in 1:3) {
  for (b in 1:4) {
    v = t(X) %*% X %*% v / norm(t(X) %*% X %*% v)
    s = s + a * b
  }
  s = s + t(v) %*% t(X) %*% X %*% v
}
s`
	var vals []float64
	for _, re := range []bool{true, false} {
		r, err := Run(context.Background(), src, leastSquaresEnv(t, 100, 5, 1), testOptions(re))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := scalarOf(r.Value)
		vals = append(vals, v)
		if re && r.Stats.Units > 4 {
			t.Errorf("planned %d units: the inner loop was replanned on every entry", r.Stats.Units)
		}
	}
	if d := (vals[0] - vals[1]) / vals[1]; d > 1e-9 || d < -1e-9 {
		t.Errorf("nested loops disagree: %v vs %v", vals[0], vals[1])
	}
}
