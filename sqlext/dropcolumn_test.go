package sqlext_test

import (
	"strings"
	"testing"
)

// TestDropIndexedColumn: ALTER TABLE ... DROP COLUMN of a column that an
// index uses works as in MySQL: the column leaves every index, an index
// left without columns is dropped, and a unique index that would then
// hold a key twice fails the ALTER with 1062 and changes nothing. It was
// refused with "column is used by index". The result survives a restart
// (the log replayed).
func TestDropIndexedColumn(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE dc",
		"CREATE TABLE dc.t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(5), KEY (a), KEY ab (a, b), UNIQUE KEY u (b, a))",
		"INSERT INTO dc.t VALUES (1, 1, 5, 'x'), (2, 2, 5, 'y'), (3, 3, 6, 'z')",
		"ALTER TABLE dc.t DROP COLUMN c")
	_, err := db.Exec("ALTER TABLE dc.t DROP COLUMN a")
	wantMySQLError(t, err, 1062, "23000")
	ddl := func() string {
		s := queryStrings(t, db, "SHOW CREATE TABLE dc.t")[0][1]
		return s[strings.Index(s, "(") : strings.LastIndex(s, ")")+1]
	}
	if got := ddl(); !strings.Contains(got, "KEY `ab` (`a`,`b`)") || !strings.Contains(got, "UNIQUE KEY `u` (`b`,`a`)") {
		t.Fatalf("after the refused drop:\n%s", got)
	}
	mustExecAll(t, db, "DELETE FROM dc.t WHERE id = 2", "ALTER TABLE dc.t DROP COLUMN a")
	want := "(\n  `id` int NOT NULL,\n  `b` int DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `u` (`b`),\n  KEY `ab` (`b`)\n)"
	if got := ddl(); got != want {
		t.Fatalf("after dropping a:\n%s\nwant\n%s", got, want)
	}
	_, err = db.Exec("INSERT INTO dc.t VALUES (4, 6)")
	wantMySQLError(t, err, 1062, "23000")
	answers := map[string]string{
		"SELECT id FROM dc.t WHERE b = 6":   "3",
		"SELECT id, b FROM dc.t ORDER BY b": "1,5;3,6",
	}
	wantAnswers(t, db, "after dropping a", answers)
	mustExecAll(t, db, "CREATE TABLE dc.one (a INT)")
	_, err = db.Exec("ALTER TABLE dc.one DROP COLUMN a")
	wantMySQLError(t, err, 1090, "42000")
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	if got := ddl(); got != want {
		t.Fatalf("after a restart:\n%s\nwant\n%s", got, want)
	}
	wantAnswers(t, db, "after a restart", answers)
}
