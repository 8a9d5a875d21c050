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
