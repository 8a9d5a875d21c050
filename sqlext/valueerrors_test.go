package sqlext_test

import (
	"testing"
)

// TestValueErrorsAsMySQL: a value its column cannot hold fails a strict
// INSERT, REPLACE, INSERT ... SELECT, UPDATE or ON DUPLICATE KEY UPDATE
// with MySQL's code and text, naming the column and the row, and of a
// row's several bad values the first column's is answered (a NULL in a
// later NOT NULL column does not come first); nothing is written. The
// codes and rows are MariaDB 10.11's, the texts MySQL 8.0's (MariaDB
// names a column `db`.`table`.`column` in 1366 and 1292). The engine
// answered some with 1105 and most with texts of its own, without the
// row. Under IGNORE and outside strict mode the values are stored as
// MySQL stores them (text cut to the column at a character's boundary,
// the number in front of text, 0, a range's bound, under IGNORE the
// zero date, the empty ENUM
// member, YEAR 0000, a BIT's largest value, and for NULL in a statement
// of many rows the column's implicit default), each error a warning
// with MySQL's text (the engine refused them outside strict mode, and
// under IGNORE stored 0 for '5x' and cut text in the middle of a
// character).
func TestValueErrorsAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ve", "USE ve",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(6), c DECIMAL(6,2) NOT NULL DEFAULT 1.50)",
		"CREATE TABLE ty (f DOUBLE, d DATE, dt DATETIME, e ENUM('a','b'), tm TIME, y YEAR, bt BIT(2))",
		"INSERT INTO t VALUES (1, 1, 'a', 1), (2, 2, 'b', 2)")
	cases := []struct {
		q     string
		code  uint16
		state string
		msg   string
	}{
		{"INSERT INTO t VALUES (-1, 50, 'long-text', NULL)", 1406, "22001", "Data too long for column 'b' at row 1"},
		{"REPLACE INTO t VALUES (-1, 50, 'long-text', NULL)", 1406, "22001", "Data too long for column 'b' at row 1"},
		{"INSERT INTO t VALUES (-1, 'x', 'a', NULL)", 1366, "HY000", "Incorrect integer value: 'x' for column 'a' at row 1"},
		{"INSERT INTO t VALUES (3, 1, 'a', 1), (-1, 'x', 'a', 2)", 1366, "HY000", "Incorrect integer value: 'x' for column 'a' at row 2"},
		{"INSERT INTO t VALUES (-1, 1, 'a', NULL)", 1048, "23000", "Column 'c' cannot be null"},
		{"INSERT INTO t VALUES (-1, 1, 'a', 'zz')", 1366, "HY000", "Incorrect decimal value: 'zz' for column 'c' at row 1"},
		{"INSERT INTO t VALUES (-1, 1, 'a', 12345678)", 1264, "22003", "Out of range value for column 'c' at row 1"},
		{"INSERT INTO t VALUES (-1, ' 5x', 'a', 1)", 1265, "01000", "Data truncated for column 'a' at row 1"},
		{"INSERT INTO t VALUES (-1, '--5', 'a', 1)", 1366, "HY000", "Incorrect integer value: '--5' for column 'a' at row 1"},
		{"INSERT INTO ty (f) VALUES ('x')", 1366, "HY000", "Incorrect double value: 'x' for column 'f' at row 1"},
		{"INSERT INTO ty (f) VALUES ('1x')", 1265, "01000", "Data truncated for column 'f' at row 1"},
		{"INSERT INTO ty (d) VALUES ('2024-13-01')", 1292, "22007", "Incorrect date value: '2024-13-01' for column 'd' at row 1"},
		{"INSERT INTO ty (dt) VALUES ('zz')", 1292, "22007", "Incorrect datetime value: 'zz' for column 'dt' at row 1"},
		{"INSERT INTO ty (e) VALUES ('c')", 1265, "01000", "Data truncated for column 'e' at row 1"},
		{"INSERT INTO ty (tm) VALUES ('x')", 1292, "22007", "Incorrect time value: 'x' for column 'tm' at row 1"},
		{"INSERT INTO ty (y) VALUES (3000)", 1264, "22003", "Out of range value for column 'y' at row 1"},
		{"INSERT INTO ty (bt) VALUES (7)", 1406, "22001", "Data too long for column 'bt' at row 1"},
		{"INSERT INTO t SELECT id + 10, 'x', b, c FROM t", 1366, "HY000", "Incorrect integer value: 'x' for column 'a' at row 1"},
		{"UPDATE t SET a = 'x' WHERE id = 2", 1366, "HY000", "Incorrect integer value: 'x' for column 'a' at row 1"},
		{"UPDATE t SET b = CONCAT(b, 'long-text') WHERE id > 1", 1406, "22001", "Data too long for column 'b' at row 1"},
		{"UPDATE t SET a = IF(id = 2, 'x', 5) ORDER BY id", 1366, "HY000", "Incorrect integer value: 'x' for column 'a' at row 2"},
		{"UPDATE t SET a = 99999999999", 1264, "22003", "Out of range value for column 'a' at row 1"},
		{"UPDATE t SET c = 'zz'", 1366, "HY000", "Incorrect decimal value: 'zz' for column 'c' at row 1"},
		{"UPDATE t SET b = 'long-text', c = NULL", 1406, "22001", "Data too long for column 'b' at row 1"},
		{"UPDATE t SET c = NULL, b = 'long-text'", 1048, "23000", "Column 'c' cannot be null"},
		{"INSERT INTO t VALUES (1, 1, 'a', 1) ON DUPLICATE KEY UPDATE a = 'q'", 1366, "HY000", "Incorrect integer value: 'q' for column 'a' at row 1"},
	}
	for _, c := range cases {
		_, err := db.Exec(c.q)
		wantMySQLMessage(t, c.q, err, c.code, c.state, c.msg)
	}
	wantAnswers(t, db, "nothing written", map[string]string{
		"SELECT id, a, b, c FROM t ORDER BY id": "1,1,a,1.00;2,2,b,2.00",
		"SELECT COUNT(*) FROM ty":               "0",
	})
	mustExecAll(t, db, "INSERT IGNORE INTO t VALUES (4, 'x', 'long-text', NULL)",
		"CREATE TABLE ig (id INT PRIMARY KEY, a INT, b VARCHAR(3), c DECIMAL(5,2), f DOUBLE)")
	wantAnswers(t, db, "ignored", map[string]string{
		"SELECT id, a, b, c FROM t WHERE id > 3 ORDER BY id": "4,0,long-t,0.00",
	})
	// IGNORE stores what MySQL stores outside strict mode: the engine
	// stored 0 for '5x', and cut 'ééééé' by bytes, in the middle of a
	// character, so that no read of the row succeeded.
	wantLeveledWarnings(t, db, "INSERT IGNORE INTO ig VALUES (1, '5x', 'ééééé', '1.5x', '2.5e'), (2, 'x', 'abcd', 'zz', 'q')",
		"Warning 1265 Data truncated for column 'a' at row 1",
		"Warning 1265 Data truncated for column 'b' at row 1",
		"Warning 1265 Data truncated for column 'c' at row 1",
		"Warning 1265 Data truncated for column 'f' at row 1",
		"Warning 1366 Incorrect integer value: 'x' for column 'a' at row 2",
		"Warning 1265 Data truncated for column 'b' at row 2",
		"Warning 1366 Incorrect decimal value: 'zz' for column 'c' at row 2",
		"Warning 1366 Incorrect double value: 'q' for column 'f' at row 2")
	wantLeveledWarnings(t, db, "UPDATE IGNORE ig SET a = '7y', b = 'wxyz' WHERE id = 2",
		"Warning 1265 Data truncated for column 'a' at row 1",
		"Warning 1265 Data truncated for column 'b' at row 1")
	mustExec(t, db, "CREATE TABLE eb (id INT PRIMARY KEY, e ENUM('a','b'), y YEAR, bt BIT(2))")
	mustExec(t, db, "CREATE TABLE dd (id INT PRIMARY KEY, d DATE, dt DATETIME)")
	wantLeveledWarnings(t, db, "INSERT IGNORE INTO dd VALUES (1, '2024-13-01', 'zz')",
		"Warning 1265 Data truncated for column 'd' at row 1", "Warning 1265 Data truncated for column 'dt' at row 1")
	enumYearBit := []string{
		"Warning 1265 Data truncated for column 'e' at row 1",
		"Warning 1264 Out of range value for column 'y' at row 1",
		"Warning 1264 Out of range value for column 'bt' at row 1"}
	wantLeveledWarnings(t, db, "INSERT IGNORE INTO eb VALUES (2, 'z', -5, 9)", enumYearBit...)
	// A NULL is the column's implicit default, warned of in column order.
	mustExec(t, db, "CREATE TABLE ni (id INT PRIMARY KEY, n INT NOT NULL, s VARCHAR(3) NOT NULL)")
	wantLeveledWarnings(t, db, "INSERT IGNORE INTO ni VALUES (5, NULL, 'abcdef')",
		"Warning 1048 Column 'n' cannot be null", "Warning 1265 Data truncated for column 's' at row 1")
	wantLeveledWarnings(t, db, "INSERT IGNORE INTO ni VALUES (6, 'x', NULL)",
		"Warning 1366 Incorrect integer value: 'x' for column 'n' at row 1", "Warning 1048 Column 's' cannot be null")
	wantAnswers(t, db, "ignored, as MySQL stores them", map[string]string{
		"SELECT id, a, b, c, f FROM ig ORDER BY id":             "1,5,ééé,1.50,2.5;2,7,wxy,0.00,0",
		"SELECT id, n, CONCAT('[', s, ']') FROM ni ORDER BY id": "5,0,[abc];6,0,[]",
	})

	// Outside strict mode the values are stored as MySQL stores them,
	// each error a warning.
	mustExecAll(t, db, "SET sql_mode = ''",
		"CREATE TABLE ns (id INT PRIMARY KEY, a INT, b VARCHAR(4), c DECIMAL(6,2), f DOUBLE, u TINYINT UNSIGNED, ch CHAR(3))")
	wantLeveledWarnings(t, db, "INSERT INTO ns VALUES (1, '5x', 'long-text', 'zz', '1.5x', 300, 'abcdef')",
		"Warning 1265 Data truncated for column 'a' at row 1",
		"Warning 1265 Data truncated for column 'b' at row 1",
		"Warning 1366 Incorrect decimal value: 'zz' for column 'c' at row 1",
		"Warning 1265 Data truncated for column 'f' at row 1",
		"Warning 1264 Out of range value for column 'u' at row 1",
		"Warning 1265 Data truncated for column 'ch' at row 1")
	wantLeveledWarnings(t, db, "INSERT INTO ns (id, a, c, f, u) VALUES (2, 'x', '12345678', 'x', -1)",
		"Warning 1366 Incorrect integer value: 'x' for column 'a' at row 1",
		"Warning 1264 Out of range value for column 'c' at row 1",
		"Warning 1366 Incorrect double value: 'x' for column 'f' at row 1",
		"Warning 1264 Out of range value for column 'u' at row 1")
	wantLeveledWarnings(t, db, "UPDATE ns SET a = 'q7', b = 'abcdefgh' WHERE id = 2",
		"Warning 1366 Incorrect integer value: 'q7' for column 'a' at row 1",
		"Warning 1265 Data truncated for column 'b' at row 1")
	wantLeveledWarnings(t, db, "INSERT INTO eb VALUES (1, 'c', 3000, 7)", enumYearBit...)
	_, err := db.Exec("INSERT INTO dd VALUES (2, 'x', '2024-01-01 10:00:00')")
	wantMySQLMessage(t, "a date outside strict mode", err, 1292, "22007", "Incorrect date value: 'x' for column 'd' at row 1")
	// A NULL for a NOT NULL column: in a statement of many rows the
	// column's implicit default, in one of one row still the error.
	mustExec(t, db, "CREATE TABLE nn (id INT PRIMARY KEY, n INT NOT NULL, s VARCHAR(3) NOT NULL)")
	wantLeveledWarnings(t, db, "INSERT INTO nn VALUES (1, NULL, NULL), (2, 5, 'x')",
		"Warning 1048 Column 'n' cannot be null", "Warning 1048 Column 's' cannot be null")
	wantLeveledWarnings(t, db, "INSERT INTO nn SELECT id + 10, NULL, s FROM nn",
		"Warning 1048 Column 'n' cannot be null", "Warning 1048 Column 'n' cannot be null")
	_, err = db.Exec("INSERT INTO nn VALUES (3, NULL, 'y')")
	wantMySQLMessage(t, "one row's NULL", err, 1048, "23000", "Column 'n' cannot be null")
	wantAnswers(t, db, "not strict", map[string]string{
		"SELECT id, a, b, c, f, u, ch FROM ns ORDER BY id":                            "1,5,long,0.00,1.5,255,abc;2,0,abcd,9999.99,0,0,NULL",
		"SELECT id, CONCAT('[', e, ']'), y + 0, bt + 0 FROM eb ORDER BY id":           "1,[],0,3;2,[],0,3",
		"SELECT id, d = '0000-00-00', dt = '0000-00-00 00:00:00' FROM dd ORDER BY id": "1,1,1",
		"SELECT id, n, CONCAT('[', s, ']') FROM nn ORDER BY id":                       "1,0,[];2,5,[x];11,0,[];12,0,[x]",
	})
}

// TestNullUntilBeforeTriggers: in strict mode, a NULL an UPDATE assigns
// to a NOT NULL column of a table with triggers waits for the BEFORE
// UPDATE triggers, which may replace it, and the row is checked after
// them, as in MySQL: a later assignment's error comes first, and a
// trigger that sets the column lets the UPDATE through (it failed with
// 1048 before the trigger ran). A table without triggers answers the
// NULL as it is assigned. The answers are MariaDB 10.11's.
func TestNullUntilBeforeTriggers(t *testing.T) {
	db := inDatabase(t, "nt",
		"CREATE TABLE fixed (id INT PRIMARY KEY, b VARCHAR(3), c VARCHAR(10) NOT NULL)",
		"CREATE TABLE watched (id INT PRIMARY KEY, b VARCHAR(3), c VARCHAR(10) NOT NULL, n INT DEFAULT 0)",
		"CREATE TABLE plain (id INT PRIMARY KEY, b VARCHAR(3), c VARCHAR(10) NOT NULL)",
		"INSERT INTO fixed VALUES (1, 'x', 'c')", "INSERT INTO watched VALUES (1, 'x', 'c', 0)", "INSERT INTO plain VALUES (1, 'x', 'c')",
		"CREATE TRIGGER fix BEFORE UPDATE ON fixed FOR EACH ROW SET NEW.c = COALESCE(NEW.c, 'fixed')",
		"CREATE TRIGGER count_up BEFORE UPDATE ON watched FOR EACH ROW SET NEW.n = OLD.n + 1")
	mustExec(t, db, "UPDATE fixed SET c = NULL")
	wantAnswers(t, db, "the trigger's value", map[string]string{"SELECT c FROM fixed": "fixed"})
	for _, c := range []struct {
		q    string
		code uint16
		msg  string
	}{
		{"UPDATE watched SET c = NULL, b = 'long-text'", 1406, "Data too long for column 'b' at row 1"},
		{"UPDATE watched SET c = NULL", 1048, "Column 'c' cannot be null"},
		{"UPDATE plain SET c = NULL, b = 'long-text'", 1048, "Column 'c' cannot be null"},
	} {
		_, err := db.Exec(c.q)
		wantMySQLMessage(t, c.q, err, c.code, "", c.msg)
	}
	wantAnswers(t, db, "nothing written", map[string]string{"SELECT b, c, n FROM watched": "x,c,0"})
}
