package optimizer

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlearn/sqlearn/matrix"
)

// testEnv is an Env over maps: session variables, canned query results,
// and what the script printed and saved.
type testEnv struct {
	vars    map[string]*matrix.Matrix
	queries map[string]*matrix.Matrix
	printed []string
	saved   map[string]*matrix.Matrix
}

var _ Env = (*testEnv)(nil)

func newTestEnv() *testEnv {
	return &testEnv{vars: map[string]*matrix.Matrix{}, queries: map[string]*matrix.Matrix{}, saved: map[string]*matrix.Matrix{}}
}

func (e *testEnv) Query(_ context.Context, sql string) (*matrix.Matrix, error) {
	m, ok := e.queries[sql]
	if !ok {
		return nil, fmt.Errorf("no such query %q", sql)
	}
	return m, nil
}

func (e *testEnv) Var(name string) (*matrix.Matrix, bool) { m, ok := e.vars[name]; return m, ok }

func (e *testEnv) Save(_ context.Context, m *matrix.Matrix, table string) error {
	e.saved[table] = m
	return nil
}

func (e *testEnv) Print(line string) { e.printed = append(e.printed, line) }

// leastSquaresEnv binds X (rows x cols, 60% nonzeros, stored dense), a
// target y = X w* + noise and the iteration count.
func leastSquaresEnv(t testing.TB, rows, cols, iters int) *testEnv {
	t.Helper()
	x, err := matrix.Rand(rows, cols, 11, 0.6)
	if err != nil {
		t.Fatal(err)
	}
	if x, err = matrix.ToDense(x); err != nil {
		t.Fatal(err)
	}
	wTrue, _ := matrix.Rand(cols, 1, 12, 1)
	noise, _ := matrix.Rand(rows, 1, 13, 1)
	y, _ := matrix.Mul(x, wTrue)
	y, _ = matrix.Add(y, matrix.Scale(noise, 0.01))
	env := newTestEnv()
	env.vars["X"], env.vars["y"], env.vars["iters"] = x, y, scalar(float64(iters))
	return env
}

func readScript(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "la", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// relDiff is ||a - b|| / max(||a||, ||b||), 0 when both are zero.
func relDiff(a, b *matrix.Matrix) float64 {
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() {
		return math.Inf(1)
	}
	d, _ := matrix.Sub(a, b)
	nd, _ := matrix.Norm(d, "fro")
	na, _ := matrix.Norm(a, "fro")
	nb, _ := matrix.Norm(b, "fro")
	if m := math.Max(na, nb); m > 0 {
		return nd / m
	}
	return nd
}
