package matrix

import (
	"fmt"
	"math"
	"testing"
)

func mustRows(t testing.TB, rows [][]float64) *Matrix {
	t.Helper()
	m, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sparse(t testing.TB, rows [][]float64) *Matrix { return ToCSR(mustRows(t, rows)) }

func mustRand(t testing.TB, r, c int, seed int64, density float64) *Matrix {
	t.Helper()
	m, err := Rand(r, c, seed, density)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diffMatrices describes the first element where a and b differ by more
// than tol relative to the larger magnitude (absolute below 1), or "".
func diffMatrices(a, b *Matrix, tol float64) string {
	if a.rows != b.rows || a.cols != b.cols {
		return fmt.Sprintf("shape %s, want %s", shape(a), shape(b))
	}
	for i := range a.rows {
		for j := range a.cols {
			x, y := a.at(i, j), b.at(i, j)
			if !close(x, y, tol) {
				return fmt.Sprintf("(%d, %d) = %v, want %v", i, j, x, y)
			}
		}
	}
	return ""
}

func close(x, y, tol float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	if x == y {
		return true
	}
	return math.Abs(x-y) <= tol*max(1, math.Abs(x), math.Abs(y))
}

func assertMatrix(t testing.TB, got, want *Matrix, tol float64) {
	t.Helper()
	if d := diffMatrices(got, want, tol); d != "" {
		t.Fatal(d)
	}
}
