package sqlext_test

import "testing"

// TestTransactionKeysUnderCollation: inside a transaction, a row whose
// primary or unique key equals a row the transaction wrote under the
// column's collation ('Q' and 'q' under utf8mb4_0900_ai_ci) is that key
// held twice: 1062, skipped by INSERT IGNORE, updated by ON DUPLICATE KEY
// UPDATE, as against committed rows. The transaction took both, and its
// COMMIT then failed with the engine's words, losing all of it. The
// answers are MariaDB 10.11's.
func TestTransactionKeysUnderCollation(t *testing.T) {
	db := inDatabase(t, "tc",
		"CREATE TABLE u (id INT PRIMARY KEY, b VARCHAR(6), UNIQUE KEY ub (b))",
		"CREATE TABLE p (k VARCHAR(5) PRIMARY KEY, v INT)")
	mustExecAll(t, db, "BEGIN",
		"INSERT INTO u VALUES (20, 'q')",
		"INSERT IGNORE INTO u VALUES (21, 'Q')",
		"INSERT INTO p VALUES ('a', 1)",
		"INSERT IGNORE INTO p VALUES ('A', 3)",
		"INSERT INTO p VALUES ('A', 4) ON DUPLICATE KEY UPDATE v = 9")
	for _, q := range []string{"INSERT INTO u VALUES (22, 'Q')", "INSERT INTO p VALUES ('A', 2)"} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1062, "23000")
	}
	mustExecAll(t, db, "UPDATE p SET k = 'A' WHERE k = 'a'", "COMMIT")
	wantAnswers(t, db, "after the commit", map[string]string{
		"SELECT id, b FROM u": "20,q",
		"SELECT k, v FROM p":  "A,9",
	})
}

// TestUpdateToTextEqualUnderCollation: an UPDATE that changes text only
// to text the column's collation holds equal ('x' to 'X') writes it, as
// MySQL does, in a key column, another column and a table
// without a primary key, in and out of a transaction. The engine compared
// the rows under the collations and left them as they were. The answers
// are MariaDB 10.11's.
func TestUpdateToTextEqualUnderCollation(t *testing.T) {
	db := inDatabase(t, "ue",
		"CREATE TABLE p (k VARCHAR(5) PRIMARY KEY, v INT, b VARCHAR(5), UNIQUE KEY ub (b))",
		"INSERT INTO p VALUES ('a', 1, 'x'), ('c', 2, 'y')",
		"CREATE TABLE k (a VARCHAR(3))",
		"INSERT INTO k VALUES ('q'), ('q')",
		"CREATE TABLE g (id INT PRIMARY KEY, v INT, b VARCHAR(3))",
		"INSERT INTO g VALUES (1, 1, 'x')",
		"CREATE TRIGGER bump BEFORE UPDATE ON g FOR EACH ROW SET NEW.v = NEW.v + 1")
	mustExecAll(t, db,
		"UPDATE p SET k = 'A' WHERE k = 'a'",
		"UPDATE p SET b = 'X' WHERE v = 1",
		"BEGIN", "UPDATE p SET b = 'Y' WHERE v = 2", "COMMIT",
		"UPDATE k SET a = 'Q'",
		"UPDATE g SET b = 'X'")
	wantAnswers(t, db, "after the updates", map[string]string{
		"SELECT k, v, b FROM p ORDER BY v": "A,1,X;c,2,Y",
		"SELECT a FROM k":                  "Q;Q",
		"SELECT k FROM p WHERE k = 'a'":    "A",
		"SELECT v, b FROM g":               "2,X",
	})
}

// TestDuplicateKeyOrder: a row that holds the primary key of one row and
// a unique key of another is a duplicate of the first, as in InnoDB,
// which checks the primary key first, also when the other row was
// written earlier in the same statement: ON DUPLICATE KEY UPDATE changes
// that one. It changed the row written earlier. The answers are
// MariaDB 10.11's.
func TestDuplicateKeyOrder(t *testing.T) {
	db := inDatabase(t, "dk",
		"CREATE TABLE t (id INT PRIMARY KEY, b VARCHAR(3), c INT, UNIQUE KEY ub (b))",
		"INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2)",
		"INSERT INTO t VALUES (1, 'q', 0), (2, 'x', 0) ON DUPLICATE KEY UPDATE c = c * 10")
	wantAnswers(t, db, "after the insert", map[string]string{"SELECT id, b, c FROM t ORDER BY id": "1,x,10;2,y,20"})
}
