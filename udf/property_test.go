package udf_test

import (
	"bytes"
	"testing"

	"github.com/sqlearn/sqlearn/udf"
)

// TestTransposeOfProduct checks (AB)ᵀ = BᵀAᵀ through SQL for dense, sparse
// and mixed operands of several shapes.
func TestTransposeOfProduct(t *testing.T) {
	s := startServer(t, "")
	for seed := 1; seed <= 6; seed++ {
		r, k, c := 3+seed, 2+2*seed, 5+seed%3
		da, db := 1.0, 1.0
		if seed%2 == 0 {
			da = 0.3
		}
		if seed%3 == 0 {
			db = 0.2
		}
		s.exec(t, "SET @A = MAT_RAND(?, ?, ?, ?), @B = MAT_RAND(?, ?, ?, ?)", r, k, seed, da, k, c, seed+100, db)
		left := matrixOf(t, s, "MAT_T(MAT_MUL(@A, @B))")
		right := matrixOf(t, s, "MAT_MUL(MAT_T(@B), MAT_T(@A))")
		compareMatrix(t, "(AB)ᵀ vs BᵀAᵀ", left, right, 1e-14)
	}
}

// TestDenseSparseAgree runs each operator on a sparse matrix and on its
// dense copy (MAT_FROM_JSON(MAT_TO_JSON(m)) is dense) and wants the same
// values.
func TestDenseSparseAgree(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "SET @S = MAT_RAND(30, 30, 5, 0.1), @T = MAT_RAND(30, 30, 6, 0.15)")
	s.exec(t, "SET @SD = MAT_FROM_JSON(MAT_TO_JSON(@S)), @TD = MAT_FROM_JSON(MAT_TO_JSON(@T))")
	for _, op := range []string{
		"MAT_MUL(%s, %s)", "MAT_ADD(%s, %s)", "MAT_SUB(%s, %s)", "MAT_EMUL(%s, %s)",
		"MAT_T(%s)", "MAT_SCALE(%s, -2)", "MAT_SQRT(%s)", "MAT_POW(%s, 3)", "MAT_EXP(%s)",
		"MAT_ROW_SUMS(%s)", "MAT_COL_SUMS(%s)", "MAT_DIAG(%s)", "MAT_SLICE(%s, 3, 17, 2, 30)",
	} {
		sparse := sprintfOp(op, "@S", "@T")
		dense := sprintfOp(op, "@SD", "@TD")
		compareMatrix(t, sparse, matrixOf(t, s, sparse), matrixOf(t, s, dense), 1e-14)
	}
	for _, op := range []string{"MAT_SUM(%s)", "MAT_NORM(%s)", "MAT_NORM(%s, '1')", "MAT_NORM(%s, 'inf')", "MAT_TRACE(%s)", "MAT_NNZ(%s)", "MAT_GET(%s, 4, 9)"} {
		a := one[float64](t, s, "SELECT "+sprintfOp(op, "@S", ""))
		b := one[float64](t, s, "SELECT "+sprintfOp(op, "@SD", ""))
		if diff := a - b; diff > 1e-12 || diff < -1e-12 {
			t.Errorf("%s: sparse %v, dense %v", op, a, b)
		}
	}
	// Mixed: sparse by dense.
	compareMatrix(t, "sparse·dense", matrixOf(t, s, "MAT_MUL(@S, @TD)"), matrixOf(t, s, "MAT_MUL(@SD, @TD)"), 1e-14)
}

func sprintfOp(op, a, b string) string {
	out := []byte{}
	args := []string{a, b}
	n := 0
	for i := 0; i < len(op); i++ {
		if op[i] == '%' && i+1 < len(op) && op[i+1] == 's' {
			out = append(out, args[n]...)
			n++
			i++
			continue
		}
		out = append(out, op[i])
	}
	return string(out)
}

// TestBlobColumnRoundTrip stores matrices in a LONGBLOB column, from a
// function and from a prepared-statement parameter, and reads back the
// same bytes.
func TestBlobColumnRoundTrip(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "CREATE TABLE mats (id INT PRIMARY KEY, m LONGBLOB)")
	for i, expr := range []string{"MAT_RAND(40, 7, 3)", "MAT_RAND(50, 60, 4, 0.05)", "MAT_IDENTITY(9)", "MAT_FROM_JSON('[[1.5, -2], [1e-300, 3e300]]')"} {
		want := one[[]byte](t, s, "SELECT "+expr)
		s.exec(t, "INSERT INTO mats VALUES (?, "+expr+")", 2*i)
		s.exec(t, "INSERT INTO mats VALUES (?, ?)", 2*i+1, want)
		for _, id := range []int{2 * i, 2*i + 1} {
			got := one[[]byte](t, s, "SELECT m FROM mats WHERE id = ?", id)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: row %d holds %d bytes that differ from the %d written", expr, id, len(got), len(want))
			}
		}
		compareMatrix(t, expr, matrixOf(t, s, "(SELECT m FROM mats WHERE id = ?)", 2*i+1), matrixOf(t, s, expr), 0)
	}
	// Functions read the stored column directly.
	if n := one[int64](t, s, "SELECT MAT_ROWS(m) FROM mats WHERE id = 0"); n != 40 {
		t.Errorf("MAT_ROWS of stored matrix = %d", n)
	}
}

// TestFromQuery covers both read paths of MAT_FROM_QUERY and
// MAT_FROM_TRIPLES: the columnar scan, and the engine for anything else.
// They must agree, in primary-key order when asked, across sealed batches,
// deleted rows and the mutable tail.
func TestFromQuery(t *testing.T) {
	s := startServer(t, "")
	// 20,000 rows fill several sealed batches per partition.
	s.exec(t, "SET @R = MAT_RAND(20000, 3, 9)")
	s.exec(t, "CALL MAT_SAVE(@R, 'big', 'dense')")
	s.exec(t, "DELETE FROM big WHERE i % 7 = 0")
	s.exec(t, "INSERT INTO big VALUES (20001, 1, 2, 3), (20002, 4, 5, 6)")
	before := udf.FastScans()
	fast := matrixOf(t, s, "MAT_FROM_QUERY('SELECT c1, c2, c3 FROM big ORDER BY i')")
	if udf.FastScans() != before+1 {
		t.Fatalf("a plain ordered scan did not take the columnar path")
	}
	slow := matrixOf(t, s, "MAT_FROM_QUERY('SELECT c1, c2, c3 FROM big WHERE i > 0 ORDER BY i')")
	if udf.FastScans() != before+1 {
		t.Fatalf("a filtered query took the columnar path")
	}
	if len(fast) != 20002-20000/7 {
		t.Fatalf("%d rows", len(fast))
	}
	compareMatrix(t, "columnar vs engine", fast, slow, 0)
	// The order is the key order: row 1 is i=1, and the last two rows are
	// the ones inserted last.
	if fast[len(fast)-1][2] != 6 || fast[len(fast)-2][0] != 1 {
		t.Errorf("last rows %v %v", fast[len(fast)-2], fast[len(fast)-1])
	}
	want := matrixOf(t, s, "MAT_SLICE(@R, 1, 6, 1, 3)")
	compareMatrix(t, "first rows", fast[:6], want, 0)
	// Without ORDER BY both paths give the engine's order, which for a
	// table this size is the key order.
	unordered := matrixOf(t, s, "MAT_FROM_QUERY('SELECT c1, c2, c3 FROM big')")
	compareMatrix(t, "unordered", unordered, matrixOf(t, s, "MAT_FROM_QUERY('SELECT c1 + 0, c2, c3 FROM big')"), 0)
	compareMatrix(t, "unordered in key order", unordered, fast, 0)
	// Triples, both paths.
	s.exec(t, "SET @S = MAT_RAND(300, 200, 2, 0.02)")
	s.exec(t, "CALL MAT_SAVE(@S, 'trip', 'triples')")
	compareMatrix(t, "triples columnar", matrixOf(t, s, "MAT_FROM_TRIPLES('SELECT i, j, v FROM trip', 300, 200)"), matrixOf(t, s, "@S"), 0)
	compareMatrix(t, "triples engine", matrixOf(t, s, "MAT_FROM_TRIPLES('SELECT i, j, v * 1 FROM trip WHERE v <> 0', 300, 200)"), matrixOf(t, s, "@S"), 0)
	// Integer and FLOAT columns, a qualified name, an alias.
	s.exec(t, "CREATE TABLE mix (id INT PRIMARY KEY, a INT, b FLOAT, c BIGINT UNSIGNED)")
	s.exec(t, "INSERT INTO mix VALUES (2, -3, 0.5, 7), (1, 4, 1.25, 9)")
	before = udf.FastScans()
	compareMatrix(t, "mix", matrixOf(t, s, "MAT_FROM_QUERY('SELECT m.a, b AS bee, c FROM t.mix AS m ORDER BY id')"), [][]float64{{4, 1.25, 9}, {-3, 0.5, 7}}, 0)
	if udf.FastScans() != before+1 {
		t.Errorf("qualified, aliased scan did not take the columnar path")
	}
	// KILL-able, user-visible errors naming the column.
	s.exec(t, "CREATE TABLE holes (id INT PRIMARY KEY, a DOUBLE, s VARCHAR(10))")
	s.exec(t, "INSERT INTO holes VALUES (1, 1, 'x'), (2, NULL, 'y')")
	for _, q := range []string{"SELECT a FROM holes", "SELECT a FROM holes ORDER BY id DESC"} {
		wantError(t, s, "SELECT MAT_FROM_QUERY('"+q+"')", 1210, "MAT_FROM_QUERY", `"a"`, "NULL")
	}
	wantError(t, s, "SELECT MAT_FROM_QUERY('SELECT s FROM holes')", 1210, "MAT_FROM_QUERY", `"s"`, "not a number")
	wantError(t, s, "SELECT MAT_FROM_QUERY('SELECT a FROM nowhere')", 1146, "nowhere")
	wantError(t, s, "SELECT MAT_FROM_QUERY('SELECT c1 FROM big WHERE i < 0')", 1210, "no rows")
	wantError(t, s, "SELECT MAT_FROM_TRIPLES('SELECT i, j FROM trip', 300, 200)", 1210, "3 columns")
	wantError(t, s, "SELECT MAT_FROM_TRIPLES('SELECT i, j, v FROM trip', 10, 10)", 1210, "outside")
}
