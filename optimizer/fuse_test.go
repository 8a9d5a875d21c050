package optimizer

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// runFused runs a script with element-wise fusion on or off and returns
// its variables, its value and how many kernels were fused.
func runFused(t *testing.T, src string, env Env, fuse bool) (Result, int) {
	t.Helper()
	opts := testOptions(true)
	opts.ElementwiseFusion = fuse
	// Full evaluation every iteration: hybrid evaluation chooses by
	// measured times, so two runs of a loop may take different (equally
	// exact to the tolerance, not bit for bit equal) paths.
	opts.IterationMode = hybrid.ModeFull
	prog, err := lang.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	in, err := newInterp(context.Background(), env, opts, modeRun)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.run(prog); err != nil {
		t.Fatal(err)
	}
	return in.result(), in.fusedKernels
}

func sameBits(t *testing.T, what string, a, b *matrix.Matrix) {
	t.Helper()
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() {
		t.Fatalf("%s: %dx%d fused, %dx%d unfused", what, a.Rows(), a.Cols(), b.Rows(), b.Cols())
	}
	for i := range a.Rows() {
		for j := range a.Cols() {
			x, _ := matrix.Get(a, i, j)
			y, _ := matrix.Get(b, i, j)
			if math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("%s[%d,%d]: %v fused, %v unfused", what, i, j, x, y)
			}
		}
	}
}

// TestFusionIsExact runs scripts with element-wise fusion on and off and
// requires every variable to be the same bit for bit, and the fused runs
// to have fused something where the scripts have element-wise trees.
func TestFusionIsExact(t *testing.T) {
	pagerank, err := os.ReadFile(filepath.Join("..", "udf", "pagerank.la"))
	if err != nil {
		t.Fatal(err)
	}
	// A random graph's transition matrix, dangling vertices included:
	// column j holds 1/outdeg(j) at each of j's out-edges.
	const n, edges = 40000, 300000
	rng := rand.New(rand.NewPCG(7, 8))
	is, js := make([]int, edges), make([]int, edges)
	outdeg := make([]int, n)
	for k := range is {
		is[k], js[k] = rng.IntN(n), rng.IntN(n/2) // vertices past n/2 dangle
		outdeg[js[k]]++
	}
	vals := make([]float64, edges)
	for k, j := range js {
		vals[k] = 1 / float64(outdeg[j])
	}
	mt, err := matrix.FromTriples(n, n, is, js, vals)
	if err != nil {
		t.Fatal(err)
	}
	d := make([]float64, n)
	for j, c := range outdeg {
		if c == 0 {
			d[j] = 1
		}
	}
	dm, _ := matrix.NewDense(n, 1, d)
	prEnv := Inputs{"M": mt, "D": dm, "damping": scalarM(0.85), "tol": scalarM(1e-10), "max_iterations": scalarM(100)}

	special := `
X = @X
y = @y
a = X %*% (t(X) %*% y)
b = 2 - a / 3 + -a * 0.5
c = abs(b - 1) / (1 + abs(a))
d = sqrt(abs(c)) * 4 / 2 - 7 / (a + 9)
e = (a + 1) * (a + 1) + (a + 1)
f = sum(abs(d - c)) + sum(e * 0.25)
g = 3 * (2 - 5) + a * (4 / 8)
`
	cases := []struct {
		name   string
		src    string
		env    Env
		fusion bool
	}{
		{"pagerank.la", string(pagerank), prEnv, true},
		{"special cases", special, leastSquaresEnv(t, 300, 8, 5), true},
	}
	for _, name := range []string{"gd.la", "dfp.la", "bfgs.la", "elementwise.la", "power.la"} {
		iters := 30
		if name == "power.la" {
			iters = 8
		}
		cases = append(cases, struct {
			name   string
			src    string
			env    Env
			fusion bool
		}{name, readScript(t, name), leastSquaresEnv(t, 300, 8, iters), false})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			on, kernels := runFused(t, c.src, c.env, true)
			off, none := runFused(t, c.src, c.env, false)
			if none != 0 {
				t.Fatalf("%d kernels fused with fusion off", none)
			}
			if c.fusion && kernels == 0 {
				t.Fatal("nothing was fused")
			}
			for name, v := range off.Vars {
				w, ok := on.Vars[name]
				if !ok {
					t.Fatalf("%s missing with fusion on", name)
				}
				sameBits(t, name, w, v)
			}
			if off.Value != nil {
				sameBits(t, "value", on.Value, off.Value)
			}
		})
	}
}

// TestFusionKeepsErrors checks that a shape mismatch inside a fusable tree
// fails as it does without fusion.
func TestFusionKeepsErrors(t *testing.T) {
	src := "X = @X\ny = @y\nz = (X + 1) * 2 + (y - 1)\n"
	var msgs []string
	for _, fuse := range []bool{true, false} {
		opts := testOptions(true)
		opts.ElementwiseFusion = fuse
		_, err := Run(context.Background(), src, leastSquaresEnv(t, 30, 4, 1), opts)
		if err == nil {
			t.Fatalf("fusion %v: a 30x4 plus a 30x1 was accepted", fuse)
		}
		msgs = append(msgs, err.Error())
	}
	if msgs[0] != msgs[1] || !strings.Contains(msgs[0], "4") {
		t.Fatalf("errors differ: %q fused, %q unfused", msgs[0], msgs[1])
	}
}

func scalarM(v float64) *matrix.Matrix { return scalar(v) }

// TestKernelOpsMatchElementwise holds each kernel operator, with 1x1
// operands on either side, to what the unfused operators give, bit for
// bit, on values where x/y and x·(1/y) differ.
func TestKernelOpsMatchElementwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 257
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = rng.NormFloat64()*1e3, rng.NormFloat64()+0.1
	}
	x, _ := matrix.NewDense(n, 1, xs)
	y, _ := matrix.NewDense(n, 1, ys)
	s := 3.0 // 1/3 is inexact
	leafOf := func(m *matrix.Matrix) *kern {
		if isScalar(m) {
			v, _ := scalarOf(m)
			return &kern{scalar: true, s: v}
		}
		vals, _ := m.DenseValues()
		return &kern{vals: vals}
	}
	run := func(k *kern) *matrix.Matrix {
		k.id = 0
		out := make([]float64, n)
		runKernel(k, 1, out)
		m, _ := matrix.NewDense(n, 1, out)
		return m
	}
	for _, op := range []opKind{opAdd, opSub, opEMul, opEDiv} {
		for _, pair := range [][2]*matrix.Matrix{{x, y}, {x, scalar(s)}, {scalar(s), y}} {
			want, err := elementwise(op, pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			got := run(&kern{op: op, kids: []*kern{leafOf(pair[0]), leafOf(pair[1])}})
			sameBits(t, opNames[op], got, want)
		}
	}
	sameBits(t, "neg", run(&kern{op: opNeg, kids: []*kern{leafOf(x)}}), matrix.Scale(x, -1))
	sameBits(t, "scale", run(&kern{op: opScale, s: 1 / s, kids: []*kern{leafOf(x)}}), matrix.Scale(x, 1/s))
	sameBits(t, "abs", run(&kern{op: opCall, name: "abs", kids: []*kern{leafOf(x)}}), matrix.Abs(x))
	sameBits(t, "sqrt", run(&kern{op: opCall, name: "sqrt", kids: []*kern{leafOf(y)}}), matrix.Sqrt(y))
}
