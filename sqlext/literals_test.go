package sqlext_test

import (
	"database/sql"
	"testing"
)

// TestTypedLiterals: DATE '...', TIME '...' and TIMESTAMP '...' are a
// DATE, a TIME and a DATETIME with the fractional digits written, read
// by MySQL's rules for such text; one that is not a value of its type is
// error 1525. The answers are MariaDB 10.11's, which are MySQL 8's here
// but for a fraction of more than six digits, which MySQL 8 rounds.
func TestTypedLiterals(t *testing.T) {
	db := inDatabase(t, "lit", "CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, tm TIME)",
		"INSERT INTO t VALUES (1, '2024-01-15', '2024-01-15 10:20:30', '10:20:30'), (2, '2024-01-16', '2024-01-16 00:00:00', '11:00:00')")
	wantAnswers(t, db, "typed literals", map[string]string{
		"SELECT DATE'2024-01-15' + INTERVAL 1 DAY, TIMESTAMP'2024-01-15 10:20:30' + INTERVAL 1 SECOND":     "2024-01-16,2024-01-15 10:20:31",
		"SELECT CAST(DATE'2024-01-15' AS CHAR), CONCAT(TIME '10:20:30', '|'), DATE '2024-01-15' + 0":       "2024-01-15,10:20:30|,20240115",
		"SELECT id FROM t WHERE d = DATE'2024-01-15' AND dt = TIMESTAMP'2024-01-15 10:20:30'":              "1",
		"SELECT id FROM t WHERE tm > TIME'10:30' ORDER BY id":                                              "2",
		"SELECT DATE'2024-1-5', DATE'2024/01/15', DATE'24-01-15', DATE'99-01-15', DATE'20240115'":          "2024-01-05,2024-01-15,2024-01-15,1999-01-15,2024-01-15",
		"SELECT TIMESTAMP'2024-01-15T10:20:30', TIMESTAMP'2024-01-15 10', TIMESTAMP'20240115102030.5'":     "2024-01-15 10:20:30,2024-01-15 10:00:00,2024-01-15 10:20:30.5",
		"SELECT TIME'1 10:00:00', TIME'-1 10:00', TIME'10:20', TIME'1020', TIME'102030', TIME' 10:20:30 '": "34:00:00,-34:00:00,10:20:00,00:10:20,10:20:30,10:20:30",
		"SELECT TIMESTAMP'2024-01-15 10:20:30.25', DATE '2024-01-15', time '838:59:59'":                    "2024-01-15 10:20:30.25,2024-01-15,838:59:59",
		// A column named date is no literal.
		"SELECT t.d FROM t AS t WHERE t.d < '2024-01-16'": "2024-01-15",
	})
	wantColumnTypes(t, db, "SELECT DATE'2024-01-15', TIMESTAMP'2024-01-15 10:20:30', TIMESTAMP'2024-01-15 10:20:30.25', TIME'10:20:30'", "DATE DATETIME(0) DATETIME(2) TIME(0)")
	wantRefused(t, db,
		refusal{"SELECT DATE'2024-02-30'", 1525},
		refusal{"SELECT DATE'2024-01-15x'", 1525},
		refusal{"SELECT DATE'2024-01-15 10:00:00'", 1525},
		refusal{"SELECT TIMESTAMP'2024-01-15'", 1525},
		refusal{"SELECT TIMESTAMP'2024-01-15 25:00:00'", 1525},
		refusal{"SELECT TIME'10:60:00'", 1525},
		refusal{"SELECT TIME'900:00:00'", 1525},
		refusal{"SELECT TIME'2024-01-15 10:20:30'", 1525},
		refusal{"SELECT DATE''", 1525},
	)
	_, err := db.Exec("SELECT DATE'2024-13-01'")
	wantMySQLError(t, err, 1525, "HY000")
	if got := err.Error(); got != "Error 1525 (HY000): Incorrect DATE value: '2024-13-01'" {
		t.Errorf("error %q", got)
	}
	// A view keeps its literal's type.
	mustExec(t, db, "CREATE VIEW v AS SELECT DATE'2024-01-15' AS d")
	wantAnswers(t, db, "view", map[string]string{"SELECT d + INTERVAL 1 DAY FROM v": "2024-01-16"})
}

// wantColumnTypes compares the types of q's result columns (columnTypes)
// with want.
func wantColumnTypes(t *testing.T, db *sql.DB, q, want string) {
	t.Helper()
	if got := columnTypes(t, db, q); got != want {
		t.Errorf("%s: types %s, want %s", q, got, want)
	}
}
