package sqlext_test

import (
	"database/sql"
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
