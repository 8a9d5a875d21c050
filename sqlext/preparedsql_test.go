package sqlext_test

import (
	"database/sql"
	"strings"
	"testing"
)

// TestPreparedQuantifiedAndIntervals: statements the statement parser
// rewrites (x op ANY/ALL (SELECT ...), compound INTERVAL units, WITH
// ROLLUP) work as
// server-side prepared statements, as the Go driver sends every query
// with arguments, with their parameters bound in order. Before, the
// protocol layer refused them as syntax errors (1105). A rewrite that
// would read a parameter twice is refused as before. The answers are
// MariaDB 10.11's.
func TestPreparedQuantifiedAndIntervals(t *testing.T) {
	db := inDatabase(t, "pq",
		"CREATE TABLE s (id INT PRIMARY KEY, x INT)",
		"CREATE TABLE v (id INT PRIMARY KEY, y INT, k INT)",
		"INSERT INTO s VALUES (1, 1), (2, 5), (3, 9), (4, NULL)",
		"INSERT INTO v VALUES (1, 2, 1), (2, 5, 1), (3, 7, 1), (4, 3, 2), (5, NULL, 2), (6, 8, 3)")
	for _, c := range []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT id FROM s WHERE x > ANY (SELECT y FROM v WHERE k = ?) AND id > ? ORDER BY id", []any{1, 0}, "2;3"},
		{"SELECT id FROM s WHERE id > ? AND x <> ALL (SELECT y FROM v WHERE k = ?) ORDER BY id", []any{1, 1}, "3"},
		{"SELECT id FROM s WHERE x = ANY (SELECT y FROM v WHERE k = ?) ORDER BY id", []any{1}, "2"},
		{"SELECT id, x >= ALL (SELECT y FROM v WHERE k = ?) FROM s WHERE id <= ? ORDER BY id", []any{2, 3}, "1,0;2,NULL;3,NULL"},
		{"SELECT DATE_ADD(?, INTERVAL '1 2' DAY_HOUR)", []any{"2024-01-15 10:00:00"}, "2024-01-16 12:00:00"},
	} {
		// Twice: the connection keeps what it decided for a statement.
		for range 2 {
			got := queryStrings(t, db, c.q, c.args...)
			if s := flat(got); s != c.want {
				t.Errorf("%s %v: %q, want %q", c.q, c.args, s, c.want)
			}
		}
	}
	// Prepared without parameters too (the driver sends a query without
	// arguments as text, so prepare it explicitly).
	stmt, err := db.Prepare("SELECT k, COUNT(*) FROM v GROUP BY k WITH ROLLUP")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	rows, err := stmt.Query()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var k, n sql.NullString
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		if !k.Valid {
			k.String = "NULL"
		}
		got = append(got, k.String+","+n.String)
	}
	rows.Close()
	if s := strings.Join(got, ";"); s != "1,3;2,2;3,1;NULL,6" {
		t.Errorf("prepared WITH ROLLUP: %q", s)
	}
	// x is read more than once by the rewrite: a parameter there is
	// refused, as it was.
	_, err = db.Query("SELECT id FROM s WHERE ? > ANY (SELECT y FROM v)", 3)
	wantMySQLError(t, err, 1105, "HY000")
}
