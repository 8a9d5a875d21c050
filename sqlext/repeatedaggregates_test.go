package sqlext_test

import (
	"fmt"
	"testing"
)

// TestRepeatedAggregates: a select list may name one aggregate more than
// once, bare or aliased, with or without its table; each copy keeps the
// name, type and value of the first. Before, the engine refused every
// copy after a bare first one (1146). The answers are MariaDB 10.11's.
func TestRepeatedAggregates(t *testing.T) {
	db := inDatabase(t, "ra",
		"CREATE TABLE a (id INT PRIMARY KEY, g INT, s VARCHAR(10))",
		"CREATE TABLE b (id INT PRIMARY KEY, aid INT)",
		"INSERT INTO a VALUES (1, 5, 'x'), (2, 7, 'y'), (3, NULL, 'x')",
		"INSERT INTO b VALUES (1, 1), (2, 1), (3, 2)")
	wantAnswers(t, db, "repeated aggregates", map[string]string{
		"SELECT SUM(a.g), SUM(a.g) FROM a":                                                             "12,12",
		"SELECT SUM(a.g), SUM(g), SUM(a.g) + 1 FROM a":                                                 "12,12,13",
		"SELECT COUNT(a.g), COUNT(a.g), COUNT(*), COUNT(*) FROM a":                                     "2,2,3,3",
		"SELECT MAX(a.g), MAX(a.g) AS m FROM a":                                                        "7,7",
		"SELECT s, MIN(a.id), MIN(a.id), AVG(g), AVG(a.g) FROM a GROUP BY s ORDER BY s":                "x,1,1,5.0000,5.0000;y,2,2,7.0000,7.0000",
		"SELECT a.s, COUNT(b.id), COUNT(b.id) FROM a JOIN b ON b.aid = a.id GROUP BY a.s ORDER BY a.s": "x,2,2;y,1,1",
		"SELECT s, MAX(g), MAX(g) FROM a GROUP BY s HAVING MAX(g) > 5":                                 "y,7,7",
		"SELECT x FROM (SELECT SUM(a.g), SUM(a.g) AS x FROM a) AS d":                                   "12",
		"SELECT MAX(a.s), MAX(a.s), GROUP_CONCAT(s ORDER BY id), GROUP_CONCAT(s ORDER BY id) FROM a":   "y,y,x,y,x,x,y,x",
	})
	cols := resultColumns(t, db, "SELECT MIN(a.id), MIN(a.id), COUNT(a.g), COUNT(a.g), MAX(a.s), MAX(a.s) FROM a")
	describe := func(i int) string {
		return fmt.Sprintf("%s %s", cols[i].Name(), cols[i].DatabaseTypeName())
	}
	for i := 0; i < len(cols); i += 2 {
		if first, copy := describe(i), describe(i+1); first != copy {
			t.Errorf("column %d is %q, its copy %q", i, first, copy)
		}
	}
	// MIN and MAX may be NULL, a count never is.
	for i, want := range map[int]bool{1: true, 3: false, 5: true} {
		if null, ok := cols[i].Nullable(); !ok || null != want {
			t.Errorf("column %d (%s): nullable %v, want %v", i, cols[i].Name(), null, want)
		}
	}
}
