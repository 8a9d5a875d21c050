package sqlext_test

import "testing"

// TestWindowsOverGroups: window functions of a grouped SELECT run over
// its groups (running totals and ranks of aggregates, shares of a
// total), with GROUP BY by alias and position, HAVING by alias, a named
// window, and ORDER BY and LIMIT after the windows; and OVER w takes the
// ORDER BY of the named window w, with its default frame. The engine
// refused windows in grouped queries, and summed OVER w over the whole
// partition. The answers are MariaDB 10.11's.
func TestWindowsOverGroups(t *testing.T) {
	db := inDatabase(t, "gw",
		"CREATE TABLE s (id INT PRIMARY KEY, g INT, x INT)",
		"INSERT INTO s VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5), (4, 2, NULL), (5, 2, 7), (6, 3, 1), (7, NULL, 4)")
	wantAnswers(t, db, "windows over groups", map[string]string{
		"SELECT g, COUNT(*), RANK() OVER (ORDER BY COUNT(*) DESC, g) FROM s GROUP BY s.g ORDER BY g":                                                   "NULL,1,3;1,2,2;2,3,1;3,1,4",
		"SELECT s.g, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY g) FROM s AS s GROUP BY g ORDER BY s.g":                                                    "NULL,1,1;1,2,3;2,3,6;3,1,7",
		"SELECT g, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY g) FROM s GROUP BY g ORDER BY g":                                                             "NULL,1,1;1,2,3;2,3,6;3,1,7",
		"SELECT g, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r FROM s GROUP BY g ORDER BY g":                                              "NULL,1,3;1,2,2;2,3,1;3,1,3",
		"SELECT g, SUM(x) / SUM(SUM(x)) OVER () FROM s GROUP BY g ORDER BY g":                                                                          "NULL,0.0851;1,0.6383;2,0.2553;3,0.0213",
		"SELECT g AS grp, COUNT(*) AS n, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, g) AS rn FROM s WHERE x > 0 GROUP BY grp HAVING n > 1 ORDER BY rn": "1,2,1;2,2,2",
		"SELECT COUNT(*), SUM(COUNT(*)) OVER () FROM s":                                                                                                "7,7",
		"SELECT g, MAX(x), LAG(MAX(x)) OVER (ORDER BY g) FROM s GROUP BY 1 ORDER BY 1":                                                                 "NULL,4,NULL;1,20,4;2,7,20;3,1,7",
		"SELECT g, COUNT(*), SUM(COUNT(*)) OVER w FROM s GROUP BY g WINDOW w AS (ORDER BY g) ORDER BY g":                                               "NULL,1,1;1,2,3;2,3,6;3,1,7",
		"SELECT id, SUM(x) OVER w FROM s WINDOW w AS (ORDER BY g) ORDER BY id":                                                                         "1,34;2,34;3,46;4,46;5,46;6,47;7,4",
	})
	rows, err := db.Query("SELECT g, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) FROM s GROUP BY g")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if want := []string{"g", "n", "RANK() OVER (ORDER BY COUNT(*) DESC)"}; len(cols) != 3 || cols[0] != want[0] || cols[1] != want[1] || cols[2] != want[2] {
		t.Errorf("columns %q, want %q", cols, want)
	}
}

// TestNTileIsAnInteger: NTILE is a BIGINT UNSIGNED, as in MySQL; the
// engine typed it a DOUBLE, which clients read as 2.0.
func TestNTileIsAnInteger(t *testing.T) {
	db := inDatabase(t, "nt", "CREATE TABLE s (id INT PRIMARY KEY)", "INSERT INTO s VALUES (1), (2), (3)")
	wantColumnTypes(t, db, "SELECT NTILE(2) OVER (ORDER BY id) AS b FROM s", "UNSIGNED BIGINT")
	wantAnswers(t, db, "ntile", map[string]string{
		"SELECT id, NTILE(2) OVER (ORDER BY id) FROM s ORDER BY id":                       "1,1;2,1;3,2",
		"SELECT b + 1 FROM (SELECT NTILE(2) OVER (ORDER BY id) AS b FROM s) d ORDER BY b": "2;2;3",
	})
}

// TestGroupedWindowsWithCorrelatedSubqueries: a grouped SELECT with window
// functions may hold a subquery that reads a grouped column of the outer
// table (a.g, x.g) in its select list, HAVING and ORDER BY, and one whose
// own table has the outer table's name reads its own; the answers are
// MariaDB 10.11's. They were refused (1146): the grouped tables are read
// inside a derived table, which the subquery did not name.
func TestGroupedWindowsWithCorrelatedSubqueries(t *testing.T) {
	db := inDatabase(t, "gc",
		"CREATE TABLE a (id INT PRIMARY KEY, g INT)", "CREATE TABLE b (id INT PRIMARY KEY, v INT)",
		"INSERT INTO a VALUES (1, 1), (2, 1), (3, 2)", "INSERT INTO b VALUES (1, 1), (2, 2), (3, 2)")
	wantAnswers(t, db, "correlated", map[string]string{
		"SELECT g, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY g), (SELECT COUNT(*) FROM b WHERE b.v = a.g) AS c FROM a GROUP BY g ORDER BY g": "1,2,2,1;2,1,3,2",
		"SELECT x.g, RANK() OVER (ORDER BY COUNT(*)), (SELECT MAX(b.id) FROM b WHERE b.v = x.g) m FROM a AS x GROUP BY x.g " +
			"HAVING (SELECT COUNT(*) FROM b WHERE b.v = x.g) > 0 ORDER BY (SELECT COUNT(*) FROM b WHERE b.v = x.g)": "1,2,1;2,1,3",
		"SELECT g, ROW_NUMBER() OVER (ORDER BY g), (SELECT COUNT(*) FROM a WHERE a.g = 1) FROM a GROUP BY g ORDER BY g": "1,1,2;2,2,2",
	})
}
