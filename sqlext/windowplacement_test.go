package sqlext_test

import "testing"

// TestMisplacedWindowFunctions: a window function in WHERE, GROUP BY,
// HAVING or ON, or as an argument of an aggregate or of another window
// function, is MySQL's 3593 naming it; the engine answered 1140 with its
// message's blanks unfilled, or an internal error. A window function
// over an aggregate, and one in a subquery of WHERE, are computed.
func TestMisplacedWindowFunctions(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE wp", "USE wp",
		"CREATE TABLE g (id INT PRIMARY KEY, k VARCHAR(5), v INT)",
		"INSERT INTO g VALUES (1, 'a', 10), (2, 'a', 5), (3, 'b', 7), (4, 'c', 1)")
	for q, name := range map[string]string{
		"SELECT k FROM g WHERE ROW_NUMBER() OVER () > 1":                         "row_number",
		"SELECT k FROM g GROUP BY RANK() OVER (ORDER BY v)":                      "rank",
		"SELECT k FROM g GROUP BY k HAVING SUM(v) > AVG(v) OVER ()":              "avg",
		"SELECT MAX(ROW_NUMBER() OVER ()) FROM g":                                "row_number",
		"SELECT GROUP_CONCAT(DENSE_RANK() OVER (ORDER BY v)) FROM g":             "dense_rank",
		"SELECT SUM(ROW_NUMBER() OVER ()) OVER () FROM g":                        "row_number",
		"SELECT a.k FROM g a JOIN g b ON a.id = ROW_NUMBER() OVER ()":            "row_number",
		"SELECT (SELECT COUNT(LAG(v) OVER (ORDER BY id)) FROM g) FROM g LIMIT 1": "lag",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 3593, "HY000", "You cannot use the window function '"+name+"' in this context.'")
	}
	wantAnswers(t, db, "windows where they belong", map[string]string{
		"SELECT GROUP_CONCAT(k, ':', r ORDER BY k) FROM (SELECT k, RANK() OVER (ORDER BY SUM(v) DESC) r FROM g GROUP BY k) x": "a:1,b:2,c:3",
		"SELECT GROUP_CONCAT(k ORDER BY k) FROM g WHERE id IN (SELECT ROW_NUMBER() OVER (ORDER BY id) FROM g WHERE v > 4)":    "a,a,b",
		"SELECT SUM(s) FROM (SELECT SUM(SUM(v)) OVER () s FROM g GROUP BY k) x":                                               "69",
	})
}
