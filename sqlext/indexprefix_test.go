package sqlext_test

import (
	"strings"
	"testing"
)

// TestIndexPrefixLengths: a key on a prefix of a text column, as schemas
// and dumps carry them (KEY meta_key (meta_key(191))), is made by CREATE
// TABLE, CREATE INDEX and ALTER TABLE and shown as MySQL shows it (SHOW
// CREATE TABLE, SHOW INDEX's Sub_part, information_schema.STATISTICS'
// SUB_PART); the server refused every such key. Lookups through it find
// the rows a scan finds. A unique key on a prefix is MySQL's 1089, as for
// an engine without them; a prefix as long as its column is the whole
// column. A dropped column leaves the other columns' prefixes as they
// were, and a column made no longer than its prefix is keyed whole.
func TestIndexPrefixLengths(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ip", "USE ip",
		"CREATE TABLE meta (id INT PRIMARY KEY AUTO_INCREMENT, post INT NOT NULL, k VARCHAR(255), v LONGTEXT, KEY k (k(191)), KEY pv (post, v(20)))",
		"INSERT INTO meta (post, k, v) VALUES (1, '_edit_lock', 'x'), (1, '_thumbnail', 'yy'), (2, '_edit_lock', 'zzz'), (2, NULL, NULL), (3, '_edit_lockout', 'zzzz')",
		"CREATE INDEX v3 ON meta (v(3))",
		"ALTER TABLE meta ADD KEY k10 (k(10)), ADD COLUMN extra INT")
	create := showCreate(t, db, "SHOW CREATE TABLE meta")
	for _, want := range []string{"KEY `k` (`k`(191))", "KEY `pv` (`post`,`v`(20))", "KEY `v3` (`v`(3))", "KEY `k10` (`k`(10))"} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE lacks %s:\n%s", want, create)
		}
	}
	var parts []string
	for _, r := range queryStrings(t, db, "SHOW INDEX FROM meta") {
		parts = append(parts, r[2]+"."+r[3]+":"+r[7])
	}
	if got, want := strings.Join(parts, " "), "PRIMARY.1:NULL k.1:191 pv.1:NULL pv.2:20 v3.1:3 k10.1:10"; got != want {
		t.Errorf("SHOW INDEX: %s, want %s", got, want)
	}
	wantAnswers(t, db, "prefix keys", map[string]string{
		"SELECT GROUP_CONCAT(CONCAT(INDEX_NAME, '.', SEQ_IN_INDEX, ':', IFNULL(SUB_PART, 'NULL')) ORDER BY INDEX_NAME, SEQ_IN_INDEX SEPARATOR ' ') FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ip'": "k.1:191 k10.1:10 PRIMARY.1:NULL pv.1:NULL pv.2:20 v3.1:3",
		// Each condition answered through a prefix key, and by a scan.
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE k = '_edit_lock'":                       "1,3",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta IGNORE INDEX (k, k10) WHERE k = '_edit_lock'": "1,3",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE k > '_edit_lock'":                       "2,5",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE k LIKE '_edit%'":                        "1,3,5",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE post = 2 AND v = 'zzz'":                 "3",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE v BETWEEN 'yy' AND 'zzz'":               "2,3",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE v IS NULL":                              "4",
	})

	const wrongSubKey = "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys"
	for _, q := range []string{
		"CREATE TABLE u1 (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY (s(5)))",
		"CREATE TABLE u2 (id INT PRIMARY KEY, n INT, KEY (n(2)))",
		"CREATE UNIQUE INDEX ku ON meta (k(5))",
		"ALTER TABLE meta ADD UNIQUE KEY ku (k(5))",
		"ALTER TABLE meta ADD KEY kn (post(2))",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1089, "HY000", wrongSubKey)
	}
	_, err := db.Exec("CREATE TABLE u3 (id INT PRIMARY KEY, s TEXT, KEY (s))")
	wantMySQLMessage(t, "TEXT key without a length", err, 1170, "42000", "BLOB/TEXT column 's' used in key specification without a key length")
	mustExecAll(t, db, "CREATE TABLE whole (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY s (s(30)))")
	if create := showCreate(t, db, "SHOW CREATE TABLE whole"); !strings.Contains(create, "UNIQUE KEY `s` (`s`)") {
		t.Errorf("a prefix as long as its column:\n%s", create)
	}

	mustExecAll(t, db, "ALTER TABLE meta DROP COLUMN post", "ALTER TABLE meta MODIFY k VARCHAR(100)")
	create = showCreate(t, db, "SHOW CREATE TABLE meta")
	for _, want := range []string{"KEY `k` (`k`)", "KEY `pv` (`v`(20))", "KEY `k10` (`k`(10))"} {
		if !strings.Contains(create, want) {
			t.Errorf("after DROP COLUMN and MODIFY, SHOW CREATE TABLE lacks %s:\n%s", want, create)
		}
	}
	wantAnswers(t, db, "after DROP COLUMN", map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM meta WHERE v = 'zzz'": "3",
	})
}
