package sqlext_test

import (
	"strings"
	"testing"
)

// TestShowColumnsAsMySQL: SHOW COLUMNS and DESCRIBE show a text column's
// default as its value and SHOW FULL COLUMNS each column's own collation,
// and the caller's privileges, as MySQL 8 does. Before, DEFAULT 'q' read
// 'q' (with the quotes), every collation was the server's default, and
// the privileges were empty.
func TestShowColumnsAsMySQL(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE sc",
		"CREATE TABLE sc.t (id INT PRIMARY KEY, a VARCHAR(9) DEFAULT 'q', b INT DEFAULT 3, "+
			"c DATETIME DEFAULT CURRENT_TIMESTAMP, f VARCHAR(5) DEFAULT '', g VARCHAR(5) COLLATE utf8mb4_0900_bin DEFAULT 'it''s')")
	wantAnswers(t, db, "columns", map[string]string{
		"SHOW COLUMNS FROM sc.t": "id,int,NO,PRI,NULL,;a,varchar(9),YES,,q,;b,int,YES,,3,;" +
			"c,datetime,YES,,CURRENT_TIMESTAMP,DEFAULT_GENERATED;f,varchar(5),YES,,,;g,varchar(5),YES,,it's,",
		"DESCRIBE sc.t": "id,int,NO,PRI,NULL,;a,varchar(9),YES,,q,;b,int,YES,,3,;" +
			"c,datetime,YES,,CURRENT_TIMESTAMP,DEFAULT_GENERATED;f,varchar(5),YES,,,;g,varchar(5),YES,,it's,",
		"SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sc' AND TABLE_NAME = 't' AND COLUMN_NAME IN ('a', 'f', 'g') ORDER BY 1": "a,q;f,;g,it's",
	})
	rows := queryStrings(t, db, "SHOW FULL COLUMNS FROM sc.t")
	for i, want := range []string{"NULL", "utf8mb4_0900_ai_ci", "NULL", "NULL", "utf8mb4_0900_ai_ci", "utf8mb4_0900_bin"} {
		if rows[i][2] != want {
			t.Errorf("column %s: collation %s, want %s", rows[i][0], rows[i][2], want)
		}
		if rows[i][7] != "select,insert,update,references" {
			t.Errorf("column %s: root's privileges %q", rows[i][0], rows[i][7])
		}
	}
	// A user's own privileges on the table.
	mustExecAll(t, db, "CREATE USER reader IDENTIFIED BY 'pw'", "GRANT SELECT, UPDATE ON sc.t TO reader")
	if got := queryStrings(t, connectAs(t, addr, "reader:pw", ""), "SHOW FULL COLUMNS FROM sc.t")[0][7]; got != "select,update" {
		t.Errorf("reader's privileges %q, want select,update", got)
	}
}

// TestShowIndexAsMySQL: SHOW INDEX gives each column of the table's
// B-tree indexes collation A, and as its cardinality the count of
// distinct values of the index's columns up to it, as MySQL does; the
// engine gave NULL and 0 (TestIndexCardinality has more).
func TestShowIndexAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE si",
		"CREATE TABLE si.t (id INT PRIMARY KEY, a INT, b INT, c INT, UNIQUE KEY ab (a, b), KEY c (c))",
		"INSERT INTO si.t VALUES (1, 1, 1, 5), (2, 1, 2, 5), (3, 2, 1, 6)")
	var got []string
	for _, r := range queryStrings(t, db, "SHOW INDEX FROM si.t") {
		got = append(got, r[2]+"."+r[3]+":"+r[5]+","+r[6])
	}
	if want := "PRIMARY.1:A,3 ab.1:A,2 ab.2:A,3 c.1:A,2"; strings.Join(got, " ") != want {
		t.Errorf("SHOW INDEX: %s, want %s", strings.Join(got, " "), want)
	}
	// WHERE, which the engine dropped, keeps the rows it holds.
	for q, want := range map[string]string{
		"SHOW INDEX FROM si.t WHERE Key_name = 'ab'":                       "ab.1 ab.2",
		"SHOW KEYS FROM t IN si WHERE Non_unique = 0 AND Seq_in_index = 1": "PRIMARY.1 ab.1",
		"SHOW INDEXES FROM si.t WHERE Cardinality < 3":                     "ab.1 c.1",
	} {
		var keys []string
		for _, r := range queryStrings(t, db, q) {
			keys = append(keys, r[2]+"."+r[3])
		}
		if strings.Join(keys, " ") != want {
			t.Errorf("%s: %s, want %s", q, strings.Join(keys, " "), want)
		}
	}
	_, err := db.Exec("SHOW INDEX FROM si.nope WHERE Key_name = 'x'")
	wantMySQLError(t, err, 1146, "42S02")
}

// TestKeysInMySQLOrder: SHOW CREATE TABLE, SHOW INDEX and
// information_schema.STATISTICS list a table's keys in the order MySQL
// keeps them (MariaDB's too, for this table): the primary key, the unique
// keys of NOT NULL columns, the other unique keys, then the plain keys,
// each group in the order the keys were made. They came in the order
// they were made, so a schema dumped here and one dumped from MySQL
// differed.
func TestKeysInMySQLOrder(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ko",
		"CREATE TABLE ko.t (id INT PRIMARY KEY, a INT, b INT NOT NULL, c INT, KEY ka (a), UNIQUE KEY ub (b), UNIQUE KEY uc (c), KEY kab (a, b))",
		"ALTER TABLE ko.t ADD KEY kc (c), ADD UNIQUE KEY uac (a, c)")
	want := "PRIMARY ub uc uac ka kab kc"
	var got []string
	for _, r := range queryStrings(t, db, "SHOW INDEX FROM ko.t") {
		if r[3] == "1" {
			got = append(got, r[2])
		}
	}
	if strings.Join(got, " ") != want {
		t.Errorf("SHOW INDEX: %s, want %s", strings.Join(got, " "), want)
	}
	got = nil
	for _, r := range queryStrings(t, db, "SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ko' AND SEQ_IN_INDEX = 1") {
		got = append(got, r[0])
	}
	if strings.Join(got, " ") != want {
		t.Errorf("information_schema.STATISTICS: %s, want %s", strings.Join(got, " "), want)
	}
	create := showCreate(t, db, "SHOW CREATE TABLE ko.t")
	keys := "PRIMARY KEY (`id`),\n  UNIQUE KEY `ub` (`b`),\n  UNIQUE KEY `uc` (`c`),\n  UNIQUE KEY `uac` (`a`,`c`),\n  KEY `ka` (`a`),\n  KEY `kab` (`a`,`b`),\n  KEY `kc` (`c`)\n"
	if !strings.Contains(create, keys) {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant its keys as\n%s", create, keys)
	}
}
