package sqlext_test

import (
	"strings"
	"testing"
)

// TestForeignKeys declares, enforces, alters and drops FOREIGN KEY
// constraints with MySQL's referential actions and error codes, and finds
// them again after a restart.
func TestForeignKeys(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE fk",
		"CREATE TABLE fk.parent (id INT PRIMARY KEY, code VARCHAR(8) UNIQUE)",
		"CREATE TABLE fk.child (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES fk.parent (id))",
		"CREATE TABLE fk.cascade (id INT PRIMARY KEY, p INT, CONSTRAINT follow FOREIGN KEY (p) REFERENCES fk.parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
		"CREATE TABLE fk.nulling (id INT PRIMARY KEY, code VARCHAR(8), FOREIGN KEY (code) REFERENCES fk.parent (code) ON DELETE SET NULL)",
		"INSERT INTO fk.parent VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"INSERT INTO fk.child VALUES (10, 1), (11, NULL)",
		"INSERT INTO fk.cascade VALUES (20, 2), (21, 2), (22, 1)",
		"INSERT INTO fk.nulling VALUES (30, 'c')")
	code := func(q string) uint16 { return errorCode(t, db, q) }
	wantRefused(t, db,
		refusal{"INSERT INTO fk.child VALUES (12, 9)", 1452},
		refusal{"INSERT INTO fk.child VALUES (12, 1), (13, 9)", 1452}, // nothing of it stays
		refusal{"UPDATE fk.child SET p = 9 WHERE id = 10", 1452},
		refusal{"DELETE FROM fk.parent WHERE id = 1", 1451}, // child 10 refers to it (RESTRICT)
		refusal{"UPDATE fk.parent SET id = 100 WHERE id = 1", 1451},
		refusal{"DROP TABLE fk.parent", 3730},
		refusal{"ALTER TABLE fk.child ADD CONSTRAINT follow FOREIGN KEY (p) REFERENCES fk.parent (id)", 1826}, // names are unique in a database
		refusal{"ALTER TABLE fk.child DROP FOREIGN KEY nope", 1091},
	)
	if got := flat(queryStrings(t, db, "SELECT id, COALESCE(p, 0) FROM fk.child ORDER BY id")); got != "10,1;11,0" {
		t.Errorf("refused writes left children %s", got)
	}
	// The message names the key and the table that holds it, one of
	// those that reference the parent.
	_, err := db.Exec("DROP TABLE fk.parent")
	var named []string
	for _, r := range queryStrings(t, db, "SELECT CONSTRAINT_NAME, TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'fk' AND REFERENCED_TABLE_NAME = 'parent'") {
		msg := "Cannot drop table 'parent' referenced by a foreign key constraint '" + r[0] + "' on table '" + r[1] + "'."
		named = append(named, msg)
		if err != nil && strings.Contains(err.Error(), msg) {
			named = nil
			wantMySQLMessage(t, "DROP TABLE of a parent", err, 3730, "HY000", msg)
			break
		}
	}
	if named != nil {
		t.Errorf("DROP TABLE of a parent: %v, want one of %q", err, named)
	}
	mustExecAll(t, db, "CREATE TABLE fk.lone (id INT PRIMARY KEY)", "CREATE TABLE fk.leaf (id INT PRIMARY KEY, l INT, CONSTRAINT to_lone FOREIGN KEY (l) REFERENCES fk.lone (id))")
	_, err = db.Exec("TRUNCATE TABLE fk.lone")
	wantMySQLMessage(t, "TRUNCATE of a parent", err, 1701, "42000", "Cannot truncate a table referenced in a foreign key constraint (`fk`.`leaf`, CONSTRAINT `to_lone` FOREIGN KEY (`l`) REFERENCES `fk`.`lone` (`id`))")
	mustExecAll(t, db, "DROP TABLE fk.leaf", "DROP TABLE fk.lone")

	// Referential actions.
	mustExecAll(t, db,
		"DELETE FROM fk.parent WHERE id = 3", // SET NULL in nulling
		"UPDATE fk.parent SET id = 200 WHERE id = 2")
	if got := flat(queryStrings(t, db, "SELECT id, p FROM fk.cascade ORDER BY id")); got != "20,200;21,200;22,1" {
		t.Errorf("ON UPDATE CASCADE: %s", got)
	}
	if got := flat(queryStrings(t, db, "SELECT id, COALESCE(code, 'null') FROM fk.nulling")); got != "30,null" {
		t.Errorf("ON DELETE SET NULL: %s", got)
	}
	mustExecAll(t, db, "DELETE FROM fk.parent WHERE id = 200")
	if got := flat(queryStrings(t, db, "SELECT id FROM fk.cascade ORDER BY id")); got != "22" {
		t.Errorf("ON DELETE CASCADE left %s", got)
	}

	// A cascade belongs to its transaction.
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("DELETE FROM fk.child WHERE id = 10"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("DELETE FROM fk.parent WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, db, "SELECT (SELECT COUNT(*) FROM fk.parent), (SELECT COUNT(*) FROM fk.cascade), (SELECT COUNT(*) FROM fk.child)")); got != "1,1,2" {
		t.Errorf("after rollback: parent, cascade, child rows %s, want 1 1 2", got)
	}

	// A cascade acts on the matching rows only, among them rows the
	// transaction wrote itself.
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"INSERT INTO fk.parent VALUES (4, 'd')", "INSERT INTO fk.cascade VALUES (24, 4), (25, 1)", "DELETE FROM fk.parent WHERE id = 4"} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, db, "SELECT id, p FROM fk.cascade ORDER BY id")); got != "22,1;25,1" {
		t.Errorf("a cascade in a transaction left %s, want 22,1;25,1", got)
	}
	mustExecAll(t, db, "DELETE FROM fk.cascade WHERE id = 25")

	// Adding a key checks the rows there, and checks can be switched off.
	mustExecAll(t, db,
		"CREATE TABLE fk.later (id INT PRIMARY KEY, p INT)",
		"INSERT INTO fk.later VALUES (1, 1), (2, 7)")
	if got := code("ALTER TABLE fk.later ADD CONSTRAINT later_p FOREIGN KEY (p) REFERENCES fk.parent (id)"); got != 1452 {
		t.Errorf("adding a key over an orphan: error %d, want 1452", got)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"SET foreign_key_checks = 0", "ALTER TABLE fk.later ADD CONSTRAINT later_p FOREIGN KEY (p) REFERENCES fk.parent (id)",
		"INSERT INTO fk.later VALUES (3, 8)", "SET foreign_key_checks = 1"} {
		if _, err := conn.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn.Close()
	mustExecAll(t, db, "ALTER TABLE fk.later DROP FOREIGN KEY later_p", "INSERT INTO fk.later VALUES (4, 9)")

	// The parent may be renamed; its children follow, and so does a key
	// that references its own table.
	mustExecAll(t, db, "RENAME TABLE fk.parent TO fk.parents",
		"CREATE TABLE fk.tree (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES fk.tree (id))",
		"RENAME TABLE fk.tree TO fk.trees", "INSERT INTO fk.trees VALUES (1, NULL), (2, 1)")
	if got := errorCode(t, db, "INSERT INTO fk.trees VALUES (3, 9)"); got != 1452 {
		t.Errorf("a renamed self-referencing key: error %d, want 1452", got)
	}
	mustExecAll(t, db, "DROP TABLE fk.trees")
	if got := code("INSERT INTO fk.child VALUES (14, 5)"); got != 1452 {
		t.Errorf("after RENAME: error %d, want 1452", got)
	}
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	if got := code("INSERT INTO fk.child VALUES (14, 5)"); got != 1452 {
		t.Errorf("after restart: error %d, want 1452", got)
	}
	mustExecAll(t, db, "INSERT INTO fk.child VALUES (14, 1)")
	create := queryStrings(t, db, "SHOW CREATE TABLE fk.cascade")[0][1]
	if !strings.Contains(create, "CONSTRAINT `follow` FOREIGN KEY (`p`) REFERENCES `parents` (`id`) ON DELETE CASCADE ON UPDATE CASCADE") {
		t.Errorf("SHOW CREATE TABLE: %s", create)
	}
	refs := flat(queryStrings(t, db, "SELECT constraint_name, table_name, referenced_table_name FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE constraint_schema = 'fk' ORDER BY 1"))
	if refs != "child_ibfk_1,child,parents;follow,cascade,parents;nulling_ibfk_1,nulling,parents" {
		t.Errorf("information_schema.REFERENTIAL_CONSTRAINTS: %s", refs)
	}
}

// TestForeignKeysAcrossTransactions: a foreign key check takes no lock, so
// the commit of a transaction whose check another transaction has since
// made wrong fails with 1213 and writes nothing, rather than leaving a
// child without its parent. A change that does not touch what a check
// read lets the commit through.
func TestForeignKeysAcrossTransactions(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE fkx",
		"CREATE TABLE fkx.parent (id INT PRIMARY KEY, note VARCHAR(8))",
		"CREATE TABLE fkx.child (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES fkx.parent (id))",
		"CREATE TABLE fkx.follow (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES fkx.parent (id) ON DELETE CASCADE)",
		"INSERT INTO fkx.parent VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')",
		"INSERT INTO fkx.follow VALUES (30, 3)")
	_, exec := oneSession(t, db)
	step := func(q string) {
		t.Helper()
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct {
		what, mine, theirs, query, want string
	}{
		{"a child checked against its parent, which another transaction then deletes",
			"INSERT INTO fkx.child VALUES (10, 1)", "DELETE FROM fkx.parent WHERE id = 1",
			"SELECT COUNT(*) FROM fkx.child", "0"},
		{"a parent deleted with no child found, and a child then added",
			"DELETE FROM fkx.parent WHERE id = 2", "INSERT INTO fkx.child VALUES (11, 2)",
			"SELECT COUNT(*) FROM fkx.parent WHERE id = 2", "1"},
		{"a cascade that found one child, and another added meanwhile",
			"DELETE FROM fkx.parent WHERE id = 3", "INSERT INTO fkx.follow VALUES (31, 3)",
			"SELECT id FROM fkx.follow ORDER BY id", "30;31"},
	} {
		step("BEGIN")
		step(c.mine)
		mustExecAll(t, db, c.theirs)
		if err := exec("COMMIT"); err == nil {
			t.Errorf("%s: the commit was accepted", c.what)
		} else {
			wantMySQLError(t, err, 1213, "40001")
		}
		step("ROLLBACK")
		if got := flat(queryStrings(t, db, c.query)); got != c.want {
			t.Errorf("%s: %s gives %s, want %s", c.what, c.query, got, c.want)
		}
	}

	// Changes that leave the checks true: the parent's other columns, and
	// children of another parent.
	step("BEGIN")
	step("INSERT INTO fkx.child VALUES (12, 4)")
	step("DELETE FROM fkx.parent WHERE id = 3 AND note = 'zzz'")
	mustExecAll(t, db, "UPDATE fkx.parent SET note = 'e' WHERE id = 4", "INSERT INTO fkx.child VALUES (13, 4)")
	step("COMMIT")
	if got := flat(queryStrings(t, db, "SELECT id FROM fkx.child ORDER BY id")); got != "11;12;13" {
		t.Errorf("children: %s", got)
	}
}
