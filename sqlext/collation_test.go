package sqlext_test

import "testing"

// TestStringColumnsKeepTheirCollation: string columns compare and match
// LIKE patterns under their collation, a binary one (case-sensitive)
// named on the table, or a case-insensitive one named on the column or
// the table or given by the database, and keep it across a restart.
// Columns of the server's default collation once came back from storage
// with none, and LIKE on them matched nothing.
func TestStringColumnsKeepTheirCollation(t *testing.T) {
	dir := t.TempDir()
	check := func(when string) {
		srv, addr := startServer(t, dir)
		defer srv.Close()
		db := connect(t, addr, "")
		db.SetMaxOpenConns(1)
		if when == "created" {
			mustExecAll(t, db, "CREATE DATABASE c",
				"CREATE TABLE c.t (id INT PRIMARY KEY, v VARCHAR(20), ch CHAR(10), tx TEXT, e ENUM('Red','green'),"+
					" ci VARCHAR(20) COLLATE utf8mb4_0900_ai_ci) COLLATE utf8mb4_0900_bin",
				"CREATE TABLE c.u (id INT PRIMARY KEY, v VARCHAR(20)) COLLATE utf8mb4_0900_ai_ci",
				"INSERT INTO c.t VALUES (1, 'héllo', 'hello', 'hello world', 'Red', 'Hello'), (2, 'other', 'x', 'y', 'green', 'bye')",
				"CREATE TABLE c.w (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO c.u VALUES (1, 'Hello')",
				"INSERT INTO c.w VALUES (1, 'héllo')")
		}
		wantAnswers(t, db, when, map[string]string{
			"SELECT id FROM c.t WHERE v LIKE 'h%'":           "1",
			"SELECT id FROM c.t WHERE v LIKE '%llo'":         "1",
			"SELECT id FROM c.t WHERE v LIKE 'H%'":           "",
			"SELECT id FROM c.t WHERE ch LIKE 'hel_o'":       "1",
			"SELECT id FROM c.t WHERE tx LIKE '%world'":      "1",
			"SELECT id FROM c.t WHERE v = 'HÉLLO'":           "",
			"SELECT id FROM c.t WHERE ci = 'HELLO'":          "1",
			"SELECT id FROM c.t WHERE ci LIKE 'h%'":          "1",
			"SELECT id FROM c.u WHERE v = 'hello'":           "1",
			"SELECT id FROM c.u WHERE v LIKE 'HEL%'":         "1",
			"SELECT COUNT(*) FROM c.t WHERE v NOT LIKE 'h%'": "1",
			"SELECT id FROM c.w WHERE v = 'HELLO'":           "1",
			"SELECT id FROM c.w WHERE v LIKE 'HÉ%'":          "1",
		})
		if when == "created" {
			// DELETE with LIKE removes what it matches.
			mustExec(t, db, "DELETE FROM c.t WHERE tx LIKE 'y%'")
			if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM c.t")); got != "1" {
				t.Errorf("after DELETE ... LIKE: %s rows", got)
			}
			mustExec(t, db, "INSERT INTO c.t VALUES (2, 'other', 'x', 'y', 'green', 'bye')")
		}
	}
	check("created")
	check("restarted")
}
