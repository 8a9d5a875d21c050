package sqlext_test

import (
	"database/sql"
	"fmt"
	"reflect"
	"testing"
)

// TestFastPointSelectMatchesEngine runs point selects with the fast path
// on and off and requires identical results, column metadata included.
func TestFastPointSelectMatchesEngine(t *testing.T) {
	srv, addr, setup := serve(t)
	mustExec(t, setup, "CREATE DATABASE fp")
	mustExec(t, setup, `CREATE TABLE fp.t (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, score DECIMAL(6,2), at DATETIME(3), b VARBINARY(4), u BIGINT UNSIGNED)`)
	mustExec(t, setup, "INSERT INTO fp.t VALUES (1, 'one', 1.50, '2024-01-02 03:04:05.678', x'00ff', 18446744073709551615), (2, 'two', NULL, NULL, NULL, NULL)")
	mustExec(t, setup, "CREATE TABLE fp.s (code VARCHAR(8) PRIMARY KEY, v INT)")
	mustExec(t, setup, "INSERT INTO fp.s VALUES ('a', 1), ('B', 2)")
	queries := []struct {
		q    string
		args []any
	}{
		{"SELECT name FROM t WHERE id = ?", []any{1}},
		{"SELECT * FROM t WHERE id = ?", []any{1}},
		{"SELECT * FROM t WHERE id = ?", []any{2}},
		{"SELECT * FROM t WHERE id = ?", []any{3}},
		{"SELECT id, name AS n FROM t WHERE id = 2", nil},
		{"SELECT t.name FROM fp.t WHERE t.id = '1'", nil},
		{"SELECT x.name FROM t x WHERE x.id = ?", []any{"2"}},
		{"SELECT name FROM t WHERE 1 = id", nil},
		{"SELECT name FROM t WHERE id = ?", []any{1.5}},
		{"SELECT v FROM s WHERE code = ?", []any{"B"}},
		{"SELECT v FROM s WHERE code = 'b'", nil},
	}
	run := func(db interface {
		Query(string, ...any) (*sql.Rows, error)
	}, q string, args []any) ([]string, [][]any) {
		rows, err := db.Query(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		types, _ := rows.ColumnTypes()
		var meta []string
		for _, ct := range types {
			n, _ := ct.Nullable()
			meta = append(meta, fmt.Sprint(ct.Name(), ct.DatabaseTypeName(), n))
		}
		var out [][]any
		for rows.Next() {
			vals := make([]any, len(types))
			ptrs := make([]any, len(types))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, vals)
		}
		return meta, out
	}
	fast := connect(t, addr, "fp")
	fast.SetMaxOpenConns(1)
	slow := connect(t, addr, "fp")
	slow.SetMaxOpenConns(1)
	mustExec(t, slow, "SET sqlearn_fast_point_select = OFF")
	before := srv.FastPathHits()
	for _, q := range queries {
		fm, fr := run(fast, q.q, q.args)
		sm, sr := run(slow, q.q, q.args)
		if !reflect.DeepEqual(fm, sm) || !reflect.DeepEqual(fr, sr) {
			t.Errorf("%s %v:\nfast %v %v\nengine %v %v", q.q, q.args, fm, fr, sm, sr)
		}
	}
	if hits := srv.FastPathHits() - before; hits < 6 {
		t.Fatalf("fast path answered only %d queries", hits)
	}
	// Inside a transaction the fast path answers too, before and after the
	// transaction changed the table, with the rows it wrote; by a text key
	// only before (then the engine answers).
	ftx, err := fast.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stx, err := slow.Begin()
	if err != nil {
		t.Fatal(err)
	}
	compare := func(what string) {
		t.Helper()
		for _, q := range append(queries, struct {
			q    string
			args []any
		}{"SELECT * FROM t WHERE id = 7", nil}) {
			fm, fr := run(ftx, q.q, q.args)
			sm, sr := run(stx, q.q, q.args)
			if !reflect.DeepEqual(fm, sm) || !reflect.DeepEqual(fr, sr) {
				t.Errorf("%s: %s %v:\nfast %v %v\nengine %v %v", what, q.q, q.args, fm, fr, sm, sr)
			}
		}
	}
	before = srv.FastPathHits()
	compare("in a transaction, before writing")
	if srv.FastPathHits() == before {
		t.Error("the fast path did not answer in a transaction that had not written")
	}
	for _, w := range []string{"UPDATE t SET name = 'uno', score = 2.5 WHERE id = 1", "DELETE FROM t WHERE id = 2",
		"INSERT INTO t (id, name) VALUES (7, 'seven')", "UPDATE s SET v = 9 WHERE code = 'a'"} {
		mustExec(t, ftx, w)
		mustExec(t, stx, w)
	}
	before = srv.FastPathHits()
	compare("in a transaction that wrote")
	if srv.FastPathHits() == before {
		t.Error("the fast path did not answer in a transaction that had written")
	}
	var name string
	if err := ftx.QueryRow("SELECT name FROM t WHERE id = ?", 1).Scan(&name); err != nil || name != "uno" {
		t.Fatalf("in the transaction, its own row: %q %v", name, err)
	}
	ftx.Rollback()
	stx.Rollback()
	if err := fast.QueryRow("SELECT name FROM t WHERE id = ?", 1).Scan(&name); err != nil || name != "one" {
		t.Fatalf("after the rollback: %q %v", name, err)
	}
	// Privileges are checked: a user without SELECT is refused as by the engine.
	mustExec(t, setup, "CREATE USER nosel IDENTIFIED BY 'pw'")
	db, err := sql.Open("mysql", fmt.Sprintf("nosel:pw@tcp(%s)/", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Query("SELECT name FROM fp.t WHERE id = 1"); err == nil {
		t.Fatal("a user without SELECT privilege read a row")
	}
}
