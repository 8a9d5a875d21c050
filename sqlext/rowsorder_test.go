package sqlext_test

import "testing"

// TestScansInKeyOrder: a table with a primary key (of at most
// sqlext.OrderedScanRows rows) is read in key order by a query that does
// not ask for an order, as InnoDB reads it; storage keeps rows in hash
// partitions, and such a query returned them partition by partition.
func TestScansInKeyOrder(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ko",
		"CREATE TABLE ko.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO ko.t VALUES (5, 1), (3, 2), (9, 3), (1, 4), (7, 5), (2, 6), (-4, 7)",
		"CREATE TABLE ko.c (a VARCHAR(5), b INT, PRIMARY KEY (a, b))",
		"INSERT INTO ko.c VALUES ('b', 2), ('a', 9), ('b', 1), ('a', 1), ('c', 0)",
		"DELETE FROM ko.t WHERE id = 3",
		"UPDATE ko.t SET id = 4 WHERE id = 9")
	wantAnswers(t, db, "scans", map[string]string{
		"SELECT * FROM ko.t":                                    "-4,7;1,4;2,6;4,3;5,1;7,5",
		"SELECT id FROM ko.t WHERE v > 2":                       "-4;1;2;4;7",
		"SELECT * FROM ko.c":                                    "a,1;a,9;b,1;b,2;c,0",
		"SELECT a FROM ko.c LIMIT 3":                            "a;a;b",
		"SELECT t.id, c.a FROM ko.t t JOIN ko.c c ON c.b = t.v": "5,a;5,b",
	})
}
