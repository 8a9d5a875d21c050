package sqlext_test

import (
	"strings"
	"testing"
)

// TestTablesWithVirtualColumns: a table with a VIRTUAL generated column
// keeps its CHECK constraints on INSERT, REPLACE, INSERT ... SELECT, ON
// DUPLICATE KEY UPDATE and UPDATE (3819), and SHOW CREATE TABLE and SHOW
// INDEX show its keys and checks; the engine reached such a table
// through a wrapper that hid them all, so rows breaking a check were
// stored and a dump of the table lost its keys. A virtual column's
// functions read an ENUM as its label (CONCAT(k, '?') was '2?').
func TestTablesWithVirtualColumns(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE vc", "USE vc",
		"CREATE TABLE t (id INT PRIMARY KEY, k ENUM('a','b') NOT NULL DEFAULT 'a', a INT, c INT, "+
			"v VARCHAR(9) AS (CONCAT(k, '?')) VIRTUAL, u VARCHAR(9) AS (UPPER(k)) VIRTUAL, "+
			"UNIQUE KEY ua (a), KEY kv (v), CONSTRAINT small CHECK (a < 100), CHECK (c IS NULL OR c > a))",
		"INSERT INTO t (id, k, a) VALUES (1, 'b', 5), (2, 'a', 6)")
	for _, q := range []string{
		"INSERT INTO t (id, a) VALUES (3, 500)",
		"INSERT INTO t (id, a, c) VALUES (3, 7, 1)",
		"REPLACE INTO t (id, a) VALUES (1, 200)",
		"INSERT INTO t (id, a) SELECT id + 10, a * 100 FROM t",
		"INSERT INTO t (id, a) VALUES (1, 9) ON DUPLICATE KEY UPDATE a = 700",
		"UPDATE t SET a = 1000 WHERE id = 1",
		"UPDATE t SET c = 0",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 3819, "HY000")
	}
	_, err := db.Exec("INSERT INTO t (id, a) VALUES (4, 5)")
	wantMySQLError(t, err, 1062, "23000")
	mustExecAll(t, db, "INSERT INTO t (id, a, c) VALUES (3, 7, 30)", "UPDATE t SET a = a + 10")
	wantAnswers(t, db, "rows and virtual values", map[string]string{
		"SELECT id, k, a, c, v, u FROM t ORDER BY id":               "1,b,15,NULL,b?,B;2,a,16,NULL,a?,A;3,a,17,30,a?,A",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t WHERE v = 'a?'": "2,3",
	})
	create := showCreate(t, db, "SHOW CREATE TABLE t")
	for _, want := range []string{"PRIMARY KEY (`id`)", "UNIQUE KEY `ua` (`a`)", "KEY `kv` (`v`)", "CONSTRAINT `small` CHECK ((`a` < 100))", "CONSTRAINT `t_chk_1` CHECK ((`c` IS NULL OR (`c` > `a`)))"} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE lacks %s:\n%s", want, create)
		}
	}
	var keys []string
	for _, r := range queryStrings(t, db, "SHOW INDEX FROM t") {
		keys = append(keys, r[2])
	}
	if got := strings.Join(keys, ","); got != "PRIMARY,ua,kv" {
		t.Errorf("SHOW INDEX: %s", got)
	}
}
