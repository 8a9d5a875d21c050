package sqlext_test

import (
	"database/sql"
	"strings"
	"testing"
)

// TestPartialJoinsHashTheInnerSide: EXISTS and NOT EXISTS whose inner
// side reads its own tables are answered by a hash of that side, not by
// reading it again for each outer row, with the rows they gave before:
// NULL keys, keys that repeat, text compared under a case-insensitive
// collation, conditions beside the equality. The answers are MariaDB
// 10.11's.
func TestPartialJoinsHashTheInnerSide(t *testing.T) {
	db := inDatabase(t, "hp",
		"CREATE TABLE o (id INT PRIMARY KEY, k INT, s VARCHAR(10))",
		"CREATE TABLE l (id INT PRIMARY KEY, k INT, s VARCHAR(10), x INT)",
		"INSERT INTO o VALUES (1, 1, 'ab'), (2, 2, 'AB'), (3, 3, 'b'), (4, NULL, 'x'), (5, 5, NULL), (6, 1, 'B'), (7, 7, 'y'), (8, 2, 'aB'), (9, NULL, NULL), (10, 3, 'Y')",
		"INSERT INTO l VALUES (1, 1, 'AB', 5), (2, 1, 'b', 1), (3, 2, NULL, 9), (4, NULL, 'x', 3), (5, 3, 'Ab', 0), (6, 5, 'Y', 7), (7, 2, 'zz', 2), (8, NULL, NULL, NULL), (9, 9, 'b', 4), (10, 5, 'q', NULL)")
	db.SetMaxOpenConns(1)
	answers := map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k = o.k)":                "4,7,9",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k = o.k AND l.x > o.id)": "3,4,6,7,9,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.s = o.s)":                "5,9",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE EXISTS (SELECT 1 FROM l WHERE l.s = o.s AND l.x > 2)":        "1,2,3,4,6,7,8,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE EXISTS (SELECT 1 FROM l WHERE l.k = o.k AND l.x > o.id)":     "1,2,5,8",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.id = o.k)":               "4,9",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k = o.k AND l.s = o.s)":  "2,3,4,5,7,8,9,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k + 1 = o.k * 1)":        "1,4,5,6,7,9",
	}
	wantAnswers(t, db, "partial joins", answers)
	// With indexes the planner looks the inner rows up; over a whole
	// outer table those lookups become a hash of the inner table.
	mustExecAll(t, db, "CREATE INDEX ik ON l (k)", "CREATE INDEX is_ ON l (s)", "CREATE INDEX ix ON l (x)", "CREATE INDEX ik ON o (k)")
	wantAnswers(t, db, "partial joins by indexes", answers)
	wantAnswers(t, db, "IN and NOT IN by indexes", map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE k IN (SELECT k FROM l WHERE x > 1)":                       "1,2,5,6,8",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE k NOT IN (SELECT k FROM l WHERE x > 1 AND k IS NOT NULL)": "3,7,10",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE k NOT IN (SELECT k FROM l WHERE x > 1)":                   "NULL",
		// The inner rows looked up by a constant, the same for each
		// outer row, and hashed by the join's own equality.
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE id IN (SELECT k FROM l WHERE x = 9)":                         "2",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE s IN (SELECT s FROM l)":                                      "1,2,3,4,6,7,8,10",
		"SELECT GROUP_CONCAT(l.id ORDER BY l.id) FROM l WHERE EXISTS (SELECT 1 FROM o WHERE o.k = l.k AND o.id > l.x)": "1,2,5,7",
	})
	for q, join := range map[string]string{
		"SELECT id FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.id = o.k)": "AntiHashJoin",
		"SELECT id FROM o WHERE s IN (SELECT s FROM l)":                        "SemiHashJoin",
	} {
		plan := flat(queryStrings(t, db, "EXPLAIN FORMAT=TREE "+q))
		if !strings.Contains(plan, join) || !strings.Contains(plan, "HashLookup") {
			t.Errorf("%s is planned as\n%s", q, plan)
		}
	}
	// A statement prepared once hashes the rows as they are at each run.
	mustExec(t, db, "PREPARE st FROM 'SELECT GROUP_CONCAT(id ORDER BY id) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k = o.k)'")
	for _, step := range []struct{ write, want string }{
		{"INSERT INTO l VALUES (11, 7, 'n', 1)", "4,9"},
		{"DELETE FROM l WHERE k = 1", "1,4,6,9"},
	} {
		mustExec(t, db, step.write)
		if got := flat(queryStrings(t, db, "EXECUTE st")); got != step.want {
			t.Errorf("after %s: %s, want %s", step.write, got, step.want)
		}
	}
}

// partialBenchTables makes o, 500 rows whose k runs over 50 values, and
// l, 20,000 rows, 400 to each k, with an index on k.
func partialBenchTables(b *testing.B) *sql.DB {
	srv, addr := startServer(b, b.TempDir())
	b.Cleanup(func() { srv.Close() })
	db := connect(b, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(b, db, "CREATE DATABASE pb", "USE pb",
		"CREATE TABLE o (id INT PRIMARY KEY, k INT)",
		"CREATE TABLE l (id INT PRIMARY KEY, k INT, x INT, KEY (k))",
		"SET @@cte_max_recursion_depth = 20000",
		"INSERT INTO o WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 500) SELECT i, i % 50 FROM r",
		"INSERT INTO l WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 20000) SELECT i, i % 50, i % 1000 FROM r")
	return db
}

// BenchmarkNotExists counts the rows of o with no row in l, by l's
// primary key and by its index with another condition:
//
//	go test -tags openblas -run '^$' -bench 'NotExists|ExistsByIndex|RangeLookup' -count 6 ./sqlext
func BenchmarkNotExists(b *testing.B) {
	db := partialBenchTables(b)
	for b.Loop() {
		var byKey, byIndex int
		if err := db.QueryRow("SELECT (SELECT COUNT(*) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.id = o.k)), (SELECT COUNT(*) FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE l.k = o.k AND l.x > 5))").Scan(&byKey, &byIndex); err != nil || byKey != 10 || byIndex != 0 {
			b.Fatalf("%d and %d rows, %v", byKey, byIndex, err)
		}
	}
}
