package sqlext_test

import (
	"strings"
	"testing"
)

// TestAlterColumnErrors: ALTER TABLE naming a column the table does not
// have, and adding (or renaming to) one it has, answer MySQL's errors
// and texts; they were 1105 with the engine's own texts (and 1060 with
// its text for a duplicate, or 1105 when the table has a generated
// column or a default that reads columns).
func TestAlterColumnErrors(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE ae",
		"CREATE TABLE ae.t1 (id INT PRIMARY KEY, a INT)",
		"INSERT INTO ae.t1 VALUES (1, 2)",
		"CREATE TABLE ae.g (id INT PRIMARY KEY, a INT, g INT AS (a * 2) STORED, d INT DEFAULT (id + 1))")
	cases := []struct {
		q, msg string
		code   uint16
		state  string
	}{
		{"ALTER TABLE ae.t1 ADD COLUMN c INT AFTER nosuch", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 ADD COLUMN c INT DEFAULT (a + 1) AFTER nosuch", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 ADD COLUMN c INT FIRST, ADD COLUMN d INT AFTER nosuch", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 MODIFY nosuch INT", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 CHANGE nosuch z INT", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 RENAME COLUMN nosuch TO z", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 ALTER COLUMN nosuch SET DEFAULT 1", "Unknown column 'nosuch' in 't1'", 1054, "42S22"},
		{"ALTER TABLE ae.t1 DROP COLUMN nosuch", "Can't DROP 'nosuch'; check that column/key exists", 1091, "42000"},
		{"ALTER TABLE ae.t1 ADD COLUMN a INT", "Duplicate column name 'a'", 1060, "42S21"},
		{"ALTER TABLE ae.t1 ADD COLUMN A INT AS (id) STORED", "Duplicate column name 'A'", 1060, "42S21"},
		{"ALTER TABLE ae.t1 ADD COLUMN x INT, ADD COLUMN x JSON DEFAULT (JSON_ARRAY())", "Duplicate column name 'x'", 1060, "42S21"},
		{"ALTER TABLE ae.t1 RENAME COLUMN a TO id", "Duplicate column name 'id'", 1060, "42S21"},
		// The engine's text was of an ambiguous name, a column of a
		// generated column's or a default's table twice.
		{"ALTER TABLE ae.g ADD COLUMN a INT", "Duplicate column name 'a'", 1060, "42S21"},
	}
	for _, c := range cases {
		_, err := db.Exec(c.q)
		wantMySQLError(t, err, c.code, c.state)
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want the message %q", c.q, err, c.msg)
		}
	}
	wantAnswers(t, db, "after the refused ALTERs", map[string]string{"SELECT * FROM ae.t1": "1,2"})
}
