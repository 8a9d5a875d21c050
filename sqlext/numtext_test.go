package sqlext_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"
)

// TestCastOfTextToInteger: CAST(text AS SIGNED | UNSIGNED) reads the
// text's leading integer as MySQL does, warning 1292 when it leaves
// something out; the answers are MariaDB 10.11's, which reads them as
// MySQL 8.0's CAST does (its leading digits only: '1e3' is 1).
func TestCastOfTextToInteger(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE nt", "USE nt",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(30))",
		"INSERT INTO t VALUES (1, '42 apples'), (2, '-7'), (3, 'none'), (4, NULL)")
	wantAnswers(t, db, "casts", map[string]string{
		"SELECT CAST('123abc' AS UNSIGNED), CAST('123abc' AS SIGNED), CONVERT('7z', SIGNED)":                    "123,123,7",
		"SELECT CAST('1e3' AS SIGNED), CAST('12.7' AS SIGNED), CAST('-12.7x' AS SIGNED), CAST('abc' AS SIGNED)": "1,12,-12,0",
		"SELECT CAST('  +5 ' AS SIGNED), CAST('' AS SIGNED), CAST('0x1A' AS SIGNED), CAST('-0' AS UNSIGNED)":    "5,0,0,0",
		"SELECT CAST('-12abc' AS SIGNED), CAST('-12abc' AS UNSIGNED)":                                           "-12,18446744073709551604",
		"SELECT CAST('99999999999999999999' AS SIGNED), CAST('99999999999999999999' AS UNSIGNED)":               "-1,18446744073709551615",
		"SELECT CAST('-99999999999999999999' AS SIGNED), CAST('-99999999999999999999' AS UNSIGNED)":             "-9223372036854775808,9223372036854775808",
		"SELECT CAST('18446744073709551615' AS SIGNED), CAST('9223372036854775808' AS SIGNED)":                  "-1,-9223372036854775808",
		"SELECT CAST('-9223372036854775808' AS SIGNED), CAST('  12x' AS SIGNED) + 0, '  12x' + 0":               "-9223372036854775808,12,12",
		"SELECT id, CAST(s AS SIGNED), CAST(s AS UNSIGNED) FROM t ORDER BY id":                                  "1,42,42;2,-7,18446744073709551609;3,0,0;4,NULL,NULL",
		"SELECT SUM(CAST(s AS SIGNED)) FROM t":                                                                  "35",
	})
	wantWarnings(t, db, "SELECT CAST('123abc' AS SIGNED)", "1292 Truncated incorrect INTEGER value: '123abc'")
	wantWarnings(t, db, "SELECT CAST('-7' AS SIGNED), CAST(' 8' AS UNSIGNED)")
}

// TestComparingNumbersWithText: a number compared with text compares
// with the text's numeric prefix, as MySQL does (warning 1292), in WHERE,
// ON and the select list, by an index or not; arithmetic reads text so
// too. A statement that writes rows fails instead in strict mode, as in
// MySQL, and storing text in a numeric column still fails (1366). The
// answers are MariaDB 10.11's; its warnings say DECIMAL where MySQL 8.0,
// which compares an integer with a string as DOUBLEs, says DOUBLE.
func TestComparingNumbersWithText(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ct", "USE ct",
		"CREATE TABLE n (id INT PRIMARY KEY, v INT, d DECIMAL(5,2), f DOUBLE, KEY (v))",
		"INSERT INTO n VALUES (1, 0, 0, 0), (2, 12, 1.5, 2.5), (3, -3, -1, 0)",
		"CREATE TABLE s (k VARCHAR(10))",
		"INSERT INTO s VALUES ('x'), ('12abc'), ('1.5'), ('0')")
	wantAnswers(t, db, "comparisons", map[string]string{
		"SELECT id FROM n WHERE v = 'x'":                                                       "1",
		"SELECT id FROM n WHERE v = '12abc'":                                                   "2",
		"SELECT id, v = 'x', v < '5z', v <> '12abc' FROM n ORDER BY id":                        "1,1,1,1;2,0,0,0;3,0,1,1",
		"SELECT n.id, s.k FROM n JOIN s ON n.v = s.k ORDER BY n.id, s.k":                       "1,0;1,x;2,12abc",
		"SELECT id FROM n WHERE d = '1.5x'":                                                    "2",
		"SELECT id FROM n WHERE f = 'abc' ORDER BY id":                                         "1;3",
		"SELECT id FROM n WHERE id = 'x'":                                                      "",
		"SELECT id FROM n WHERE id = '2abc'":                                                   "2",
		"SELECT id FROM n WHERE id IN ('2abc', 'x') ORDER BY id":                               "2",
		"SELECT id FROM n WHERE id > '1z' ORDER BY id":                                         "2;3",
		"SELECT id FROM n WHERE v BETWEEN '0' AND '12abc' ORDER BY id":                         "1;2",
		"SELECT k FROM s WHERE k = 12":                                                         "12abc",
		"SELECT k FROM s WHERE k IN (0, 1.5) ORDER BY k":                                       "0;1.5;x",
		"SELECT 1 = '', 0 = '', 0 = ' ', 5 = '5.', 5 = ' 5 ', 5 = '+5', 0.5 = '.5x', 1 = '1e'": "0,1,1,1,1,1,1,1",
		"SELECT 1000 = '1e3x', 10 = '1e1e', '1e3x' + 0, '3x' * 2, -'4y', '2024-01-15' < 2025":  "1,1,1000,6,-4,1",
		"SELECT DATE_FORMAT('2024-01-15' + INTERVAL 1 DAY, '%Y-%m-%d')":                        "2024-01-16",
	})
	wantWarnings(t, db, "SELECT id FROM n WHERE v = 'x'", "1292 Truncated incorrect DOUBLE value: 'x'")
	wantWarnings(t, db, "SELECT id FROM n WHERE v = '12'")

	_, err := db.Exec("INSERT INTO n VALUES (9, 'x', 0, 0)")
	wantMySQLError(t, err, 1366, "")
	for _, q := range []string{
		"UPDATE n SET f = 7 WHERE v = 'zz'",
		"UPDATE n SET f = '3x' + 1 WHERE id = 1",
		"UPDATE n SET f = CAST('12abc' AS SIGNED) WHERE id = 1",
		"DELETE FROM n WHERE v = 'zz'", // MariaDB only warns here; MySQL 8.0 fails as for UPDATE
		"INSERT INTO n SELECT 10, v, d, f FROM n WHERE v = 'x'",
		"INSERT INTO n VALUES (11, '3x' + 1, 0, 0)",
	} {
		_, err := db.Exec(q)
		t.Run(q, func(t *testing.T) { wantMySQLError(t, err, 1292, "22007") })
	}
	mustExec(t, db, "SET sql_mode = ''")
	mustExec(t, db, "UPDATE n SET f = 7 WHERE v = 'zz'")
	wantAnswers(t, db, "not strict", map[string]string{"SELECT id, f FROM n ORDER BY id": "1,7;2,2.5;3,0"})
}

// wantWarnings runs q and compares the warnings it left, each as its
// code and message, with want.
func wantWarnings(t *testing.T, db *sql.DB, q string, want ...string) {
	t.Helper()
	queryStrings(t, db, q)
	var got []string
	for _, w := range queryStrings(t, db, "SHOW WARNINGS") {
		got = append(got, w[1]+" "+w[2])
	}
	if len(got) != len(want) {
		t.Errorf("%s: warnings %q, want %q", q, got, want)
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: warnings %q, want %q", q, got, want)
			return
		}
	}
}

// wantLeveledWarnings runs q and compares the warnings it left, each as
// its level, code and message, with want.
func wantLeveledWarnings(t *testing.T, db *sql.DB, q string, want ...string) {
	t.Helper()
	mustExec(t, db, q)
	var got []string
	for _, w := range queryStrings(t, db, "SHOW WARNINGS") {
		got = append(got, strings.Join(w, " "))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: warnings\n%q, want\n%q", q, got, want)
	}
}

// TestNumericFunctionsOfText: a function of DOUBLEs reads a string
// argument by its numeric prefix, with warning 1292 when it leaves
// something out (an error in a strict statement that writes rows), and
// a date as the number YYYYMMDD. The answers are MariaDB 10.11's, but
// for FLOOR, CEIL and ROUND of a DATETIME or TIME, which MariaDB keeps
// temporal and MySQL 8.0 makes a number, as here.
func TestNumericFunctionsOfText(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE nf", "USE nf",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20), f DOUBLE, d DATE)",
		"INSERT INTO t VALUES (1, '2.567kg', NULL, '2024-01-15'), (2, 'abc', NULL, NULL)")
	wantAnswers(t, db, "functions of text", map[string]string{
		"SELECT POW('abc', 2), POW('3x', 2), SQRT('4'), ABS('-3'), ROUND('2.567x', 1), FLOOR('1.5x'), CEIL('1.5x')":    "0,9,2,3,2.6,1,2",
		"SELECT LOG(2, '8x'), LN('1x'), SIGN('-2x'), TRUNCATE('1.55x', 1), FORMAT('1234.5x', 1), ATAN2('0x', 1)":       "3,0,-1,1.5,1,234.5,0",
		"SELECT DEGREES(CAST('1x' AS BINARY)) = DEGREES(1), POWER(2, '3 ')":                                            "1,8",
		"SELECT id, ABS(s), FLOOR(s), POW(s, 2), SQRT(d) > 4000, ABS(d), FLOOR(d + INTERVAL 1 DAY) FROM t ORDER BY id": "1,2.567,2,6.589489000000001,1,20240115,20240116;2,0,0,0,NULL,NULL,NULL",
	})
	wantWarnings(t, db, "SELECT POW('abc', 2)", "1292 Truncated incorrect DOUBLE value: 'abc'")
	wantWarnings(t, db, "SELECT SQRT('4'), ABS(' -3 ')")
	mustExec(t, db, "SET sql_mode = 'STRICT_TRANS_TABLES'")
	wantRefused(t, db, refusal{"UPDATE t SET f = SQRT('4x') WHERE id = 1", 1292})
}

// TestEnumAndSetArithmetic: an ENUM or SET in arithmetic is a number, an
// ENUM its member's position and a SET the bits of its members, and the
// result an integer, as MariaDB 10.11 answers; the engine made each a
// DOUBLE (tier + 0 was 2.0). UNIX_TIMESTAMP of a date, or of a DATETIME
// without fractional digits, is an integer too, where the engine made it
// a DECIMAL.
func TestEnumAndSetArithmetic(t *testing.T) {
	db := inDatabase(t, "es",
		"CREATE TABLE c (id INT PRIMARY KEY, tier ENUM('free','pro','ent'), flags SET('a','b','c'), at DATETIME, ms DATETIME(2), day DATE)",
		"INSERT INTO c VALUES (1, 'pro', 'a,b', '2023-01-01 10:00:00', '2023-01-01 10:00:00.5', '2023-01-03'), (2, NULL, NULL, NULL, NULL, NULL)")
	wantAnswers(t, db, "ENUM and SET as numbers", map[string]string{
		"SELECT tier + 0, flags + 0, tier * 2, tier - 5, -tier, tier DIV 2, tier % 2, flags | 4, flags & 2, tier << 1 FROM c ORDER BY id": "2,3,4,-3,-2,1,0,7,2,4;NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL",
		"SELECT tier / 2, tier = 2, tier = 'pro', SUM(tier + 0) FROM c WHERE id = 1 GROUP BY tier":                                        "1.0000,1,1,2",
		"SELECT UNIX_TIMESTAMP(at), UNIX_TIMESTAMP(day), UNIX_TIMESTAMP(ms), UNIX_TIMESTAMP('2015-11-13 10:20:19') FROM c WHERE id = 1":   "1672567200,1672704000,1672567200.50,1447410019",
	})
	if got, want := columnTypes(t, db, "SELECT tier + 0, flags + 0, UNIX_TIMESTAMP(at), UNIX_TIMESTAMP(day), UNIX_TIMESTAMP(ms) FROM c"), "BIGINT BIGINT BIGINT BIGINT DECIMAL(19,2)"; got != want {
		t.Errorf("types %s, want %s", got, want)
	}
}
