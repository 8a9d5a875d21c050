package sqlext_test

import "testing"

// TestAnalyzeTableNamesItsDatabase: ANALYZE TABLE works on tables named
// with their database, with or without a current database and across
// databases, and reports each as db.table, as MySQL does; an unqualified
// table with no current database is error 1046. An empty table with a
// key analyses (the engine's analysis divided by its rows), and one
// emptied since its last analysis loses its statistics.
func TestAnalyzeTableNamesItsDatabase(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE a1", "CREATE DATABASE b1",
		"CREATE TABLE a1.t (id INT PRIMARY KEY, v INT, KEY (v))",
		"INSERT INTO a1.t VALUES (1, 10), (2, 20), (3, 20)",
		"CREATE TABLE b1.u (x INT)",
		"CREATE TABLE b1.e (id INT PRIMARY KEY, v INT, KEY (v))")
	for q, want := range map[string]string{
		"ANALYZE TABLE a1.t":       "a1.t,analyze,status,OK",
		"ANALYZE TABLE a1.t, b1.u": "a1.t,analyze,status,OK;b1.u,analyze,status,OK",
		"ANALYZE TABLE b1.e":       "b1.e,analyze,status,OK",
	} {
		if got := flat(queryStrings(t, db, q)); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	_, err := db.Exec("ANALYZE TABLE t")
	wantMySQLError(t, err, 1046, "3D000")
	mustExec(t, db, "USE b1")
	if got, want := flat(queryStrings(t, db, "ANALYZE TABLE u, a1.t")), "b1.u,analyze,status,OK;a1.t,analyze,status,OK"; got != want {
		t.Errorf("ANALYZE TABLE u, a1.t: %q, want %q", got, want)
	}
	// The statistics serve the planner afterwards.
	if got := flat(queryStrings(t, db, "SELECT id FROM a1.t WHERE v = 20 ORDER BY id")); got != "2;3" {
		t.Errorf("lookup after ANALYZE: %q", got)
	}
	mustExecAll(t, db, "DELETE FROM a1.t", "INSERT INTO a1.t VALUES (9, 20)")
	mustExec(t, db, "DELETE FROM a1.t")
	if got := flat(queryStrings(t, db, "ANALYZE TABLE a1.t")); got != "a1.t,analyze,status,OK" {
		t.Errorf("ANALYZE TABLE of an emptied table: %q", got)
	}
	mustExec(t, db, "INSERT INTO a1.t VALUES (4, 20)")
	if got := flat(queryStrings(t, db, "SELECT id FROM a1.t WHERE v = 20 ORDER BY id")); got != "4" {
		t.Errorf("lookup after ANALYZE of the emptied table: %q", got)
	}
}
