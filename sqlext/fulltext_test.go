package sqlext_test

import (
	"strings"
	"testing"
)

// TestFulltextIndexesNotCreated: a FULLTEXT index, in CREATE TABLE, CREATE
// FULLTEXT INDEX or ALTER TABLE, is not made, with warning 1235 naming
// it, and the rest of the statement is; MATCH ... AGAINST finds no index
// (1191). The engine refused the statements, and a CREATE TABLE left its
// table behind.
func TestFulltextIndexesNotCreated(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ftx", "USE ftx")
	const note = "Warning 1235 This version of MySQL doesn't yet support 'FULLTEXT indexes: `%s` was not created'"
	wantLeveledWarnings(t, db, "CREATE TABLE a (id INT PRIMARY KEY, title VARCHAR(20), body TEXT, KEY t (title), FULLTEXT KEY fb (body), FULLTEXT (title, body))",
		strings.Replace(note, "%s", "fb", 1), strings.Replace(note, "%s", "title", 1))
	if create := showCreate(t, db, "SHOW CREATE TABLE a"); !strings.Contains(create, "KEY `t` (`title`)") || strings.Contains(create, "FULLTEXT") {
		t.Errorf("SHOW CREATE TABLE a:\n%s", create)
	}
	mustExecAll(t, db, "INSERT INTO a VALUES (1, 'x', 'some text')")
	wantLeveledWarnings(t, db, "CREATE FULLTEXT INDEX fb2 ON a (body)", strings.Replace(note, "%s", "fb2", 1))
	wantLeveledWarnings(t, db, "ALTER TABLE a ADD FULLTEXT fb3 (body)", strings.Replace(note, "%s", "fb3", 1))
	wantLeveledWarnings(t, db, "ALTER TABLE a ADD FULLTEXT fb4 (body), ADD COLUMN z INT DEFAULT 7", strings.Replace(note, "%s", "fb4", 1))
	wantAnswers(t, db, "the rest of the statements", map[string]string{
		"SELECT id, z FROM a": "1,7",
		"SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ftx' AND INDEX_TYPE = 'FULLTEXT'": "0",
	})
	_, err := db.Exec("SELECT id FROM a WHERE MATCH (body) AGAINST ('text')")
	wantMySQLMessage(t, "MATCH", err, 1191, "HY000", "Can't find FULLTEXT index matching the column list")
}

// TestFailedCreateTableLeavesNoTable: a CREATE TABLE that fails on one of
// its indexes, which the engine makes after the table, leaves no table,
// as in MySQL; the engine left it without its indexes. A duplicate key
// name is MySQL's 1061.
func TestFailedCreateTableLeavesNoTable(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE cf", "USE cf", "CREATE TABLE kept (id INT PRIMARY KEY)")
	_, err := db.Exec("CREATE TABLE u (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY (s(5)))")
	wantMySQLError(t, err, 1089, "HY000")
	_, err = db.Exec("CREATE TABLE d (id INT PRIMARY KEY, s VARCHAR(30), KEY k (s), KEY k (id))")
	wantMySQLMessage(t, "a key name twice", err, 1061, "42000", "Duplicate key name 'k'")
	_, err = db.Exec("CREATE TABLE kept (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY (s(5)))")
	wantMySQLError(t, err, 1050, "42S01")
	wantAnswers(t, db, "tables", map[string]string{"SHOW TABLES": "kept"})
	mustExecAll(t, db, "CREATE TABLE u (id INT PRIMARY KEY, s VARCHAR(30), KEY (s(5)))")
}

// TestIndexStatementOptions: CREATE INDEX and DROP INDEX with ALGORITHM
// and LOCK options, as online schema-change tools write them, run (the
// parser refused them); a key name given twice by CREATE INDEX is 1061.
func TestIndexStatementOptions(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE io", "USE io", "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT)",
		"CREATE INDEX kb ON t (b) ALGORITHM=INPLACE LOCK=NONE",
		"CREATE UNIQUE INDEX ka ON t (a) LOCK = SHARED",
		"DROP INDEX kb ON t ALGORITHM = INPLACE")
	if create := showCreate(t, db, "SHOW CREATE TABLE t"); !strings.Contains(create, "UNIQUE KEY `ka` (`a`)") || strings.Contains(create, "`kb`") {
		t.Errorf("SHOW CREATE TABLE t:\n%s", create)
	}
	_, err := db.Exec("CREATE INDEX ka ON t (b)")
	wantMySQLMessage(t, "a key name twice", err, 1061, "42000", "Duplicate key name 'ka'")
}
