package sqlext_test

import "testing"

// TestSumAndAvgAreExactDecimals: SUM and AVG of integers and DECIMALs are
// exact DECIMALs with MySQL's scale (AVG four decimals more), with or
// without GROUP BY, under HAVING, ORDER BY and arithmetic; of a DOUBLE
// they stay DOUBLE. The answers are MariaDB 10.11's.
func TestSumAndAvgAreExactDecimals(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sa", "USE sa",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, i INT, b BIGINT, u BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE)",
		"INSERT INTO t VALUES (1, 1, 10, 9007199254740993, 18446744073709551615, 10.25, 1.5),"+
			" (2, 1, 30, 9007199254740993, 18446744073709551615, 5.25, 2), (3, 2, 5, 1, 1, NULL, NULL)")
	wantAnswers(t, db, "aggregates", map[string]string{
		"SELECT SUM(i), AVG(i), SUM(d), AVG(d), SUM(f), AVG(f) FROM t":                  "45,15.0000,15.50,7.750000,3.5,1.75",
		"SELECT SUM(b), AVG(b), SUM(u) FROM t":                                          "18014398509481987,6004799503160662.3333,36893488147419103231",
		"SELECT g, SUM(i), AVG(i), SUM(d), AVG(d), SUM(b) FROM t GROUP BY g ORDER BY g": "1,40,20.0000,15.50,7.750000,18014398509481986;2,5,5.0000,NULL,NULL,1",
		"SELECT g, SUM(i) s FROM t GROUP BY g HAVING SUM(i) > 10 ORDER BY s DESC":       "1,40",
		"SELECT g, AVG(d) FROM t GROUP BY g ORDER BY AVG(d) DESC":                       "1,7.750000;2,NULL",
		"SELECT SUM(DISTINCT i), AVG(i) + 1, SUM(i) * 2, SUM(b) + 1 FROM t":             "45,16.0000,90,18014398509481988",
		"SELECT SUM(i), AVG(d) FROM t WHERE g = 99":                                     "NULL,NULL",
	})
	rows, err := db.Query("SELECT SUM(i), AVG(i), SUM(d), AVG(d), SUM(f) FROM t GROUP BY g")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		typ         string
		prec, scale int64
	}{{"DECIMAL", 32, 0}, {"DECIMAL", 14, 4}, {"DECIMAL", 32, 2}, {"DECIMAL", 14, 6}, {"DOUBLE", 0, 0}}
	for i, c := range cols {
		prec, scale, _ := c.DecimalSize()
		if c.DatabaseTypeName() != want[i].typ || want[i].typ == "DECIMAL" && (prec != want[i].prec || scale != want[i].scale) {
			t.Errorf("column %s: %s(%d,%d), want %s(%d,%d)", c.Name(), c.DatabaseTypeName(), prec, scale, want[i].typ, want[i].prec, want[i].scale)
		}
	}
}
