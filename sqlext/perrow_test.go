package sqlext_test

import (
	"strconv"
	"testing"
)

// TestPerRowFunctionsInWhere: RAND() in a WHERE is evaluated for every
// row, as in MySQL, where the planner had made it constant: WHERE
// RAND() < 0.5, MySQL's way of sampling about half a table, gave all rows
// or none. NOW() stays one value for the statement, and a range on it
// keeps its index.
func TestPerRowFunctionsInWhere(t *testing.T) {
	db := inDatabase(t, "pr",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATETIME, KEY (d))",
		"SET @@cte_max_recursion_depth = 2000",
		"INSERT INTO t WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000) SELECT i, NOW() - INTERVAL i HOUR FROM r")
	for _, q := range []string{
		"SELECT COUNT(*) FROM t WHERE RAND() < 0.5",
		"SELECT COUNT(*) FROM t WHERE id > 0 AND RAND() < 0.5",
		"SELECT COUNT(*) FROM (SELECT id FROM t WHERE RAND() * 2 < 1) s",
	} {
		// 1,000 draws of a fair coin: 500 ± 15.8, so outside 350-650
		// about once in 10^21 runs.
		n, err := strconv.Atoi(flat(queryStrings(t, db, q)))
		if err != nil || n < 350 || n > 650 {
			t.Errorf("%s: %d rows (%v), want about half of 1000", q, n, err)
		}
	}
	wantAnswers(t, db, "per statement", map[string]string{
		"SELECT COUNT(*) FROM t WHERE id <= 10 AND RAND() >= 0":                          "10",
		"SELECT COUNT(*) FROM t WHERE d > NOW() - INTERVAL 48 HOUR - INTERVAL 30 MINUTE": "48",
	})
	plan := flat(queryStrings(t, db, "EXPLAIN SELECT id FROM t WHERE d > NOW() - INTERVAL 1 DAY"))
	if want := "1,SIMPLE,t,NULL,range,PRIMARY,d,d"; len(plan) < len(want) || plan[:len(want)] != want {
		t.Errorf("NOW() in a range: plan %s, want a range on d", plan)
	}
}

// TestSubqueriesOfPerRowFunctions: a scalar subquery that reads nothing
// of the outer row runs again for each row when it calls RAND(), UUID()
// or a stored function, as in MySQL; the engine kept its first value for
// every row. One that reads only NOW() keeps its value. The answers are
// MariaDB 10.11's.
func TestSubqueriesOfPerRowFunctions(t *testing.T) {
	db := inDatabase(t, "sv",
		"CREATE TABLE t (id INT PRIMARY KEY)",
		"SET @@cte_max_recursion_depth = 2000",
		"INSERT INTO t WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000) SELECT i FROM r",
		"CREATE TABLE lg (n INT)",
		`CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA BEGIN
			INSERT INTO lg VALUES (1);
			RETURN (SELECT COUNT(*) FROM lg);
		END`)
	db.SetMaxOpenConns(1)
	wantAnswers(t, db, "per row", map[string]string{
		"SELECT COUNT(DISTINCT (SELECT UUID())) FROM t":                         "1000",
		"SELECT COUNT(DISTINCT (SELECT NOW(6))) FROM t":                         "1",
		"SELECT COUNT(DISTINCT (SELECT RAND(3))) FROM t WHERE id <= 3":          "3",
		"SELECT GROUP_CONCAT((SELECT bump()) ORDER BY id) FROM t WHERE id <= 3": "1,2,3",
	})
	n, err := strconv.Atoi(flat(queryStrings(t, db, "SELECT COUNT(DISTINCT (SELECT RAND())) FROM t")))
	if err != nil || n < 990 {
		t.Errorf("(SELECT RAND()) over 1,000 rows: %d distinct values (%v), want about 1,000", n, err)
	}
}
