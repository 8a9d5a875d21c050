package sqlext_test

import (
	"fmt"
	"strings"
	"testing"
)

// keyList is "0, 2, 4, ..." with n even numbers, then dup repeated.
func keyList(n int, extra ...string) string {
	parts := make([]string, 0, n+len(extra))
	for i := range n {
		parts = append(parts, fmt.Sprint(2*i))
	}
	return strings.Join(append(parts, extra...), ", ")
}

// TestLongInLists: a WHERE's IN of many integers (read from a VALUES
// table, longinlists.go) answers as the list does, in SELECT, UPDATE and
// DELETE, with repeated values, values no row holds, NOT IN and an
// expression on the left. The answers are MariaDB 10.11's.
func TestLongInLists(t *testing.T) {
	db := inDatabase(t, "li",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, s VARCHAR(10), KEY kg (g))",
		"SET @@cte_max_recursion_depth = 5000",
		"INSERT INTO t WITH RECURSIVE r (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 2999) SELECT i, i % 7, i FROM r")
	db.SetMaxOpenConns(1)
	list := keyList(400, "5", "5", "5", "99999")
	wantAnswers(t, db, "selects", map[string]string{
		"SELECT COUNT(*), SUM(id) FROM t WHERE id IN (" + list + ")":                       "401,159605",
		"SELECT COUNT(*) FROM t WHERE s IN (" + list + ")":                                 "401",
		"SELECT COUNT(*) FROM t WHERE id + 1 IN (" + list + ")":                            "400",
		"SELECT COUNT(*) FROM t WHERE id IN (" + list + ") AND g = 3":                      "57",
		"SELECT COUNT(*) FROM t WHERE id NOT IN (" + list + ")":                            "2599",
		"SELECT COUNT(*) FROM t WHERE (id IN (" + list + ")) IS NULL":                      "0",
		"SELECT COUNT(*) FROM t WHERE g IN (" + keyList(300) + ")":                         "1714",
		"SELECT COUNT(*) FROM t WHERE id IN (SELECT id FROM t WHERE id IN (" + list + "))": "401",
	})
	wantAffected(t, db, []affectedStep{
		{"UPDATE t SET g = 100 WHERE id IN (" + list + ")", 401},
		{"DELETE FROM t WHERE id IN (" + list + ")", 401},
	})
	wantAnswers(t, db, "after the writes", map[string]string{"SELECT COUNT(*), SUM(id), SUM(g = 100) FROM t": "2599,4338895,0"})
}

// BenchmarkLongInList selects the rows of 5,000 keys of a table of 20,000
// by `id IN (...)`:
//
//	go test -tags openblas -run '^$' -bench LongInList -count 6 ./sqlext
func BenchmarkLongInList(b *testing.B) {
	srv, addr := startServer(b, b.TempDir())
	defer srv.Close()
	db := connect(b, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(b, db, "CREATE DATABASE lb", "USE lb", "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
		"SET @@cte_max_recursion_depth = 20000",
		"INSERT INTO t WITH RECURSIVE r (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19999) SELECT i, i FROM r")
	q := "SELECT COUNT(*) FROM t WHERE id IN (" + keyList(5000) + ")"
	for b.Loop() {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil || n != 5000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}
