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
	wantMySQLError(t, exec("RENAME TABLE missing.x TO missing.y"), 1049, "42000")
}

// TestRenameAcrossDatabases: RENAME TABLE and ALTER TABLE ... RENAME move
// a table to another database with its rows, indexes and counters, as in
// MySQL (they were refused with 1235), and the move survives a restart.
// A table with foreign keys or triggers, which would be left naming its
// old database, is still refused with 1235; a name taken or a database
// missing gets MySQL's error, with nothing moved.
func TestRenameAcrossDatabases(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE s1", "CREATE DATABASE s2",
		"CREATE TABLE s1.t (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(5), KEY (v))",
		"INSERT INTO s1.t (v) VALUES ('a'), ('b')",
		"CREATE TABLE s1.u (id INT PRIMARY KEY)",
		"CREATE TABLE s2.taken (id INT PRIMARY KEY)",
		"RENAME TABLE s1.t TO s2.t",
		"ALTER TABLE s1.u RENAME TO s2.u2",
		"CREATE TABLE s1.p (id INT PRIMARY KEY)",
		"CREATE TABLE s1.c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES s1.p (id))",
		"CREATE TABLE s1.trig (id INT PRIMARY KEY)",
		"CREATE TRIGGER s1.tr BEFORE INSERT ON s1.trig FOR EACH ROW SET NEW.id = NEW.id",
		// A table the trigger's text names but is not on moves.
		"CREATE TABLE s1.each (id INT PRIMARY KEY)", "RENAME TABLE s1.each TO s2.each", "RENAME TABLE s2.each TO s1.each")
	for _, q := range []string{"RENAME TABLE s1.p TO s2.p", "RENAME TABLE s1.c TO s2.c", "RENAME TABLE s1.trig TO s2.trig"} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1235, "42000")
	}
	mustExecAll(t, db, "RENAME TABLE s2.t TO s1.taken, s2.u2 TO s1.tmp, s1.tmp TO s1.x")
	// The second pair's name is taken: the first does not move either.
	_, err := db.Exec("RENAME TABLE s1.x TO s2.y, s1.taken TO s2.taken")
	wantMySQLError(t, err, 1050, "42S01")
	_, err = db.Exec("RENAME TABLE s1.x TO nowhere.x")
	wantMySQLError(t, err, 1049, "42000")
	answers := map[string]string{
		"SELECT table_schema, table_name FROM information_schema.TABLES WHERE table_schema IN ('s1', 's2') ORDER BY 1, 2": "s1,c;s1,each;s1,p;s1,taken;s1,trig;s1,x;s2,taken",
		"SELECT id, v FROM s1.taken WHERE v = 'b'": "2,b",
	}
	wantAnswers(t, db, "after the renames", answers)
	mustExecAll(t, db, "INSERT INTO s1.taken (v) VALUES ('c')")
	answers["SELECT SUM(id), COUNT(*) FROM s1.taken"] = "6,3"
	srv.Close()
	srv, db = openIn(t, dir)
	defer srv.Close()
	wantAnswers(t, db, "after a restart", answers)
}

// TestRenamedTableInInformationSchema: information_schema lists a renamed
// table's columns and indexes under its new name, after RENAME TABLE,
// ALTER TABLE ... RENAME TO and a move to another database. Its columns
// kept naming the old table as their source, so COLUMNS and STATISTICS
// left out the table, and every table of its database listed after it.
func TestRenamedTableInInformationSchema(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ri", "CREATE DATABASE ri2",
		"CREATE TABLE ri.a (id INT PRIMARY KEY, v INT, KEY kv (v))",
		"CREATE TABLE ri.z (id INT PRIMARY KEY)",
		"RENAME TABLE ri.a TO ri.b",
		"CREATE TABLE ri.c (id INT PRIMARY KEY)",
		"ALTER TABLE ri.c ADD COLUMN w INT, RENAME TO ri.d",
		"CREATE TABLE ri.e (id INT PRIMARY KEY)",
		"RENAME TABLE ri.e TO ri2.f")
	wantAnswers(t, db, "renamed", map[string]string{
		"SELECT GROUP_CONCAT(CONCAT(TABLE_SCHEMA, '.', TABLE_NAME, '.', COLUMN_NAME) ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA IN ('ri', 'ri2')": "ri.b.id,ri.b.v,ri.d.id,ri.d.w,ri.z.id,ri2.f.id",
		"SELECT GROUP_CONCAT(DISTINCT CONCAT(TABLE_NAME, '.', INDEX_NAME) ORDER BY TABLE_NAME, INDEX_NAME) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ri'":                                       "b.kv,b.PRIMARY,d.PRIMARY,z.PRIMARY",
	})
}
