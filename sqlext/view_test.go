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

// TestViewsOfEveryDatabaseListed: information_schema.VIEWS lists the
// views of every database, whatever the current one, with none current
// too, and leaves the current database as it was. The engine planned
// each view in the current database, so a view naming its tables
// without their database was left out unless its database was current.
func TestViewsOfEveryDatabaseListed(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE lv1", "CREATE DATABASE lv2",
		"CREATE TABLE lv1.t1 (a INT)", "CREATE TABLE lv2.t2 (b INT)",
		"USE lv1", "CREATE VIEW w1 AS SELECT a FROM t1",
		"USE lv2", "CREATE VIEW w2 AS SELECT b FROM t2")
	const q = "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA LIKE 'lv%' ORDER BY 1, 2"
	for _, use := range []string{"USE lv1", "USE lv2"} {
		mustExec(t, db, use)
		if got := flat(queryStrings(t, db, q)); got != "lv1,w1;lv2,w2" {
			t.Errorf("after %s: %s", use, got)
		}
		if got, want := flat(queryStrings(t, db, "SELECT DATABASE()")), use[4:]; got != want {
			t.Errorf("current database %s, want %s", got, want)
		}
	}
	other := connect(t, addr, "")
	other.SetMaxOpenConns(1)
	if got := flat(queryStrings(t, other, q)); got != "lv1,w1;lv2,w2" {
		t.Errorf("with no current database: %s", got)
	}
}
