package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestNoBackslashEscapes: under NO_BACKSLASH_ESCAPES a backslash in a
// string is itself and a string ends at its first quote that is not
// doubled; a LIKE without ESCAPE has no escape character (MySQL's
// grammar; MariaDB keeps '\' there). What views and routines keep reads
// alike under either mode, and the status flag the server sends lets a
// client that quotes values itself quote them right.
func TestNoBackslashEscapes(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE nb", "USE nb",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20))",
		`CREATE VIEW before_mode AS SELECT 'a\\b' AS s`,
		`CREATE PROCEDURE p_before() SELECT 'c\\d', 'e\\f' LIKE 'e\\\\f'`,
		"SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')",
		`INSERT INTO t VALUES (1, 'a\b'), (2, 'c\'), (3, 'it''s\'), (4, 'x%y')`,
		`CREATE VIEW under_mode AS SELECT s, 'q\' AS k FROM t WHERE s <> 'a\b' AND id < 3`,
		`CREATE PROCEDURE p_under(x VARCHAR(10)) SELECT CONCAT(x, '\'), x LIKE 'a\%'`)
	wantAnswers(t, db, "NO_BACKSLASH_ESCAPES", map[string]string{
		`SELECT 'a\b', LENGTH('C:\dir'), 'a\', "q\", 'it''s\'`:             `a\b,6,a\,q\,it's\`,
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s LIKE '%\'`:     "2,3",
		`SELECT 'a\%' LIKE 'a\%', 'a%' LIKE 'a\%', 'ab' LIKE 'a\b'`:        "1,0,0",
		`SELECT 'a%' LIKE 'a|%' ESCAPE '|', 'a|' LIKE 'a|' ESCAPE '|'`:     "1,1",
		`SELECT id FROM t WHERE s = 'a\b'`:                                 "1",
		`SELECT s FROM before_mode`:                                        `a\b`,
		`SELECT GROUP_CONCAT(s, k ORDER BY s) FROM under_mode`:             `c\q\`,
		`SELECT 'x' /* 'y\' */, 'z' -- 'w\'` + "\n":                        "x,z",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s LIKE 'x\%y'`:   "NULL",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s NOT LIKE '%\'`: "1,4",
	})
	if got := flat(queryStrings(t, db, "CALL p_before()")); got != `c\d,1` {
		t.Errorf(`CALL p_before() under the mode: %s, want c\d,1`, got)
	}
	if got := flat(queryStrings(t, db, `CALL p_under('a\b')`)); got != `a\b\,1` {
		t.Errorf(`CALL p_under('a\b'): %s, want a\b\,1`, got)
	}
	rows, err := db.Query(`SELECT 'a\b', CONCAT('c\', 'd') /* \ */`)
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if got := strings.Join(cols, ";"); got != `a\b;CONCAT('c\', 'd')` {
		t.Errorf(`columns named %s, want a\b;CONCAT('c\', 'd')`, got)
	}
	// A prepared statement's text is read under the mode too. (The wire
	// layer counts its parameters by reading it as the parser reads it
	// first, so a string ending in a backslash cannot be prepared; see
	// docs/compatibility.md.)
	var s1, s2 string
	if err := db.QueryRow(`SELECT CONCAT('p\q', ?), ?`, "r", `s\`).Scan(&s1, &s2); err != nil {
		t.Fatal(err)
	}
	if s1 != `p\qr` || s2 != `s\` {
		t.Errorf(`prepared: %q, %q, want "p\\qr", "s\\"`, s1, s2)
	}
	_, err = db.Exec("SELECT 'a' LIKE 'a' ESCAPE ''")
	wantMySQLMessage(t, "ESCAPE '' under the mode", err, 1210, "HY000", "Incorrect arguments to ESCAPE")

	mustExec(t, db, "SET sql_mode = DEFAULT")
	wantAnswers(t, db, "after the mode", map[string]string{
		`SELECT s FROM before_mode`:                            `a\b`,
		`SELECT GROUP_CONCAT(s, k ORDER BY s) FROM under_mode`: `c\q\`,
		`SELECT s FROM t WHERE id = 3`:                         `it's\`,
		`SELECT 'a\\b', 'c\'d'`:                                `a\b,c'd`,
	})
	if got := flat(queryStrings(t, db, `CALL p_under('a\\b')`)); got != `a\b\,1` {
		t.Errorf(`CALL p_under('a\\b') after the mode: %s, want a\b\,1`, got)
	}

	// A client that puts the values into the statement itself reads the
	// mode from the status flags: a quote doubled, a backslash left.
	quoting, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/nb?interpolateParams=true", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer quoting.Close()
	quoting.SetMaxOpenConns(1)
	mustExec(t, quoting, "SET sql_mode = 'NO_BACKSLASH_ESCAPES'")
	mustExec(t, quoting, "INSERT INTO t VALUES (?, ?)", 5, `o'k\`)
	if got := flat(queryStrings(t, db, "SELECT s FROM t WHERE id = 5")); got != `o'k\` {
		t.Errorf(`a value the client quoted under the mode: %s, want o'k\`, got)
	}
}

// TestLikeEscapes: LIKE's ESCAPE as MySQL reads it (MariaDB 10.11
// answers alike): an empty escape is '\', one of two characters is error
// 1210, and a pattern ending in its escape character matches that
// character; a string keeps the backslash of \% and \_.
func TestLikeEscapes(t *testing.T) {
	db := inDatabase(t, "le",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20), p VARCHAR(20))",
		`INSERT INTO t VALUES (1, 'c\\', '%\\'), (2, 'c|', '%|'), (3, 'a%', 'a\\%')`)
	wantAnswers(t, db, "LIKE", map[string]string{
		`SELECT 'c\\' LIKE '%\\', 'c|' LIKE '%|' ESCAPE '|', 'c' LIKE 'c|' ESCAPE '|'`:      "1,1,0",
		`SELECT 'a%' LIKE 'a\\%' ESCAPE '', 'ab' LIKE 'a\\%' ESCAPE '', 'a\\' LIKE 'a\\\\'`: "1,0,1",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s LIKE p`:                         "1,2,3",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s LIKE '%|' ESCAPE '|'`:           "2",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE s NOT LIKE '%\\'`:                 "2,3",
	})
	_, err := db.Exec("SELECT 'a' LIKE 'a' ESCAPE 'ab'")
	wantMySQLMessage(t, "ESCAPE 'ab'", err, 1210, "HY000", "Incorrect arguments to ESCAPE")
	// A string keeps the backslash of \% and \_, as MySQL's does, so
	// that LIKE 'ab\_c' matches a literal underscore; the parser dropped
	// it, and the pattern matched any character there.
	mustExecAll(t, db, "CREATE TABLE u (id INT PRIMARY KEY, s VARCHAR(10))",
		"INSERT INTO u VALUES (1, 'ab_c'), (2, 'abxc'), (3, '5%'), (4, '5x')",
		`CREATE VIEW v AS SELECT id FROM u WHERE s LIKE 'ab\_c' OR s LIKE '5\%'`)
	wantAnswers(t, db, "escaped wildcards", map[string]string{
		`SELECT '5\%', LENGTH('a\_b'), 'ab_c' LIKE 'ab\_c', 'abxc' LIKE 'ab\_c', 'a\\%', 'it''s\_'`: `5\%,4,1,0,a\%,it's\_`,
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM u WHERE s LIKE 'ab\_c' OR s LIKE '5\%'`:           "1,3",
		`SELECT GROUP_CONCAT(id ORDER BY id) FROM v`:                                                "1,3",
	})
}
