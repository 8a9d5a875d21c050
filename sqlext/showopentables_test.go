package sqlext_test

import (
	"slices"
	"testing"
)

// TestShowOpenTables: SHOW OPEN TABLES lists the base tables as MySQL's
// does (it was a syntax error), with In_use and Name_locked 0, by
// database and name; FROM or IN names the database, LIKE matches the
// table's name, WHERE reads the four columns. Views, temporary tables and
// the system databases are left out, and a user sees only the databases
// they may use (the tables information_schema shows them).
func TestShowOpenTables(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1) // one session: the temporary table is its own
	mustExecAll(t, db,
		"CREATE DATABASE ot1", "CREATE DATABASE ot2",
		"CREATE TABLE ot1.a (id INT PRIMARY KEY)", "CREATE TABLE ot1.b (id INT)",
		"CREATE TABLE ot2.a (id INT)", "CREATE VIEW ot1.v AS SELECT id FROM ot1.a",
		"CREATE TEMPORARY TABLE ot1.tmp (id INT)")
	rows, err := db.Query("SHOW OPEN TABLES FROM ot1")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if want := []string{"Database", "Table", "In_use", "Name_locked"}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	wantAnswers(t, db, "SHOW OPEN TABLES", map[string]string{
		"SHOW OPEN TABLES":                                              "ot1,a,0,0;ot1,b,0,0;ot2,a,0,0",
		"SHOW OPEN TABLES FROM ot1":                                     "ot1,a,0,0;ot1,b,0,0",
		"show open tables in `ot2`;":                                    "ot2,a,0,0",
		"SHOW OPEN TABLES FROM ot1 LIKE 'b%'":                           "ot1,b,0,0",
		"SHOW OPEN TABLES LIKE 'a'":                                     "ot1,a,0,0;ot2,a,0,0",
		"SHOW OPEN TABLES WHERE `Database` = 'ot2'":                     "ot2,a,0,0",
		"SHOW OPEN TABLES FROM ot1 WHERE `Table` <> 'a' AND In_use = 0": "ot1,b,0,0",
		"SHOW OPEN TABLES FROM nosuch":                                  "",
	})
	_, err = db.Exec("SHOW OPEN TABLES WHERE nosuch = 1")
	wantMySQLError(t, err, 1054, "42S22")
	_, err = db.Exec("SHOW OPEN TABLES LIKE")
	wantMySQLError(t, err, 1064, "42000")

	mustExecAll(t, db, "CREATE USER 'ot'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON ot1.* TO 'ot'@'%'")
	user := connectAs(t, addr, "ot:pw", "")
	if got := flat(queryStrings(t, user, "SHOW OPEN TABLES")); got != "ot1,a,0,0;ot1,b,0,0" {
		t.Errorf("a user with SELECT on ot1 sees %q", got)
	}
}
