package sqlext_test

import (
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
