package sqlext_test

import (
	"database/sql"
	"testing"
)

// TestViewWithoutCurrentDatabase reads qualified views from a connection
// that never chose a database, through plain and prepared statements, and
// checks that the session still has no current database afterwards, also
// after a view that fails to bind.
func TestViewWithoutCurrentDatabase(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE DATABASE vdb",
		"CREATE TABLE vdb.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO vdb.t VALUES (1, 10), (2, 20)",
		"CREATE VIEW vdb.big AS SELECT id, v FROM vdb.t WHERE v > 15",
		"CREATE TABLE vdb.gone (x INT PRIMARY KEY)",
		"CREATE VIEW vdb.broken AS SELECT x FROM vdb.gone",
		"DROP TABLE vdb.gone",
	} {
		mustExec(t, db, q)
	}

	noDB := func(when string) {
		t.Helper()
		var cur sql.NullString
		if err := db.QueryRow("SELECT DATABASE()").Scan(&cur); err != nil || cur.Valid {
			t.Errorf("%s: current database %v (%v), want none", when, cur, err)
		}
	}
	noDB("at start")
	if got := queryStrings(t, db, "SELECT id, v FROM vdb.big"); len(got) != 1 || got[0][0] != "2" || got[0][1] != "20" {
		t.Errorf("view rows %v", got)
	}
	noDB("after a view")
	var v int
	if err := db.QueryRow("SELECT v FROM vdb.big WHERE id = ?", 2).Scan(&v); err != nil || v != 20 {
		t.Errorf("prepared view read: %d, %v", v, err)
	}
	noDB("after a prepared view")
	if _, err := db.Exec("SELECT * FROM vdb.broken"); err == nil {
		t.Error("a view over a dropped table read without error")
	}
	noDB("after a broken view")
	if _, err := db.Exec("SELECT * FROM t"); err == nil {
		t.Error("an unqualified table resolved with no current database")
	}
}
