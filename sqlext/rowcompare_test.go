package sqlext_test

import "testing"

// TestRowComparisons: rows compare member by member, so a NULL member
// makes the answer NULL unless another member decides it; (a, b) IN
// (SELECT x, y ...) does not match NULL with NULL; keyset pagination by
// (a, b) > (x, y) reads on from a row ((2, NULL) > (1, 20) is true).
// The answers are MariaDB 10.11's.
func TestRowComparisons(t *testing.T) {
	db := inDatabase(t, "rc",
		"CREATE TABLE p (id INT PRIMARY KEY, g INT, x INT, KEY igx (g, x))",
		"CREATE TABLE q (id INT PRIMARY KEY, v INT, w INT)",
		"INSERT INTO p VALUES (1, 1, 10), (2, 1, 20), (3, 2, NULL), (4, 2, 5), (5, 3, 7)",
		"INSERT INTO q VALUES (1, 1, 20), (2, 2, NULL), (3, 3, 7), (4, 3, 7)")
	wantAnswers(t, db, "rows", map[string]string{
		"SELECT (3, NULL) = (3, NULL), (3, NULL) = (4, NULL), (3, NULL) IN ((3, NULL)), (1, 2) IN ((1, 2), (3, NULL)), (1, NULL) IN ((1, 2))": "NULL,0,NULL,1,NULL",
		"SELECT (1, NULL) <=> (1, NULL), (1, NULL) < (2, NULL), (1, NULL) <> (1, 2), (1, 2, 3) < (1, 2, 4), (1, 2, 3) <= (1, 2, 3)":           "1,1,NULL,1,1",
		"SELECT (1, 3) > (1, 2), (2, NULL) >= (1, 5), (1, NULL) > (1, 0)":                                                                     "1,1,NULL",
		"SELECT id FROM p WHERE (g, x) IN (SELECT v, w FROM q) ORDER BY id":                                                                   "2;5",
		"SELECT id FROM p WHERE (g, x) NOT IN ((1, 10), (2, 5)) ORDER BY id":                                                                  "2;5",
		"SELECT id, g, x FROM p WHERE (g, x) > (1, 20) ORDER BY g, x LIMIT 2":                                                                 "3,2,NULL;4,2,5",
		"SELECT p.id, q.id FROM p JOIN q ON (p.g, p.x) = (q.v, q.w) ORDER BY p.id, q.id":                                                      "2,1;5,3;5,4",
	})
}
