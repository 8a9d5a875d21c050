package matrix

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// datasetsDir finds the shared datasets: $SQLEARN_DATASETS, or the
// datasets folder beside the checkout (../shared/datasets from the
// repository root). Missing data fails the test in CI and skips it
// elsewhere.
func datasetsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SQLEARN_DATASETS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "datasets")
	}
	if _, err := os.Stat(filepath.Join(dir, "matrices")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("datasets not found at %s (set SQLEARN_DATASETS): %v", dir, err)
		}
		t.Skipf("datasets not found at %s (set SQLEARN_DATASETS)", dir)
	}
	return dir
}

func readMatrixFile(t testing.TB, name string) (*Matrix, error) {
	t.Helper()
	f, err := os.Open(filepath.Join(datasetsDir(t), "matrices", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return ReadMatrixMarket(f)
}

func TestReadMatrixMarketDatasets(t *testing.T) {
	// Shapes, nonzero counts and sums as scipy.io.mmread reports them
	// (after eliminate_zeros); sums differ in the last digits where the
	// summation order differs.
	cases := []struct {
		file       string
		rows, cols int
		nnz        int
		sum        float64
	}{
		{"bcsstk13.mtx", 2003, 2003, 83883, 30220739908119.46},
		{"cryg2500.mtx", 2500, 2500, 12349, -13508.421748371338},
		{"empty.mtx", 3, 4, 0, 0},
		{"jagmesh7.mtx", 1138, 1138, 7450, 7450},
		{"karate.mtx", 34, 34, 156, 156},
		{"lp_afiro.mtx", 27, 51, 102, 44.37},
		{"matrix_fp64.mtx", 7, 7, 11, math.NaN()},
		{"olm1000.mtx", 1000, 1000, 3996, -48513.386879999074},
		{"pushpull.mtx", 4000, 4000, 196305, 196305},
		{"west0067.mtx", 67, 67, 294, 34.3087486},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			m, err := readMatrixFile(t, c.file)
			if err != nil {
				t.Fatal(err)
			}
			if m.Rows() != c.rows || m.Cols() != c.cols || m.NNZ() != c.nnz || m.Layout() != LayoutCSR {
				t.Fatalf("got %v with %d nonzeros, want %dx%d with %d", m, m.NNZ(), c.rows, c.cols, c.nnz)
			}
			if got := Sum(m); !close(got, c.sum, 1e-9) {
				t.Errorf("sum %v, want %v", got, c.sum)
			}
		})
	}
}

func TestReadMatrixMarketMangled(t *testing.T) {
	cases := map[string]string{
		"mangled1.mtx":       `object "mangled" is not supported`,
		"mangled2.mtx":       `unknown format "mangled"`,
		"mangled3.mtx":       `unknown field "mangled"`,
		"mangled_format.mtx": "field pattern is invalid with format array",
	}
	for file, want := range cases {
		m, err := readMatrixFile(t, file)
		if !errors.Is(err, ErrMatrixMarket) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, %v; want an error containing %q", file, m, err, want)
		}
	}
}

func TestReadMatrixMarketInline(t *testing.T) {
	ok := []struct {
		name, in string
		want     [][]float64
	}{
		{"array column-major", "%%MatrixMarket matrix array real general\n% c\n2 3\n1\n2\n3\n4\n5\n6\n",
			[][]float64{{1, 3, 5}, {2, 4, 6}}},
		{"array integer", "%%MatrixMarket matrix array integer general\n1 2\n7\n-8\n", [][]float64{{7, -8}}},
		{"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n",
			[][]float64{{0, -3}, {3, 0}}},
		{"symmetric", "%%MATRIXMARKET Matrix Coordinate Real Symmetric\n2 2 2\n1 1 1\n2 1 2\n",
			[][]float64{{1, 2}, {2, 0}}},
		{"duplicates and blank lines", "%%MatrixMarket matrix coordinate integer general\n\n2 2 3\n1 2 1\n\n1 2 4\n2 2 -1\n",
			[][]float64{{0, 5}, {0, -1}}},
	}
	for _, c := range ok {
		m, err := ReadMatrixMarket(strings.NewReader(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if d := diffMatrices(m, mustRows(t, c.want), 0); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
	}
	bad := []struct{ in, want string }{
		{"", "empty input"},
		{"%%MatrixMarket tensor coordinate real general\n1 1 0\n", `object "tensor"`},
		{"%%MatrixMarket matrix coordinate complex general\n1 1 0\n", "complex"},
		{"%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", "hermitian"},
		{"%%MatrixMarket matrix array real symmetric\n1 1\n1\n", "only general array"},
		{"%%MatrixMarket matrix coordinate real general\n", "want the size line"},
		{"%%MatrixMarket matrix coordinate real general\n2 2\n", "size line has 2 fields"},
		{"%%MatrixMarket matrix coordinate real general\n2 -2 1\n", "not a non-negative integer"},
		{"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", "unexpected end of input after line 3, want the entry 2 of 2"},
		{"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", "line 4: more entries"},
		{"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", "outside 2x2"},
		{"%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n", "outside 2x2"},
		{"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n", `"x" is not a number`},
		{"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", "entry has 3 fields, want 2"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", "must be square"},
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", "nonzero diagonal"},
		{"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", "value 4 of 4"},
		{"%%MatrixMarket matrix array real general\n1 1\n1 2\n", "want one value"},
		{"%%MatrixMarket matrix coordinate real general\n1000000 1000000 99999999999\n", "too large"},
		{"%%MatrixMarket matrix array real general\n1000000 1000000\n", "too large"},
	}
	for _, c := range bad {
		_, err := ReadMatrixMarket(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}
