package sqlext_test

import (
	"testing"
)

// TestRenameQualifiedTables renames tables named with their database,
// with no current database and with another one current, as dbt and
// migration tools do.
func TestRenameQualifiedTables(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	mustExecAll(t, db,
		"CREATE DATABASE r", "CREATE DATABASE other",
		"CREATE TABLE r.a (id INT PRIMARY KEY)", "INSERT INTO r.a VALUES (1)",
		"CREATE TABLE other.a (id INT PRIMARY KEY)", "INSERT INTO other.a VALUES (2)",
		"RENAME TABLE r.a TO r.b") // no current database
	if got := flat(queryStrings(t, db, "SELECT id FROM r.b")); got != "1" {
		t.Errorf("r.b holds %s, want r.a's row", got)
	}

	conn, exec := oneSession(t, db)
	for _, q := range []string{"USE other", "RENAME TABLE r.b TO r.c", "ALTER TABLE r.c RENAME TO r.d", "RENAME TABLE a TO a2"} {
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var current string
	if err := conn.QueryRowContext(t.Context(), "SELECT DATABASE()").Scan(&current); err != nil || current != "other" {
		t.Errorf("current database after the renames: %q, %v; want other", current, err)
	}
	if got := flat(queryStrings(t, db, "SELECT table_schema, table_name FROM information_schema.TABLES WHERE table_schema IN ('r', 'other') ORDER BY 1, 2")); got != "other,a2;r,d" {
		t.Errorf("tables after the renames: %s, want other,a2;r,d", got)
	}
	wantMySQLError(t, exec("RENAME TABLE r.d TO other.d"), 1235, "42000")
	wantMySQLError(t, exec("RENAME TABLE missing.x TO missing.y"), 1049, "42000")
}
