package sqlext_test

import "testing"

// TestShowColumnsAsMySQL: SHOW COLUMNS and DESCRIBE show a text column's
// default as its value and SHOW FULL COLUMNS each column's own collation,
// as MySQL 8 does. Before, DEFAULT 'q' read 'q' (with the quotes), and
// every collation was the server's default.
func TestShowColumnsAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE sc",
		"CREATE TABLE sc.t (id INT PRIMARY KEY, a VARCHAR(9) DEFAULT 'q', b INT DEFAULT 3, "+
			"c DATETIME DEFAULT CURRENT_TIMESTAMP, f VARCHAR(5) DEFAULT '', g VARCHAR(5) COLLATE utf8mb4_0900_ai_ci DEFAULT 'it''s')")
	wantAnswers(t, db, "columns", map[string]string{
		"SHOW COLUMNS FROM sc.t": "id,int,NO,PRI,NULL,;a,varchar(9),YES,,q,;b,int,YES,,3,;" +
			"c,datetime,YES,,CURRENT_TIMESTAMP,DEFAULT_GENERATED;f,varchar(5),YES,,,;g,varchar(5),YES,,it's,",
		"DESCRIBE sc.t": "id,int,NO,PRI,NULL,;a,varchar(9),YES,,q,;b,int,YES,,3,;" +
			"c,datetime,YES,,CURRENT_TIMESTAMP,DEFAULT_GENERATED;f,varchar(5),YES,,,;g,varchar(5),YES,,it's,",
		"SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sc' AND TABLE_NAME = 't' AND COLUMN_NAME IN ('a', 'f', 'g') ORDER BY 1": "a,q;f,;g,it's",
	})
	rows := queryStrings(t, db, "SHOW FULL COLUMNS FROM sc.t")
	for i, want := range []string{"NULL", "utf8mb4_0900_bin", "NULL", "NULL", "utf8mb4_0900_bin", "utf8mb4_0900_ai_ci"} {
		if rows[i][2] != want {
			t.Errorf("column %s: collation %s, want %s", rows[i][0], rows[i][2], want)
		}
	}
}
