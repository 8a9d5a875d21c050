package optimizer

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// problemFor normalises a straight-line script (or the body of its only
// loop) against env and returns the DP problem the planner would solve.
func problemFor(t *testing.T, src string, env *testEnv) *dpProblem {
	t.Helper()
	prog, err := lang.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	in, err := newInterp(context.Background(), env, testOptions(true), modeRun)
	if err != nil {
		t.Fatal(err)
	}
	stmts := prog.Stmts
	u := &unitPlan{iters: 1}
	for _, s := range prog.Stmts {
		if w, ok := s.(*lang.While); ok {
			stmts, u.loop, u.iters = w.Body, true, 20
		}
	}
	for name, v := range env.vars {
		in.vars[name] = v
	}
	segs := in.collectSegments(stmts, nil)
	assigned := map[string]bool{}
	assignedIn(stmts, assigned)
	norm, _, err := in.normalizeUnit(u, segs, assigned)
	if err != nil {
		t.Fatal(err)
	}
	blocks := collectBlocks(norm, segs)
	cands, ix := search(blocks, u.loop, u.iters, maxCandidates)
	return in.newProblem(blocks, cands, ix, u)
}

// TestDPMatchesExhaustive checks on small chains that the DP's plan costs
// exactly the minimum over every subset of candidates.
func TestDPMatchesExhaustive(t *testing.T) {
	env := leastSquaresEnv(t, 200, 6, 1)
	env.vars["H"], _ = matrix.Identity(6)
	env.vars["d"], _ = matrix.Rand(6, 1, 5, 1)
	scripts := []string{
		"a = t(X) %*% X %*% t(X) %*% X\nb = t(X) %*% X %*% t(X) %*% y",
		"v = t(y) %*% X %*% t(X) %*% y\nu = t(X) %*% y %*% t(y) %*% X",
		// The DFP loop body, with H and d bound as they are at loop entry.
		"while (1 > 0) {\n  d = H %*% t(X) %*% y\n  H = H - (H %*% t(X) %*% X %*% d %*% t(d) %*% t(X) %*% X %*% H) / " +
			"(t(d) %*% t(X) %*% X %*% H %*% t(X) %*% X %*% d) + (d %*% t(d)) / (2 * t(d) %*% t(X) %*% X %*% d)\n}",
		"while (1 > 0) {\n  g = t(X) %*% X %*% t(X) %*% y\n  h = t(y) %*% X %*% t(X) %*% X\n}",
	}
	// Random chains over X (200x6), y (200x1) and their transposes.
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 12; k++ {
		src := ""
		for s := 0; s < 2; s++ {
			src += fmt.Sprintf("v%d = %s\n", s, randomChain(r, 3+r.IntN(4)))
		}
		scripts = append(scripts, src)
	}
	for _, src := range scripts {
		p := problemFor(t, src, env)
		if len(p.cands) > 16 {
			t.Fatalf("too many candidates (%d) for an exhaustive check of %q", len(p.cands), src)
		}
		got := p.solve().cost
		want := p.exhaustive()
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("DP cost %g, exhaustive minimum %g, for\n%s", got, want, src)
		}
	}
}

// randomChain writes a conformable chain of n factors starting and ending
// with a 6-wide side, e.g. t(X) %*% y %*% t(y) %*% X.
func randomChain(r *rand.Rand, n int) string {
	// Factors by (rows, cols) in {200, 6, 1}: X 200x6, y 200x1.
	type f struct {
		text       string
		rows, cols int
	}
	all := []f{{"X", 200, 6}, {"t(X)", 6, 200}, {"y", 200, 1}, {"t(y)", 1, 200}}
	cur := 6
	out := ""
	for i := 0; i < n; i++ {
		var opts []f
		for _, c := range all {
			if c.rows == cur {
				opts = append(opts, c)
			}
		}
		c := opts[r.IntN(len(opts))]
		if i == 0 {
			c = all[1] // t(X), so the chain starts 6 wide
			if r.IntN(2) == 0 {
				c = f{"t(X) %*% y", 6, 1}
			}
		}
		if out != "" {
			out += " %*% "
		}
		out += c.text
		cur = c.cols
	}
	return out
}
