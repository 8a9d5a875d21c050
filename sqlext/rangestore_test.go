package sqlext_test

import "testing"

// TestStoresBeyondRange: a value beyond an integer or DECIMAL column's
// range fails the statement with 1264 in strict mode, in UPDATE and ON
// DUPLICATE KEY UPDATE as in INSERT, and under IGNORE is stored as the
// bound nearest it, with that warning. An UPDATE stored INT's largest
// value for a + 1 without a word, INSERT IGNORE stored 0.00 for a DECIMAL
// too large, and -1 became 255 in a TINYINT UNSIGNED. The answers and
// warnings are MariaDB 10.11's.
func TestStoresBeyondRange(t *testing.T) {
	db := inDatabase(t, "rs",
		"CREATE TABLE k (id INT PRIMARY KEY, a INT, b TINYINT UNSIGNED, c DECIMAL(6,2))",
		"INSERT INTO k VALUES (1, 2147483647, 1, 1), (2, 0, 2, 2)")
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"UPDATE k SET a = a + 1 WHERE id = 1",
		"UPDATE k SET c = 10000",
		"INSERT INTO k VALUES (1, 0, 0, 0) ON DUPLICATE KEY UPDATE c = -99999",
		"INSERT INTO k VALUES (3, 0, 0, 10000)",
		"INSERT INTO k VALUES (3, 0, -1, 1)",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1264, "22003")
	}
	wantAnswers(t, db, "after the refused writes", map[string]string{"SELECT * FROM k ORDER BY id": "1,2147483647,1,1.00;2,0,2,2.00"})
	wantWarnings(t, db, "INSERT IGNORE INTO k VALUES (4, -2147483649, -1, 10000), (5, 0, 256, -10000)",
		"1264 Out of range value for column 'a' at row 1", "1264 Out of range value for column 'b' at row 1",
		"1264 Out of range value for column 'c' at row 1", "1264 Out of range value for column 'b' at row 2",
		"1264 Out of range value for column 'c' at row 2")
	wantWarnings(t, db, "UPDATE IGNORE k SET c = c * 2 ORDER BY id",
		"1264 Out of range value for column 'c' at row 3", "1264 Out of range value for column 'c' at row 4")
	wantWarnings(t, db, "UPDATE IGNORE k SET a = a + 1 WHERE id = 1", "1264 Out of range value for column 'a' at row 1")
	wantAnswers(t, db, "after the writes under IGNORE", map[string]string{
		"SELECT * FROM k ORDER BY id": "1,2147483647,1,2.00;2,0,2,4.00;4,-2147483648,0,9999.99;5,0,255,-9999.99",
	})
}

// TestNullAssignedToNotNull: NULL assigned to a NOT NULL column by UPDATE
// or ON DUPLICATE KEY UPDATE is 1048 in strict mode, and under IGNORE the
// column's implicit default, with warning 1048, as it is assigned, so a
// later assignment reads it. ON DUPLICATE KEY UPDATE ... = NULL was
// refused only by storage, with 1105 (and inside a transaction read back
// as NULL until the commit failed); UPDATE IGNORE skipped the row, and
// SET a = NULL, a = a + 1 stored 0. The answers are MariaDB 10.11's.
func TestNullAssignedToNotNull(t *testing.T) {
	db := inDatabase(t, "nn",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT NOT NULL, s VARCHAR(3) NOT NULL)",
		"INSERT INTO t VALUES (1, 5, 'x')")
	for _, q := range []string{
		"INSERT INTO t VALUES (1, 2, 'y') ON DUPLICATE KEY UPDATE a = NULL",
		"UPDATE t SET s = NULL",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1048, "23000")
	}
	mustExecAll(t, db, "BEGIN")
	_, err := db.Exec("INSERT INTO t VALUES (1, 2, 'y') ON DUPLICATE KEY UPDATE s = NULL")
	wantMySQLError(t, err, 1048, "23000")
	mustExecAll(t, db, "COMMIT")
	wantWarnings(t, db, "UPDATE IGNORE t SET a = NULL, a = a + 1", "1048 Column 'a' cannot be null")
	wantWarnings(t, db, "INSERT IGNORE INTO t VALUES (1, 2, 'y') ON DUPLICATE KEY UPDATE s = NULL", "1048 Column 's' cannot be null")
	wantAnswers(t, db, "after the writes under IGNORE", map[string]string{"SELECT id, a, CONCAT('[', s, ']') FROM t": "1,1,[]"})
}
