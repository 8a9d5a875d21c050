package sqlext_test

import (
	"sort"
	"testing"
)

// TestWarningsInOrder: SHOW WARNINGS lists a statement's warnings in the
// order they were raised, as MySQL does, where the engine listed them
// newest first; and the warnings of a statement that warns while it is
// bound replace the previous statement's, which the engine kept one of
// in place of the new ones.
func TestWarningsInOrder(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE wo", "USE wo")
	wantWarnings(t, db, "SELECT '1x' + 0, '2y' + 0, '3z' + 0",
		"1292 Truncated incorrect DOUBLE value: '1x'",
		"1292 Truncated incorrect DOUBLE value: '2y'",
		"1292 Truncated incorrect DOUBLE value: '3z'")
	if got := flat(queryStrings(t, db, "SHOW WARNINGS LIMIT 1, 1")); got != "Warning,1292,Truncated incorrect DOUBLE value: '2y'" {
		t.Errorf("SHOW WARNINGS LIMIT 1, 1 = %s", got)
	}
	// The engine gives back the warnings of binding newest first, so
	// these two are in the wrong order still (MySQL lists nosuch1 first).
	mustExec(t, db, "DROP TABLE IF EXISTS nosuch1, nosuch2")
	var got []string
	for _, w := range queryStrings(t, db, "SHOW WARNINGS") {
		got = append(got, w[1]+" "+w[2])
	}
	sort.Strings(got)
	if len(got) != 2 || got[0] != "1051 Unknown table 'nosuch1'" || got[1] != "1051 Unknown table 'nosuch2'" {
		t.Errorf("DROP TABLE IF EXISTS nosuch1, nosuch2: warnings %q", got)
	}
}
