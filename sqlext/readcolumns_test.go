package sqlext_test

import "testing"

// TestQueriesReadingSomeColumns: index lookups of a query read only the
// columns the query names (and none of the row when the index holds
// them all); the answers stay those of whole rows, with joins, semi and
// anti joins, correlated subqueries, aliases, DISTINCT, UNION, grouping,
// derived tables and outer joins, and with rows the open transaction
// wrote. b's 20,006 rows fill its partitions' tails, so most of them,
// the six the queries find among them, are read from sealed batches,
// where a lookup leaves columns out. The answers are MariaDB 10.11's.
func TestQueriesReadingSomeColumns(t *testing.T) {
	db := inDatabase(t, "rc",
		"CREATE TABLE a (id INT PRIMARY KEY, g INT, s VARCHAR(10), KEY ig (g))",
		"CREATE TABLE b (id INT PRIMARY KEY, aid INT, v INT, KEY iaid (aid))",
		"CREATE TABLE digits (d INT PRIMARY KEY)",
		"INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
		"INSERT INTO a VALUES (1, 10, 'p'), (2, 20, 'q'), (3, NULL, 'p'), (4, 10, NULL)",
		"INSERT INTO b SELECT * FROM (SELECT 1 AS id, 1 AS aid, 5 AS v UNION ALL SELECT 2, 1, 5 UNION ALL SELECT 3, 2, 7 UNION ALL SELECT 4, NULL, 5 UNION ALL SELECT 5, 4, NULL UNION ALL SELECT 6, 9, 1 UNION ALL SELECT 100 + x, -100 - x, NULL FROM (SELECT d1.d * 10000 + d2.d * 1000 + d3.d * 100 + d4.d * 10 + d5.d AS x FROM digits d1, digits d2, digits d3, digits d4, digits d5 WHERE d1.d < 2) AS n) AS r",
	)
	wantAnswers(t, db, "some columns", map[string]string{
		"SELECT COUNT(*) FROM a JOIN b ON a.id = b.aid":                                                                     "4",
		"SELECT a.id, b.id FROM a JOIN b ON a.id = b.aid ORDER BY a.id, b.id":                                               "1,1;1,2;2,3;4,5",
		"SELECT DISTINCT b.v FROM a JOIN b ON b.aid = a.id ORDER BY b.v":                                                    "NULL;5;7",
		"SELECT DISTINCT b.* FROM a JOIN b ON b.aid = a.id ORDER BY b.id":                                                   "1,1,5;2,1,5;3,2,7;5,4,NULL",
		"SELECT * FROM b WHERE aid = 1 ORDER BY id":                                                                         "1,1,5;2,1,5",
		"SELECT a.s FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.aid = a.id AND b.v = 5) ORDER BY a.id":                     "p",
		"SELECT a.id FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.aid = a.id) ORDER BY a.id":                            "3",
		"SELECT a.id, (SELECT MAX(v) FROM b WHERE b.aid = a.id) FROM a ORDER BY a.id":                                       "1,5;2,7;3,NULL;4,NULL",
		"SELECT x.v, y.v FROM b AS x JOIN b AS y ON x.aid = y.id ORDER BY x.id":                                             "5,5;5,5;7,5;NULL,5",
		"SELECT aid FROM b WHERE aid = 1 UNION SELECT v FROM b WHERE aid = 2 ORDER BY 1":                                    "1;7",
		"SELECT a.g, COUNT(b.v) FROM a JOIN b ON b.aid = a.id GROUP BY a.g HAVING MAX(b.v) > 4 ORDER BY a.g":                "10,2;20,1",
		"SELECT a.s FROM a JOIN b ON b.aid = a.id ORDER BY b.v DESC, a.id LIMIT 2":                                          "q;p",
		"SELECT b.id FROM b WHERE b.aid IN (SELECT id FROM a WHERE g = 10) ORDER BY b.id":                                   "1;2;5",
		"SELECT a.id FROM a WHERE a.g IN (SELECT v * 2 FROM b) ORDER BY a.id":                                               "1;4",
		"SELECT d.s FROM (SELECT a.s, b.v FROM a JOIN b ON b.aid = a.id) AS d WHERE d.v = 7":                                "q",
		"SELECT a.id, b.v FROM a LEFT JOIN b ON b.aid = a.id ORDER BY a.id, b.v":                                            "1,5;1,5;2,7;3,NULL;4,NULL",
		"SELECT b.v FROM b WHERE b.aid = 1 AND (SELECT COUNT(*) FROM a WHERE a.id = b.id) > 0 ORDER BY b.v":                 "5;5",
		"SELECT COUNT(*), COUNT(v), SUM(aid) FROM b WHERE aid < 0":                                                          "20000,0,-201990000",
		"SELECT COUNT(*) FROM (SELECT * FROM b WHERE aid = 1 UNION SELECT * FROM b WHERE aid = 1) AS u":                     "2",
		"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM b WHERE aid = 1) AS d":                                                "2",
		"SELECT COUNT(*) FROM (SELECT * FROM b WHERE aid = 1 AND v = 5 UNION SELECT * FROM b WHERE aid = 1 AND v = 5) AS u": "2",
		"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM b WHERE aid = 1 AND v = 5) AS d":                                      "2",
		"SELECT SUM(v), MAX(id), COUNT(*) FROM b WHERE v IS NOT NULL":                                                       "23,6,5",
		"SELECT DISTINCT v FROM b ORDER BY v":                                                                               "NULL;1;5;7",
		"SELECT COUNT(*) FROM b AS x JOIN b AS y ON x.v = y.v WHERE x.id < 10":                                              "11",
		"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM b WHERE v = 5) AS d":                                                  "3",
		"SELECT COUNT(*) FROM (SELECT * FROM b WHERE v = 5 UNION SELECT * FROM b WHERE v = 5) AS u":                         "3",
	})
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, stmt := range []string{"INSERT INTO b VALUES (7, 3, 8)", "UPDATE b SET aid = 3 WHERE id = 1", "DELETE FROM b WHERE id = 3"} {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatal(stmt, err)
		}
	}
	var got string
	err = tx.QueryRow("SELECT GROUP_CONCAT(CONCAT(a.id, ':', b.id) ORDER BY a.id, b.id) FROM a JOIN b ON a.id = b.aid").Scan(&got)
	if want := "1:2,3:1,3:7,4:5"; err != nil || got != want {
		t.Errorf("join in a transaction: %q (%v), want %q", got, err, want)
	}
}
