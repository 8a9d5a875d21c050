package sqlext_test

import (
	"strings"
	"testing"
)

// TestAlterTableCharacterSet: ALTER TABLE ... CHARACTER SET, COLLATE and
// CHARSET change a table's default, which a column added later takes,
// and leave its columns as they are; CONVERT TO CHARACTER SET moves the
// text columns too, widening a TEXT whose characters may grow, and
// refuses rows a unique key then holds twice, changing nothing. The
// engine refused them all (1105, or 1064 for CHARSET). The answers are
// MariaDB 10.11's for the same statements.
func TestAlterTableCharacterSet(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE cs", "USE cs",
		"CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10), u TEXT, e ENUM('a','b'), UNIQUE KEY us (s)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
		"INSERT INTO t VALUES (1, 'Ab', 'x', 'a'), (2, 'ab', 'y', 'b')",
		"CREATE TABLE l (id INT PRIMARY KEY, s VARCHAR(10), u TEXT) CHARACTER SET latin1",
		"INSERT INTO l VALUES (1, 'é', 'z')",
		"ALTER TABLE t CHARACTER SET utf8mb4",
		"ALTER TABLE t DEFAULT CHARSET=utf8mb4 COLLATE utf8mb4_unicode_ci",
		"ALTER TABLE t ADD COLUMN w VARCHAR(5)")
	collations := "SELECT GROUP_CONCAT(TABLE_NAME, '.', COLUMN_NAME, ':', COLUMN_TYPE, ':', COLLATION_NAME ORDER BY TABLE_NAME, ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'cs' AND COLLATION_NAME IS NOT NULL"
	tables := "SELECT GROUP_CONCAT(TABLE_NAME, ':', TABLE_COLLATION ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cs'"
	defaults := map[string]string{
		collations: "l.s:varchar(10):latin1_swedish_ci,l.u:text:latin1_swedish_ci," +
			"t.s:varchar(10):utf8mb4_bin,t.u:text:utf8mb4_bin,t.e:enum('a','b'):utf8mb4_bin,t.w:varchar(5):utf8mb4_unicode_ci",
		tables: "l:latin1_swedish_ci,t:utf8mb4_unicode_ci",
	}
	wantAnswers(t, db, "defaults", defaults)

	_, err := db.Exec("ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
	wantMySQLMessage(t, "convert", err, 1062, "23000", "Duplicate entry 'ab' for key 't.us'")
	wantAnswers(t, db, "unchanged", defaults)

	mustExecAll(t, db, "ALTER TABLE t DROP INDEX us",
		"ALTER TABLE t CONVERT TO CHARSET utf8mb4 COLLATE utf8mb4_unicode_ci",
		"ALTER TABLE l CONVERT TO CHARACTER SET utf8mb4")
	wantAnswers(t, db, "converted", map[string]string{
		collations: "l.s:varchar(10):utf8mb4_0900_ai_ci,l.u:mediumtext:utf8mb4_0900_ai_ci," +
			"t.s:varchar(10):utf8mb4_unicode_ci,t.u:text:utf8mb4_unicode_ci,t.e:enum('a','b'):utf8mb4_unicode_ci,t.w:varchar(5):utf8mb4_unicode_ci",
		tables:                                  "l:utf8mb4_0900_ai_ci,t:utf8mb4_unicode_ci",
		"SELECT COUNT(*) FROM t WHERE s = 'AB'": "2",
		"SELECT s, u FROM l":                    "é,z",
	})
	// CHARSET is still a word where it is one.
	mustExecAll(t, db, "ALTER TABLE t ADD COLUMN charset INT DEFAULT 7", "UPDATE t SET w = 'CHARS'")
	wantAnswers(t, db, "words", map[string]string{"SELECT DISTINCT `charset`, w FROM t": "7,CHARS"})
	if got := flat(queryStrings(t, db, "SHOW CREATE TABLE l")); !strings.Contains(got, "DEFAULT CHARSET=utf8mb4") {
		t.Errorf("SHOW CREATE TABLE l = %s", got)
	}

	// A table with foreign keys of numbers converts, keeping them; one
	// whose foreign key holds text would leave the key's two sides in
	// different collations, and is refused, changing nothing.
	mustExecAll(t, db,
		"CREATE TABLE p (id INT PRIMARY KEY, code VARCHAR(5) UNIQUE) CHARACTER SET latin1",
		"CREATE TABLE c (id INT PRIMARY KEY, p INT, note VARCHAR(5), FOREIGN KEY (p) REFERENCES p (id)) CHARACTER SET latin1",
		"CREATE TABLE k (id INT PRIMARY KEY, code VARCHAR(5), FOREIGN KEY (code) REFERENCES p (code)) CHARACTER SET latin1",
		"INSERT INTO p VALUES (1, 'x')", "INSERT INTO c VALUES (1, 1, 'é')",
		"ALTER TABLE c CONVERT TO CHARACTER SET utf8mb4")
	wantAnswers(t, db, "converted with its foreign key", map[string]string{
		"SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'cs' AND TABLE_NAME = 'c' AND COLUMN_NAME = 'note'": "utf8mb4_0900_ai_ci",
		"SELECT note FROM c": "é",
		"SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'cs' AND TABLE_NAME = 'c'": "1",
	})
	_, err = db.Exec("INSERT INTO c VALUES (2, 9, 'y')")
	wantMySQLError(t, err, 1452, "23000")
	for _, q := range []string{"ALTER TABLE k CONVERT TO CHARACTER SET utf8mb4", "ALTER TABLE p CONVERT TO CHARACTER SET utf8mb4"} {
		_, err = db.Exec(q)
		wantMySQLError(t, err, 1235, "42000")
	}
	wantAnswers(t, db, "a text key's tables unchanged", map[string]string{
		"SELECT GROUP_CONCAT(DISTINCT COLLATION_NAME) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'cs' AND TABLE_NAME IN ('k', 'p')": "latin1_swedish_ci",
	})
}

// TestAlterTableComment: ALTER TABLE t COMMENT = '...' gives the table its
// new comment, as SHOW CREATE TABLE and information_schema show it, also
// among other clauses; the parser dropped the option and the statement
// changed nothing.
func TestAlterTableComment(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tcm", "USE tcm", "CREATE TABLE t (id INT) COMMENT 'first'",
		"ALTER TABLE t COMMENT = 'the model''s table'")
	if got := flat(queryStrings(t, db, "SHOW CREATE TABLE t")); !strings.Contains(got, "COMMENT='the model''s table'") {
		t.Errorf("SHOW CREATE TABLE t = %s", got)
	}
	mustExecAll(t, db, "ALTER TABLE tcm.t COMMENT 'again'", "ALTER TABLE t ADD COLUMN y INT")
	wantAnswers(t, db, "comment", map[string]string{
		"SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tcm' AND TABLE_NAME = 't'": "again",
	})
	_, err := db.Exec("ALTER TABLE nosuch COMMENT 'x'")
	wantMySQLError(t, err, 1146, "42S02")
	// With other clauses, before or after them, the comment is set once
	// they are done, and not when one fails; it was left out.
	comment := "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tcm' AND TABLE_NAME = 't'"
	mustExecAll(t, db, "ALTER TABLE t ADD COLUMN z INT, COMMENT 'with a column'")
	wantAnswers(t, db, "comment with a clause", map[string]string{comment: "with a column"})
	mustExecAll(t, db, "ALTER TABLE t COMMENT='with two', ADD COLUMN w INT, DROP COLUMN z, ADD INDEX iw (w)")
	wantAnswers(t, db, "comment with clauses", map[string]string{comment: "with two"})
	_, err = db.Exec("ALTER TABLE t COMMENT 'refused', ADD COLUMN w INT")
	wantMySQLError(t, err, 1060, "42S21")
	wantAnswers(t, db, "comment after a failed ALTER", map[string]string{comment: "with two"})
}
