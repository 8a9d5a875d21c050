package sqlext_test

import (
	"database/sql"
	"testing"

	"github.com/sqlearn/sqlearn/sqlext"
)

// memoTables are two tables of a few keys each, NULL keys among them, and
// text keys that differ only in case.
var memoTables = []string{
	"CREATE TABLE t1 (id INT PRIMARY KEY, k INT, s VARCHAR(10), v INT)",
	"CREATE TABLE t2 (id INT PRIMARY KEY AUTO_INCREMENT, k INT, s VARCHAR(10), x INT, KEY (k))",
	"INSERT INTO t1 WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200) " +
		"SELECT i, IF(i % 17 = 0, NULL, i % 5), ELT(i % 3 + 1, 'a', 'A', 'b'), i % 7 FROM r",
	"INSERT INTO t2 (k, s, x) WITH RECURSIVE r (j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM r WHERE j < 100) " +
		"SELECT IF(j % 23 = 0, NULL, j % 6), ELT(j % 4 + 1, 'a', 'b', 'A', 'c'), j * 3 % 50 FROM r",
}

// TestCorrelatedSubqueryMemo: a correlated scalar subquery answers from
// its memo (subquerymemo.go) as it does when run for every row, keyed
// by each outer column it reads, NULLs and text under the column's
// collation included; in a WHERE, a derived table, within another
// subquery. The answers are MariaDB 10.11's. A subquery that calls RAND()
// or reads information_schema is run for every row.
func TestCorrelatedSubqueryMemo(t *testing.T) {
	srv, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, append([]string{"CREATE DATABASE mq", "USE mq", "SET @lim = 30"}, memoTables...)...)
	memoized := map[string]string{
		"SELECT SUM(COALESCE((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k), -1)) FROM t1":                                           "8987",
		"SELECT COUNT(*), SUM((SELECT COUNT(*) FROM t2 WHERE t2.s = t1.s)) FROM t1":                                             "200,8325",
		"SELECT SUM((SELECT COUNT(*) FROM t2 WHERE t2.k = t1.k AND t2.x > t1.v * 5)) FROM t1":                                   "2079",
		"SELECT SUM((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k AND x < (SELECT MIN(x) + 20 FROM t2 c WHERE c.k = t1.k))) FROM t1": "3554",
		"SELECT COUNT(*) FROM t1 WHERE (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) > 45":                                          "189",
		"SELECT SUM(m), COUNT(m) FROM (SELECT id, (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) m FROM t1) d":                       "8998,189",
		"SELECT COUNT(*) FROM t1 WHERE (SELECT COUNT(*) FROM t2 WHERE t2.k <=> t1.k) = 0":                                       "0",
		"SELECT SUM((SELECT SUM(x) FROM t2 WHERE t2.k = t1.k AND t2.s = t1.s)) FROM t1":                                         "33893",
		// The engine reads a user variable once, as a constant.
		"SELECT SUM((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k AND x < @lim)) FROM t1":                        "5292",
		"SELECT GROUP_CONCAT((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) ORDER BY id) FROM t1 WHERE id <= 12": "47,46,49,48,48,47,46,49,48,48,47,46",
	}
	runEveryRow := map[string]string{
		"SELECT SUM((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k AND x + RAND() * 0.001 < 30)) FROM t1":                                                                          "5292",
		"SELECT SUM((SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'mq' AND ordinal_position = t1.k)) FROM t1":                                        "302",
		"SELECT SUM((SELECT COUNT(*) FROM t2 WHERE t2.k = t1.k AND t2.x > (SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'mq' AND t1.v > 3))) FROM t1": "2936",
	}
	// 200 rows (12 in one query) of at most 6 keys (k, NULL included) by
	// 3 texts or 7 values of v.
	wantMemoAnswers(t, srv, db, memoized, true)
	wantMemoAnswers(t, srv, db, runEveryRow, false)
	// A subquery named in the select list runs once per row
	// (projectonce.go), where it ran twice: 200 rows of 6 keys.
	before := srv.SubqueryMemoHits()
	queryStrings(t, db, "SELECT id, (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) AS m FROM t1 ORDER BY m, id")
	if hits := srv.SubqueryMemoHits() - before; hits != 194 {
		t.Errorf("an aliased subquery: %d answers from its memo, want 194 (one run per row)", hits)
	}
	_, err := db.Exec("SELECT (SELECT x FROM t2 WHERE t2.k = t1.k) FROM t1")
	wantMySQLMessage(t, "a subquery of many rows", err, 1242, "21000", "Subquery returns more than 1 row")
}

// TestCorrelatedSubqueryMemoSeesWrites: a memo's answers go when a table
// its subquery reads is written between two rows of its statement, here
// by a trigger of the UPDATE that runs the subquery (which MySQL refuses
// with error 1442; the answers are the engine's without the memo), and
// a procedure's statements see the rows written before them.
func TestCorrelatedSubqueryMemoSeesWrites(t *testing.T) {
	db := inDatabase(t, "mw",
		"CREATE TABLE t1 (id INT PRIMARY KEY, k INT, v INT)",
		"CREATE TABLE t2 (id INT PRIMARY KEY AUTO_INCREMENT, k INT, x INT)",
		"INSERT INTO t1 VALUES (1,1,0),(2,1,0),(3,2,0),(4,1,0),(5,NULL,0)",
		"INSERT INTO t2 (k, x) VALUES (1,10),(2,20),(NULL,5)",
		"CREATE TRIGGER tr AFTER UPDATE ON t1 FOR EACH ROW INSERT INTO t2 (k, x) VALUES (NEW.k, NEW.v + 1)",
		"UPDATE t1 SET v = (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) ORDER BY id",
		"DROP TRIGGER tr",
		`CREATE PROCEDURE p() BEGIN
			DECLARE i INT DEFAULT 0;
			CREATE TABLE lg (i INT, m INT);
			WHILE i < 3 DO
				INSERT INTO t2 (k, x) VALUES (1, 100 + i);
				INSERT INTO lg SELECT i, (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k AND t2.x < 101 + i) FROM t1 WHERE id <= 2;
				SET i = i + 1;
			END WHILE;
		END`,
		"CALL p()")
	wantAnswers(t, db, "after the writes", map[string]string{
		"SELECT GROUP_CONCAT(v ORDER BY id) FROM t1":        "10,11,20,12",
		"SELECT GROUP_CONCAT(i, ':', m ORDER BY i) FROM lg": "0:100,0:100,1:101,1:101,2:102,2:102",
	})
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, step := range []struct{ stmt, want string }{
		{"SELECT GROUP_CONCAT((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) ORDER BY id) FROM t1", "102,102,21,102"},
		{"DELETE FROM t2 WHERE x > 11", ""},
		{"SELECT GROUP_CONCAT((SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) ORDER BY id) FROM t1", "11,11,11"},
	} {
		if step.want == "" {
			if _, err := tx.Exec(step.stmt); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got := flat(queryStrings(t, tx, step.stmt)); got != step.want {
			t.Errorf("%s: got %s, want %s", step.stmt, got, step.want)
		}
	}
}

// BenchmarkCorrelatedSubquery sums a correlated scalar subquery over
// 20,000 rows of 50 keys, each key's rows found through an index of the
// inner table (20,000 rows):
//
//	go test -tags openblas -run '^$' -bench CorrelatedSubquery -count 6 ./sqlext
func BenchmarkCorrelatedSubquery(b *testing.B) {
	db := subqueryBenchTables(b, "KEY (k)")
	for b.Loop() {
		var sum int64
		if err := db.QueryRow("SELECT SUM(v + (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k)) FROM t1").Scan(&sum); err != nil || sum != 29480000 {
			b.Fatalf("sum %d, %v", sum, err)
		}
	}
}

// wantMemoAnswers checks each query's answer, and that some of its
// subqueries' answers came from a memo when fromMemo says so, or none.
func wantMemoAnswers(t *testing.T, srv *sqlext.Server, db *sql.DB, answers map[string]string, fromMemo bool) {
	t.Helper()
	for q, want := range answers {
		before := srv.SubqueryMemoHits()
		if got := flat(queryStrings(t, db, q)); got != want {
			t.Errorf("%s: got %s, want %s", q, got, want)
		}
		if hits := srv.SubqueryMemoHits() - before; (hits > 0) != fromMemo {
			t.Errorf("%s: %d answers came from a memo", q, hits)
		}
	}
}

// BenchmarkCorrelatedSubqueryByKey sums a subquery correlated on the
// outer table's key, 20,000 runs of an index lookup, each key its own,
// which no memo helps:
//
//	go test -tags openblas -run '^$' -bench CorrelatedSubqueryByKey -count 6 ./sqlext
func BenchmarkCorrelatedSubqueryByKey(b *testing.B) {
	db := subqueryBenchTables(b, "KEY (k)")
	for b.Loop() {
		var sum int64
		if err := db.QueryRow("SELECT SUM((SELECT MAX(x) FROM t2 WHERE t2.k = t1.id)) FROM t1").Scan(&sum); err != nil || sum != 48725 {
			b.Fatalf("sum %d, %v", sum, err)
		}
	}
}

// BenchmarkAliasedSubquery selects a correlated subquery named in the
// select list (AS m) for 300 rows, each of its own key, reading 20,000
// rows each time:
//
//	go test -tags openblas -run '^$' -bench AliasedSubquery -count 6 ./sqlext
func BenchmarkAliasedSubquery(b *testing.B) {
	db := subqueryBenchTables(b, "")
	for b.Loop() {
		rows, err := db.Query("SELECT id, (SELECT COUNT(*) FROM t2 WHERE t2.x = t1.v) AS m FROM t1 WHERE id < 300")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Close(); err != nil || n != 300 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// subqueryBenchTables starts a server and loads two tables of 20,000
// rows (id, k = id % 50, v or x = id * 7 % 1000), t2 with the given
// keys, and returns a connection in their database.
func subqueryBenchTables(b *testing.B, keys string) *sql.DB {
	srv, addr := startServer(b, b.TempDir())
	b.Cleanup(func() { srv.Close() })
	db := connect(b, addr, "")
	db.SetMaxOpenConns(1)
	if keys != "" {
		keys = ", " + keys
	}
	mustExecAll(b, db, "CREATE DATABASE sb", "USE sb",
		"CREATE TABLE t1 (id INT PRIMARY KEY, k INT, v INT)",
		"CREATE TABLE t2 (id INT PRIMARY KEY, k INT, x INT"+keys+")",
		"SET @@cte_max_recursion_depth = 20000",
		"INSERT INTO t1 WITH RECURSIVE r (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19999) SELECT i, i % 50, i * 7 % 1000 FROM r",
		"INSERT INTO t2 SELECT * FROM t1")
	return db
}
