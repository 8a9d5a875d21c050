package sqlext_test

import (
	"database/sql"
	"strings"
	"testing"
	"time"
)

// SHOW TABLE STATUS gives each table's next AUTO_INCREMENT value (NULL
// without such a column), the Dynamic row format and its comment, and a
// row for each view, as MySQL 8 does, in name order; LIKE still filters.
func TestShowTableStatus(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ts",
		"CREATE TABLE ts.t (id INT AUTO_INCREMENT PRIMARY KEY, s VARCHAR(20)) COMMENT 'people'",
		"INSERT INTO ts.t (s) VALUES ('a'), ('b'), ('c')",
		"CREATE TABLE ts.e (id INT AUTO_INCREMENT PRIMARY KEY)",
		"CREATE TABLE ts.n (a INT)",
		"CREATE VIEW ts.v AS SELECT id FROM ts.t")
	status := func(q string) string {
		var out [][]string
		for _, r := range queryStrings(t, db, q) {
			// Name, Engine, Row_format, Rows, Auto_increment, Comment
			out = append(out, []string{r[0], r[1], r[3], r[4], r[10], r[17]})
		}
		return flat(out)
	}
	if got, want := status("SHOW TABLE STATUS FROM ts"), "e,InnoDB,Dynamic,0,1,;n,InnoDB,Dynamic,0,NULL,;t,InnoDB,Dynamic,3,4,people;v,NULL,NULL,NULL,NULL,VIEW"; got != want {
		t.Errorf("SHOW TABLE STATUS:\n got %s\nwant %s", got, want)
	}
	if got, want := status("SHOW TABLE STATUS FROM ts LIKE 't'"), "t,InnoDB,Dynamic,3,4,people"; got != want {
		t.Errorf("SHOW TABLE STATUS LIKE 't': %s, want %s", got, want)
	}
	if got, want := status("SHOW TABLE STATUS FROM ts WHERE Comment = 'people'"), "t,InnoDB,Dynamic,3,4,people"; got != want {
		t.Errorf("SHOW TABLE STATUS WHERE Comment = 'people': %s, want %s", got, want)
	}
	rows, err := db.Query("SHOW TABLE STATUS FROM ts")
	if err != nil {
		t.Fatal(err)
	}
	names, _ := rows.Columns()
	rows.Close()
	if got := strings.Join(names, ","); got != "Name,Engine,Version,Row_format,Rows,Avg_row_length,Data_length,Max_data_length,"+
		"Index_length,Data_free,Auto_increment,Create_time,Update_time,Check_time,Collation,Checksum,Create_options,Comment" {
		t.Errorf("columns: %s", got)
	}
}

// A table's CREATE_TIME in information_schema.TABLES and Create_time in
// SHOW TABLE STATUS are when it was created, kept across a restart; its
// UPDATE_TIME is NULL, as InnoDB's is after a restart.
func TestTableCreateTime(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db, "CREATE DATABASE ct", "CREATE TABLE ct.old (a INT)")
	time.Sleep(1100 * time.Millisecond)
	mustExecAll(t, db, "CREATE TABLE ct.t (id INT PRIMARY KEY)", "INSERT INTO ct.t VALUES (1)")
	check := func(db *sql.DB) string {
		t.Helper()
		wantAnswers(t, db, "create time", map[string]string{
			"SELECT ABS(TIMESTAMPDIFF(SECOND, CREATE_TIME, UTC_TIMESTAMP())) < 60 FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ct' AND TABLE_NAME = 't'": "1",
			"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ct' AND UPDATE_TIME IS NULL":                                                   "2",
			"SELECT (SELECT CREATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ct' AND TABLE_NAME = 'old') < " +
				"(SELECT CREATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ct' AND TABLE_NAME = 't')": "1",
		})
		shown := queryStrings(t, db, "SHOW TABLE STATUS FROM ct LIKE 't'")[0][11]
		if got := flat(queryStrings(t, db, "SELECT CREATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ct' AND TABLE_NAME = 't'")); got != shown {
			t.Errorf("CREATE_TIME %s, SHOW TABLE STATUS Create_time %s", got, shown)
		}
		return shown
	}
	before := check(db)
	srv.Close()
	_, db = openIn(t, dir)
	if after := check(db); after != before {
		t.Errorf("after a restart the table was created at %s, before at %s", after, before)
	}
}
