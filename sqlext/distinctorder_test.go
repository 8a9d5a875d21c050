package sqlext_test

import "testing"

// TestDistinctOrderedBySelectedExpression: DISTINCT rows sort by a
// selected expression named by its position or written again, with or
// without LIMIT. The answers are MariaDB 10.11's.
func TestDistinctOrderedBySelectedExpression(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE dord", "USE dord",
		"CREATE TABLE t (id INT PRIMARY KEY, i INT)",
		"INSERT INTO t VALUES (1, 7), (2, NULL), (3, -3), (4, 7), (5, NULL)")
	wantAnswers(t, db, "DISTINCT with ORDER BY", map[string]string{
		"SELECT DISTINCT i IS NULL FROM t ORDER BY 1":           "0;1",
		"SELECT DISTINCT i IS NULL FROM t ORDER BY 1 DESC":      "1;0",
		"SELECT DISTINCT i + 1 FROM t ORDER BY i + 1 DESC":      "8;-2;NULL",
		"SELECT DISTINCT i + 1, i IS NULL FROM t ORDER BY 2, 1": "-2,0;8,0;NULL,1",
		"SELECT DISTINCT i * 2 FROM t ORDER BY 1 LIMIT 2":       "NULL;-6",
		"SELECT DISTINCT i IS NULL x FROM t ORDER BY x":         "0;1",
	})
}
