package sqlext_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndexCardinality: SHOW INDEX and information_schema.STATISTICS give
// each index column the count of distinct values of the index's columns
// up to it, NULLs one value (the engine gave 0 but for a unique index's
// last column); the counts are kept until a tenth of the table's rows
// have come or gone, or ANALYZE TABLE.
func TestIndexCardinality(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ic", "USE ic",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(5), KEY ab (a, b), UNIQUE KEY ub (b))")
	var values []string
	for i := 1; i <= 40; i++ {
		a := fmt.Sprint(i % 4)
		if i%10 == 0 {
			a = "NULL"
		}
		values = append(values, fmt.Sprintf("(%d, %s, 'v%d')", i, a, i))
	}
	mustExecAll(t, db, "INSERT INTO t VALUES "+strings.Join(values, ", "))
	show := func() string {
		t.Helper()
		var out []string
		for _, r := range queryStrings(t, db, "SHOW INDEX FROM t") {
			out = append(out, r[2]+"."+r[3]+"="+r[6])
		}
		return strings.Join(out, " ")
	}
	// a holds 0..3 and NULL: 5 values; (a, b) and b are unique.
	want := "PRIMARY.1=40 ub.1=40 ab.1=5 ab.2=40"
	if got := show(); got != want {
		t.Fatalf("SHOW INDEX: %s, want %s", got, want)
	}
	wantAnswers(t, db, "STATISTICS", map[string]string{
		"SELECT GROUP_CONCAT(CONCAT(INDEX_NAME, '.', SEQ_IN_INDEX, '=', CARDINALITY) ORDER BY INDEX_NAME, SEQ_IN_INDEX SEPARATOR ' ') " +
			"FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ic' AND TABLE_NAME = 't'": "ab.1=5 ab.2=40 PRIMARY.1=40 ub.1=40"})

	// Three rows more (under a tenth): the counts stand; a fourth changes
	// a's values, and a fifth passes a tenth.
	mustExecAll(t, db, "INSERT INTO t VALUES (41, 9, 'w1'), (42, 9, 'w2'), (43, 9, 'w3')")
	if got := show(); got != want {
		t.Fatalf("after three rows: %s, want the counts as taken, %s", got, want)
	}
	mustExecAll(t, db, "INSERT INTO t VALUES (44, 9, 'w4'), (45, 9, 'w5')")
	if got, want := show(), "PRIMARY.1=45 ub.1=45 ab.1=6 ab.2=45"; got != want {
		t.Fatalf("after five rows: %s, want %s", got, want)
	}
	mustExecAll(t, db, "UPDATE t SET a = 1 WHERE a = 9")
	mustExecAll(t, db, "ANALYZE TABLE t")
	if got, want := show(), "PRIMARY.1=45 ub.1=45 ab.1=5 ab.2=45"; got != want {
		t.Fatalf("after ANALYZE TABLE: %s, want %s", got, want)
	}
}
