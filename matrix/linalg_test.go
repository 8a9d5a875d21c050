package matrix

import (
	"errors"
	"testing"
)

func TestInvSolveCholesky(t *testing.T) {
	a := [][]float64{{4, 7}, {2, 6}}
	for name, x := range layouts(mustRows(t, a)) {
		t.Run(name, func(t *testing.T) {
			inv, err := Inv(x)
			if err != nil {
				t.Fatal(err)
			}
			assertMatrix(t, inv, mustRows(t, [][]float64{{0.6, -0.7}, {-0.2, 0.4}}), 1e-14)
			for bn, b := range layouts(mustRows(t, [][]float64{{1, 0}, {2, 1}})) {
				sol, err := Solve(x, b)
				if err != nil {
					t.Fatal(bn, err)
				}
				// x = A⁻¹ b = [[0.6-1.4, -0.7], [-0.2+0.8, 0.4]]
				assertMatrix(t, sol, mustRows(t, [][]float64{{-0.8, -0.7}, {0.6, 0.4}}), 1e-14)
			}
		})
	}
	spd := [][]float64{{4, 12, -16}, {12, 37, -43}, {-16, -43, 98}}
	for name, x := range layouts(mustRows(t, spd)) {
		l, err := Cholesky(x)
		if err != nil {
			t.Fatal(name, err)
		}
		assertMatrix(t, l, mustRows(t, [][]float64{{2, 0, 0}, {6, 1, 0}, {-8, 5, 3}}), 1e-14)
	}
}

func TestLinalgErrors(t *testing.T) {
	singular := mustRows(t, [][]float64{{1, 2}, {2, 4}})
	nearly := mustRows(t, [][]float64{{1, 1}, {1, 1 + 1e-17}})
	rect := denseLike(2, 3)
	b3 := denseLike(3, 1)
	notPD := mustRows(t, [][]float64{{1, 2}, {2, 1}})
	asym := mustRows(t, [][]float64{{4, 1}, {0, 4}})
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"inv singular", second(Inv(singular)), ErrSingular},
		{"inv sparse singular", second(Inv(ToCSR(singular))), ErrSingular},
		{"inv nearly singular", second(Inv(nearly)), ErrSingular},
		{"solve singular", second(Solve(singular, denseLike(2, 1))), ErrSingular},
		{"inv rect", second(Inv(rect)), ErrNotSquare},
		{"solve rect", second(Solve(rect, b3)), ErrNotSquare},
		{"solve shapes", second(Solve(singular, b3)), ErrShapeMismatch},
		{"cholesky rect", second(Cholesky(rect)), ErrNotSquare},
		{"cholesky indefinite", second(Cholesky(notPD)), ErrNotPositiveDefinite},
		{"cholesky asymmetric", second(Cholesky(asym)), ErrNotPositiveDefinite},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
	if _, err := Solve(singular, b3); err.Error() != "matrix: shape mismatch: SOLVE 2x2 by 3x1" {
		t.Errorf("message %q", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestEmptyLinalg(t *testing.T) {
	e := denseLike(0, 0)
	if inv, err := Inv(e); err != nil || inv.Rows() != 0 {
		t.Errorf("Inv(0x0) = %v, %v", inv, err)
	}
	if l, err := Cholesky(e); err != nil || l.Rows() != 0 {
		t.Errorf("Cholesky(0x0) = %v, %v", l, err)
	}
}
