package sqlext_test

import "testing"

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
