package optimizer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
)

// vectorChain writes a random chain over X (200x6), y (200x1), v (6x1)
// and H (6x6, symmetric), transposes included, whose value is 6x1.
func vectorChain(r *rand.Rand) string {
	type f struct {
		text       string
		rows, cols int
	}
	all := []f{{"X", 200, 6}, {"t(X)", 6, 200}, {"y", 200, 1}, {"t(y)", 1, 200},
		{"v", 6, 1}, {"t(v)", 1, 6}, {"H", 6, 6}, {"t(H)", 6, 6}}
	cur, out := 6, ""
	for n := 2 + r.IntN(6); n > 0 || cur != 1; n-- {
		var opts []f
		for _, c := range all {
			if c.rows == cur && (n > 0 || c.cols <= cur) {
				opts = append(opts, c)
			}
		}
		if n <= 0 { // wind down to a column
			for _, c := range opts {
				if c.cols == 1 {
					opts = []f{c}
					break
				}
			}
		}
		c := opts[r.IntN(len(opts))]
		if out != "" {
			out += " %*% "
		}
		out += c.text
		cur = c.cols
	}
	return out
}

// TestRandomScriptsAgree generates loops of random chains and requires
// the optimised and unoptimised runs to agree within 1e-9.
func TestRandomScriptsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	base := leastSquaresEnv(t, 200, 6, 1)
	h, _ := matrix.Rand(6, 6, 9, 1)
	ht := matrix.T(h)
	h, _ = matrix.Add(h, ht)
	base.vars["H"] = h
	base.vars["v"], _ = matrix.Rand(6, 1, 10, 1)
	for k := 0; k < 40; k++ {
		src := fmt.Sprintf(`X = @X
y = @y
H = @H
v = @v
p = %s
for (k in 1:3) {
  a = %s
  b = %s + 0.5 * %s
  H = H + (a %%*%% t(a) + t(a %%*%% t(a))) / (1 + norm(a)^2)
  v = (a - b + p) / norm(a - b + p)
}
t(v) %%*%% H %%*%% v
`, vectorChain(r), vectorChain(r), vectorChain(r), vectorChain(r))
		var results [2]Result
		for i, re := range []bool{true, false} {
			res, err := Run(context.Background(), src, base, testOptions(re))
			if err != nil {
				t.Fatalf("script %d (re=%v): %v\n%s", k, re, err, src)
			}
			results[i] = res
		}
		for name, v := range results[1].Vars {
			if d := relDiff(results[0].Vars[name], v); !(d <= 1e-9) {
				t.Errorf("script %d: %s differs by %g\n%s", k, name, d, src)
			}
		}
	}
}
