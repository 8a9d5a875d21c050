package sqlext_test

import (
	"strings"
	"testing"
)

// TestSafeUpdates: with sql_safe_updates on, an UPDATE or DELETE that
// reads its table without a key and has no LIMIT is MySQL's 1175 and
// changes nothing; one by a key, by an indexed column or with a LIMIT
// runs, as does TRUNCATE. With the variable off (the default) all run.
// The engine ignored the variable. The answers are MariaDB 10.11's. An
// UPDATE or DELETE by a range written with BETWEEN reads the range of
// the key (it read the whole table).
func TestSafeUpdates(t *testing.T) {
	db := inDatabase(t, "su",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY (a))",
		"INSERT INTO t VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3)")
	db.SetMaxOpenConns(1)
	mustExec(t, db, "SET sql_safe_updates = 1")
	for _, q := range []string{
		"UPDATE t SET b = 0",
		"UPDATE t SET b = 0 WHERE b = 1",
		"UPDATE t SET b = 0 WHERE id = 1 OR b = 2",
		"DELETE FROM t",
		"DELETE FROM t WHERE b > 0",
		"DELETE FROM t ORDER BY id",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1175, "HY000", "You are using safe update mode and you tried to update a table without a WHERE that uses a KEY column")
	}
	wantAnswers(t, db, "refused", map[string]string{"SELECT GROUP_CONCAT(id, ':', b ORDER BY id) FROM t": "1:1,2:2,3:3"})
	mustExecAll(t, db,
		"UPDATE t SET b = 10 WHERE id = 1",
		"UPDATE t SET b = 20 WHERE a = 2",
		"UPDATE t SET b = b + 1 WHERE id BETWEEN 2 AND 3",
		"UPDATE t SET b = 0 ORDER BY id LIMIT 1",
		"DELETE FROM t WHERE id = 3")
	wantAnswers(t, db, "by key", map[string]string{"SELECT GROUP_CONCAT(id, ':', b ORDER BY id) FROM t": "1:0,2:21"})
	for _, q := range []string{"UPDATE t SET b = 1 WHERE id BETWEEN 2 AND 3", "DELETE FROM t WHERE id BETWEEN 2 AND 3"} {
		if plan := flat(queryStrings(t, db, "EXPLAIN FORMAT=TREE "+q)); !strings.Contains(plan, "IndexedTableAccess(t)") {
			t.Errorf("%s reads the whole table: %s", q, plan)
		}
	}
	mustExecAll(t, db, "DELETE FROM t LIMIT 1", "TRUNCATE t", "INSERT INTO t VALUES (1, 1, 1)", "SET sql_safe_updates = 0", "UPDATE t SET b = 5", "DELETE FROM t")
	wantAnswers(t, db, "off", map[string]string{"SELECT COUNT(*) FROM t": "0"})
}
