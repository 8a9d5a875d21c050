package sqlext_test

import "testing"

// TestTruncatedTemporalText: where a date or a time is wanted, text is
// read by the value it starts with, and what follows is dropped with
// warning 1292 naming what was read (date, datetime or time); spaces
// are dropped without one. Text that starts with no value is NULL as
// before. The answers are MariaDB 10.11's, which are MySQL 8's, but for
// the warning of a column's text, which MariaDB names the column in
// ("... for column `t`.`s`.`v` at row 1") and MySQL 8 does not.
func TestTruncatedTemporalText(t *testing.T) {
	db := inDatabase(t, "trunc", "CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(40))",
		"INSERT INTO s VALUES (1, '2024-01-15x'), (2, '2024-01-15'), (3, 'junk'), (4, '10:20:30abc'), (5, '2024-01-15 ')",
		"CREATE TABLE d (id INT PRIMARY KEY, d DATE, y INT)")
	wantAnswers(t, db, "text cut short", map[string]string{
		"SELECT TIME('10:20:30abc'), CAST('2024-01-15x' AS DATE), DATE('2024-01-15 10:00:00junk'), YEAR('2024-01-15x')":                                                                              "10:20:30,2024-01-15,2024-01-15,2024",
		"SELECT DATE_ADD('2024-01-15x', INTERVAL 1 DAY), '2024-01-15x' + INTERVAL 1 DAY, DATE_SUB('2024-01-15x', INTERVAL 1 DAY), ADDDATE('2024-01-15x', 1), SUBDATE('2024-01-15x', INTERVAL 1 DAY)": "2024-01-16,2024-01-16,2024-01-14,2024-01-16,2024-01-14",
		"SELECT DATE_ADD('2024-01-15x', INTERVAL 1 HOUR), DATE_ADD('2024-01-15 10:20x', INTERVAL 1 HOUR)":                                                                                            "2024-01-15 01:00:00,2024-01-15 11:20:00",
		"SELECT TIMESTAMP('2024-01-15x'), TIMESTAMP('2024-01-15x', '01:00:00'), TIMESTAMP('2024-01-15 10:20:30.25x')":                                                                                "2024-01-15 00:00:00,2024-01-15 01:00:00,2024-01-15 10:20:30.25",
		"SELECT CAST('2024-01-15 10:20:30x' AS DATE), CAST('2024-01-15x' AS DATETIME), CAST('10:20:30abc' AS TIME), CONVERT('20240115x', DATE), CAST('2024/1/5x' AS DATE)":                           "2024-01-15,2024-01-15 00:00:00,10:20:30,2024-01-15,2024-01-05",
		"SELECT MONTH('2024-01-15x'), DAY('2024-01-15x'), DAYOFMONTH('2024-01-15x'), DAYOFWEEK('2024-01-15x'), DAYOFYEAR('2024-01-15x'), WEEKDAY('2024-01-15x')":                                     "1,15,15,2,15,0",
		"SELECT QUARTER('2024-01-15x'), MONTHNAME('2024-01-15x'), DAYNAME('2024-01-15x'), TO_DAYS('2024-01-15x'), LAST_DAY('2024-01-15x'), WEEK('2024-01-15x')":                                      "1,January,Monday,739265,2024-01-31,2",
		"SELECT HOUR('10:20:30abc'), MINUTE('10:20:30abc'), SECOND('10:20:30abc'), HOUR('100:20:30x'), HOUR('2024-01-15 10:20:30x'), MICROSECOND('10:20:30.5x'), TIME_TO_SEC('10:20:30x')":           "10,20,30,100,10,500000,37230",
		"SELECT TIME('12abc'), TIME('10:20:30.5abc'), TIME('2024-01-15 10:20:30x'), TIME('10:20:30 abc'), DATE('2024-01-15 10:00:00.123x')":                                                          "00:00:12,10:20:30.5,10:20:30,10:20:30,2024-01-15",
		// Spaces after the value.
		"SELECT DATE('2024-01-15 '), DATE('2024-01-15 10:00:00 '), TIME('10:20:30 '), CAST('2024-01-15\t' AS DATE), YEAR('2024-01-15 ')": "2024-01-15,2024-01-15,10:20:30,2024-01-15,2024",
		// No value at the start, or none that exists: as before.
		"SELECT DATE('junk'), TIME('abc'), DATE('2024-02-30x'), DATE_ADD('10:20:30x', INTERVAL 1 HOUR)": "NULL,NULL,NULL,NULL",
		// A column's text, row by row.
		"SELECT id, DATE(v), YEAR(v), v + INTERVAL 1 DAY FROM s ORDER BY id":                "1,2024-01-15,2024,2024-01-16;2,2024-01-15,2024,2024-01-16;3,NULL,NULL,NULL;4,NULL,NULL,NULL;5,2024-01-15,2024,2024-01-16",
		"SELECT id, TIME(v) FROM s WHERE id IN (4, 5) ORDER BY id":                          "4,10:20:30.000000;5,00:20:24.000000",
		"SELECT id FROM s WHERE DATE(v) = '2024-01-15' ORDER BY id":                         "1;2;5",
		"SELECT (SELECT DATE('2024-01-15x')), (SELECT CAST(v AS DATE) FROM s WHERE id = 1)": "2024-01-15,2024-01-15",
	})
	wantWarnings(t, db, "SELECT TIME('10:20:30abc')", "1292 Truncated incorrect time value: '10:20:30abc'")
	wantWarnings(t, db, "SELECT CAST('2024-01-15x' AS DATE)", "1292 Truncated incorrect date value: '2024-01-15x'")
	wantWarnings(t, db, "SELECT DATE('2024-01-15 10:00:00junk')", "1292 Truncated incorrect datetime value: '2024-01-15 10:00:00junk'")
	wantWarnings(t, db, "SELECT TIMESTAMP('2024-01-15x')", "1292 Truncated incorrect date value: '2024-01-15x'")
	wantWarnings(t, db, "SELECT HOUR('2024-01-15 10:20:30x')", "1292 Truncated incorrect datetime value: '2024-01-15 10:20:30x'")
	wantWarnings(t, db, "SELECT YEAR(v) FROM s WHERE id = 1", "1292 Truncated incorrect date value: '2024-01-15x'")
	wantWarnings(t, db, "SELECT DATE('2024-01-15 '), TIME('10:20:30 '), DATE('2024-01-15'), TIME('10:20:30')")

	// Writing rows in strict mode, text cut short is an error.
	mustExec(t, db, "INSERT INTO d VALUES (3, DATE('2024-01-15 '), NULL)")
	for _, q := range []string{
		"INSERT INTO d VALUES (1, DATE('2024-01-15x'), NULL)",
		"INSERT INTO d SELECT 2, DATE(v), NULL FROM s WHERE id = 1",
		"UPDATE d SET y = YEAR('2024-01-15x')",
	} {
		_, err := db.Exec(q)
		t.Run(q, func(t *testing.T) { wantMySQLError(t, err, 1292, "22007") })
	}
	mustExecAll(t, db, "SET sql_mode = ''",
		"INSERT INTO d VALUES (4, DATE('2024-01-15x'), YEAR('2024-01-15x'))")
	wantAnswers(t, db, "stored", map[string]string{"SELECT id, d, y FROM d ORDER BY id": "3,2024-01-15,NULL;4,2024-01-15,2024"})
}
