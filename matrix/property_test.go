package matrix

import (
	"bytes"
	"fmt"
	"testing"
)

// spd returns a well-conditioned symmetric positive definite n×n matrix.
func spd(t testing.TB, n int, seed int64) *Matrix {
	a := mustRand(t, n, n, seed, 1)
	ata, err := Mul(T(a), a)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := Identity(n)
	out, err := Add(ata, Scale(id, float64(n)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// must unwraps an operation that the test expects to succeed; a failure
// panics, which fails the test with the caller's line in the trace.
func must(m *Matrix, err error) *Matrix {
	if err != nil {
		panic(err)
	}
	return m
}

func TestPropertyTransposeOfProduct(t *testing.T) {
	for seed := range int64(12) {
		r, k, c := 1+int(seed)%7, 3+int(seed)%5, 2+int(seed*3)%9
		for _, da := range []float64{1, 0.3} {
			for _, db := range []float64{1, 0.4} {
				a, b := mustRand(t, r, k, seed, da), mustRand(t, k, c, seed+100, db)
				left := T(must(Mul(a, b)))
				right := must(Mul(T(b), T(a)))
				if d := diffMatrices(left, right, 1e-14); d != "" {
					t.Fatalf("seed %d densities %v,%v: %s", seed, da, db, d)
				}
			}
		}
	}
}

func TestPropertyDenseSparseAgree(t *testing.T) {
	for seed := range int64(6) {
		n, c := 6+int(seed), 4+int(seed)
		s := mustRand(t, n, c, seed, 0.3)
		d := must(ToDense(s))
		other := mustRand(t, n, c, seed+50, 1)
		otherS := mustRand(t, n, c, seed+60, 0.4)
		right := mustRand(t, c, 5, seed+70, 1)
		rightS := mustRand(t, c, 5, seed+80, 0.5)
		check := func(name string, f func(x *Matrix) (*Matrix, error)) {
			t.Helper()
			got, want := must(f(s)), must(f(d))
			if dd := diffMatrices(got, want, 1e-13); dd != "" {
				t.Errorf("seed %d %s: %s", seed, name, dd)
			}
		}
		scalar := func(name string, f func(x *Matrix) (float64, error)) {
			t.Helper()
			got, err1 := f(s)
			want, err2 := f(d)
			if err1 != nil || err2 != nil || !close(got, want, 1e-13) {
				t.Errorf("seed %d %s: %v (%v), want %v (%v)", seed, name, got, err1, want, err2)
			}
		}
		for _, o := range []*Matrix{other, otherS} {
			on := o.Layout().String()
			check("add "+on, func(x *Matrix) (*Matrix, error) { return Add(x, o) })
			check("add rev "+on, func(x *Matrix) (*Matrix, error) { return Add(o, x) })
			check("sub "+on, func(x *Matrix) (*Matrix, error) { return Sub(x, o) })
			check("sub rev "+on, func(x *Matrix) (*Matrix, error) { return Sub(o, x) })
			check("emul "+on, func(x *Matrix) (*Matrix, error) { return EMul(x, o) })
			check("emul rev "+on, func(x *Matrix) (*Matrix, error) { return EMul(o, x) })
		}
		check("ediv", func(x *Matrix) (*Matrix, error) { return EDiv(x, other) })
		check("ediv rev", func(x *Matrix) (*Matrix, error) { return EDiv(other, x) })
		for _, r := range []*Matrix{right, rightS} {
			rn := r.Layout().String()
			check("mul "+rn, func(x *Matrix) (*Matrix, error) { return Mul(x, r) })
			check("mul rev "+rn, func(x *Matrix) (*Matrix, error) { return Mul(T(r), T(x)) })
		}
		check("scale", func(x *Matrix) (*Matrix, error) { return Scale(x, -1.5), nil })
		check("T", func(x *Matrix) (*Matrix, error) { return T(x), nil })
		check("exp", Exp)
		check("log", Log)
		check("sqrt", func(x *Matrix) (*Matrix, error) { return Sqrt(x), nil })
		for _, p := range []float64{2, 0.5, 0, -1} {
			check(fmt.Sprint("pow ", p), func(x *Matrix) (*Matrix, error) { return Pow(x, p) })
		}
		check("rowsums", func(x *Matrix) (*Matrix, error) { return RowSums(x), nil })
		check("colsums", func(x *Matrix) (*Matrix, error) { return ColSums(x), nil })
		check("slice", func(x *Matrix) (*Matrix, error) { return Slice(x, 1, n-1, 2, c) })
		check("diag of column", func(x *Matrix) (*Matrix, error) { return Diag(must(Slice(x, 0, n, 1, 2))) })
		check("diag of square", func(x *Matrix) (*Matrix, error) { return Diag(must(Slice(x, 0, c, 0, c))) })
		for _, kind := range []string{"fro", "1", "inf"} {
			scalar("norm "+kind, func(x *Matrix) (float64, error) { return Norm(x, kind) })
		}
		scalar("sum", func(x *Matrix) (float64, error) { return Sum(x), nil })
		scalar("trace", func(x *Matrix) (float64, error) { return Trace(must(Slice(x, 0, c, 0, c))) })
		scalar("get", func(x *Matrix) (float64, error) { return Get(x, n-1, c-1) })
		scalar("nnz", func(x *Matrix) (float64, error) { return float64(x.NNZ()), nil })

		// Square operands for the factorisations: s·sᵀ plus a diagonal shift.
		id, _ := Identity(n)
		sq := must(Add(must(Mul(s, T(s))), Scale(id, 2)))
		sqd := must(ToDense(sq))
		for name, f := range map[string]func(*Matrix) (*Matrix, error){
			"inv":      Inv,
			"cholesky": Cholesky,
			"solve":    func(x *Matrix) (*Matrix, error) { return Solve(x, must(Slice(other, 0, n, 0, 2))) },
		} {
			got, want := must(f(sq)), must(f(sqd))
			if dd := diffMatrices(got, want, 1e-12); dd != "" {
				t.Errorf("seed %d %s: %s", seed, name, dd)
			}
		}
	}
}

func TestPropertyEncodeRoundTrip(t *testing.T) {
	for seed := range int64(30) {
		r, c := int(seed)%9, int(seed*7)%11
		density := []float64{1, 0.5, 0.1, 0}[seed%4]
		m := mustRand(t, r, c, seed, density)
		b := Encode(m)
		got, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Layout() != m.Layout() || diffMatrices(got, m, 0) != "" || !bytes.Equal(Encode(got), b) {
			t.Fatalf("seed %d: %v did not round-trip", seed, m)
		}
	}
}

func TestPropertyFactorisations(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17, 64, 130} {
		a := must(Add(mustRand(t, n, n, int64(n), 1), Scale(must(Identity(n)), float64(n)/4)))
		id := must(Identity(n))
		inv := must(Inv(a))
		if d := diffMatrices(must(Mul(inv, a)), id, 1e-11); d != "" {
			t.Errorf("n=%d Inv(A)·A: %s", n, d)
		}
		b := mustRand(t, n, 3, int64(n)+1, 1)
		x := must(Solve(a, b))
		res := must(Sub(must(Mul(a, x)), b))
		rn, _ := Norm(res, "fro")
		an, _ := Norm(a, "fro")
		xn, _ := Norm(x, "fro")
		if rel := rn / (an * xn); rel > 1e-14 {
			t.Errorf("n=%d Solve residual %g relative to |A||x|", n, rel)
		}
		p := spd(t, n, int64(n)+2)
		l := must(Cholesky(p))
		if d := diffMatrices(must(Mul(l, T(l))), p, 1e-13); d != "" {
			t.Errorf("n=%d L·Lᵀ: %s", n, d)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if l.at(i, j) != 0 {
					t.Fatalf("n=%d L(%d, %d) = %v above the diagonal", n, i, j, l.at(i, j))
				}
			}
		}
	}
}
