package sqlext_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestTimeBeyondItsRange: a time past -838:59:59..838:59:59 stored in a
// TIME column is refused in strict mode with MySQL's 1292 and its text,
// and leaves nothing written; under IGNORE or outside strict mode it is
// stored as the nearer bound with warning 1264, as MySQL does, by every
// statement that stores values. The engine stored the bound without a
// word.
func TestTimeBeyondItsRange(t *testing.T) {
	dir := t.TempDir()
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	defer srv.Close()
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1) // SHOW WARNINGS reads the session's
	mustExecAll(t, db,
		"CREATE DATABASE tr",
		"CREATE TABLE tr.t (id INT PRIMARY KEY, a TIME, b TIME(2))",
		"INSERT INTO tr.t VALUES (1, '838:59:59', '-838:59:59'), (2, 8385959, '34 22:59:59')")
	refused := []struct{ q, msg string }{
		{"INSERT INTO tr.t VALUES (3, '10:00:00', NULL), (4, '839:00:00', NULL)", "Incorrect time value: '839:00:00' for column 'a' at row 2"},
		{"INSERT INTO tr.t VALUES (3, 9000000, NULL)", "Incorrect time value: '9000000' for column 'a' at row 1"},
		{"INSERT INTO tr.t VALUES (3, NULL, '-35 00:00:00')", "Incorrect time value: '-35 00:00:00' for column 'b' at row 1"},
		{"INSERT INTO tr.t SELECT 3, '900:00:00', NULL", "Incorrect time value: '900:00:00' for column 'a' at row 1"},
		{"UPDATE tr.t SET b = '-1000:00:00.5' WHERE id = 2", "Incorrect time value: '-1000:00:00.5' for column 'b' at row 1"},
		{"INSERT INTO tr.t VALUES (1, NULL, NULL) ON DUPLICATE KEY UPDATE a = -8400000", "Incorrect time value: '-8400000' for column 'a' at row 1"},
	}
	for _, c := range refused {
		_, err := db.Exec(c.q)
		wantMySQLMessage(t, c.q, err, 1292, "22007", c.msg)
	}
	// A statement prepared once numbers its rows from 1 at each execution.
	stmt, err := db.Prepare("INSERT INTO tr.t (id, a) VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for range 2 {
		_, err := stmt.Exec(3, "900:00:00")
		wantMySQLMessage(t, "prepared", err, 1292, "22007", "Incorrect time value: '900:00:00' for column 'a' at row 1")
	}
	// So does a procedure's statement, at each call.
	mustExec(t, db, "CREATE PROCEDURE tr.p(v TEXT) INSERT INTO tr.t (id, a) VALUES (3, v)")
	for range 2 {
		_, err := db.Exec("CALL tr.p('900:00:00')")
		wantMySQLMessage(t, "procedure", err, 1292, "22007", "Incorrect time value: '900:00:00' for column 'a' at row 1")
	}
	want := "1,838:59:59,-838:59:59.00;2,838:59:59,838:59:59.00"
	wantAnswers(t, db, "after refusals", map[string]string{"SELECT id, a, b FROM tr.t ORDER BY id": want})

	// Under IGNORE, and outside strict mode, the bound with a warning.
	wantWarnings(t, db, "INSERT IGNORE INTO tr.t VALUES (3, '900:00:00', '-900:00:00')",
		"1264 Out of range value for column 'a' at row 1", "1264 Out of range value for column 'b' at row 1")
	wantWarnings(t, db, "UPDATE IGNORE tr.t SET a = 9000000 WHERE id = 1",
		"1264 Out of range value for column 'a' at row 1")
	mustExec(t, db, "SET SESSION sql_mode = ''")
	wantWarnings(t, db, "INSERT INTO tr.t (id, a) VALUES (4, '12:00'), (5, '-839:00:00')",
		"1264 Out of range value for column 'a' at row 2")
	// A fraction does not take a time past the bound.
	wantWarnings(t, db, "INSERT INTO tr.t (id, a) VALUES (6, '838:59:59.4')")
	wantAnswers(t, db, "stored", map[string]string{
		"SELECT id, a, b FROM tr.t WHERE id > 2 ORDER BY id": "3,838:59:59,-838:59:59.00;4,12:00:00,NULL;5,-838:59:59,NULL;6,838:59:59,NULL",
	})
	mustExec(t, db, "SET SESSION sql_mode = DEFAULT")

	// LOAD DATA: refused in strict mode, the bound under IGNORE.
	if err := os.WriteFile(filepath.Join(dir, "times.csv"), []byte("10,01:00:00\n11,-900:00:00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec("LOAD DATA INFILE 'times.csv' INTO TABLE tr.t FIELDS TERMINATED BY ',' (id, a)")
	wantMySQLMessage(t, "LOAD DATA", err, 1292, "22007", "Incorrect time value: '-900:00:00' for column 'a' at row 2")
	wantAnswers(t, db, "nothing loaded", map[string]string{"SELECT COUNT(*) FROM tr.t WHERE id >= 10": "0"})
	wantWarnings(t, db, "LOAD DATA INFILE 'times.csv' IGNORE INTO TABLE tr.t FIELDS TERMINATED BY ',' (id, a)",
		"1264 Out of range value for column 'a' at row 2")
	wantAnswers(t, db, "loaded", map[string]string{"SELECT id, a FROM tr.t WHERE id >= 10 ORDER BY id": "10,01:00:00;11,-838:59:59"})
}
