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
	cols := resultColumns(t, db, "SELECT SUM(i), AVG(i), SUM(d), AVG(d), SUM(f) FROM t GROUP BY g")
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

// TestDerivedTablesKeepTheirTypes: a derived table, a view or a common
// table expression shows its columns with the types its query gives
// them, when a rule retyped them after planning: SUM and AVG as exact
// DECIMALs, a DATE plus days as a DATE. The answers are MariaDB 10.11's.
func TestDerivedTablesKeepTheirTypes(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	mustExecAll(t, db, "CREATE DATABASE dt", "USE dt",
		"CREATE TABLE t (id INT PRIMARY KEY, d DECIMAL(10,2), day DATE)",
		"INSERT INTO t VALUES (1, 10.25, '2024-01-15'), (2, 5.25, '2024-02-29')",
		"CREATE VIEW sums AS SELECT SUM(d) s, AVG(id) a FROM t",
		"CREATE VIEW days AS SELECT id, day + INTERVAL 1 DAY later FROM t")
	cases := []typedAnswer{
		{"SELECT * FROM (SELECT SUM(d) s, AVG(d) a, SUM(id) n FROM t) q", "15.50,7.750000,3", "DECIMAL(32,2) DECIMAL(14,6) DECIMAL(32,0)"},
		// The precision of arithmetic over a DECIMAL is one digit short of
		// MariaDB's, derived table or not (DECIMAL(33,2) and (15,6)).
		{"SELECT s + 1, a * 2 FROM (SELECT SUM(d) s, AVG(d) a FROM t) q", "16.50,15.500000", ""},
		{"SELECT * FROM sums", "15.50,1.5000", "DECIMAL(32,2) DECIMAL(14,4)"},
		{"WITH c AS (SELECT SUM(d) s FROM t) SELECT s FROM c", "15.50", "DECIMAL(32,2)"},
		{"SELECT * FROM (SELECT * FROM (SELECT SUM(d) s FROM t) a) b", "15.50", "DECIMAL(32,2)"},
		// SUM and AVG over such a column are exact too (SUM(s) was 15.5).
		{"SELECT SUM(s), AVG(s) FROM (SELECT SUM(d) s FROM t) q", "15.50,15.500000", "DECIMAL(54,2) DECIMAL(36,6)"},
		{"WITH c AS (SELECT id, SUM(d) s FROM t GROUP BY id) SELECT SUM(s) OVER (ORDER BY id) FROM c ORDER BY id", "10.25;15.50", "DECIMAL(54,2)"},
		// Two derived tables deep, and in a scalar subquery, too.
		{"SELECT SUM(u) FROM (SELECT SUM(s) u FROM (SELECT id, SUM(d) s FROM t GROUP BY id) a) b", "15.50", "DECIMAL(65,2)"},
		{"SELECT (SELECT SUM(s) FROM (SELECT id, SUM(d) s FROM t GROUP BY id) m) / 2", "7.750000", ""},
		{"SELECT q.s FROM t JOIN (SELECT id, SUM(d) s FROM t GROUP BY id) q ON q.id = t.id ORDER BY t.id", "10.25;5.25", "DECIMAL(32,2)"},
		{"SELECT later FROM days ORDER BY id", "2024-01-16;2024-03-01", "DATE"},
		{"SELECT x FROM (SELECT day - INTERVAL 1 HOUR x FROM t) q ORDER BY x", "2024-01-14 23:00:00;2024-02-28 23:00:00", "DATETIME(0)"},
	}
	wantTypedAnswers(t, db, cases)
}

// TestSumKeepsItsScale: a DECIMAL read back from disk may have lost its
// trailing zeros (12.50 as 12.5); SUM shows its type's scale, as MySQL.
func TestSumKeepsItsScale(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db, "CREATE DATABASE sk", "CREATE TABLE sk.t (id INT PRIMARY KEY, d DECIMAL(10,2))", "INSERT INTO sk.t VALUES (1, 12.50)")
	srv.Close()
	srv, db = openIn(t, dir)
	defer srv.Close()
	if got := flat(queryStrings(t, db, "SELECT SUM(d) FROM sk.t WHERE id = 1")); got != "12.50" {
		t.Errorf("SUM of a stored 12.50: %s, want 12.50", got)
	}
}
