package udf_test

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"testing"
)

// pyEval evaluates expressions with numpy over named inputs: dense inputs
// given as rows, and Matrix Market files read by scipy.
const pyEval = `
import json, sys
import numpy as np, numpy.linalg as la, scipy.io
req = json.load(sys.stdin)
env = {"np": np, "la": la}
for k, v in req["dense"].items():
    env[k] = np.array(v, dtype=float)
for k, p in req["mtx"].items():
    env[k] = scipy.io.mmread(p).toarray().astype(float)
out = []
for e in req["exprs"]:
    r = eval(e, env)
    out.append(np.asarray(r, dtype=float).tolist() if np.ndim(r) else float(r))
print(json.dumps(out))
`

type npCase struct {
	sql string  // an expression over session variables
	py  string  // the same over numpy arrays
	tol float64 // |got-want| <= tol·(1+|want|) element by element
}

// denseInputs are small matrices with the properties the operators need:
// S is symmetric positive definite, P and C have no zeros.
func denseInputs() map[string][][]float64 {
	gen := func(r, c int, f func(i, j int) float64) [][]float64 {
		m := make([][]float64, r)
		for i := range m {
			m[i] = make([]float64, c)
			for j := range m[i] {
				m[i][j] = f(i, j)
			}
		}
		return m
	}
	return map[string][][]float64{
		"A":   gen(4, 3, func(i, j int) float64 { return math.Sin(float64(3*i+j+1)) * 3 }),
		"B":   gen(3, 5, func(i, j int) float64 { return math.Cos(float64(5*i + j)) }),
		"C":   gen(4, 3, func(i, j int) float64 { return 1.5 + float64((i*7+j*3)%5) }),
		"S":   gen(4, 4, func(i, j int) float64 { return 1/float64(i+j+1) + 4*b2f(i == j) }),
		"D":   gen(4, 2, func(i, j int) float64 { return float64(i - 2*j) }),
		"P":   gen(3, 3, func(i, j int) float64 { return 0.25 + float64(i*3+j) }),
		"V":   gen(3, 1, func(i, j int) float64 { return float64(i + 2) }),
		"X51": gen(51, 2, func(i, j int) float64 { return math.Sin(float64(i*2 + j)) }),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestAgainstNumpy checks every MAT_* operator through a client connection
// against numpy on the same dense inputs and on sparse matrices from the
// Matrix Market datasets.
func TestAgainstNumpy(t *testing.T) {
	data := datasets(t)
	s := startServer(t, data)
	dense := denseInputs()
	for name, m := range dense {
		js, _ := json.Marshal(m)
		// A prepared statement with a string argument.
		s.exec(t, "SET @"+name+" = MAT_FROM_JSON(?)", string(js))
	}
	mtx := map[string]string{"W": "west0067", "L": "lp_afiro", "K": "karate"}
	paths := map[string]string{}
	for v, f := range mtx {
		var table string
		var r, c, nnz int64
		if err := s.db.QueryRow(fmt.Sprintf("CALL MAT_IMPORT_MTX('matrices/%s.mtx', '%s')", f, f)).Scan(&table, &r, &c, &nnz); err != nil {
			t.Fatal(err)
		}
		s.exec(t, fmt.Sprintf("SET @%s = MAT_FROM_TRIPLES('SELECT i, j, v FROM %s', %d, %d)", v, f, r, c))
		paths[v] = filepath.Join(data, "matrices", f+".mtx")
	}
	const exact, lu = 1e-13, 1e-9
	cases := []npCase{
		{"MAT_FROM_JSON(MAT_TO_JSON(@A))", "A", 0},
		{"MAT_IDENTITY(4)", "np.eye(4)", 0},
		{"MAT_ZEROS(2, 3)", "np.zeros((2, 3))", 0},
		{"MAT_MUL(@A, @B)", "A @ B", exact},
		{"MAT_T(@A)", "A.T", 0},
		{"MAT_ADD(@A, @C)", "A + C", exact},
		{"MAT_SUB(@A, @C)", "A - C", exact},
		{"MAT_EMUL(@A, @C)", "A * C", exact},
		{"MAT_EDIV(@A, @C)", "A / C", exact},
		{"MAT_SCALE(@A, 2.5)", "2.5 * A", exact},
		{"MAT_INV(@S)", "la.inv(S)", lu},
		{"MAT_SOLVE(@S, @D)", "la.solve(S, D)", lu},
		{"MAT_CHOLESKY(@S)", "la.cholesky(S)", lu},
		{"MAT_NORM(@A)", "la.norm(A, 'fro')", exact},
		{"MAT_NORM(@A, 'fro')", "la.norm(A, 'fro')", exact},
		{"MAT_NORM(@A, '1')", "la.norm(A, 1)", exact},
		{"MAT_NORM(@A, 'inf')", "la.norm(A, np.inf)", exact},
		{"MAT_SUM(@A)", "A.sum()", exact},
		{"MAT_ROW_SUMS(@A)", "A.sum(axis=1, keepdims=True)", exact},
		{"MAT_COL_SUMS(@A)", "A.sum(axis=0, keepdims=True)", exact},
		{"MAT_DIAG(@S)", "np.diag(S).reshape(-1, 1)", 0},
		{"MAT_DIAG(@V)", "np.diag(V.ravel())", 0},
		{"MAT_TRACE(@S)", "np.trace(S)", exact},
		{"MAT_GET(@A, 2, 3)", "A[1, 2]", 0},
		{"MAT_SLICE(@A, 2, 3, 1, 2)", "A[1:3, 0:2]", 0},
		{"MAT_ROWS(@A)", "A.shape[0]", 0},
		{"MAT_COLS(@A)", "A.shape[1]", 0},
		{"MAT_NNZ(MAT_SUB(@A, @A))", "np.count_nonzero(A - A)", 0},
		{"MAT_EXP(@A)", "np.exp(A)", exact},
		{"MAT_LOG(@P)", "np.log(P)", exact},
		{"MAT_SQRT(@P)", "np.sqrt(P)", exact},
		{"MAT_POW(@P, 1.5)", "P ** 1.5", exact},
		{"MAT_POW(@A, 2)", "A ** 2", exact},
		// Sparse operands (CSR) from the Matrix Market files.
		{"MAT_NNZ(@W)", "np.count_nonzero(W)", 0},
		{"MAT_NNZ(@K)", "np.count_nonzero(K)", 0},
		{"MAT_MUL(@W, @W)", "W @ W", exact},
		{"MAT_MUL(@W, MAT_T(@W))", "W @ W.T", exact},
		{"MAT_MUL(@L, @X51)", "L @ X51", exact},
		{"MAT_MUL(MAT_T(@X51), MAT_T(@L))", "X51.T @ L.T", exact},
		{"MAT_ADD(@W, MAT_T(@W))", "W + W.T", exact},
		{"MAT_SUB(@K, MAT_IDENTITY(34))", "K - np.eye(34)", exact},
		{"MAT_EMUL(@W, @W)", "W * W", exact},
		{"MAT_SCALE(@L, -3)", "-3 * L", exact},
		{"MAT_T(@L)", "L.T", 0},
		{"MAT_ROW_SUMS(@K)", "K.sum(axis=1, keepdims=True)", exact},
		{"MAT_COL_SUMS(@L)", "L.sum(axis=0, keepdims=True)", exact},
		{"MAT_SUM(@L)", "L.sum()", exact},
		{"MAT_NORM(@W, '1')", "la.norm(W, 1)", exact},
		{"MAT_NORM(@W, 'inf')", "la.norm(W, np.inf)", exact},
		{"MAT_NORM(@L)", "la.norm(L)", exact},
		{"MAT_DIAG(@W)", "np.diag(W).reshape(-1, 1)", 0},
		{"MAT_TRACE(@W)", "np.trace(W)", exact},
		{"MAT_POW(@K, 2)", "K ** 2", exact},
		{"MAT_SQRT(MAT_EMUL(@W, @W))", "np.abs(W)", exact},
		{"MAT_EXP(MAT_SCALE(@K, 0.1))", "np.exp(0.1 * K)", exact},
		{"MAT_INV(MAT_ADD(@K, MAT_SCALE(MAT_IDENTITY(34), 40)))", "la.inv(K + 40 * np.eye(34))", lu},
		{"MAT_SOLVE(MAT_ADD(@K, MAT_SCALE(MAT_IDENTITY(34), 40)), MAT_SLICE(@K, 1, 34, 1, 3))", "la.solve(K + 40 * np.eye(34), K[:, 0:3])", lu},
		{"MAT_GET(@W, 5, 3)", "W[4, 2]", 0},
		{"MAT_SLICE(@L, 3, 20, 10, 51)", "L[2:20, 9:51]", 0},
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = c.py
	}
	var want []json.RawMessage
	numpy(t, pyEval, map[string]any{"dense": dense, "mtx": paths, "exprs": exprs}, &want)
	for i, c := range cases {
		var wm [][]float64
		if json.Unmarshal(want[i], &wm) == nil {
			got := matrixOf(t, s, c.sql)
			compareMatrix(t, c.sql, got, wm, c.tol)
			continue
		}
		var w float64
		if err := json.Unmarshal(want[i], &w); err != nil {
			t.Fatalf("%s: numpy gave %s", c.py, want[i])
		}
		g := one[float64](t, s, "SELECT "+c.sql)
		if math.Abs(g-w) > c.tol*(1+math.Abs(w)) {
			t.Errorf("%s = %v, numpy %s = %v", c.sql, g, c.py, w)
		}
	}
}

func compareMatrix(t testing.TB, what string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) || len(got) > 0 && len(got[0]) != len(want[0]) {
		t.Errorf("%s: shape %dx%d, want %dx%d", what, len(got), cols(got), len(want), cols(want))
		return
	}
	bad := 0
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); d > tol*(1+math.Abs(want[i][j])) || math.IsNaN(got[i][j]) {
				if bad < 3 {
					t.Errorf("%s: (%d,%d) = %v, want %v", what, i+1, j+1, got[i][j], want[i][j])
				}
				bad++
			}
		}
	}
	if bad > 3 {
		t.Errorf("%s: %d elements differ", what, bad)
	}
}

func cols(m [][]float64) int {
	if len(m) == 0 {
		return 0
	}
	return len(m[0])
}

// TestLargeSparseAgainstScipy multiplies the larger Matrix Market matrices
// by a dense block and compares norms and sampled elements with scipy.
func TestLargeSparseAgainstScipy(t *testing.T) {
	data := datasets(t)
	s := startServer(t, data)
	type res struct {
		Rows, Cols, NNZ int
		Norm, Sum       float64
		Sample          []float64
	}
	for _, f := range []string{"bcsstk13", "pushpull"} {
		var table string
		var r, c, nnz int64
		if err := s.db.QueryRow(fmt.Sprintf("CALL MAT_IMPORT_MTX('%s', '%s')", filepath.Join(data, "matrices", f+".mtx"), f)).Scan(&table, &r, &c, &nnz); err != nil {
			t.Fatal(err)
		}
		s.exec(t, fmt.Sprintf("SET @M = MAT_FROM_TRIPLES('SELECT i, j, v FROM %s', %d, %d)", f, r, c))
		s.exec(t, fmt.Sprintf("SET @X = MAT_RAND(%d, 4, 11)", c))
		x := matrixOf(t, s, "@X")
		s.exec(t, "SET @Y = MAT_MUL(@M, @X)")
		got := res{Rows: int(r), Cols: int(c), NNZ: int(nnz),
			Norm: one[float64](t, s, "SELECT MAT_NORM(@Y)"), Sum: one[float64](t, s, "SELECT MAT_SUM(@Y)")}
		for _, p := range [][2]int{{1, 1}, {int(r), 4}, {int(r) / 2, 2}} {
			got.Sample = append(got.Sample, one[float64](t, s, "SELECT MAT_GET(@Y, ?, ?)", p[0], p[1]))
		}
		var want res
		numpy(t, `
import json, sys
import numpy as np, scipy.io, scipy.sparse as sp
req = json.load(sys.stdin)
m = sp.csr_matrix(scipy.io.mmread(req["path"]))
m.sum_duplicates(); m.eliminate_zeros()
y = m @ np.array(req["x"])
r, c = m.shape
print(json.dumps({"Rows": r, "Cols": c, "NNZ": int(m.nnz), "Norm": float(np.linalg.norm(y)), "Sum": float(y.sum()),
  "Sample": [float(y[0, 0]), float(y[r-1, 3]), float(y[r//2-1, 1])]}))
`, map[string]any{"path": filepath.Join(data, "matrices", f+".mtx"), "x": x}, &want)
		if got.Rows != want.Rows || got.Cols != want.Cols || got.NNZ != want.NNZ {
			t.Errorf("%s: %dx%d nnz %d, scipy %dx%d nnz %d", f, got.Rows, got.Cols, got.NNZ, want.Rows, want.Cols, want.NNZ)
		}
		// Sums over up to ~80 products per row in another order than scipy.
		const tol = 1e-9
		for _, p := range [][2]float64{{got.Norm, want.Norm}, {got.Sum, want.Sum}, {got.Sample[0], want.Sample[0]}, {got.Sample[1], want.Sample[1]}, {got.Sample[2], want.Sample[2]}} {
			if math.Abs(p[0]-p[1]) > tol*(1+math.Abs(p[1])) {
				t.Errorf("%s: %v, scipy %v", f, p[0], p[1])
			}
		}
	}
}
