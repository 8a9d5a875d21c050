package sqlext_test

import (
	"fmt"
	"testing"
)

// TestFailedStatementOnKeylessTable: a statement that fails after writing
// many rows of a table without a primary key takes them all back, and the
// transaction's other rows of the same content stay and are told apart
// (a DELETE ... LIMIT 1 of one of equal rows removes one). Taking the rows
// back rebuilt the transaction's index of their contents once per row,
// which made it take time in n² (BenchmarkFailedInsertIntoKeyless).
func TestFailedStatementOnKeylessTable(t *testing.T) {
	db := inDatabase(t, "ku",
		"CREATE TABLE src (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE k (v INT NOT NULL)",
		"SET @@cte_max_recursion_depth = 5000",
		"INSERT INTO src WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000) SELECT i, IF(i = 3000, NULL, i % 3) FROM r")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "BEGIN", "INSERT INTO k VALUES (1), (1), (2)")
	_, err := db.Exec("INSERT INTO k SELECT v FROM src ORDER BY id")
	wantMySQLError(t, err, 1048, "23000")
	wantAnswers(t, db, "after the failed INSERT", map[string]string{"SELECT v, COUNT(*) FROM k GROUP BY v ORDER BY v": "1,2;2,1"})
	mustExecAll(t, db, "DELETE FROM k WHERE v = 1 LIMIT 1", "SAVEPOINT s",
		"INSERT INTO k SELECT v FROM src WHERE id < 3000", "ROLLBACK TO SAVEPOINT s")
	wantAnswers(t, db, "after the savepoint", map[string]string{"SELECT v, COUNT(*) FROM k GROUP BY v ORDER BY v": "1,1;2,1"})
	mustExecAll(t, db, "COMMIT")
	wantAnswers(t, db, "committed", map[string]string{"SELECT v, COUNT(*) FROM k GROUP BY v ORDER BY v": "1,1;2,1"})
}

// BenchmarkFailedInsertIntoKeyless times an INSERT ... SELECT of 5,000
// rows into a table without a primary key that fails at its last row
// (1048), so that all its rows are taken back:
//
//	go test -tags openblas -run '^$' -bench FailedInsertIntoKeyless -count 6 ./sqlext
func BenchmarkFailedInsertIntoKeyless(b *testing.B) {
	srv, addr := startServer(b, b.TempDir())
	defer srv.Close()
	db := connect(b, addr, "")
	db.SetMaxOpenConns(1)
	const rows = 5000
	mustExecAll(b, db, "CREATE DATABASE kb", "USE kb",
		"CREATE TABLE src (id INT PRIMARY KEY, v INT)", "CREATE TABLE k (v INT NOT NULL)",
		fmt.Sprintf("SET @@cte_max_recursion_depth = %d", rows),
		fmt.Sprintf("INSERT INTO src WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < %d) SELECT i, IF(i = %d, NULL, i) FROM r", rows, rows))
	for b.Loop() {
		if _, err := db.Exec("INSERT INTO k SELECT v FROM src ORDER BY id"); err == nil {
			b.Fatal("the INSERT did not fail")
		}
	}
}
