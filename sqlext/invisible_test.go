package sqlext_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestInvisibleColumns: a column defined INVISIBLE (plainly or in the
// `/*!80023 INVISIBLE */` comment MySQL's dumps write) is left out of
// SELECT * and t.*, the point-select fast path's included, and out of an
// INSERT without a column list, but reads and writes by name; SHOW CREATE
// TABLE writes the mark as MySQL does and runs again; SHOW COLUMNS and
// information_schema.COLUMNS say INVISIBLE; ALTER TABLE ADD, MODIFY and
// CHANGE set and clear it, one clause or several, as does ALTER COLUMN ...
// SET [IN]VISIBLE; CREATE TABLE ... SELECT
// * copies the visible columns; a table needs a visible column (4028);
// the mark survives a restart. The parser dropped the word, and the
// column was an ordinary one.
func TestInvisibleColumns(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE iv", "USE iv",
		"CREATE TABLE t (my_row_id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT /*!80023 INVISIBLE */, a INT, "+
			"b VARCHAR(5) INVISIBLE DEFAULT 'x', c INT, PRIMARY KEY (my_row_id))",
		"INSERT INTO t VALUES (1, 2), (3, 4)", "INSERT INTO t (a, b, c) VALUES (5, 'y', 6)")
	cols := func(q string) string {
		t.Helper()
		var names []string
		for _, c := range resultColumns(t, db, q) {
			names = append(names, c.Name())
		}
		return strings.Join(names, ",")
	}
	for q, want := range map[string]string{
		"SELECT * FROM t":                               "a,c",
		"SELECT * FROM t WHERE my_row_id = 1":           "a,c",
		"SELECT t.*, b FROM t":                          "a,c,b",
		"SELECT * FROM t AS x JOIN t AS y ON x.a = y.a": "a,c,a,c",
		"SELECT * FROM t UNION SELECT * FROM t":         "a,c",
		"SELECT my_row_id, a, b, c FROM t":              "my_row_id,a,b,c",
	} {
		if got := cols(q); got != want {
			t.Errorf("%s: columns %s, want %s", q, got, want)
		}
	}
	wantAnswers(t, db, "the rows", map[string]string{
		"SELECT GROUP_CONCAT(CONCAT(my_row_id, ':', a, b, c) ORDER BY my_row_id) FROM t": "1:1x2,2:3x4,3:5y6",
		"SELECT GROUP_CONCAT(COLUMN_NAME, '=', EXTRA ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS " +
			"WHERE TABLE_SCHEMA = 'iv' AND TABLE_NAME = 't'": "my_row_id=auto_increment INVISIBLE,a=,b=INVISIBLE,c=",
	})
	extra := map[string]string{}
	for _, r := range queryStrings(t, db, "SHOW COLUMNS FROM t") {
		extra[r[0]] = r[5]
	}
	if extra["b"] != "INVISIBLE" || extra["a"] != "" {
		t.Errorf("SHOW COLUMNS Extra: %v", extra)
	}
	shown := showCreate(t, db, "SHOW CREATE TABLE t")
	for _, line := range []string{"`my_row_id` bigint unsigned NOT NULL AUTO_INCREMENT /*!80023 INVISIBLE */,", "`b` varchar(5) DEFAULT 'x' /*!80023 INVISIBLE */,"} {
		if !strings.Contains(shown, line) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", line, shown)
		}
	}
	mustExecAll(t, db, "CREATE DATABASE again", "USE again", shown)
	if got := cols("SELECT * FROM again.t"); got != "a,c" {
		t.Errorf("the table made from SHOW CREATE TABLE: columns %s", got)
	}
	mustExecAll(t, db, "USE iv")

	// Each statement, then the columns SELECT * reads from the table.
	for _, c := range [][3]string{
		{"ALTER TABLE t ADD COLUMN d INT INVISIBLE, MODIFY c INT INVISIBLE", "t", "a"},
		{"ALTER TABLE t CHANGE c c INT", "t", "a,c"},
		{"CREATE TABLE copied AS SELECT * FROM t", "copied", "a,c"},
		{"ALTER TABLE t ALTER COLUMN c SET INVISIBLE", "t", "a"},
		{"ALTER TABLE iv.t ALTER c SET VISIBLE", "t", "a,c"},
	} {
		mustExecAll(t, db, c[0])
		if got := cols("SELECT * FROM " + c[1]); got != c[2] {
			t.Errorf("after %s: %s, want %s", c[0], got, c[2])
		}
	}
	_, err := db.Exec("ALTER TABLE t ALTER COLUMN nope SET VISIBLE")
	wantMySQLError(t, err, 1054, "42S22")
	_, err = db.Exec("CREATE TABLE none (a INT INVISIBLE)")
	wantMySQLMessage(t, "no visible column", err, 4028, "HY000", "A table must have at least one visible column.")

	db.Close()
	srv.Close()
	srv, db = openIn(t, dir)
	defer srv.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'iv' AND TABLE_NAME = 't' AND EXTRA LIKE '%INVISIBLE'").Scan(&n); err != nil || n != 3 {
		t.Errorf("invisible columns after a restart: %d, %v", n, err)
	}
}

// TestInvisibleColumnsLoadData: LOAD DATA without a column list fills a
// table's visible columns, as INSERT does; it filled the invisible key
// first.
func TestInvisibleColumnsLoadData(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.tsv")
	if err := os.WriteFile(in, []byte("10\t11\n12\t13\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	t.Cleanup(func() { srv.Close() })
	db := connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE il",
		"CREATE TABLE il.t (id INT AUTO_INCREMENT PRIMARY KEY INVISIBLE, a INT, b INT)",
		"LOAD DATA INFILE '"+in+"' INTO TABLE il.t")
	wantAnswers(t, db, "loaded", map[string]string{"SELECT id, a, b FROM il.t ORDER BY id": "1,10,11;2,12,13"})
}
