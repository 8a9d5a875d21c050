package sqlext_test

import "testing"

// TestTemporalChoicesAsText: COALESCE, IFNULL, IF and CASE that give a
// date or a time or another value (text, a number) give text, each date
// or time written as its type writes it. The answers are MariaDB
// 10.11's; the engine typed such a DATE a DATETIME (2024-01-15
// 00:00:00), refused IFNULL(d, ”) with 1292 and COALESCE of a TIME
// with 1105, and gave a TIME in a CASE as the empty string.
func TestTemporalChoicesAsText(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE tc",
		"CREATE TABLE tc.t (id INT PRIMARY KEY, d DATE, dt DATETIME(2), tm TIME)",
		"INSERT INTO tc.t VALUES (1, '2024-01-15', '2024-01-15 10:00:00.5', '10:00:00'), (2, NULL, NULL, NULL)")
	wantAnswers(t, db, "choices", map[string]string{
		"SELECT COALESCE(d, 'n/a'), IFNULL(d, ''), COALESCE(dt, 'n/a'), COALESCE(tm, 'n/a'), COALESCE(tm, 0) FROM tc.t ORDER BY id":                          "2024-01-15,2024-01-15,2024-01-15 10:00:00.50,10:00:00,10:00:00;n/a,,n/a,n/a,0",
		"SELECT IF(id = 1, d, 'none'), IFNULL(tm, ''), IF(id = 1, dt, 'none') FROM tc.t ORDER BY id":                                                         "2024-01-15,10:00:00,2024-01-15 10:00:00.50;none,,none",
		"SELECT CASE WHEN id = 1 THEN d ELSE 'x' END, CASE WHEN id = 1 THEN tm ELSE 'x' END, CASE id WHEN 1 THEN dt WHEN 2 THEN 5 END FROM tc.t ORDER BY id": "2024-01-15,10:00:00,2024-01-15 10:00:00.50;x,x,5",
		"SELECT CASE WHEN id = 1 THEN 1.50 ELSE d END, CASE WHEN id = 1 THEN d END FROM tc.t ORDER BY id":                                                    "1.50,2024-01-15T00:00:00Z;NULL,NULL",
	})
}

// TestGreatestLeastOfDates: GREATEST and LEAST over a date and text,
// numbers or other dates compare them as dates and give the result the
// dates' type (a DATETIME with the most digits among them, else a DATE),
// as MySQL does; text that spells no date counts as the least. The
// answers are MariaDB 10.11's; the engine compared a DATE with text as
// text, and gave GREATEST(d, '2024-02-01') as 0.
func TestGreatestLeastOfDates(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE gl",
		"CREATE TABLE gl.t (id INT PRIMARY KEY, d DATE, dt DATETIME(2))",
		"INSERT INTO gl.t VALUES (1, '2024-01-15', '2024-01-15 10:00:00.5'), (2, NULL, NULL)")
	wantAnswers(t, db, "dates", map[string]string{
		"SELECT CAST(GREATEST(d, '2024-02-01') AS CHAR), CAST(LEAST(d, '2024-02-01') AS CHAR), CAST(GREATEST(d, '2023-02-01') AS CHAR), CAST(GREATEST(d, 20240301) AS CHAR) FROM gl.t ORDER BY id":                "2024-02-01,2024-01-15,2024-01-15,2024-03-01;NULL,NULL,NULL,NULL",
		"SELECT CAST(LEAST(d, dt) AS CHAR), CAST(GREATEST(dt, '2024-01-15 10:00:00.25') AS CHAR), CAST(GREATEST(d, dt, '2024-01-15 12:00:00') AS CHAR), CAST(GREATEST(d, 'junk') AS CHAR) FROM gl.t WHERE id = 1": "2024-01-15 00:00:00.00,2024-01-15 10:00:00.50,2024-01-15 12:00:00.00,2024-01-15",
		"SELECT GREATEST('2024-01-01', '2023-05-01'), GREATEST(1, 2.5), LEAST('b', 'a')":                                                                                                                          "2024-01-01,2.5,a",
	})
}
