package sqlext_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"
)

// TestShowEngine: SHOW ENGINE INNODB STATUS answers one row of Type,
// Name and Status, as MySQL does (it was a syntax error), whose Status
// tells what holds the tables and counts them; MUTEX answers no rows.
// Another engine's name is error 1286, and a user without the PROCESS
// privilege is refused with 1227, as in MySQL.
func TestShowEngine(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE se",
		"CREATE TABLE se.a (id INT PRIMARY KEY)", "CREATE TABLE se.b (v TEXT)",
		"INSERT INTO se.a VALUES (1), (2)", "INSERT INTO se.b VALUES ('x')")
	show := func(db *sql.DB, q string) (cols []string, rows [][]string) {
		t.Helper()
		r, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ = r.Columns()
		r.Close()
		return cols, queryStrings(t, db, q)
	}
	for _, q := range []string{"SHOW ENGINE INNODB STATUS", "show engine `InnoDB` status;", "SHOW ENGINE ALL STATUS"} {
		cols, rows := show(db, q)
		if want := []string{"Type", "Name", "Status"}; !slices.Equal(cols, want) {
			t.Errorf("%s: columns %v, want %v", q, cols, want)
		}
		if len(rows) != 1 || rows[0][0] != "InnoDB" || rows[0][1] != "" {
			t.Fatalf("%s: %v", q, rows)
		}
		if status := rows[0][2]; !strings.Contains(status, "Databases 1, tables 2, committed rows 3\n") {
			t.Errorf("%s: status\n%s", q, status)
		}
	}
	if cols, rows := show(db, "SHOW ENGINE innodb MUTEX"); len(cols) != 3 || len(rows) != 0 {
		t.Errorf("MUTEX: columns %v, rows %v", cols, rows)
	}
	for _, q := range []string{"SHOW ENGINE foo STATUS", "SHOW ENGINE MyISAM MUTEX"} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1286, "42000")
	}
	_, err := db.Exec("SHOW ENGINE INNODB")
	wantMySQLError(t, err, 1064, "42000")

	mustExecAll(t, db, "CREATE USER 'watch'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON se.* TO 'watch'@'%'")
	watch := connectAs(t, addr, "watch:pw", "se")
	_, err = watch.Exec("SHOW ENGINE INNODB STATUS")
	wantMySQLError(t, err, 1227, "42000")
	mustExecAll(t, db, "GRANT PROCESS ON *.* TO 'watch'@'%'")
	if _, rows := show(watch, "SHOW ENGINE INNODB STATUS"); len(rows) != 1 {
		t.Errorf("with PROCESS: %v", rows)
	}
}
