package sqlext_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAggregatesDescribedNullable: a result column of MIN, MAX, SUM,
// AVG or GROUP_CONCAT, or of an expression of one, is described to the
// client as one that may be NULL, as MySQL and MariaDB 10.11 describe it
// (the column flags, read through the Go driver), with or without GROUP
// BY, ORDER BY, LIMIT, DISTINCT or a window, read from a view or a
// derived table; COUNT and plain NOT NULL
// columns stay NOT NULL (MariaDB also describes the id beside a window
// as nullable, MySQL not), and so do COALESCE and IFNULL with an argument
// that is, which the engine described by their first argument alone. The engine described every aggregate but AVG as
// NOT NULL.
func TestAggregatesDescribedNullable(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE an", "USE an",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, a INT NOT NULL, s VARCHAR(5) NOT NULL, n INT)",
		"INSERT INTO t VALUES (1, 1, 5, 'x', NULL)",
		"CREATE VIEW v AS SELECT g, MAX(a) AS m FROM t GROUP BY g")
	for q, want := range map[string]string{
		"SELECT MAX(a), COUNT(*), SUM(a), MIN(a) + 1, AVG(a), MIN(s), GROUP_CONCAT(s) FROM t": "true false true true true true true",
		"SELECT g, MAX(a) AS m FROM t GROUP BY g ORDER BY g LIMIT 5":                          "false true",
		"SELECT DISTINCT MAX(a) FROM t GROUP BY g":                                            "true",
		"SELECT g, SUM(a) FROM t GROUP BY g HAVING SUM(a) > 1":                                "false true",
		"SELECT MAX(a) OVER (), COUNT(*) OVER (), id FROM t":                                  "true false false",
		"SELECT id, a FROM t":    "false false",
		"SELECT g, m + 1 FROM v": "false true",
		"SELECT x.m, t.a FROM (SELECT g, MAX(a) AS m FROM t GROUP BY g) x JOIN t ON t.g = x.g": "true false",
	} {
		var got []string
		for _, c := range resultColumns(t, db, q) {
			nullable, ok := c.Nullable()
			if !ok {
				t.Fatalf("%s: the driver reads no nullability", q)
			}
			got = append(got, fmt.Sprint(nullable))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: nullable %v, want %s", q, got, want)
		}
	}
}

// TestKeyAggregatesOfEmptyTables: MIN and MAX of a table's first key
// column answer one row, NULL, when the table has no rows, as every
// aggregate without GROUP BY does. The engine answered them with the
// first row in key order, and so with no row at all.
func TestKeyAggregatesOfEmptyTables(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ke", "USE ke",
		"CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, v INT)",
		"CREATE TABLE k (a INT, b INT, PRIMARY KEY (a, b))")
	empty := map[string]string{
		"SELECT MAX(id) FROM t":                 "NULL",
		"SELECT MIN(id) FROM t":                 "NULL",
		"SELECT IFNULL(MAX(id), 0) + 1 FROM t":  "1",
		"SELECT MAX(a) FROM k":                  "NULL",
		"SELECT (SELECT MIN(a) FROM k) IS NULL": "1",
	}
	wantAnswers(t, db, "empty", empty)
	mustExecAll(t, db, "INSERT INTO t (v) VALUES (5), (6), (7)", "INSERT INTO k VALUES (3, 1), (1, 2), (2, 9)")
	wantAnswers(t, db, "filled", map[string]string{
		"SELECT MAX(id) FROM t":                "3",
		"SELECT MIN(id) FROM t":                "1",
		"SELECT IFNULL(MAX(id), 0) + 1 FROM t": "4",
		"SELECT MAX(a) FROM k":                 "3",
		"SELECT MIN(id) FROM t WHERE id > 1":   "2",
		"SELECT MAX(id) FROM t WHERE id > 10":  "NULL",
	})
	mustExecAll(t, db, "DELETE FROM t", "DELETE FROM k")
	wantAnswers(t, db, "emptied", empty)
}
