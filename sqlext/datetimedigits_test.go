package sqlext_test

import (
	"database/sql"
	"regexp"
	"strconv"
	"testing"
)

// TestDatetimeFunctionDigits: FROM_UNIXTIME and CONVERT_TZ give as many
// fractional digits as their argument has, as MySQL does; the engine gave
// six whatever it was given, and FROM_UNIXTIME dropped an exact
// argument's fraction. (Read as text: the driver reads DATETIMEs as
// times.)
func TestDatetimeFunctionDigits(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE dd", "CREATE TABLE dd.t (a DATETIME(3), b DATE, c TIMESTAMP)",
		"INSERT INTO dd.t VALUES ('2024-01-01 10:00:00.123', '2024-01-01', '2024-01-01 10:00:00')")
	wantAnswers(t, db, "digits", map[string]string{
		"SELECT CAST(FROM_UNIXTIME(1704067200) AS CHAR)":                                "2024-01-01 00:00:00",
		"SELECT CAST(FROM_UNIXTIME(1.5) AS CHAR)":                                       "1970-01-01 00:00:01.5",
		"SELECT CAST(FROM_UNIXTIME(1704067200.123456) AS CHAR)":                         "2024-01-01 00:00:00.123456",
		"SELECT FROM_UNIXTIME(0, '%Y')":                                                 "1970",
		"SELECT CAST(CONVERT_TZ('2024-01-01 12:00:00', '+00:00', '+05:30') AS CHAR)":    "2024-01-01 17:30:00",
		"SELECT CAST(CONVERT_TZ('2024-01-01 12:00:00.25', '+00:00', '+01:00') AS CHAR)": "2024-01-01 13:00:00.25",
		"SELECT CAST(CONVERT_TZ(a, '+00:00', '+02:00') AS CHAR), CAST(CONVERT_TZ(b, '+00:00', '+02:00') AS CHAR), CAST(CONVERT_TZ(c, '+00:00', '+02:00') AS CHAR) FROM dd.t": "2024-01-01 12:00:00.123,2024-01-01 02:00:00,2024-01-01 12:00:00",
	})
}

// TestCurrentTimestampDigits: NOW(n), its synonyms and UTC_TIMESTAMP(n)
// are written with n fractional digits, in text and in binary results
// (which the driver writes by the column's decimals), and UTC_TIMESTAMP()
// with none, as in MySQL; the engine typed NOW(n) DATETIME(6) and gave
// UTC_TIMESTAMP six digits whatever n was.
func TestCurrentTimestampDigits(t *testing.T) {
	_, addr, _ := serve(t)
	db, err := sql.Open("mysql", "root@tcp("+addr+")/") // DATETIMEs as the server writes them
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := "SELECT NOW(), NOW(3), CURRENT_TIMESTAMP(2), SYSDATE(1), LOCALTIME(0), UTC_TIMESTAMP(), UTC_TIMESTAMP(3), NOW(6)"
	want := []int{0, 3, 2, 1, 0, 0, 3, 6}
	for _, args := range [][]any{nil, {1}} {
		query := q
		if args != nil {
			query += " LIMIT ?" // prepared: binary rows
		}
		got := queryStrings(t, db, query, args...)
		if len(got) != 1 || len(got[0]) != len(want) {
			t.Fatalf("%s: %v", query, got)
		}
		for i, v := range got[0] {
			layout := `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`
			if want[i] > 0 {
				layout = `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{` + strconv.Itoa(want[i]) + `}$`
			}
			if !regexp.MustCompile(layout).MatchString(v) {
				t.Errorf("%s: column %d is %q, want %d digits", query, i+1, v, want[i])
			}
		}
	}
	_, err = db.Exec("SELECT UTC_TIMESTAMP(7)")
	wantMySQLError(t, err, 1426, "42000")
}
