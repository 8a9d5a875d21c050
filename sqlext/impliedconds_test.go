package sqlext_test

import (
	"strings"
	"testing"
)

// TestRangeReadsDropTheirConditions: a read of an index's ranges on an
// integer column is left without the comparisons its ranges already
// meet, and answers as before: bounds either side of a constant, a
// constant that is not an integer, text, NULLs, keys out of the
// column's range, inside a transaction that wrote the table, and a join
// by either of two keys, whose inner table keeps its own condition. The
// answers are MariaDB 10.11's.
func TestRangeReadsDropTheirConditions(t *testing.T) {
	db := inDatabase(t, "ic",
		"CREATE TABLE t (id INT PRIMARY KEY, k INT, v INT, KEY ik (k))",
		"INSERT INTO t VALUES (-3, NULL, 1), (1, 5, 2), (2, 5, 3), (4, NULL, 4), (5, 7, 5), (7, 9, 6), (10, 2, 7), (12, 5, 8), (20, 1, 9)",
		"CREATE TABLE u (id INT PRIMARY KEY, aid INT, g INT, KEY ia (aid), KEY ig (g))",
		"INSERT INTO u VALUES (1, 1, 5), (2, 2, 7), (3, 5, 9), (4, 7, 5), (5, 12, 2), (6, 20, 1), (7, 4, 5), (8, 10, 9)")
	db.SetMaxOpenConns(1)
	answers := map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id BETWEEN 2 AND 10":                                                            "2,4,5,7,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id > 2 AND id <= 12 AND v > 4":                                                  "5,7,10,12",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE 5 < id":                                                                         "7,10,12,20",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id BETWEEN 1.5 AND 10.5":                                                        "2,4,5,7,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id = '7' OR id = 12":                                                            "7,12",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE k < 6":                                                                          "1,2,10,12,20",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE k >= 5 AND k <= 7":                                                              "1,2,5,12",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id < 18446744073709551615 AND id > -2147483649":                                 "-3,1,2,4,5,7,10,12,20",
		"SELECT GROUP_CONCAT(t.id, ':', u.id ORDER BY t.id, u.id) FROM t JOIN u ON u.aid = t.id OR u.g = t.k WHERE u.id < 5 AND t.id > 1": "2:1,2:2,2:4,5:2,5:3,7:3,7:4,12:1,12:4",
	}
	wantAnswers(t, db, "ranges", answers)
	plan := flat(queryStrings(t, db, "EXPLAIN FORMAT=TREE SELECT SUM(v) FROM t WHERE id BETWEEN 2 AND 10"))
	if strings.Contains(plan, "Filter") || !strings.Contains(plan, "IndexedTableAccess") {
		t.Errorf("a range of the primary key is read as\n%s", plan)
	}
	// Inside a transaction that wrote the table, its own rows too.
	mustExecAll(t, db, "BEGIN", "INSERT INTO t VALUES (3, 6, 10), (11, 5, 11)", "DELETE FROM t WHERE id = 4")
	wantAnswers(t, db, "in a transaction", map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE id BETWEEN 2 AND 10": "2,3,5,7,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE k >= 5 AND k <= 7":   "1,2,3,5,11,12",
	})
	mustExec(t, db, "ROLLBACK")
}
