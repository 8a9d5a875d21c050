package sqlext_test

import "testing"

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
}
