package sqlext_test

import "testing"

// TestTextContextsReadLabelsAndDates: functions that read an argument as
// text read a DATE as YYYY-MM-DD, an ENUM as its label and a SET as its
// labels, as MySQL does (the answers are MariaDB 10.11's to the same
// statements); comparisons and arithmetic on them are unchanged.
func TestTextContextsReadLabelsAndDates(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tc", "USE tc",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, e ENUM('Red','green'), s SET('a','b','c'), tm TIME)",
		"INSERT INTO t VALUES (1, '2024-01-15', 'Red', 'a,c', '10:20:30'), (2, NULL, NULL, NULL, NULL), (3, '1999-12-31', 'green', '', '-838:59:59')")
	wantAnswers(t, db, "text", map[string]string{
		"SELECT CONCAT(d, '|', e, '|', s), CAST(d AS CHAR), CAST(e AS CHAR), UPPER(e), LENGTH(d) FROM t ORDER BY id": "2024-01-15|Red|a,c,2024-01-15,Red,RED,10;NULL,NULL,NULL,NULL,NULL;1999-12-31|green|,1999-12-31,green,GREEN,10",
		"SELECT e LIKE 'R%', s LIKE 'a%', d LIKE '2024%' FROM t ORDER BY id":                                         "1,1,1;NULL,NULL,NULL;0,0,0",
		"SELECT GROUP_CONCAT(e ORDER BY id), GROUP_CONCAT(d ORDER BY id) FROM t":                                     "Red,green,2024-01-15,1999-12-31",
		"SELECT SUBSTRING(d, 1, 4), REPLACE(d, '-', '/'), CONCAT_WS(',', e, s), LEFT(e, 1) FROM t WHERE id = 1":      "2024,2024/01/15,Red,a,c,R",
		"SELECT COALESCE(e, 'none'), IF(e IS NULL, 'x', e), IFNULL(s, '-') FROM t ORDER BY id":                       "Red,Red,a,c;none,x,-;green,green,",
		"SELECT e = 'Red', e + 0, s + 0, d > '2000-01-01' FROM t WHERE id = 1":                                       "1,1,5,1",
		"SELECT id FROM t WHERE e LIKE 'g%' OR CONCAT(s, '') = 'a,c' ORDER BY id":                                    "1;3",
		"SELECT CAST(1e20 AS CHAR), CONCAT(-7.766279631452242e18, ''), CAST(0.1e0 + 0.2e0 AS CHAR), CONCAT(2.5e0)":   "1e20,-7.766279631452242e18,0.30000000000000004,2.5",
		"SELECT JSON_TYPE(JSON_EXTRACT(JSON_OBJECT('t', 1e-8), '$.t')), LEFT('abcdef', 2e0), REPEAT('x', 3e0)":       "DOUBLE,ab,xxx",
		"SELECT CONCAT(d, ' ', tm), CAST(tm AS CHAR), LENGTH(tm) FROM t ORDER BY id":                                 "2024-01-15 10:20:30,10:20:30,8;NULL,NULL,NULL;1999-12-31 -838:59:59,-838:59:59,10",
	})
	// The engine's short plan for a single-table UPDATE or DELETE.
	mustExec(t, db, "UPDATE t SET s = 'b' WHERE e LIKE 'g%'")
	mustExec(t, db, "DELETE FROM t WHERE d LIKE '2024%'")
	wantAnswers(t, db, "after DML", map[string]string{"SELECT id, CAST(s AS CHAR) FROM t ORDER BY id": "2,NULL;3,b"})
}
