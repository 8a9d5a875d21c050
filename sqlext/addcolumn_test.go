package sqlext_test

import (
	"database/sql"
	"strings"
	"testing"
)

// TestAddNotNullColumnImplicitDefaults: a NOT NULL column added without
// a default to a table with rows holds MySQL's implicit default of its
// type in them ("Data Type Default Values" in the MySQL 8.0 manual;
// strict mode refuses an INSERT that leaves such a column out, not an
// ALTER TABLE that adds it): 0, ”, zero bytes to a BINARY's length,
// the first member of an ENUM, the empty SET. JSON has no implicit
// default literal, and MySQL reads the empty value it stores for the
// rows already there as the JSON null literal (Field_json::val_json),
// so j is a JSON null, not SQL NULL; it failed the ALTER with 1105.
// MySQL refuses a NOT NULL DATE or DATETIME without a default on a
// table with rows with 1292 in strict mode with NO_ZERO_DATE (MySQL
// 8.0's default sql_mode; the zero date is what it would store), and
// as this server cannot hold a zero date it refuses them, and a
// TIMESTAMP (whose zero MySQL stores), in any mode: they held
// 0001-01-01. An empty table takes them. The values read the same
// after a restart.
func TestAddNotNullColumnImplicitDefaults(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE nd",
		"CREATE TABLE nd.t (id INT PRIMARY KEY)",
		"INSERT INTO nd.t VALUES (1), (2)",
		"CREATE TABLE nd.empty (id INT PRIMARY KEY)")
	for _, c := range []string{"i INT", "bi BIGINT UNSIGNED", "bo BOOL", "dc DECIMAL(5,2)", "f DOUBLE", "fl FLOAT",
		"s VARCHAR(10)", "ch CHAR(2)", "tx TEXT", "bl BLOB", "bn BINARY(3)", "vb VARBINARY(3)",
		"e ENUM('x','y')", "st SET('x','y')", "tm TIME", "b BIT(3)"} {
		mustExec(t, db, "ALTER TABLE nd.t ADD COLUMN "+c+" NOT NULL")
	}
	mustExecAll(t, db, "ALTER TABLE nd.t ADD COLUMN j JSON NOT NULL, ADD COLUMN j2 JSON NOT NULL AFTER id")
	for _, c := range []struct{ col, msg string }{
		{"d DATE", "Incorrect date value: '0000-00-00' for column 'd' at row 1"},
		{"dt DATETIME", "Incorrect datetime value: '0000-00-00 00:00:00' for column 'dt' at row 1"},
		{"ts TIMESTAMP", "Incorrect datetime value: '0000-00-00 00:00:00' for column 'ts' at row 1"},
	} {
		_, err := db.Exec("ALTER TABLE nd.t ADD COLUMN " + c.col + " NOT NULL")
		wantMySQLError(t, err, 1292, "22007")
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ADD COLUMN %s NOT NULL: %v, want %q", c.col, err, c.msg)
		}
		mustExec(t, db, "ALTER TABLE nd.empty ADD COLUMN "+c.col+" NOT NULL")
	}
	q := "SELECT id, j2, i, bi, bo, dc, f, fl, CONCAT('[', s, ch, tx, bl, ']'), HEX(bn), HEX(vb), e, CONCAT('[', st, ']'), tm, b + 0," +
		" j, JSON_TYPE(j), j IS NULL, JSON_TYPE(j2) FROM nd.t ORDER BY id"
	want := "1,null,0,0,0,0.00,0,0,[],000000,,x,[],00:00:00,0,null,NULL,0,NULL;2,null,0,0,0,0.00,0,0,[],000000,,x,[],00:00:00,0,null,NULL,0,NULL"
	check := func(db *sql.DB, when string) {
		t.Helper()
		if got := flat(queryStrings(t, db, q)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", when, got, want)
		}
		if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'nd' AND TABLE_NAME = 't'")); got != "19" {
			t.Errorf("%s: nd.t has %s columns, want 19 (the refused ones not added)", when, got)
		}
	}
	check(db, "after the ALTERs")
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	check(db, "after a restart")
}

// TestAddAutoIncrementColumn: an AUTO_INCREMENT column added with its
// key numbers the rows already there from 1, in key order or, without a
// primary key, in the order they were inserted, as MySQL does; the next
// insert takes the number after them. Every row held 0, and the unique
// key that must come with the column failed the ALTER with 1062, with
// the column left added without its key.
func TestAddAutoIncrementColumn(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ai",
		"CREATE TABLE ai.k (a INT, b VARCHAR(5))",
		"INSERT INTO ai.k VALUES (3, 'c'), (1, 'a'), (2, 'b'), (1, 'a')",
		"ALTER TABLE ai.k ADD COLUMN n INT AUTO_INCREMENT, ADD UNIQUE KEY (n)",
		"INSERT INTO ai.k (a, b) VALUES (9, 'z')",
		"CREATE TABLE ai.p (id VARCHAR(3) PRIMARY KEY)",
		"INSERT INTO ai.p VALUES ('c'), ('a'), ('b')",
		"ALTER TABLE ai.p ADD COLUMN n BIGINT NOT NULL AUTO_INCREMENT UNIQUE FIRST")
	wantAnswers(t, db, "after adding AUTO_INCREMENT columns", map[string]string{
		"SELECT n, a, b FROM ai.k ORDER BY n": "1,3,c;2,1,a;3,2,b;4,1,a;5,9,z",
		"SELECT * FROM ai.p ORDER BY n":       "1,a;2,b;3,c",
	})
}
