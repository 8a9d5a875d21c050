package sqlext_test

import (
	"strings"
	"testing"
)

// TestUnionOfPointLookups: set operations over primary-key point lookups
// return every row (the engine alone marks such a query as returning at
// most one row and fails it).
func TestUnionOfPointLookups(t *testing.T) {
	_, _, db := serve(t)
	mustExec(t, db, "CREATE DATABASE u")
	mustExec(t, db, "CREATE TABLE u.m (id BIGINT PRIMARY KEY, v INT)")
	mustExec(t, db, "INSERT INTO u.m VALUES (1, 10), (2, 20), (3, 30)")
	for q, want := range map[string]string{
		"SELECT v FROM u.m WHERE id = 1 UNION ALL SELECT v FROM u.m WHERE id = 2":            "10,20",
		"SELECT v FROM u.m WHERE id = 1 UNION ALL SELECT v FROM u.m WHERE id > 1 ORDER BY v": "10,20,30",
		"SELECT v FROM u.m WHERE id = 3 UNION SELECT v FROM u.m WHERE id = 3":                "30",
		"SELECT v FROM u.m WHERE id = 2 EXCEPT SELECT v FROM u.m WHERE id = 1":               "20",
		"SELECT v FROM u.m WHERE id = 2":                                                     "20",
		"SELECT v FROM u.m WHERE v = 10 UNION ALL SELECT v FROM u.m WHERE id = 3 ORDER BY v": "10,30",
	} {
		var got []string
		for _, r := range queryStrings(t, db, q) {
			got = append(got, r[0])
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s: got %v, want %s", q, got, want)
		}
	}
}

// TestExplainOfOneRowQueries: EXPLAIN answers its plan, a line a row, for
// a query the engine marks as returning at most one row (an aggregate
// without GROUP BY, a primary-key point lookup, an UPDATE or DELETE by
// one); it failed with "result max1Row iterator returned more than one
// row".
func TestExplainOfOneRowQueries(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ex", "CREATE TABLE ex.t (id INT PRIMARY KEY, v INT)", "INSERT INTO ex.t VALUES (1, 2), (3, 4)")
	for _, q := range []string{
		"EXPLAIN FORMAT=TREE SELECT COUNT(*) FROM ex.t",
		"EXPLAIN PLAN SELECT SUM(v) FROM ex.t WHERE id > 1",
		"EXPLAIN ANALYZE SELECT COUNT(*) FROM ex.t",
		"EXPLAIN FORMAT=TREE SELECT v FROM ex.t WHERE id = 1",
		"EXPLAIN FORMAT=TREE UPDATE ex.t SET v = 5 WHERE id = 1",
		"EXPLAIN FORMAT=TREE DELETE FROM ex.t WHERE id = 1",
	} {
		if rows := queryStrings(t, db, q); len(rows) < 2 {
			t.Errorf("%s: %v", q, rows)
		}
	}
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM ex.t")); got != "2" {
		t.Errorf("COUNT(*) = %s", got)
	}
}
