package matrix

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// referenceScript computes with numpy (and scipy for Matrix Market files)
// what the Go test computes with this package. Inputs and outputs are JSON
// arrays of rows; scalars are returned as 1×1 matrices.
const referenceScript = `
import json, sys
import numpy as np
inp = json.load(open(sys.argv[1]))
A, B, P, S, X, b = (np.array(inp[k], dtype=float) for k in ("A", "B", "P", "S", "X", "b"))
out = {
    "mul": A @ B,
    "sparse_mul": S @ X,
    "mul_sparse": X.T @ S.T,
    "T": B.T,
    "add": A + P,
    "sub": A - P,
    "emul": A * P,
    "ediv": A / P,
    "scale": 2.5 * A,
    "inv": np.linalg.inv(A),
    "solve": np.linalg.solve(A, b),
    "cholesky": np.linalg.cholesky(P),
    "norm_fro": np.linalg.norm(A, "fro"),
    "norm_1": np.linalg.norm(A, 1),
    "norm_inf": np.linalg.norm(A, np.inf),
    "sum": A.sum(),
    "row_sums": A.sum(axis=1, keepdims=True),
    "col_sums": A.sum(axis=0, keepdims=True),
    "diag": np.diag(A).reshape(-1, 1),
    "trace": np.trace(A),
    "exp": np.exp(S),
    "log": np.log(P),
    "sqrt": np.sqrt(P),
    "pow": np.power(P, 1.7),
}
if len(sys.argv) > 3:
    import scipy.io
    M = scipy.io.mmread(sys.argv[3]).tocsr()
    out["mtx_mul"] = M @ X[: M.shape[1], :]
json.dump({k: np.atleast_2d(np.asarray(v, dtype=float)).tolist() for k, v in out.items()}, open(sys.argv[2], "w"))
`

// pythonWithNumpy returns a Python that can import numpy: Debian's
// /usr/bin/python3 when present (a python3 earlier on PATH may be a
// version-manager shim without numpy), else python3 from PATH.
func pythonWithNumpy(t *testing.T) string {
	t.Helper()
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	for _, py := range candidates {
		if exec.Command(py, "-c", "import numpy").Run() == nil {
			return py
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("the numpy reference test needs python3 with numpy (Debian: apt-get install python3-numpy python3-scipy)")
	}
	t.Skip("python3 with numpy not found; install python3-numpy to compare against numpy")
	return ""
}

func TestAgainstNumpy(t *testing.T) {
	py := pythonWithNumpy(t)
	const n = 60
	a := must(Add(mustRand(t, n, n, 1, 1), Scale(must(Identity(n)), 4)))
	inputs := map[string]*Matrix{
		"A": a,
		"B": mustRand(t, n, 35, 2, 1),
		"P": spd(t, n, 3),
		"S": mustRand(t, n, 67, 4, 0.05),
		"X": mustRand(t, 67, 47, 5, 1),
		"b": mustRand(t, n, 2, 6, 1),
	}
	in := map[string]json.RawMessage{}
	for k, m := range inputs {
		in[k] = json.RawMessage(ToJSON(m))
	}
	dir := t.TempDir()
	inPath, outPath, script := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json"), filepath.Join(dir, "ref.py")
	blob, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inPath, blob, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(referenceScript), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{script, inPath, outPath}
	var mtx *Matrix
	if exec.Command(py, "-c", "import scipy").Run() == nil {
		if _, err := os.Stat(filepath.Join(datasetsDir(t), "matrices")); err == nil {
			name := filepath.Join(datasetsDir(t), "matrices", "west0067.mtx")
			args = append(args, name)
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			mtx, err = ReadMatrixMarket(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", py, err, out)
	}
	var ref map[string]json.RawMessage
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}

	A, B, P, S, X := inputs["A"], inputs["B"], inputs["P"], inputs["S"], inputs["X"]
	scalar := func(v float64, err error) *Matrix {
		if err != nil {
			t.Fatal(err)
		}
		return mustRows(t, [][]float64{{v}})
	}
	// Tolerances are relative: element-wise work differs from numpy at most
	// in the last bit or two, sums and products by rounding in a different
	// order, and inverses and solves by that error times the condition
	// number, which the diagonal shift keeps small.
	const elementwise, products, solves = 1e-15, 1e-13, 1e-11
	checks := []struct {
		name string
		got  *Matrix
		tol  float64
	}{
		{"mul", must(Mul(A, B)), products},
		{"sparse_mul", must(Mul(S, X)), products},
		{"mul_sparse", must(Mul(T(X), T(S))), products},
		{"T", T(B), 0},
		{"add", must(Add(A, P)), elementwise},
		{"sub", must(Sub(A, P)), elementwise},
		{"emul", must(EMul(A, P)), elementwise},
		{"ediv", must(EDiv(A, P)), elementwise},
		{"scale", Scale(A, 2.5), elementwise},
		{"inv", must(Inv(A)), solves},
		{"solve", must(Solve(A, inputs["b"])), solves},
		{"cholesky", must(Cholesky(P)), solves},
		{"norm_fro", scalar(Norm(A, "fro")), products},
		{"norm_1", scalar(Norm(A, "1")), products},
		{"norm_inf", scalar(Norm(A, "inf")), products},
		{"sum", scalar(Sum(A), nil), products},
		{"row_sums", RowSums(A), products},
		{"col_sums", ColSums(A), products},
		{"diag", must(Diag(A)), 0},
		{"trace", scalar(Trace(A)), products},
		{"exp", must(Exp(S)), 2 * elementwise},
		{"log", must(Log(P)), 2 * elementwise},
		{"sqrt", Sqrt(P), elementwise},
		{"pow", must(Pow(P, 1.7)), 2 * elementwise},
	}
	if mtx != nil {
		checks = append(checks, struct {
			name string
			got  *Matrix
			tol  float64
		}{"mtx_mul", must(Mul(mtx, must(Slice(X, 0, mtx.Cols(), 0, X.Cols())))), products})
	}
	for _, c := range checks {
		want, err := FromJSON(string(ref[c.name]))
		if err != nil {
			t.Fatalf("%s: numpy output: %v", c.name, err)
		}
		if d := diffMatrices(c.got, want, c.tol); d != "" {
			t.Errorf("%s differs from numpy (tolerance %g): %s", c.name, c.tol, d)
		}
	}
	if len(checks) != len(ref) {
		t.Errorf("compared %d results, numpy produced %d", len(checks), len(ref))
	}
	if strings.Contains(string(raw), "NaN") {
		t.Error("numpy produced NaN; the inputs are meant to avoid it")
	}
}
