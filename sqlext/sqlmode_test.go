package sqlext_test

import (
	"slices"
	"strings"
	"testing"
)

// TestDefaultSQLMode: sql_mode starts as MySQL 8.0's, globally and in a
// new session.
func TestDefaultSQLMode(t *testing.T) {
	_, _, db := serve(t)
	want := []string{"ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION", "NO_ZERO_DATE", "NO_ZERO_IN_DATE", "ONLY_FULL_GROUP_BY", "STRICT_TRANS_TABLES"}
	for _, q := range []string{"SELECT @@SESSION.sql_mode", "SELECT @@GLOBAL.sql_mode"} {
		got := strings.Split(flat(queryStrings(t, db, q)), ",")
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
}

// TestDivisionByZeroStored: in strict mode with ERROR_FOR_DIVISION_BY_ZERO
// (MySQL's default), a division or modulo by zero in a statement that
// stores rows is error 1365 wherever it is, and the statement leaves
// nothing; under IGNORE, outside strict mode or without the mode it is
// NULL with warning 1365, as in a SELECT. The engine stored the NULL.
func TestDivisionByZeroStored(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1) // SHOW WARNINGS and SET SESSION are the session's
	mustExecAll(t, db,
		"CREATE DATABASE dz",
		"CREATE TABLE dz.t (id INT PRIMARY KEY, n INT, d DECIMAL(10,2))",
		"INSERT INTO dz.t VALUES (1, 10, 2.50)")
	refused := []string{
		"INSERT INTO dz.t VALUES (2, 1/0, NULL)",
		"INSERT INTO dz.t VALUES (2, 5 % 0, NULL)",
		"INSERT INTO dz.t VALUES (2, 1, MOD(7.5, 0))",
		"INSERT INTO dz.t VALUES (2, 1, 1), (3, 7 DIV 0, 1)",
		"INSERT INTO dz.t VALUES (2, 1 / (SELECT 0), NULL)",
		"INSERT INTO dz.t VALUES (2, (SELECT MAX(n) / 0 FROM dz.t), NULL)",
		"UPDATE dz.t SET d = (SELECT 1 % 0)",
		"INSERT INTO dz.t SELECT id + 1, n / 0, d FROM dz.t",
		"INSERT INTO dz.t SELECT id + 1, n, d FROM dz.t WHERE n / 0 IS NULL",
		"UPDATE dz.t SET n = n / 0",
		"UPDATE dz.t SET n = 3 WHERE id % 0 IS NULL",
		"INSERT INTO dz.t VALUES (1, 1, 1) ON DUPLICATE KEY UPDATE d = d / 0",
	}
	for _, q := range refused {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1365, "22012", "Division by 0")
	}
	_, err := db.Exec("INSERT INTO dz.t VALUES (?, 10 / ?, NULL)", 2, 0)
	wantMySQLError(t, err, 1365, "22012")
	wantAnswers(t, db, "after refusals", map[string]string{"SELECT id, n, d FROM dz.t": "1,10,2.50"})

	// A division by a value that is not zero is stored as before.
	mustExec(t, db, "INSERT INTO dz.t VALUES (2, 9 DIV 2, 7 / 2)")
	wantWarnings(t, db, "INSERT IGNORE INTO dz.t VALUES (3, 1/0, 1 % 0)", "1365 Division by 0", "1365 Division by 0")
	mustExec(t, db, "SET SESSION sql_mode = 'STRICT_TRANS_TABLES'")
	wantWarnings(t, db, "UPDATE dz.t SET d = d / 0 WHERE id = 2", "1365 Division by 0")
	mustExec(t, db, "SET SESSION sql_mode = 'ERROR_FOR_DIVISION_BY_ZERO'")
	wantWarnings(t, db, "INSERT INTO dz.t VALUES (4, 4 / 0, 1)", "1365 Division by 0")
	mustExec(t, db, "SET SESSION sql_mode = DEFAULT")
	wantWarnings(t, db, "SELECT 1 / 0", "1365 Division by 0")
	wantAnswers(t, db, "stored", map[string]string{
		"SELECT id, COALESCE(n, 'null'), COALESCE(d, 'null') FROM dz.t ORDER BY id": "1,10,2.50;2,4,null;3,null,null;4,null,1.00",
	})
}

// TestZeroDateStored: with NO_ZERO_DATE in strict mode (MySQL's default)
// the zero date is refused with 1292 in a DATE, DATETIME or TIMESTAMP
// column; under IGNORE, or outside strict mode, it is stored with
// warning 1264; without NO_ZERO_DATE it is stored without a word.
func TestZeroDateStored(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE zd",
		"CREATE TABLE zd.t (id INT PRIMARY KEY, d DATE, dt DATETIME)",
		"INSERT INTO zd.t VALUES (1, '2024-01-15', 20240115103000)")
	refused := []struct{ q, msg string }{
		{"INSERT INTO zd.t VALUES (2, '0000-00-00', NULL)", "Incorrect date value: '0000-00-00' for column 'd' at row 1"},
		{"INSERT INTO zd.t VALUES (2, NULL, NULL), (3, NULL, 0)", "Incorrect datetime value: '0' for column 'dt' at row 2"},
		{"INSERT INTO zd.t SELECT 2, '0000-00-00', '0000-00-00 00:00:00'", "Incorrect date value: '0000-00-00' for column 'd' at row 1"},
		{"UPDATE zd.t SET dt = '0000-00-00 00:00:00' WHERE id = 1", "Incorrect datetime value: '0000-00-00 00:00:00' for column 'dt' at row 1"},
	}
	for _, c := range refused {
		_, err := db.Exec(c.q)
		wantMySQLMessage(t, c.q, err, 1292, "22007", c.msg)
	}
	wantAnswers(t, db, "after refusals", map[string]string{"SELECT id, d, dt FROM zd.t": "1,2024-01-15T00:00:00Z,2024-01-15T10:30:00Z"})
	wantWarnings(t, db, "INSERT IGNORE INTO zd.t VALUES (2, '0000-00-00', 0)",
		"1264 Out of range value for column 'd' at row 1", "1264 Out of range value for column 'dt' at row 1")
	mustExec(t, db, "SET SESSION sql_mode = 'NO_ZERO_DATE'")
	wantWarnings(t, db, "INSERT INTO zd.t VALUES (3, 0, NULL)", "1264 Out of range value for column 'd' at row 1")
	mustExec(t, db, "SET SESSION sql_mode = 'STRICT_TRANS_TABLES'")
	wantWarnings(t, db, "INSERT INTO zd.t VALUES (4, '0000-00-00', NULL)")
	mustExec(t, db, "SET SESSION sql_mode = DEFAULT")
	wantAnswers(t, db, "stored", map[string]string{"SELECT COUNT(*) FROM zd.t": "4"})
}

// TestStrictWarningsStored: in strict mode a value that is no date or
// time, read anywhere in a statement that stores rows, is MySQL's error
// 1292 with the warning's text, and the statement leaves nothing; under
// IGNORE or outside strict mode it is NULL with the warning, as in a
// query. The answers are MariaDB 10.11's; the engine stored the NULL.
func TestStrictWarningsStored(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE sw",
		"CREATE TABLE sw.t (id INT PRIMARY KEY, d DATE, s VARCHAR(20))",
		"INSERT INTO sw.t VALUES (1, '2024-01-15', 'junk')")
	for _, q := range []string{
		"INSERT INTO sw.t VALUES (2, DATE('junk'), NULL)",
		"INSERT INTO sw.t VALUES (2, '2024-01-01', NULL), (3, DATE('junk'), NULL)",
		"INSERT INTO sw.t SELECT 2, DATE(s), s FROM sw.t",
		"UPDATE sw.t SET d = DATE('junk')",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1292, "22007", "Incorrect datetime value: 'junk'")
	}
	wantAnswers(t, db, "after refusals", map[string]string{"SELECT id, d FROM sw.t": "1,2024-01-15T00:00:00Z"})
	wantWarnings(t, db, "INSERT IGNORE INTO sw.t VALUES (2, DATE('junk'), NULL)", "1292 Incorrect datetime value: 'junk'")
	mustExec(t, db, "SET SESSION sql_mode = ''")
	wantWarnings(t, db, "INSERT INTO sw.t VALUES (3, DATE('junk'), NULL)", "1292 Incorrect datetime value: 'junk'")
	mustExec(t, db, "SET SESSION sql_mode = DEFAULT")
	wantAnswers(t, db, "stored", map[string]string{"SELECT id, COALESCE(d, 'null') FROM sw.t ORDER BY id": "1,2024-01-15;2,null;3,null"})
}
