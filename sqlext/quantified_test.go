package sqlext_test

import "testing"

// TestQuantifiedComparisons: x op ANY (SELECT ...), SOME and ALL, which
// the engine's parser refused, answer as in MySQL with NULLs on either
// side, empty subqueries, correlation and nesting, in WHERE and in the
// select list. The answers are MariaDB 10.11's.
func TestQuantifiedComparisons(t *testing.T) {
	db := inDatabase(t, "qt",
		"CREATE TABLE s (id INT PRIMARY KEY, x INT)",
		"CREATE TABLE v (id INT PRIMARY KEY, y INT, k INT)",
		"INSERT INTO s VALUES (1, 1), (2, 5), (3, 9), (4, NULL)",
		"INSERT INTO v VALUES (1, 2, 1), (2, 5, 1), (3, 7, 1), (4, 3, 2), (5, NULL, 2), (6, 8, 3)")
	wantAnswers(t, db, "quantified", map[string]string{
		"SELECT id FROM s WHERE x = ANY (SELECT y FROM v WHERE k = 1) ORDER BY id":                                                                                                                   "2",
		"SELECT id FROM s WHERE x <> ALL (SELECT y FROM v WHERE k = 1) ORDER BY id":                                                                                                                  "1;3",
		"SELECT id, x > ANY (SELECT y FROM v WHERE k = 1), x > ALL (SELECT y FROM v WHERE k = 1), x < SOME (SELECT y FROM v WHERE k = 1) FROM s ORDER BY id":                                         "1,0,0,1;2,1,0,1;3,1,1,0;4,NULL,NULL,NULL",
		"SELECT id, x >= ALL (SELECT y FROM v WHERE k = 2), x < ANY (SELECT y FROM v WHERE k = 2), x = ALL (SELECT y FROM v WHERE k = 3), x <> ANY (SELECT y FROM v WHERE k = 3) FROM s ORDER BY id": "1,0,1,0,1;2,NULL,NULL,0,1;3,NULL,NULL,0,1;4,NULL,NULL,NULL,NULL",
		"SELECT id, x > ALL (SELECT y FROM v WHERE k = 9), x > ANY (SELECT y FROM v WHERE k = 9) FROM s ORDER BY id":                                                                                 "1,1,0;2,1,0;3,1,0;4,1,0",
		"SELECT id FROM s WHERE NOT (x + 1 <= ANY (SELECT y FROM v WHERE v.k = 2 AND v.id <> s.id)) ORDER BY id":                                                                                     "",
		"SELECT id FROM s WHERE x != ALL (SELECT y FROM v WHERE k = 2) ORDER BY id":                                                                                                                  "",
		"SELECT COUNT(*) FROM s WHERE x > ALL (SELECT y FROM v WHERE y < ALL (SELECT y FROM v WHERE k = 3))":                                                                                         "1",
	})
	// UNION ALL and SELECT ALL are no quantifiers.
	wantAnswers(t, db, "ALL", map[string]string{
		"SELECT ALL x FROM s WHERE id = 1 UNION ALL (SELECT y FROM v WHERE id = 1)": "1;2",
	})
}
