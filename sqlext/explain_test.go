package sqlext_test

import (
	"strings"
	"testing"
)

// TestExplainTraditional: EXPLAIN answers a row per table read, as MySQL
// does, where the engine answered one row of NULLs: a scan is ALL, a
// unique point lookup const with one row, a lookup by value range, a
// join's lookup by a unique key eq_ref (the engine's join plans are not
// held here: they follow its costs), a derived table's reads DERIVED.
func TestExplainTraditional(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE xp",
		"CREATE TABLE xp.c (id INT PRIMARY KEY, city VARCHAR(9))",
		"CREATE TABLE xp.o (id INT PRIMARY KEY, cid INT, amount INT, KEY by_c (cid))",
		"INSERT INTO xp.c VALUES (1, 'Oslo'), (2, 'Rome')",
		"INSERT INTO xp.o VALUES (1, 1, 5), (2, 1, 7), (3, 2, 9)")
	explain := func(q string) string {
		var out []string
		for _, r := range queryStrings(t, db, "EXPLAIN "+q) {
			// id, select_type, table, type, possible_keys, key, ref, rows, Extra
			out = append(out, r[0]+" "+r[1]+" "+r[2]+" "+r[4]+" "+r[5]+" "+r[6]+" "+r[8]+" "+r[9]+" "+r[11])
		}
		return flat([][]string{out})
	}
	for q, want := range map[string]string{
		"SELECT * FROM xp.c":               "1 SIMPLE c ALL PRIMARY NULL NULL 2 ",
		"SELECT * FROM xp.c WHERE id = 2":  "1 SIMPLE c const PRIMARY PRIMARY const 1 Using where",
		"SELECT * FROM xp.o WHERE cid = 1": "1 SIMPLE o range PRIMARY,by_c by_c NULL 3 Using where",
		"SELECT 1":                         "1 SIMPLE NULL NULL NULL NULL NULL NULL No tables used",
		"SELECT * FROM (SELECT city, COUNT(*) n FROM xp.c GROUP BY city) d WHERE n > 0": "2 DERIVED c ALL PRIMARY NULL NULL 2 Using where",
	} {
		if got := explain(q); got != want {
			t.Errorf("EXPLAIN %s:\n got %q\nwant %q", q, got, want)
		}
	}
}

// TestExplainUnion: the SELECTs of a UNION are PRIMARY and UNION rows
// with their own ids, and a UNION that removes duplicates ends with the
// UNION RESULT row of its temporary table, as in MySQL.
func TestExplainUnion(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE xu",
		"CREATE TABLE xu.a (id INT PRIMARY KEY)", "CREATE TABLE xu.b (id INT)",
		"INSERT INTO xu.a VALUES (1), (2)", "INSERT INTO xu.b VALUES (3)")
	for q, want := range map[string]string{
		"SELECT id FROM xu.a UNION SELECT id FROM xu.b WHERE id > 1": "1,PRIMARY,a,ALL,,;" +
			"2,UNION,b,ALL,,Using where;NULL,UNION RESULT,<union1,2>,ALL,,Using temporary",
		"SELECT id FROM xu.a UNION ALL SELECT id FROM xu.b UNION ALL SELECT 1": "1,PRIMARY,a,ALL,,;2,UNION,b,ALL,,;3,UNION,NULL,NULL,,No tables used",
	} {
		var got []string
		for _, r := range queryStrings(t, db, "EXPLAIN "+q) {
			got = append(got, strings.Join([]string{r[0], r[1], r[2], r[4], "", r[11]}, ","))
		}
		if g := strings.Join(got, ";"); g != want {
			t.Errorf("EXPLAIN %s:\n got %q\nwant %q", q, g, want)
		}
	}
}
