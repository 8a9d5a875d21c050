package udf_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// wantError runs q and wants a MySQL error with the code whose message
// holds every part.
func wantError(t testing.TB, s *server, q string, code uint16, parts ...string) {
	t.Helper()
	rows, err := s.db.Query(q)
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Errorf("%s: got %v, want MySQL error %d", q, err, code)
		return
	}
	if me.Number != code {
		t.Errorf("%s: error %d (%s), want %d", q, me.Number, me.Message, code)
	}
	for _, p := range parts {
		if !strings.Contains(me.Message, p) {
			t.Errorf("%s: message %q lacks %q", q, me.Message, p)
		}
	}
}

func TestErrors(t *testing.T) {
	s := startServer(t, "")
	s.exec(t, "SET @A = MAT_FROM_JSON('[[1,2,3],[4,5,6]]'), @Q = MAT_FROM_JSON('[[1,2],[2,4]]')")
	cases := []struct {
		q     string
		code  uint16
		parts []string
	}{
		{"SELECT MAT_MUL(@A, @A)", 1210, []string{"MAT_MUL: shape mismatch", "2x3 by 2x3"}},
		{"SELECT MAT_ADD(@A, @Q)", 1210, []string{"MAT_ADD", "2x3", "2x2"}},
		{"SELECT MAT_SOLVE(@Q, @A)", 1210, []string{"MAT_SOLVE", "singular"}},
		{"SELECT MAT_INV(@Q)", 1210, []string{"MAT_INV", "singular", "2x2"}},
		{"SELECT MAT_INV(@A)", 1210, []string{"MAT_INV", "not square", "2x3"}},
		{"SELECT MAT_TRACE(@A)", 1210, []string{"MAT_TRACE", "not square"}},
		{"SELECT MAT_CHOLESKY(MAT_FROM_JSON('[[1,2],[2,1]]'))", 1210, []string{"MAT_CHOLESKY", "positive definite"}},
		{"SELECT MAT_FROM_JSON('[[1,2],[3]]')", 1210, []string{"MAT_FROM_JSON", "JSON"}},
		{"SELECT MAT_FROM_JSON('not json')", 1210, []string{"MAT_FROM_JSON", "JSON"}},
		{"SELECT MAT_MUL(@A)", 1582, []string{"MAT_MUL"}},
		{"SELECT MAT_RAND(1, 2)", 1582, []string{"MAT_RAND"}},
		{"SELECT MAT_NORM(@A, 'fro', 1)", 1582, []string{"MAT_NORM"}},
		{"SELECT MAT_MUL('abc', @A)", 1210, []string{"MAT_MUL", "argument 1", "not a matrix"}},
		{"SELECT MAT_MUL(@A, 42)", 1210, []string{"MAT_MUL", "argument 2", "not a matrix"}},
		{"SELECT MAT_ZEROS('x', 2)", 1210, []string{"MAT_ZEROS", "argument 1", "number"}},
		{"SELECT MAT_ZEROS(2.5, 2)", 1210, []string{"MAT_ZEROS", "integer"}},
		{"SELECT MAT_ZEROS(-1, 2)", 1210, []string{"MAT_ZEROS"}},
		{"SELECT MAT_ZEROS(1000000, 1000000)", 1301, []string{"MAT_ZEROS", "too large"}},
		{"SELECT MAT_RAND(100000, 100000, 1)", 1301, []string{"MAT_RAND", "too large"}},
		{"SELECT MAT_GET(@A, 0, 1)", 1210, []string{"MAT_GET", "row index 0 outside 1..2"}},
		{"SELECT MAT_GET(@A, 1, 4)", 1210, []string{"MAT_GET", "column index 4 outside 1..3"}},
		{"SELECT MAT_SLICE(@A, 2, 1, 1, 1)", 1210, []string{"MAT_SLICE", "empty"}},
		{"SELECT MAT_NORM(@A, 'two')", 1210, []string{"MAT_NORM"}},
		{"SELECT MAT_EXP(x'0102')", 1210, []string{"MAT_EXP", "not a matrix"}},
		{"CALL MAT_SAVE(@A, 'x', 'columns')", 1210, []string{"MAT_SAVE", "'dense' or 'triples'"}},
		{"CALL MAT_SAVE('junk', 'x', 'dense')", 1210, []string{"MAT_SAVE", "not a matrix"}},
		{"CALL MAT_SAVE(@nothing, 'x', 'dense')", 1210, []string{"MAT_SAVE", "NULL"}},
		{"CALL MAT_SAVE(@A, 'a.b.c', 'dense')", 1210, []string{"MAT_SAVE", "table name"}},
		{"CALL MAT_IMPORT_MTX('matrices/karate.mtx', 'k')", 1290, []string{"MAT_IMPORT_MTX", "disabled"}},
		{"SELECT DISTANCE(STRING_TO_VECTOR('[1,2]'), STRING_TO_VECTOR('[1,2,3]'), 'COSINE')", 1210, []string{"DISTANCE", "2 and 3"}},
		{"SELECT DISTANCE(STRING_TO_VECTOR('[1,2]'), STRING_TO_VECTOR('[1,2]'), 'MANHATTAN')", 1210, []string{"DISTANCE", "metric"}},
		{"SELECT STRING_TO_VECTOR('1,2,3')", 1210, []string{"STRING_TO_VECTOR"}},
		{"SELECT STRING_TO_VECTOR('[1,x]')", 1210, []string{"STRING_TO_VECTOR", "element 2"}},
		{"SELECT VECTOR_DIM(x'010203')", 1210, []string{"VECTOR_DIM", "not a vector"}},
	}
	for _, c := range cases {
		wantError(t, s, c.q, c.code, c.parts...)
	}
	// NULL in, NULL out.
	for _, q := range []string{"MAT_MUL(NULL, @A)", "MAT_T(@nothing)", "MAT_GET(@A, NULL, 1)", "MAT_NORM(@A, NULL)", "VECTOR_DIM(NULL)", "MAT_FROM_QUERY(NULL)"} {
		if v := one[*string](t, s, "SELECT "+q); v != nil {
			t.Errorf("%s = %q, want NULL", q, *v)
		}
	}
	// A failed save leaves no table behind: the NaN is found after the
	// table was created and rows were written.
	s.exec(t, "SET @N = MAT_FROM_JSON('[[1,2],[3,\"NaN\"]]')")
	wantError(t, s, "CALL MAT_SAVE(@N, 'nan_dense', 'dense')", 1210, "MAT_SAVE", "NaN")
	wantError(t, s, "SELECT * FROM nan_dense", 1146)
	s.exec(t, "CALL MAT_SAVE(@A, 'twice', 'dense')")
	wantError(t, s, "CALL MAT_SAVE(@A, 'twice', 'dense')", 1050, "twice")
	if n := one[int64](t, s, "SELECT COUNT(*) FROM twice"); n != 2 {
		t.Errorf("the existing table was changed: %d rows", n)
	}
}

// TestImportConfinement loads every Matrix Market dataset, refuses the
// mangled ones without leaving a table, and refuses paths that lead out of
// the import directory.
func TestImportConfinement(t *testing.T) {
	data := datasets(t)
	s := startServer(t, data)
	files, _ := filepath.Glob(filepath.Join(data, "matrices", "*.mtx"))
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".mtx")
		q := fmt.Sprintf("CALL MAT_IMPORT_MTX('matrices/%s.mtx', 'm_%s')", base, base)
		if strings.HasPrefix(base, "mangled") {
			wantError(t, s, q, 1210, "MAT_IMPORT_MTX", base+".mtx", "Matrix Market")
			wantError(t, s, "SELECT * FROM m_"+base, 1146)
			continue
		}
		var table string
		var r, c, nnz int64
		if err := s.db.QueryRow(q).Scan(&table, &r, &c, &nnz); err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		if got := one[int64](t, s, "SELECT COUNT(*) FROM m_"+base); got != nnz {
			t.Errorf("%s: %d rows for %d nonzeros", base, got, nnz)
		}
	}
	// matrix_fp64 holds ±inf, which survive the trip through the table.
	if v := one[float64](t, s, "SELECT v FROM m_matrix_fp64 WHERE i = 1 AND j = 2"); v <= 1e308 {
		t.Errorf("inf came back as %v", v)
	}
	// Outside the import directory, by '..', absolute path or symlink.
	link := filepath.Join(t.TempDir(), "imports")
	if err := os.Mkdir(link, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(link, "out.mtx")); err != nil {
		t.Fatal(err)
	}
	karate, err := os.ReadFile(filepath.Join(data, "matrices", "karate.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(link, "in.mtx"), karate, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.mtx", filepath.Join(link, "alias.mtx")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(data, "matrices", "karate.mtx"), filepath.Join(link, "elsewhere.mtx")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../README.md", "matrices/../../datasets/../../etc/passwd", "/etc/passwd"} {
		wantError(t, s, fmt.Sprintf("CALL MAT_IMPORT_MTX('%s', 'x')", p), 1290, "outside the import directory")
	}
	wantError(t, s, "CALL MAT_IMPORT_MTX('matrices/nope.mtx', 'x')", 1290, "nope.mtx")
	s2 := startServer(t, link)
	wantError(t, s2, "CALL MAT_IMPORT_MTX('out.mtx', 'x')", 1290, "outside the import directory")
	wantError(t, s2, "CALL MAT_IMPORT_MTX('elsewhere.mtx', 'x')", 1290, "outside the import directory")
	s2.exec(t, "CALL MAT_IMPORT_MTX('in.mtx', 'k')")
	s2.exec(t, "CALL MAT_IMPORT_MTX(?, 'k2')", filepath.Join(link, "alias.mtx"))
}
