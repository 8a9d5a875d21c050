package sqlext_test

import "testing"

// TestCumeDist: CUME_DIST() OVER is the share of the partition's rows
// up to the current row's last peer, a DOUBLE, NULLs first as the order
// puts them; 1 for a window without ORDER BY (MySQL 8; MariaDB refuses
// such a window). The answers are MariaDB 10.11's.
func TestCumeDist(t *testing.T) {
	db := inDatabase(t, "cd", "CREATE TABLE w (id INT PRIMARY KEY, g INT, v INT)",
		"INSERT INTO w VALUES (1,1,10),(2,1,20),(3,1,20),(4,1,30),(5,2,5),(6,2,NULL),(7,2,5)")
	wantAnswers(t, db, "cume_dist", map[string]string{
		"SELECT id, CUME_DIST() OVER (PARTITION BY g ORDER BY v) FROM w ORDER BY id":                        "1,0.25;2,0.75;3,0.75;4,1;5,1;6,0.3333333333333333;7,1",
		"SELECT id, cume_dist() over (order by v desc) FROM w ORDER BY id":                                  "1,0.5714285714285714;2,0.42857142857142855;3,0.42857142857142855;4,0.14285714285714285;5,0.8571428571428571;6,1;7,0.8571428571428571",
		"SELECT id, CUME_DIST() OVER w FROM w WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id":         "1,0.25;2,0.5;3,0.75;4,1;5,0.3333333333333333;6,0.6666666666666666;7,1",
		"SELECT id, CUME_DIST() OVER () FROM w WHERE g = 1 ORDER BY id":                                     "1,1;2,1;3,1;4,1",
		"SELECT id, PERCENT_RANK() OVER (ORDER BY v), CUME_DIST() OVER (ORDER BY v) * 7 FROM w ORDER BY id": "1,0.5,4;2,0.6666666666666666,6;3,0.6666666666666666,6;4,1,7;5,0.16666666666666666,3;6,0,1;7,0.16666666666666666,3",
		"SELECT d FROM (SELECT id, CUME_DIST() OVER (ORDER BY id) AS d FROM w) AS s WHERE id = 2":           "0.2857142857142857",
	})
	wantColumnTypes(t, db, "SELECT CUME_DIST() OVER (ORDER BY v) FROM w", "DOUBLE")
	rows, err := db.Query("SELECT CUME_DIST() OVER (ORDER BY v) FROM w")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if cols[0] != "CUME_DIST() OVER (ORDER BY v)" {
		t.Errorf("column named %q", cols[0])
	}
	// A view, and a server-side prepared statement.
	mustExec(t, db, "CREATE VIEW cv AS SELECT id, CUME_DIST() OVER (ORDER BY v) AS d FROM w")
	wantAnswers(t, db, "view", map[string]string{"SELECT d FROM cv WHERE id = 4": "1"})
	if got := flat(queryStrings(t, db, "SELECT id, CUME_DIST() OVER (ORDER BY id) FROM w WHERE g = ? ORDER BY id", 1)); got != "1,0.25;2,0.5;3,0.75;4,1" {
		t.Errorf("prepared: %s", got)
	}
}
