package sqlext_test

import "testing"

// TestSetOperationsOfLiteralsOrderedByPosition: a set operation of
// SELECTs of literals ordered by a column's position is ordered (it was
// answered in the order of its SELECTs, the engine ordering by the first
// SELECT's constant), and a string literal's column is named by the
// string, as in MySQL (it was named with its quotes).
func TestSetOperationsOfLiteralsOrderedByPosition(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	wantAnswers(t, db, "ordered by position", map[string]string{
		"SELECT 1 UNION SELECT 2 ORDER BY 1 DESC":                           "2;1",
		"SELECT 3 UNION SELECT 1 UNION SELECT 2 ORDER BY 1":                 "1;2;3",
		"SELECT 3 UNION ALL SELECT 1 UNION ALL SELECT 3 ORDER BY 1 LIMIT 2": "1;3",
		"SELECT 'b', 1 UNION SELECT 'a', 2 UNION SELECT 'c', 0 ORDER BY 2":  "c,0;b,1;a,2",
		"SELECT NULL UNION SELECT 2 ORDER BY 1 DESC":                        "2;NULL",
		"(SELECT 1.5 AS n) UNION ALL (SELECT 0.5) ORDER BY 1":               "0.5;1.5",
		"SELECT * FROM (SELECT 2 UNION SELECT 1 ORDER BY 1) d":              "1;2",
	})
	for q, want := range map[string]string{
		"SELECT 'it''s' UNION SELECT 'a'": "it's",
		"SELECT 1 UNION SELECT 2":         "1",
		"SELECT NULL UNION SELECT 'x'":    "NULL",
	} {
		var names []string
		for _, c := range resultColumns(t, db, q) {
			names = append(names, c.Name())
		}
		if len(names) != 1 || names[0] != want {
			t.Errorf("%s: columns %q, want %q", q, names, want)
		}
	}
}
