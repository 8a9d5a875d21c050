package sqlext_test

import (
	"strings"
	"testing"
)

// TestCombinationSQLModes: ANSI and TRADITIONAL stand for the modes they
// contain, listed in MySQL's order, so TRADITIONAL is strict mode; a
// name that is no mode is MySQL's 1231; SET GLOBAL sql_mode = DEFAULT
// restores the default. The engine kept the two as bare
// names: under TRADITIONAL an impossible date was stored with a warning.
// The lists are MySQL 8.0's (MariaDB adds NO_AUTO_CREATE_USER).
func TestCombinationSQLModes(t *testing.T) {
	db := inDatabase(t, "sm", "CREATE TABLE d (x DATE)")
	db.SetMaxOpenConns(1)
	for set, want := range map[string]string{
		"ANSI":        "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI",
		"traditional": "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION",
		"NO_ENGINE_SUBSTITUTION,ONLY_FULL_GROUP_BY,,": "ONLY_FULL_GROUP_BY,NO_ENGINE_SUBSTITUTION",
		"": "",
	} {
		mustExec(t, db, "SET sql_mode = '"+set+"'")
		if got := flat(queryStrings(t, db, "SELECT @@sql_mode")); got != want {
			t.Errorf("SET sql_mode = '%s': @@sql_mode is %s, want %s", set, got, want)
		}
	}
	mustExec(t, db, "SET sql_mode = 'TRADITIONAL'")
	_, err := db.Exec("INSERT INTO d VALUES ('2020-13-01')")
	wantMySQLMessage(t, "a bad date under TRADITIONAL", err, 1292, "22007", "Incorrect date value: '2020-13-01' for column 'x' at row 1")
	_, err = db.Exec("SET sql_mode = 'NO_ZERO_DATE,FOO'")
	wantMySQLMessage(t, "an unknown mode", err, 1231, "42000", "Variable 'sql_mode' can't be set to the value of 'FOO'")
	wantAnswers(t, db, "after the refusal", map[string]string{"SELECT COUNT(*) FROM d": "0", "SELECT @@sql_mode LIKE 'STRICT%'": "1"})
	// The global value, which SHOW GLOBAL VARIABLES showed as the set's bits.
	t.Cleanup(func() { mustExec(t, db, "SET GLOBAL sql_mode = DEFAULT") })
	mustExec(t, db, "SET GLOBAL sql_mode = 'ANSI'")
	if got := flat(queryStrings(t, db, "SHOW GLOBAL VARIABLES LIKE 'sql_mode'")); got != "sql_mode,REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI" {
		t.Errorf("SHOW GLOBAL VARIABLES: %s", got)
	}
	// DEFAULT is the compiled default for the global value; the engine
	// set the global value to itself.
	mustExec(t, db, "SET GLOBAL sql_mode = DEFAULT")
	if got := flat(queryStrings(t, db, "SELECT @@GLOBAL.sql_mode")); got != "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION" {
		t.Errorf("after SET GLOBAL sql_mode = DEFAULT: %s", got)
	}
}

// TestPipesAsConcat: under PIPES_AS_CONCAT, or ANSI, || joins strings and
// binds tighter than the other binary operators but ^; the column keeps
// the name written. A view or routine made under the mode keeps
// concatenating after it is left. Without the mode || is OR. The
// answers are MariaDB 10.11's.
func TestPipesAsConcat(t *testing.T) {
	db := inDatabase(t, "pc",
		"CREATE TABLE a (id INT PRIMARY KEY, x INT, name VARCHAR(10))",
		"INSERT INTO a VALUES (1, 10, 'p'), (2, 21, 'q')")
	db.SetMaxOpenConns(1)
	mustExec(t, db, "SET sql_mode = CONCAT(@@sql_mode, ',PIPES_AS_CONCAT')")
	wantAnswers(t, db, "PIPES_AS_CONCAT", map[string]string{
		"SELECT 'a' || 'b', 1 || 0, 'a' || 'b' = 'ab', NULL || 'a' IS NULL":                                             "ab,10,1,1",
		"SELECT GROUP_CONCAT(name || '-' || x ORDER BY id) FROM a":                                                      "p-10,q-21",
		"SELECT -x || 'u', x - 1 || 1, 3 ^ 1 || 0, !0 || 1, NOT 0 || 1 FROM a WHERE id = 1":                             "-10u,-1,9,11,0",
		"SELECT (name || 'z') || UPPER(name || 'q'), CASE WHEN x > 10 THEN 'b' ELSE 's' END || '!' FROM a WHERE id = 2": "qzQQ,b!",
		"SELECT 'a' || (SELECT name FROM a WHERE id = 1), a.name || _utf8mb4'x' FROM a WHERE id = 1":                    "ap,px",
		"SELECT 5 BETWEEN 1 || 0 AND 2 || 0, 'a|b' || '||'":                                                             "0,a|b||",
	})
	rows, err := db.Query("SELECT 'a' || 'b', name || x AS n, 'c', INTERVAL(x, 1) FROM a WHERE id = 1")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if got := strings.Join(cols, ";"); got != "'a' || 'b';n;c;INTERVAL(x, 1)" {
		t.Errorf("columns named %s, want 'a' || 'b';n;c;INTERVAL(x, 1)", got)
	}
	mustExecAll(t, db,
		"CREATE VIEW v AS SELECT name || '+' || x AS s FROM a",
		"CREATE PROCEDURE p(s VARCHAR(10)) SELECT s || '!'",
		"PREPARE st FROM 'SELECT ? || ?'",
		"SET sql_mode = 'ANSI'")
	wantAnswers(t, db, "ANSI", map[string]string{
		`SELECT "name" || 'y' FROM a WHERE id = 2`: "qy",
	})
	mustExec(t, db, "SET @x = 'x', @y = 'y'")
	if got := flat(queryStrings(t, db, "EXECUTE st USING @x, @y")); got != "xy" {
		t.Errorf("prepared under ANSI: %s, want xy", got)
	}
	mustExec(t, db, "SET sql_mode = DEFAULT")
	wantAnswers(t, db, "after the mode", map[string]string{
		"SELECT GROUP_CONCAT(s ORDER BY s) FROM v": "p+10,q+21",
		"SELECT 'a' || 'b', 0 || 1":                "0,1",
	})
	if got := flat(queryStrings(t, db, "CALL p('hi')")); got != "hi!" {
		t.Errorf("CALL p('hi') after the mode: %s, want hi!", got)
	}
}

// TestRealAsFloat: under REAL_AS_FLOAT a REAL column is a FLOAT, in
// CREATE and ALTER TABLE; otherwise a DOUBLE, as in MySQL.
func TestRealAsFloat(t *testing.T) {
	db := inDatabase(t, "rf")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"SET sql_mode = 'REAL_AS_FLOAT'",
		"CREATE TABLE f (r REAL, d DOUBLE)",
		"ALTER TABLE f ADD COLUMN r2 REAL, MODIFY d REAL",
		"SET sql_mode = DEFAULT",
		"ALTER TABLE f ADD COLUMN r3 REAL")
	got := flat(queryStrings(t, db, "SELECT GROUP_CONCAT(column_name, ' ', data_type ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'rf' AND table_name = 'f'"))
	if got != "r float,d float,r2 float,r3 double" {
		t.Errorf("columns %s, want r float,d float,r2 float,r3 double", got)
	}
}
