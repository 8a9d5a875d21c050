package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestTemporalValuesAsNumbers: arithmetic reads a DATE as YYYYMMDD, a
// DATETIME or TIMESTAMP as YYYYMMDDhhmmss (with its fractional seconds)
// and a TIME as hhmmss, as MySQL does (the answers are MariaDB 10.11's);
// an INTERVAL still makes date arithmetic.
func TestTemporalValuesAsNumbers(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tn", "USE tn",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, tm TIME, dt6 DATETIME(6), ts TIMESTAMP)",
		"INSERT INTO t VALUES (1, '2024-01-15', '2024-01-15 10:20:30', '10:20:30', '2024-01-15 10:20:30.123456', '2024-01-15 10:20:30'),"+
			" (2, '1999-12-31', NULL, '-01:02:03', NULL, NULL), (3, NULL, NULL, NULL, NULL, NULL)")
	wantAnswers(t, db, "numbers", map[string]string{
		"SELECT d + 0, d * 1, d - 1, -d, d + d, d + 0e0 = 20240115 FROM t WHERE id = 1":                    "20240115,20240115,20240114,-20240115,40480230,1",
		"SELECT d + 1.5, d / 2, d DIV 100, d % 100, d + 0 > 20240100 FROM t WHERE id = 1":                  "20240116.5,10120057.5000,202401,15,1",
		"SELECT dt + 0, ts + 0, dt6 + 0, dt - d, tm + 0, -tm FROM t WHERE id = 1":                          "20240115102030,20240115102030,20240115102030.123456,20240094861915,102030,-102030",
		"SELECT d + 0, tm + 0, tm * 2 FROM t ORDER BY id":                                                  "20240115,102030,204060;19991231,-10203,-20406;NULL,NULL,NULL",
		"SELECT MIN(d + 0), MAX(d) + 0 FROM t":                                                             "19991231,20240115",
		"SELECT DATE_FORMAT(d + INTERVAL 1 DAY, '%Y-%m-%d'), d - INTERVAL 1 MONTH < d FROM t WHERE id = 1": "2024-01-16,1",
		// A CAST to a number too (the engine cast a DATE to SIGNED as
		// its Unix time and a DATETIME to DECIMAL as 0).
		"SELECT CAST(d AS SIGNED), CONVERT(d, UNSIGNED), CAST(dt6 AS DECIMAL(24,6)), CAST(tm AS SIGNED), CAST(d AS DECIMAL(10,0)) FROM t WHERE id = 1": "20240115,20240115,20240115102030.123456,102030,20240115",
	})
	// The engine's short plan for a single-table UPDATE.
	mustExec(t, db, "UPDATE t SET id = d - 19990000 WHERE id = 2")
	wantAnswers(t, db, "after UPDATE", map[string]string{"SELECT id FROM t ORDER BY id": "1;3;1231"})
}

// TestDateArithmeticTypes: date + INTERVAL, INTERVAL + date, date -
// INTERVAL and DATE_ADD and its kin are typed as MySQL types them: a DATE
// plus days, weeks, months, quarters or years is a DATE, plus hours,
// minutes or seconds a DATETIME, and a DATETIME keeps its fractional
// digits unless the interval adds some. The answers and types are
// MariaDB 10.11's, but for a TIME plus days, which MySQL 8.0 makes a
// DATETIME (today's date plus a day) and MariaDB a TIME.
func TestDateArithmeticTypes(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	mustExecAll(t, db, "CREATE DATABASE da", "USE da",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, tm TIME, dt3 DATETIME(3))",
		"INSERT INTO t VALUES (1, '2024-02-29', '2024-01-15 10:20:30', '10:20:30', '2024-01-15 10:20:30.125')")
	cases := []typedAnswer{
		{"SELECT d + INTERVAL 1 DAY, INTERVAL 1 YEAR + d, d - INTERVAL 1 MONTH, d + INTERVAL 2 WEEK, d - INTERVAL 1 QUARTER FROM t",
			"2024-03-01,2025-02-28,2024-01-29,2024-03-14,2023-11-29", "DATE DATE DATE DATE DATE"},
		{"SELECT DATE_ADD(d, INTERVAL 1 DAY), DATE_SUB(d, INTERVAL 1 YEAR), ADDDATE(d, 1), SUBDATE(d, INTERVAL 1 DAY) FROM t",
			"2024-03-01,2023-02-28,2024-03-01,2024-02-28", "DATE DATE DATE DATE"},
		{"SELECT d + INTERVAL 1 HOUR, d - INTERVAL 30 MINUTE, DATE_ADD(d, INTERVAL 1 SECOND), d + INTERVAL 1 DAY + INTERVAL 1 HOUR FROM t",
			"2024-02-29 01:00:00,2024-02-28 23:30:00,2024-02-29 00:00:01,2024-03-01 01:00:00", "DATETIME(0) DATETIME(0) DATETIME(0) DATETIME(0)"},
		{"SELECT dt + INTERVAL 1 DAY, DATE_ADD(dt, INTERVAL 1 HOUR), dt + INTERVAL 1 MICROSECOND, dt3 - INTERVAL 1 DAY FROM t",
			"2024-01-16 10:20:30,2024-01-15 11:20:30,2024-01-15 10:20:30.000001,2024-01-14 10:20:30.125", "DATETIME(0) DATETIME(0) DATETIME(6) DATETIME(3)"},
		{"SELECT tm + INTERVAL 1 HOUR, DATE_SUB(tm, INTERVAL 30 SECOND) FROM t", "11:20:30,10:20:00", "TIME(0) TIME(0)"},
		{"SELECT (d + INTERVAL 1 DAY) + 0 FROM t", "20240301", "BIGINT"},
	}
	wantTypedAnswers(t, db, cases)
	// Date arithmetic written with an operator keeps its form in a
	// generated column's definition.
	mustExec(t, db, "CREATE TABLE g (a DATE, b DATE AS (a + INTERVAL 1 DAY))")
	create := flat(queryStrings(t, db, "SHOW CREATE TABLE g"))
	if !strings.Contains(create, "(`a` + INTERVAL 1 DAY)") {
		t.Errorf("SHOW CREATE TABLE g = %s", create)
	}
}

// typedAnswer is a query, its answer (flattened) and the types of its
// columns (columnTypes), not checked when empty.
type typedAnswer struct{ q, answer, types string }

// wantTypedAnswers runs each query and compares its answer and its
// columns' types with those given.
func wantTypedAnswers(t *testing.T, db *sql.DB, cases []typedAnswer) {
	t.Helper()
	for _, c := range cases {
		if got := flat(queryStrings(t, db, c.q)); got != c.answer {
			t.Errorf("%s = %q, want %q", c.q, got, c.answer)
		}
		if got := columnTypes(t, db, c.q); c.types != "" && got != c.types {
			t.Errorf("%s: types %s, want %s", c.q, got, c.types)
		}
	}
}

// textTimes is one connection to addr, with no current database, that
// reads dates and times as the server writes them, as text; it is
// closed when the test ends.
func textTimes(t *testing.T, addr string) *sql.DB {
	t.Helper()
	c, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?multiStatements=true", addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetMaxOpenConns(1)
	return c
}

// resultColumns describes each column of q's result as the client reads
// it.
func resultColumns(t *testing.T, db *sql.DB, q string) []*sql.ColumnType {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

// columnTypes is the type of each column of q's result as the client
// sees it: its name, with the fractional digits of a DATETIME or TIME and
// the precision and scale of a DECIMAL.
func columnTypes(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	cols := resultColumns(t, db, q)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.DatabaseTypeName()
		prec, scale, _ := c.DecimalSize()
		switch names[i] {
		case "DATETIME", "TIMESTAMP", "TIME":
			names[i] += fmt.Sprintf("(%d)", scale)
		case "DECIMAL":
			names[i] += fmt.Sprintf("(%d,%d)", prec, scale)
		}
	}
	return strings.Join(names, " ")
}

// TestCurrentDateIsADate: CURDATE() and CURRENT_DATE are DATEs, in the
// session's time zone as NOW() is: CURDATE() + 0 is YYYYMMDD, with no
// warning, where the engine's, typed as text, was the year with a
// warning; a DATE stored in a text column is written as MySQL writes
// it, 2024-01-15. The answers are MariaDB 10.11's.
func TestCurrentDateIsADate(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	mustExecAll(t, db, "CREATE DATABASE cd", "USE cd",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20), dflt VARCHAR(20) DEFAULT (CURDATE()))",
		"INSERT INTO t (id, s) VALUES (1, CURDATE()), (2, DATE('2024-01-15 10:00:00')), (3, 'x')",
		"UPDATE t SET s = CURRENT_DATE WHERE id = 3")
	wantAnswers(t, db, "current date", map[string]string{
		"SELECT CURDATE() + 0 = YEAR(NOW()) * 10000 + MONTH(NOW()) * 100 + DAY(NOW()), CURRENT_DATE + 0 = CURDATE() + 0, CURRENT_DATE() = DATE(NOW())": "1,1,1",
		"SELECT CURDATE() > '2020-01-01', CONCAT(CURDATE(), '') = DATE_FORMAT(NOW(), '%Y-%m-%d'), LENGTH(CURDATE()), DATE_FORMAT(CURDATE(), '%H:%i')":  "1,1,10,00:00",
		"SELECT CURDATE() - INTERVAL 1 DAY < CURDATE(), DATEDIFF(CURDATE() + INTERVAL 1 WEEK, CURDATE())":                                              "1,7",
		"SELECT id, LENGTH(s), LENGTH(dflt) FROM t ORDER BY id":                                                                                        "1,10,10;2,10,10;3,10,10",
		"SELECT s FROM t WHERE id = 2": "2024-01-15",
	})
	queryStrings(t, db, "SELECT CURDATE() + 0")
	if w := queryStrings(t, db, "SHOW WARNINGS"); len(w) != 0 {
		t.Errorf("CURDATE() + 0 warned: %v", w)
	}
	if got := columnTypes(t, db, "SELECT CURDATE(), CURRENT_DATE, CURRENT_DATE(), CURDATE() + INTERVAL 1 DAY"); got != "DATE DATE DATE DATE" {
		t.Errorf("types %s, want DATE DATE DATE DATE", got)
	}
	for _, zone := range []string{"+13:00", "-11:00"} {
		mustExec(t, db, "SET time_zone = '"+zone+"'")
		if got := flat(queryStrings(t, db, "SELECT CURDATE() = DATE(NOW())")); got != "1" {
			t.Errorf("time zone %s: CURDATE() = DATE(NOW()) is %s", zone, got)
		}
	}
}
