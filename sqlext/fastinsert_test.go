package sqlext_test

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestFastInsertMatchesEngine runs the same inserts with the fast path on
// (into table a) and off (into table b) and requires the same outcome:
// rows stored, errors and their codes, affected rows and insert ids.
func TestFastInsertMatchesEngine(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	defer srv.Close()
	setup := connect(t, addr, "")
	mustExec(t, setup, "CREATE DATABASE fi")
	for _, name := range []string{"a", "b"} {
		mustExec(t, setup, fmt.Sprintf(`CREATE TABLE fi.%s (id INT PRIMARY KEY AUTO_INCREMENT, k TINYINT NOT NULL,
			s VARCHAR(4), d DECIMAL(6,2), f DOUBLE, u INT UNSIGNED, note VARCHAR(8) DEFAULT 'x', UNIQUE KEY ks (k, s))`, name))
	}
	fast := connect(t, addr, "fi")
	fast.SetMaxOpenConns(1)
	slow := connect(t, addr, "fi")
	slow.SetMaxOpenConns(1)
	mustExec(t, slow, "SET sqlearn_fast_point_select = OFF")
	stmts := []struct {
		q    string
		args []any
	}{
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (1, 'ab', 1.25, 2.5, 7, 'n')", nil},
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (?, ?, ?, ?, ?, ?)", []any{2, "cd", "3.5", 1e10, 8, "m"}},
		{"INSERT INTO %s (id, k, s, d, f, u, note) VALUES (10, 3, 'ef', 0, 0, 0, 'o')", nil},
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (4, NULL, NULL, NULL, NULL, NULL)", nil},
		{"INSERT INTO %s (k, s) VALUES (5, 'gh')", nil},                                // note has a default: engine
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (1000, 'x', 1, 1, 1, 'p')", nil}, // out of range
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (6, 'toolong', 1, 1, 1, 'p')", nil},
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (NULL, 'x', 1, 1, 1, 'p')", nil},
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (1, 'ab', 1, 1, 1, 'dup')", nil}, // unique key
		{"INSERT INTO %s (id, k, s, d, f, u, note) VALUES (10, 9, 'zz', 1, 1, 1, 'dup')", nil},
		{"INSERT INTO %s (k, s, d, f, u, note) VALUES (7, 'ij', 1.234, -1, 4294967295, 'q')", nil},
		{"INSERT INTO %s VALUES (0, 8, 'kl', 2, 2, 2, 'r')", nil},
	}
	type outcome struct {
		Affected, ID int64
		Code         uint16
	}
	do := func(db *sql.DB, table, q string, args []any) outcome {
		r, err := db.Exec(fmt.Sprintf(q, table), args...)
		if err != nil {
			var me *mysql.MySQLError
			if !errors.As(err, &me) {
				t.Fatalf("%s: %v", q, err)
			}
			return outcome{Code: me.Number}
		}
		n, _ := r.RowsAffected()
		id, _ := r.LastInsertId()
		return outcome{Affected: n, ID: id}
	}
	before := srv.FastInserts()
	for _, s := range stmts {
		fo, so := do(fast, "a", s.q, s.args), do(slow, "b", s.q, s.args)
		if fo != so {
			t.Errorf("%s: fast %+v, engine %+v", s.q, fo, so)
		}
	}
	if n := srv.FastInserts() - before; n < 5 {
		t.Fatalf("the fast path committed only %d inserts", n)
	}
	fa := queryStrings(t, setup, "SELECT id, k, s, d, f, u, note FROM fi.a ORDER BY id")
	fb := queryStrings(t, setup, "SELECT id, k, s, d, f, u, note FROM fi.b ORDER BY id")
	if !reflect.DeepEqual(fa, fb) {
		t.Fatalf("tables differ:\nfast   %v\nengine %v", fa, fb)
	}
	var last int64
	if err := fast.QueryRow("SELECT LAST_INSERT_ID()").Scan(&last); err != nil {
		t.Fatal(err)
	}
	var slowLast int64
	if err := slow.QueryRow("SELECT LAST_INSERT_ID()").Scan(&slowLast); err != nil {
		t.Fatal(err)
	}
	if last != slowLast {
		t.Fatalf("LAST_INSERT_ID: fast %d, engine %d", last, slowLast)
	}
}
