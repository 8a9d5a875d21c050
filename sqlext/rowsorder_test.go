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

// TestTransactionScansInKeyOrder: a transaction that has written a table
// reads it in key order too, its own rows among the others, and a
// statement that fails on several rows reports the first in that order,
// as InnoDB does. The transaction's scan went partition by partition,
// its own rows last. The answers are MariaDB 10.11's.
func TestTransactionScansInKeyOrder(t *testing.T) {
	db := inDatabase(t, "tko",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, b VARCHAR(6), UNIQUE KEY ub (b))",
		"INSERT INTO t VALUES (5, 1, NULL), (3, 2, NULL), (9, 3, NULL), (1, 4, NULL), (2, 5, NULL)")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "BEGIN",
		"INSERT INTO t VALUES (4, 6, NULL), (0, 7, 'long-t'), (14, 8, NULL)",
		"UPDATE t SET v = 30 WHERE id = 9",
		"DELETE FROM t WHERE id = 3")
	wantAnswers(t, db, "in the transaction", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', v) FROM t": "0:7,1:4,2:5,4:6,5:1,9:30,14:8",
		"SELECT id, v FROM t LIMIT 3":            "0,7;1,4;2,5",
		"SELECT id FROM t WHERE v > 4":           "0;2;4;9;14",
	})
	// Row 0 is too long for b and row 4 is a duplicate of 14: MySQL
	// fails on the first, by key.
	_, err := db.Exec("INSERT INTO t SELECT id + 10, v, CONCAT(b, '2') FROM t")
	wantMySQLMessage(t, "INSERT ... SELECT", err, 1406, "22001", "Data too long for column 'b' at row 1")
	mustExec(t, db, "ROLLBACK")
	wantAnswers(t, db, "after", map[string]string{"SELECT GROUP_CONCAT(id) FROM t": "1,2,3,5,9"})
}
