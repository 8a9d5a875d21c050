package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// inDatabase serves a fresh server and returns one connection to it
// that reads dates as text (textTimes), in a new database made current,
// after running stmts there.
func inDatabase(t *testing.T, name string, stmts ...string) *sql.DB {
	t.Helper()
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	mustExecAll(t, db, append([]string{"CREATE DATABASE " + name, "USE " + name}, stmts...)...)
	return db
}

// TestDateAndTimeFormats: DATE_FORMAT and TIME_FORMAT write every
// specifier as MySQL does (the answers are MariaDB 10.11's): %y of 2000
// is 00, and TIME_FORMAT writes a negative TIME or one past a day as it
// is. MySQL 8.0 writes the date parts of a TIME as zeros (%Y 0000, %d
// 00), where MariaDB answers NULL; here they follow MySQL.
func TestDateAndTimeFormats(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	wantAnswers(t, db, "formats", map[string]string{
		"SELECT DATE_FORMAT('2000-01-01', '%y %Y %m %c %d %e %j %D %a %W %b %M')":                                                   "00 2000 01 1 01 1 001 1st Sat Saturday Jan January",
		"SELECT DATE_FORMAT('1999-12-31 12:00:00', '%H %k %h %I %l %p %r %T %i %s %f')":                                             "12 12 12 12 12 PM 12:00:00 PM 12:00:00 00 00 000000",
		"SELECT DATE_FORMAT('2024-02-29 00:05:06.000007', '%H %k %h %l %p %r %f %w %U %u %V %v %X %x %% %Q')":                       "00 0 12 12 AM 12:05:06 AM 000007 4 08 09 08 09 2024 2024 % Q",
		"SELECT DATE_FORMAT('0001-01-01', '%X %x %y'), DATE_FORMAT('2024-12-31', '%U %u %V %v %X %x')":                              "0000 0001 01,52 53 52 01 2024 2025",
		"SELECT DATE_FORMAT(20240115, '%Y-%m-%d'), DATE_FORMAT('abc', '%Y'), DATE_FORMAT(NULL, '%Y'), DATE_FORMAT('2024-01-15', 5)": "2024-01-15,NULL,NULL,5",
		"SELECT TIME_FORMAT('-01:02:03', '%H:%i:%s %k %h %l %p %r %T %f')":                                                          "-01:02:03 1 01 1 AM 01:02:03 AM 01:02:03 000000",
		"SELECT TIME_FORMAT('100:00:00', '%H %k %h %l %p %T'), TIME_FORMAT('838:59:59', '%r')":                                      "100 100 04 4 AM 100:00:00,10:59:59 PM",
		"SELECT TIME_FORMAT('2024-01-15 13:14:15', '%T %p'), TIME_FORMAT(123456, '%H.%i'), TIME_FORMAT('00:00:00', '%l %p %h')":     "13:14:15 PM,12.34,12 AM 12",
		"SELECT TIME_FORMAT('12:00:00', '%M'), TIME_FORMAT('12:00:00', '%j'), TIME_FORMAT('12:00:00', '%W')":                        "NULL,NULL,NULL",
		// MySQL 8.0; MariaDB answers NULL for each.
		"SELECT TIME_FORMAT('12:00:00', '%Y %y %m %c %d %e')": "0000 00 00 0 00 0",
	})
	wantWarnings(t, db, "SELECT DATE_FORMAT('abc', '%Y')", "1292 Incorrect datetime value: 'abc'")
}

// TestWeeks: WEEK counts the weeks of each of its modes as MySQL does
// near the turn of a year, and EXTRACT(WEEK ...) and WEEK without a
// mode take default_week_format (the answers are MariaDB 10.11's).
func TestWeeks(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	answers := map[string]string{}
	for d, want := range map[string]string{
		"2024-12-31": "52,53,52,1,53,53,1,53,202501,52",
		"2023-01-01": "1,0,1,52,1,0,1,52,202252,1",
		"2021-01-03": "1,0,1,53,1,0,1,52,202053,1",
		"2027-01-01": "0,0,52,53,0,0,52,52,202653,0",
		"2000-01-01": "0,0,52,52,0,0,52,52,199952,0",
	} {
		q := "SELECT "
		for m := range 8 {
			q += fmt.Sprintf("WEEK('%s', %d), ", d, m)
		}
		answers[q+fmt.Sprintf("YEARWEEK('%s', 3), EXTRACT(WEEK FROM '%s')", d, d)] = want
	}
	answers["SELECT EXTRACT(WEEK FROM '2024-01-15'), WEEK('2024-12-31', NULL), WEEK(NULL, 3), WEEK(20241231, 3), WEEK('2024-12-31', 11)"] = "2,52,NULL,1,1"
	wantAnswers(t, db, "weeks", answers)
	mustExec(t, db, "SET default_week_format = 3")
	wantAnswers(t, db, "default_week_format 3", map[string]string{
		"SELECT WEEK('2024-12-31'), EXTRACT(WEEK FROM '2024-12-31'), YEARWEEK('2024-12-31')": "1,1,202452",
	})
}

// TestTimestampDiff: TIMESTAMPDIFF counts whole months, quarters and
// years by the day and time of day, and any unit over the whole range
// of dates (the answers are MariaDB 10.11's).
func TestTimestampDiff(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	wantAnswers(t, db, "timestampdiff", map[string]string{
		"SELECT TIMESTAMPDIFF(MONTH, '1999-12-31', '2025-03-31'), TIMESTAMPDIFF(QUARTER, '1999-12-31', '2025-03-31'), TIMESTAMPDIFF(MONTH, '2025-03-31', '1999-12-31')":                         "303,101,-303",
		"SELECT TIMESTAMPDIFF(MONTH, '1999-12-31 23:59:59', '2025-01-01'), TIMESTAMPDIFF(YEAR, '2024-02-29', '2025-02-28'), TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-02-29')":                   "300,0,0",
		"SELECT TIMESTAMPDIFF(MONTH, '2024-01-15 10:00:00', '2024-02-15 09:59:59.999999'), TIMESTAMPDIFF(MONTH, '2024-01-15 10:00:00.5', '2024-02-15 10:00:00.4')":                              "0,0",
		"SELECT TIMESTAMPDIFF(SECOND, '0001-01-01', '9999-12-31'), TIMESTAMPDIFF(YEAR, '0001-01-01', '9999-12-31'), TIMESTAMPDIFF(MICROSECOND, '2024-01-15 10:00:00', '2024-01-15 09:59:59.5')": "315537811200,9998,-500000",
		"SELECT TIMESTAMPDIFF(DAY, 20240115, 20250116), TIMESTAMPDIFF(WEEK, '2024-01-15', '2025-01-16'), TIMESTAMPDIFF(MONTH, NULL, '2024-01-01')":                                              "367,52,NULL",
	})
}

// TestAddTime: ADDTIME and SUBTIME add a TIME to, or take it from, a
// date and time or a time, and TIMESTAMP(d, t) adds it to a date, typed
// as MySQL types them (the answers and types are MariaDB 10.11's).
func TestAddTime(t *testing.T) {
	db := inDatabase(t, "adt",
		"CREATE TABLE t (d DATE, dt DATETIME, dt3 DATETIME(3), tm TIME)",
		"INSERT INTO t VALUES ('2024-01-15', '2024-01-15 10:20:30', '2024-01-15 10:20:30.125', '10:20:30')")
	wantTypedAnswers(t, db, []typedAnswer{
		{"SELECT ADDTIME(d, '01:00:00'), ADDTIME(dt, '01:00:00'), SUBTIME(dt, '1 01:00:00'), ADDTIME(dt3, '10:20:30') FROM t",
			"2024-01-15 01:00:00,2024-01-15 11:20:30,2024-01-14 09:20:30,2024-01-15 20:41:00.125", "DATETIME(0) DATETIME(0) DATETIME(0) DATETIME(3)"},
		{"SELECT ADDTIME(tm, '1:00'), ADDTIME(tm, '30:00:00'), SUBTIME(tm, tm), TIMESTAMP(d, tm), TIMESTAMP(dt3, '1:00') FROM t",
			"11:20:30,40:20:30,00:00:00,2024-01-15 10:20:30,2024-01-15 11:20:30.125", "TIME(0) TIME(0) TIME(0) DATETIME(0) DATETIME(3)"},
		{"SELECT TIMESTAMP(d) FROM t", "2024-01-15 00:00:00", "DATETIME(0)"},
		// Text and numbers are DATETIMEs too; the engine answered text.
		{"SELECT TIMESTAMP('2024-01-02 03:00:00.5'), TIMESTAMP('2024-01-02'), TIMESTAMP(20240102), TIMESTAMP('junk') FROM t",
			"2024-01-02 03:00:00.5,2024-01-02 00:00:00,2024-01-02 00:00:00,NULL", "DATETIME(1) DATETIME(0) DATETIME(0) DATETIME(0)"},
	})
	wantAnswers(t, db, "strings and numbers", map[string]string{
		"SELECT ADDTIME('10:00:00', '1:30:00.5'), ADDTIME('2024-01-15 23:00:00', '02:00:00'), SUBTIME('2024-01-15 01:00:00', '1 02:00:00')": "11:30:00.500000,2024-01-16 01:00:00,2024-01-13 23:00:00",
		"SELECT ADDTIME('10:00:00', '-11:00:00'), ADDTIME(NULL, '1:00'), ADDTIME(20240115102030, 10), ADDTIME(102030, 10)":                  "-01:00:00,NULL,2024-01-15 10:20:40,10:20:40",
		"SELECT TIMESTAMP('2024-01-15', '10:20:30'), TIMESTAMP('2024-01-15 23:00:00', '02:00:00.25'), TIMESTAMP('2024-01-15')":              "2024-01-15 10:20:30,2024-01-16 01:00:00.25,2024-01-15 00:00:00",
		"SELECT SUBTIME('10:00:00', '2024-01-01 01:00:00'), TIMESTAMP(20240115, '10:00')":                                                   "NULL,2024-01-15 10:00:00",
	})
}

// TestDatesComparedWithNumbers: a date compared with a number reads the
// number as a date, YYYYMMDD or YYMMDD with or without hhmmss, as MySQL
// does (the answers are MariaDB 10.11's).
func TestDatesComparedWithNumbers(t *testing.T) {
	db := inDatabase(t, "dn",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3))",
		"INSERT INTO t VALUES (1, '2024-01-15', '2024-01-15 10:20:30', '2024-01-15 10:20:30.125'), (2, '2024-02-01', '2024-01-15 00:00:00', NULL)")
	wantAnswers(t, db, "compared", map[string]string{
		"SELECT d = 20240115, d > 20240100, d < 20240200, dt = 20240115102030, dt > 20240115, d = 20240115.0 FROM t WHERE id = 1":                "1,1,1,1,1,1",
		"SELECT d IN (20240115, 1), d BETWEEN 20240101 AND 20240131, 20240115 = d, d <=> 20240115, dt3 = 20240115102030.125 FROM t WHERE id = 1": "1,1,1,1,1",
		"SELECT d > 240115, d = 240115, d <> 20240115, d IN (1, 2), d NOT BETWEEN 20240101 AND 20240131, d = 2024 FROM t WHERE id = 1":           "0,1,0,0,0,0",
		"SELECT id FROM t WHERE d = 20240115":  "1",
		"SELECT id FROM t WHERE dt = 20240115": "2",
		"SELECT id FROM t WHERE d >= 20240201": "2",
	})
}

// TestNumbersInDateArithmetic: a number added to or subtracted from in
// date arithmetic is read as the date it names (the answers are
// MariaDB 10.11's).
func TestNumbersInDateArithmetic(t *testing.T) {
	db := inDatabase(t, "na", "CREATE TABLE t (id INT PRIMARY KEY, n BIGINT)", "INSERT INTO t VALUES (1, 20240115), (2, 20240115102030)")
	wantAnswers(t, db, "numbers as dates", map[string]string{
		"SELECT 20240115 + INTERVAL 1 DAY, DATE_ADD(20240115, INTERVAL 1 DAY), DATE_SUB(20240115102030, INTERVAL 1 HOUR), INTERVAL 1 MONTH + 240115": "2024-01-16,2024-01-16,2024-01-15 09:20:30,2024-02-15",
		"SELECT 20240115 - INTERVAL 1 DAY, ADDDATE(20240115, 1), DATE_ADD(123, INTERVAL 1 DAY), 20240115 + INTERVAL 1 HOUR":                          "2024-01-14,2024-01-16,2000-01-24,2024-01-15 01:00:00",
		"SELECT n + INTERVAL 1 DAY FROM t ORDER BY id": "2024-01-16;2024-01-16 10:20:30",
	})
}

// TestTimeAsDatetime: a TIME cast to DATETIME or DATE, or given to
// TIMESTAMP(), is the current date at that time, as in MySQL (the
// answers are MariaDB 10.11's): a TIME past a day runs into the next, a
// negative one into the day before, and TIMESTAMP() keeps the TIME's
// digits. The engine's CAST gave NULL and its TIMESTAMP() the TIME.
func TestTimeAsDatetime(t *testing.T) {
	db := inDatabase(t, "tt")
	// The dates in one statement with the casts, so that midnight
	// cannot fall between them.
	rows := queryStrings(t, db, `SELECT CURDATE(), CURDATE() + INTERVAL 1 DAY, CURDATE() - INTERVAL 1 DAY,
		CAST(TIME '10:20:30' AS DATETIME), CAST(CAST('10:20:30.5' AS TIME(1)) AS DATETIME(1)),
		TIMESTAMP(TIME '10:00:00'), TIMESTAMP(CAST('10:20:30.25' AS TIME(2))),
		CAST(TIME '25:00:00' AS DATE), CAST(TIME '-01:00:00' AS DATETIME),
		CAST(CAST('10:20:30.25' AS TIME(2)) AS DATETIME)`)
	r := rows[0]
	today, tomorrow, yesterday := r[0], r[1], r[2]
	want := []string{today + " 10:20:30", today + " 10:20:30.5", today + " 10:00:00", today + " 10:20:30.25",
		tomorrow, yesterday + " 23:00:00", today + " 10:20:30"}
	if got := r[3:]; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestTimesComparedAndChosen: GREATEST and LEAST over TIMEs compare them
// as TIMEs (with text and numbers read as TIMEs), or as dates with the
// current date when dates are among the arguments, and a TIME compared
// with a date is the current date at that time, for literals and columns
// alike; the answers are MariaDB 10.11's. The engine refused a TIME in
// GREATEST and LEAST (error 1105) and compared a TIME with a date by
// other values.
func TestTimesComparedAndChosen(t *testing.T) {
	db := inDatabase(t, "tc",
		"CREATE TABLE tm (id INT PRIMARY KEY, t TIME, dt DATETIME)",
		"INSERT INTO tm VALUES (1, '10:00:00', TIMESTAMP(CURDATE(), '10:00:00')), (2, '11:00:00', TIMESTAMP(CURDATE(), '10:00:00'))")
	wantAnswers(t, db, "TIMEs", map[string]string{
		"SELECT GREATEST(TIME '10:00:00', '11:00:00.123'), LEAST(CAST('10:00:00.5' AS TIME(1)), TIME '11:00:00'), GREATEST(TIME '-10:00:00', TIME '100:00:00')":             "11:00:00.123,10:00:00.5,100:00:00",
		"SELECT GREATEST(TIME '10:00:00', 93000), LEAST(TIME '10:00:00', 2.5), GREATEST(TIME '10:00:00', 'junk'), GREATEST(TIME '10:00:00', NULL)":                          "10:00:00,00:00:02.5,NULL,NULL",
		"SELECT GREATEST(TIME '10:00:00', CURDATE()) = TIMESTAMP(CURDATE(), '10:00:00'), LEAST(TIME '10:00:00', NOW() + INTERVAL 1 DAY) = TIMESTAMP(CURDATE(), '10:00:00')": "1,1",
		"SELECT TIME '10:00:00' = TIMESTAMP(CURDATE(), '10:00:00'), TIME '10:00:00' BETWEEN CURDATE() AND CURDATE() + INTERVAL 1 DAY, CURDATE() < TIME '10:00:00'":          "1,1,1",
		"SELECT id, t = dt, t < dt, t > dt, GREATEST(t, dt) = TIMESTAMP(CURDATE(), t), t BETWEEN dt - INTERVAL 1 HOUR AND dt FROM tm ORDER BY id":                           "1,1,0,0,1,1;2,0,0,1,1,0",
		"SELECT id FROM tm WHERE dt < t": "2",
	})
}

// TestNumbersReadAsDates: a number given where a date is read (CAST to
// DATE or DATETIME, DATE(), DAYNAME(), DATEDIFF(), EXTRACT(), CONVERT_TZ()
// and the like) is the date it spells, as in MySQL (the answers are
// MariaDB 10.11's); the engine read it as no date (NULL, or 1292 for
// DATEDIFF).
func TestNumbersReadAsDates(t *testing.T) {
	db := inDatabase(t, "nd", "CREATE TABLE n (id INT PRIMARY KEY, v BIGINT)", "INSERT INTO n VALUES (1, 20240105)")
	wantAnswers(t, db, "numbers as dates", map[string]string{
		"SELECT CAST(20240105 AS DATE), CAST(20240105103000 AS DATETIME), CAST(240105 AS DATE), CAST(123 AS DATE), CONVERT(20240105, DATE)": "2024-01-05,2024-01-05 10:30:00,2024-01-05,2000-01-23,2024-01-05",
		"SELECT DATE(v), YEAR(v), MONTH(v), DAYNAME(v), LAST_DAY(v), TO_DAYS(v), WEEKDAY(v), QUARTER(v), YEARWEEK(v) FROM n":                "2024-01-05,2024,1,Friday,2024-01-31,739255,4,1,202353",
		"SELECT DATEDIFF(20240105, 20240101), EXTRACT(MONTH FROM 20240105), EXTRACT(DAY_HOUR FROM 20240105103000)":                          "4,1,510",
		"SELECT YEARWEEK(20241230, 1), YEARWEEK('2024-12-30', 1)":                                                                           "202501,202501", // the mode stays a number
		"SELECT CONVERT_TZ(20240105103000, '+00:00', '+01:00'), CONVERT_TZ(20240105103000.5, '+00:00', '+01:00'), CAST(20241301 AS DATE)":   "2024-01-05 11:30:00,2024-01-05 11:30:00.5,NULL",
	})
}
