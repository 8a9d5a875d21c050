package sqlext_test

import "testing"

// TestTextInMixedList: text IN a list of text and numbers compares each
// member by its own type, so 'abc' IN ('x', 0) is 1 ('abc' reads as 0),
// as in MySQL; the engine compared every member as text. The answers
// are MariaDB 10.11's.
func TestTextInMixedList(t *testing.T) {
	db := inDatabase(t, "mi", "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'abc'), (2, '5x'), (3, 'Q'), (4, NULL)")
	wantAnswers(t, db, "mixed IN", map[string]string{
		"SELECT 'abc' IN ('x', 0), '1abc' IN ('x', 1), '1abc' NOT IN (1, 'x'), 'a' IN ('A', 1), NULL IN ('x', 0), 'q' IN ('x', 5), 'q' NOT IN ('x', NULL, 5)": "1,1,0,1,NULL,0,NULL",
		"SELECT id FROM t WHERE s IN ('q', 5) ORDER BY id":       "2;3",
		"SELECT id FROM t WHERE s NOT IN ('abc', 7) ORDER BY id": "2;3",
	})
}
