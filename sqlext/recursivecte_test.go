package sqlext_test

import (
	"strings"
	"testing"
)

// TestRecursiveCTEDepth: a recursive CTE's recursive part runs as many
// times as @@cte_max_recursion_depth allows (1000 by default), and one
// more run fails with MySQL 8's error 3636. The engine stopped at 10,001
// runs whatever the variable said, with an error of no MySQL code, so no
// series of more rows could be made.
func TestRecursiveCTEDepth(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	series := func(n string) string {
		return "WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < " + n + ") SELECT COUNT(*), SUM(i) FROM r"
	}
	wantAnswers(t, db, "default", map[string]string{series("1000"): "1000,500500"})
	_, err := db.Exec(series("1001"))
	wantMySQLMessage(t, "default", err, 3636, "HY000", "Recursive query aborted after 1001 iterations. Try increasing @@cte_max_recursion_depth to a larger value.")
	mustExecAll(t, db, "SET @@cte_max_recursion_depth = 100000")
	wantAnswers(t, db, "raised", map[string]string{
		series("50000"): "50000,1250025000",
		// UNION DISTINCT ends when a run adds no new row.
		"WITH RECURSIVE r (i) AS (SELECT 1 UNION SELECT (i + 1) % 5 FROM r) SELECT GROUP_CONCAT(i ORDER BY i) FROM r": "0,1,2,3,4",
		// A table filled from a series, as data engineers fill one.
		"SELECT COUNT(*) FROM (WITH RECURSIVE d (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < 20000) SELECT DATE '2024-01-01' + INTERVAL n DAY AS day FROM d) AS days WHERE day >= '2025-01-01'": "19635",
	})
	// Every run counts, also the last one, which adds no row.
	mustExecAll(t, db, "SET @@cte_max_recursion_depth = 0")
	_, err = db.Exec(series("1"))
	wantMySQLMessage(t, "none", err, 3636, "HY000", "Recursive query aborted after 1 iterations. Try increasing @@cte_max_recursion_depth to a larger value.")
}

// TestRecursiveCTEColumnTypes: a recursive CTE's columns take the types of
// its anchor, as in MySQL, and the recursive part's rows are stored into
// them as an INSERT stores into a table: too long or out of range is an
// error in strict mode and cut, with a warning, outside it. The engine
// widened every column (a DATE to DATETIME(6), an INT to BIGINT), so a
// series of dates came back as datetimes with microseconds and a table
// made from it took the widened types. The errors and the rows are
// MariaDB's for the same statements.
func TestRecursiveCTEColumnTypes(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE r", "USE r",
		"CREATE TABLE names (id INT PRIMARY KEY, s VARCHAR(5))",
		"INSERT INTO names VALUES (1, 'ab')")
	days := "WITH RECURSIVE d AS (SELECT DATE('2020-01-30') AS dt, 1 AS n, 1.5 AS x UNION ALL SELECT dt + INTERVAL 1 DAY, n + 1, x + 1 FROM d WHERE n < 3) "
	if got := flat(queryStrings(t, db, days+"SELECT CONCAT(dt, ''), n, x FROM d")); got != "2020-01-30,1,1.5;2020-01-31,2,2.5;2020-02-01,3,3.5" {
		t.Errorf("series of days: %s", got)
	}
	if got := columnTypes(t, db, days+"SELECT * FROM d"); got != "DATE INT DECIMAL(2,1)" {
		t.Errorf("column types %s, want DATE INT DECIMAL(2,1)", got)
	}
	// Also through two references, and in a table made from it.
	if got := flat(queryStrings(t, db, days+"SELECT CONCAT(a.dt, ''), b.n FROM d a JOIN d b ON a.n = b.n + 1 ORDER BY 1")); got != "2020-01-31,1;2020-02-01,2" {
		t.Errorf("joined references: %s", got)
	}
	mustExecAll(t, db, "CREATE TABLE days AS "+days+"SELECT * FROM d")
	ddl := queryStrings(t, db, "SHOW CREATE TABLE days")[0][1]
	for _, want := range []string{"`dt` date ", "`n` int ", "`x` decimal(2,1) "} {
		if !strings.Contains(ddl, want) {
			t.Errorf("CREATE TABLE ... AS of the series: %s, want %s", ddl, want)
		}
	}

	// MySQL's manual's own example: the anchor's 'abc' is a VARCHAR(3).
	doubled := "WITH RECURSIVE c AS (SELECT 1 AS n, 'abc' AS str UNION ALL SELECT n + 1, CONCAT(str, str) FROM c WHERE n < 3) SELECT * FROM c"
	_, err := db.Exec(doubled)
	wantMySQLMessage(t, "text too long", err, 1406, "22001", "Data too long for column 'str' at row 2")
	// The manual's way out: a wider anchor.
	if got := flat(queryStrings(t, db, strings.Replace(doubled, "'abc'", "CAST('abc' AS CHAR(20))", 1))); got != "1,abc;2,abcabc;3,abcabcabcabc" {
		t.Errorf("wider anchor: %s", got)
	}
	// A column the anchor reads keeps its table's type.
	_, err = db.Exec("WITH RECURSIVE r AS (SELECT id, s FROM names UNION ALL SELECT id + 1, CONCAT(s, 'x') FROM r WHERE id < 5) SELECT * FROM r")
	wantMySQLMessage(t, "column's type", err, 1406, "22001", "Data too long for column 's' at row 5")
	growth := "WITH RECURSIVE d AS (SELECT 1 AS n UNION ALL SELECT n * 1000 FROM d WHERE n < 1e12) SELECT * FROM d"
	_, err = db.Exec(growth)
	wantMySQLMessage(t, "INT out of range", err, 1264, "22003", "Out of range value for column 'n' at row 5")
	// UNION DISTINCT compares rows as stored: 1.54 is 1.5, already met.
	if got := flat(queryStrings(t, db, "WITH RECURSIVE r AS (SELECT 1.5 AS x UNION SELECT x + 0.04 FROM r) SELECT COUNT(*), MAX(x) FROM r")); got != "1,1.5" {
		t.Errorf("UNION DISTINCT of stored rows: %s", got)
	}

	mustExecAll(t, db, "SET sql_mode = ''")
	wantWarnings(t, db, doubled,
		"1265 Data truncated for column 'str' at row 2", "1265 Data truncated for column 'str' at row 3")
	if got := flat(queryStrings(t, db, doubled)); got != "1,abc;2,abc;3,abc" {
		t.Errorf("not strict, cut: %s", got)
	}
	if got := flat(queryStrings(t, db, "WITH RECURSIVE d AS (SELECT 1 AS n, 0 AS i UNION ALL SELECT n * 1000, i + 1 FROM d WHERE i < 4) SELECT n FROM d")); got != "1;1000;1000000;1000000000;2147483647" {
		t.Errorf("not strict, the INT's bound: %s", got)
	}
}
