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
