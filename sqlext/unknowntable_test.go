package sqlext_test

import (
	"testing"
)

// TestUnknownObjectsAsMySQL: a table or database a statement names that
// is not there is answered in MySQL's words, naming the database the
// table was looked for in (the engine said "table not found: t" and
// "database not found: d", and answered DROP TABLE with 1146), over text
// and prepared statements; IF [NOT] EXISTS notes are MySQL's, and CREATE
// TABLE IF NOT EXISTS ... SELECT of a table that is there copies nothing
// (the engine copied the rows, and noted nothing); a storage engine MySQL
// does not know is 1286 (the engine took any name). A table of the
// server's own databases (sys, mysql) is named with its database, and
// one of information_schema is 1109, as in MySQL.
func TestUnknownObjectsAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE uo", "CREATE DATABASE uo2", "USE uo",
		"CREATE TABLE b (x INT)", "CREATE TABLE c AS SELECT 1 AS one")
	cases := []struct {
		q     string
		code  uint16
		state string
		msg   string
	}{
		{"SELECT * FROM nosuch", 1146, "42S02", "Table 'uo.nosuch' doesn't exist"},
		{"SELECT * FROM uo2.nosuch", 1146, "42S02", "Table 'uo2.nosuch' doesn't exist"},
		{"SELECT * FROM `uo2`.`nosuch`", 1146, "42S02", "Table 'uo2.nosuch' doesn't exist"},
		{"SELECT * FROM sys.nosuch", 1146, "42S02", "Table 'sys.nosuch' doesn't exist"},
		{"SELECT * FROM mysql.nosuch", 1146, "42S02", "Table 'mysql.nosuch' doesn't exist"},
		{"SELECT * FROM information_schema.nosuch", 1109, "42S02", "Unknown table 'nosuch' in information_schema"},
		{"SELECT a.nosuch FROM nosuch a", 1146, "42S02", "Table 'uo.nosuch' doesn't exist"},
		{"INSERT INTO nosuch VALUES (1)", 1146, "42S02", "Table 'uo.nosuch' doesn't exist"},
		{"ALTER TABLE nosuch ADD COLUMN x INT", 1146, "42S02", "Table 'uo.nosuch' doesn't exist"},
		{"DROP TABLE nosuch", 1051, "42S02", "Unknown table 'uo.nosuch'"},
		{"DROP TABLE uo2.nosuch", 1051, "42S02", "Unknown table 'uo2.nosuch'"},
		{"SELECT * FROM nodb.t", 1146, "42S02", "Table 'nodb.t' doesn't exist"},
		{"USE nodb", 1049, "42000", "Unknown database 'nodb'"},
		{"ALTER VIEW nov AS SELECT 1", 1146, "42S02", "Table 'uo.nov' doesn't exist"},
		{"CREATE TABLE e (x INT) ENGINE=Foo", 1286, "42000", "Unknown storage engine 'Foo'"},
		{"CREATE TABLE b (y INT)", 1050, "42S01", "Table 'b' already exists"},
		{"CREATE TABLE b AS SELECT 1 AS y", 1050, "42S01", "Table 'b' already exists"},
	}
	for _, c := range cases {
		_, err := db.Exec(c.q)
		wantMySQLMessage(t, c.q, err, c.code, c.state, c.msg)
	}
	_, err := db.Exec("SELECT * FROM nosuch WHERE x = ?", 1)
	wantMySQLMessage(t, "prepared", err, 1146, "42S02", "Table 'uo.nosuch' doesn't exist")

	mustExecAll(t, db, "CREATE TABLE e (x INT) ENGINE=MyISAM") // stored here like any table
	wantLeveledWarnings(t, db, "CREATE TABLE IF NOT EXISTS b (y INT)", "Note 1050 Table 'b' already exists")
	wantLeveledWarnings(t, db, "CREATE TABLE IF NOT EXISTS c AS SELECT 2 AS one", "Note 1050 Table 'c' already exists")
	wantLeveledWarnings(t, db, "CREATE DATABASE IF NOT EXISTS uo", "Note 1007 Can't create database 'uo'; database exists")
	wantLeveledWarnings(t, db, "DROP DATABASE IF EXISTS nodb", "Note 1008 Can't drop database 'nodb'; database doesn't exist")
	wantAnswers(t, db, "nothing copied", map[string]string{"SELECT GROUP_CONCAT(one) FROM c": "1"})

	// ALTER VIEW redefines a view, with its options.
	mustExecAll(t, db, "CREATE VIEW v AS SELECT x FROM b", "INSERT INTO b VALUES (1), (2)",
		"ALTER VIEW v AS SELECT x * 10 AS y FROM b WHERE x > 1",
		"ALTER ALGORITHM = MERGE SQL SECURITY INVOKER VIEW v (z) AS SELECT x + 100 FROM b")
	wantAnswers(t, db, "altered view", map[string]string{"SELECT GROUP_CONCAT(z ORDER BY z) FROM v": "101,102"})
	_, _, db2 := serve(t)
	_, err = db2.Exec("SELECT * FROM nosuch")
	wantMySQLMessage(t, "no database", err, 1046, "3D000", "No database selected")
}

// TestUnknownColumnNamesItsClause: error 1054 names the column as the
// statement writes it (qualified when it is) and the clause it stands in,
// in MySQL 8's words, over text and prepared statements and inside a
// procedure; an ALTER names the table; a SET of a name that is no
// variable is 1193. The engine's text said the column "could not be
// found in any table in scope", or named the table.
func TestUnknownColumnNamesItsClause(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE uc", "USE uc",
		"CREATE TABLE src (id INT PRIMARY KEY, name VARCHAR(10))",
		"CREATE PROCEDURE typo() SELECT id FROM src WHERE nmae = 'a'")
	for q, want := range map[string]string{
		"SELECT nosuch FROM src":                                    "Unknown column 'nosuch' in 'field list'",
		"SELECT Nosuch FROM src":                                    "Unknown column 'Nosuch' in 'field list'",
		"SELECT id FROM src WHERE nosuch = 1":                       "Unknown column 'nosuch' in 'where clause'",
		"SELECT id FROM src WHERE name = 'nosuch' AND `nosuch` = 2": "Unknown column 'nosuch' in 'where clause'",
		"SELECT id FROM src ORDER BY nosuch":                        "Unknown column 'nosuch' in 'order clause'",
		"SELECT id FROM src GROUP BY nosuch":                        "Unknown column 'nosuch' in 'group statement'",
		"SELECT id FROM src HAVING nosuch > 1":                      "Unknown column 'nosuch' in 'having clause'",
		"SELECT src.nosuch FROM src":                                "Unknown column 'src.nosuch' in 'field list'",
		"SELECT s.id FROM src s JOIN src t ON s.id = t.nosuch":      "Unknown column 't.nosuch' in 'on clause'",
		"SELECT id FROM src WHERE id IN (SELECT nosuch FROM src)":   "Unknown column 'nosuch' in 'field list'",
		"UPDATE src SET nosuch = 1":                                 "Unknown column 'nosuch' in 'field list'",
		"DELETE FROM src WHERE nosuch = 1":                          "Unknown column 'nosuch' in 'where clause'",
		"INSERT INTO src (id, nosuch) VALUES (9, 1)":                "Unknown column 'nosuch' in 'field list'",
		"CALL typo()":                       "Unknown column 'nmae' in 'where clause'",
		"ALTER TABLE src MODIFY nosuch INT": "Unknown column 'nosuch' in 'src'",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1054, "42S22", want)
	}
	_, err := db.Exec("SELECT id FROM src WHERE nosuch = ?", 1)
	wantMySQLMessage(t, "prepared", err, 1054, "42S22", "Unknown column 'nosuch' in 'where clause'")
	// Under ANSI_QUOTES "c" is a column.
	mustExecAll(t, db, "SET sql_mode = 'ANSI_QUOTES'")
	_, err = db.Exec(`SELECT id FROM src WHERE "no""such" = 1`)
	wantMySQLMessage(t, "ANSI_QUOTES", err, 1054, "42S22", `Unknown column 'no"such' in 'where clause'`)
	_, err = db.Exec(`SELECT "1"`)
	wantMySQLMessage(t, "ANSI_QUOTES", err, 1054, "42S22", "Unknown column '1' in 'field list'")
	mustExecAll(t, db, "SET sql_mode = DEFAULT")
	// SET of a name that is no variable: MySQL's 1193, as MariaDB's; the
	// engine looked for a column.
	for q, name := range map[string]string{
		"SET max_recursive_iterationz = 5":        "max_recursive_iterationz",
		"SET SESSION sql_mode = '', foo_bar = 1":  "foo_bar",
		"SET @a = 1, nosuch := 2":                 "nosuch",
		"SET sql_mode = (SELECT nosuch FROM src)": "",
	} {
		_, err := db.Exec(q)
		if name == "" {
			wantMySQLMessage(t, q, err, 1054, "42S22", "Unknown column 'nosuch' in 'field list'")
			continue
		}
		wantMySQLMessage(t, q, err, 1193, "HY000", "Unknown system variable '"+name+"'")
	}
}

// TestDropTableOfUnknownDatabase: DROP TABLE IF EXISTS of a table whose
// database does not exist drops nothing and notes it (1051), and drops
// the other tables it names; without IF EXISTS it is 1051 and drops
// none. The engine failed both with 1049 (unknown database), which
// stopped teardown scripts. Expected: MariaDB's answers, MySQL 8's too.
func TestDropTableOfUnknownDatabase(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE dk", "CREATE TABLE dk.keep (a INT)", "CREATE TABLE dk.gone (a INT)",
		"DROP TABLE IF EXISTS nodb.t, nodb2.u")
	wantAnswers(t, db, "notes", map[string]string{"SHOW WARNINGS": "Note,1051,Unknown table 'nodb.t,nodb2.u'"})
	_, err := db.Exec("DROP TABLE dk.gone, nodb.t")
	wantMySQLMessage(t, "no IF EXISTS", err, 1051, "42S02", "Unknown table 'nodb.t'")
	mustExecAll(t, db, "DROP TABLE IF EXISTS dk.gone, nodb.t")
	wantAnswers(t, db, "dropped", map[string]string{"SHOW TABLES FROM dk": "keep"})
}

// TestAmbiguousColumnNamesItsClause: a column two tables of a statement
// hold, named without its table, is MySQL's 1052, naming the clause
// where the statement first names it so in MySQL's words ("field list",
// "where clause"; MariaDB 10.11 says SELECT, WHERE). It was 1105, and in
// GROUP BY no error at all.
func TestAmbiguousColumnNamesItsClause(t *testing.T) {
	db := inDatabase(t, "ac",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE s (id INT PRIMARY KEY, a INT)")
	for q, want := range map[string]string{
		"SELECT a FROM t, s": "Column 'a' in field list is ambiguous",
		"SELECT t.id FROM t, s WHERE t.id = s.id AND A = 1":               "Column 'A' in where clause is ambiguous",
		"SELECT t.id FROM t JOIN s ON a = 1":                              "Column 'a' in on clause is ambiguous",
		"SELECT t.id FROM t, s ORDER BY a":                                "Column 'a' in order clause is ambiguous",
		"SELECT t.id FROM t JOIN s USING (id) JOIN t t2 USING (a)":        "Column 'a' in from clause is ambiguous",
		"INSERT INTO t SELECT * FROM s ON DUPLICATE KEY UPDATE a = a + 1": "Column 'a' in field list is ambiguous",
		// GROUP BY: the engine grouped by the first table's column.
		"SELECT COUNT(*) FROM t, s WHERE t.id = s.id GROUP BY id":         "Column 'id' in group statement is ambiguous",
		"SELECT COUNT(*) FROM t t1 JOIN t t2 ON t1.id = t2.id GROUP BY a": "Column 'a' in group statement is ambiguous",
		"SELECT COUNT(*) FROM t, (SELECT a FROM s) x GROUP BY a":          "Column 'a' in group statement is ambiguous",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1052, "23000", want)
	}
	// A GROUP BY name the select list gives, or that USING or a natural
	// join merges, is no ambiguity.
	for _, q := range []string{
		"SELECT t.a FROM t, s GROUP BY a",
		"SELECT t.* FROM t, s GROUP BY t.id, a",
		"SELECT s.a + 1 AS a FROM t, s GROUP BY a",
		"SELECT COUNT(*) FROM t JOIN s USING (a) GROUP BY a",
		"SELECT COUNT(*) FROM t NATURAL JOIN s GROUP BY a",
		"SELECT COUNT(*) FROM t, (SELECT a AS b FROM s) x GROUP BY a",
	} {
		mustExec(t, db, q)
	}
}
