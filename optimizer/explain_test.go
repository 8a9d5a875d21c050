package optimizer

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden EXPLAIN files in testdata/la")

// TestExplainGolden compares EXPLAIN of the least-squares scripts, on a
// 2000x47 input with the fixed cost model, against files in testdata/la.
func TestExplainGolden(t *testing.T) {
	for _, name := range []string{"gd", "dfp", "bfgs", "chain"} {
		t.Run(name, func(t *testing.T) {
			iters := 200
			if name != "gd" {
				iters = 50
			}
			env := leastSquaresEnv(t, 2000, 47, iters)
			x, err := Explain(context.Background(), readScript(t, name+".la"), env, testOptions(true), false)
			if err != nil {
				t.Fatal(err)
			}
			got := x.Text()
			path := filepath.Join("..", "testdata", "la", name+".explain")
			if *rewrite {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -rewrite to create it)", err)
			}
			if got != string(want) {
				t.Errorf("EXPLAIN differs from %s (run with -rewrite to accept):\n%s", path, got)
			}
		})
	}
}

func TestExplainFindsReMacRedundancies(t *testing.T) {
	env := leastSquaresEnv(t, 2000, 47, 50)
	for name, want := range map[string][]string{
		"gd": {"t(X) %*% X [47x47] loop constant", "t(X) %*% y [47x1] loop constant"},
		// X'X d is found as its transpose d'X'X, and H X'X as X'X H (H is
		// proven symmetric), each with occurrences in both orientations.
		"dfp": {"t(X) %*% X [47x47] loop constant", "t(d) %*% t(X) %*% X [1x47] common subexpression",
			"t(X) %*% X %*% H [47x47] common subexpression", "(2 transposed)"},
		"bfgs": {"t(X) %*% X [47x47] loop constant", "t(d) %*% t(X) %*% X [1x47] common subexpression",
			"t(d) %*% t(X) %*% X %*% d [1x1] common subexpression", "t(X) %*% X %*% H [47x47] common subexpression"},
	} {
		x, err := Explain(context.Background(), readScript(t, name+".la"), env, testOptions(true), false)
		if err != nil {
			t.Fatal(err)
		}
		text := x.Text()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: EXPLAIN lacks %q", name, w)
			}
		}
		if !strings.Contains(text, "hoisted") || !strings.Contains(text, "rewritten") {
			t.Errorf("%s: nothing hoisted or rewritten:\n%s", name, text)
		}
	}
}
