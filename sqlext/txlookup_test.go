package sqlext_test

import "testing"

// TestTransactionLookupsByKey: inside a transaction, a lookup by a whole
// key (primary, unique or plain, of integers or of text under its
// collation) reads the rows the transaction wrote under that key, after
// they were updated, moved to another key, deleted, and taken back by
// ROLLBACK TO SAVEPOINT or a failed statement. Such lookups now find the
// transaction's rows by key rather than by reading every row it wrote
// (docs/benchmarks.md, "Writes by key inside a transaction"); the
// answers are MariaDB 10.11's.
func TestTransactionLookupsByKey(t *testing.T) {
	db := inDatabase(t, "tl",
		"CREATE TABLE t (id INT PRIMARY KEY, e VARCHAR(10), a INT, g INT, h VARCHAR(5), UNIQUE KEY ue (e), KEY ka (a), KEY kgh (g, h))",
		"INSERT INTO t VALUES (1, 'one', 10, 1, 'x'), (2, 'two', 20, 1, 'y')")
	db.SetMaxOpenConns(1)
	step := func(what string, answers map[string]string) {
		t.Helper()
		for q, want := range answers {
			if got := flat(queryStrings(t, db, q)); got != want {
				t.Errorf("%s: %s = %q, want %q", what, q, got, want)
			}
		}
	}
	mustExecAll(t, db, "BEGIN",
		"INSERT INTO t VALUES (3, 'Three', 30, 2, 'x'), (4, 'four', 30, 2, 'X')",
		"UPDATE t SET a = 11 WHERE id = 1")
	step("written", map[string]string{
		"SELECT id FROM t WHERE id = 3":                           "3",
		"SELECT id FROM t WHERE id IN (1, 4, 9) ORDER BY id":      "1;4",
		"SELECT id FROM t WHERE e = 'three'":                      "3",
		"SELECT id FROM t WHERE a = 30 ORDER BY id":               "3;4",
		"SELECT id FROM t WHERE a = 11":                           "1",
		"SELECT id FROM t WHERE a = 10":                           "",
		"SELECT id FROM t WHERE g = 2 AND h = 'x' ORDER BY id":    "3;4",
		"SELECT id FROM t WHERE e IN ('ONE', 'four') ORDER BY id": "1;4",
		// Ranges read the transaction's rows in range too.
		"SELECT id FROM t WHERE id BETWEEN 2 AND 3":   "2;3",
		"SELECT id FROM t WHERE id > 2":               "3;4",
		"SELECT id FROM t WHERE e >= 'T' ORDER BY id": "2;3",
		"SELECT id FROM t WHERE a >= 20 ORDER BY id":  "2;3;4",
	})
	mustExecAll(t, db, "UPDATE t SET e = 'drei', a = 31 WHERE e = 'THREE'", "SAVEPOINT s",
		"DELETE FROM t WHERE id = 4", "UPDATE t SET a = 99 WHERE a = 31")
	step("moved and deleted", map[string]string{
		"SELECT id FROM t WHERE e = 'three'": "",
		"SELECT id FROM t WHERE e = 'drei'":  "3",
		"SELECT id FROM t WHERE a = 99":      "3",
		"SELECT id FROM t WHERE a = 30":      "",
		"SELECT id FROM t WHERE id = 4":      "",
	})
	mustExecAll(t, db, "ROLLBACK TO SAVEPOINT s")
	step("rolled back to the savepoint", map[string]string{
		"SELECT id FROM t WHERE id = 4":                        "4",
		"SELECT id FROM t WHERE a = 31":                        "3",
		"SELECT id FROM t WHERE a = 99":                        "",
		"SELECT id FROM t WHERE a = 30":                        "4",
		"SELECT id FROM t WHERE g = 2 AND h = 'X' ORDER BY id": "3;4",
	})
	// A statement that fails takes back its rows already written.
	_, err := db.Exec("INSERT INTO t VALUES (5, 'five', 50, 3, 'z'), (6, 'drei', 60, 3, 'z')")
	wantMySQLError(t, err, 1062, "23000")
	step("after a failed statement", map[string]string{
		"SELECT id FROM t WHERE id = 5":            "",
		"SELECT id FROM t WHERE a = 50":            "",
		"SELECT id FROM t WHERE g = 3 AND h = 'z'": "",
		"SELECT COUNT(*) FROM t WHERE e = 'DREI'":  "1",
	})
	mustExecAll(t, db, "COMMIT")
	step("committed", map[string]string{
		"SELECT id, e, a FROM t ORDER BY id": "1,one,11;2,two,20;3,drei,31;4,four,30",
	})
}
