package sqlext_test

import "testing"

// TestWindowSumAndAvgAreTypedAsMySQL: SUM and AVG as window functions,
// framed or not, partitioned or not, are exact DECIMALs of an integer or
// DECIMAL argument (AVG four decimals more) and DOUBLEs of a DOUBLE one,
// as in a GROUP BY. The answers are MariaDB 10.11's, which MySQL 8.0
// shares.
func TestWindowSumAndAvgAreTypedAsMySQL(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE wf", "USE wf",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, i INT, u BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE)",
		"INSERT INTO t VALUES (1, 1, 7, 3, 12.50, 2.5), (2, 1, -3, 0, -0.75, -0.001), (3, 2, NULL, NULL, NULL, NULL),"+
			" (4, 1, 0, 18446744073709551615, 99999999.99, 1e20), (5, 3, 2147483647, 42, 0.01, 3.14159)")
	cases := []typedAnswer{
		{"SELECT SUM(i) OVER (ORDER BY id) FROM t ORDER BY id", "7;4;4;4;2147483651", "DECIMAL(32,0)"},
		{"SELECT AVG(d) OVER (ORDER BY id) FROM t ORDER BY id", "12.500000;5.875000;5.875000;33333337.246667;25000002.937500", "DECIMAL(14,6)"},
		{"SELECT SUM(u) OVER (PARTITION BY g) s FROM t ORDER BY id", "18446744073709551618;18446744073709551618;NULL;18446744073709551618;42", "DECIMAL(42,0)"},
		{"SELECT AVG(i) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id",
			"7.0000;2.0000;NULL;-1.5000;2147483647.0000", "DECIMAL(14,4)"},
		{"SELECT SUM(f) OVER w, AVG(f) OVER w FROM t WINDOW w AS (PARTITION BY g) ORDER BY id",
			"1e+20,3.333333333333333e+19;1e+20,3.333333333333333e+19;NULL,NULL;1e+20,3.333333333333333e+19;3.14159,3.14159", "DOUBLE DOUBLE"},
		{"SELECT s + 1 FROM (SELECT id, SUM(i) OVER (ORDER BY id) s FROM t) q ORDER BY id", "8;5;5;5;2147483652", ""},
		// A window function written twice is computed once; the second is
		// typed as the first (its DECIMAL(10,2) had cut 55.245 to 55.25).
		{"SELECT AVG(d) OVER (PARTITION BY g), d - AVG(d) OVER (PARTITION BY g) FROM t WHERE id < 3 ORDER BY id", "5.875000,6.625000;5.875000,-6.625000", "DECIMAL(14,6) DECIMAL(15,6)"},
		// Other window functions of an exact SUM take its type (they were
		// DOUBLEs: 12.5 for 12.50).
		{"SELECT g, LAG(SUM(d)) OVER (ORDER BY g), MAX(SUM(d)) OVER () FROM t GROUP BY g ORDER BY g",
			"1,NULL,100000011.74;2,100000011.74,100000011.74;3,NULL,100000011.74", "INT DECIMAL(32,2) DECIMAL(32,2)"},
		// (A DECIMAL(34,2), one digit more than MariaDB's.)
		{"SELECT SUM(d) - LAG(SUM(d)) OVER (ORDER BY g) FROM t WHERE g <> 2 GROUP BY g ORDER BY g", "NULL;-100000011.73", ""},
	}
	wantTypedAnswers(t, db, cases)
}

// TestWindowAggregatesOfNullFrames: SUM, AVG, MIN and MAX of a frame
// whose values are all NULL are NULL and COUNT is 0, framed or not; AVG
// of a DOUBLE was NaN and of a DECIMAL failed. The answers are MariaDB
// 10.11's but for the sliding frames, where MariaDB answers 0 (its bug:
// MySQL 8.0 answers the frame's one value).
func TestWindowAggregatesOfNullFrames(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE wn", "USE wn",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, i INT, d DECIMAL(10,2), f DOUBLE)",
		"INSERT INTO t VALUES (1, 1, 1, 1.50, 1.5), (2, 2, NULL, NULL, NULL), (3, 2, NULL, NULL, NULL), (4, 3, 4, 0.25, 3.14159), (5, 3, NULL, NULL, NULL)")
	wantAnswers(t, db, "window aggregates of NULLs", map[string]string{
		"SELECT AVG(f) OVER w, SUM(f) OVER w, AVG(d) OVER w, SUM(d) OVER w, SUM(i) OVER w, AVG(i) OVER w FROM t WINDOW w AS (PARTITION BY g) ORDER BY id": "1.5,1.5,1.500000,1.50,1,1.0000;NULL,NULL,NULL,NULL,NULL,NULL;NULL,NULL,NULL,NULL,NULL,NULL;3.14159,3.14159,0.250000,0.25,4,4.0000;3.14159,3.14159,0.250000,0.25,4,4.0000",
		"SELECT MIN(f) OVER w, MAX(i) OVER w, COUNT(f) OVER w, COUNT(*) OVER w FROM t WINDOW w AS (PARTITION BY g) ORDER BY id":                           "1.5,1,1,1;NULL,NULL,0,2;NULL,NULL,0,2;3.14159,4,1,2;3.14159,4,1,2",
		"SELECT SUM(f) OVER w, AVG(f) OVER w, AVG(d) OVER w FROM t WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY id":        "1.5,1.5,1.500000;1.5,1.5,1.500000;NULL,NULL,NULL;3.14159,3.14159,0.250000;3.14159,3.14159,0.250000",
	})
}

// TestJSONArrayAggOverFrames: JSON_ARRAYAGG as a window function takes
// its window's frame: the whole partition for OVER () or PARTITION BY
// alone, the rows a ROWS clause names, and with ORDER BY alone the rows
// up to the current one's last peer. The engine read no frame and took
// the rows up to the current one, so OVER () grew row by row. (MariaDB
// has no JSON_ARRAYAGG window; these are MySQL 8's frames, as SUM's.)
func TestJSONArrayAggOverFrames(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE wj", "USE wj",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, v INT)",
		"INSERT INTO t VALUES (1, 1, 10), (2, 1, NULL), (3, 2, 30), (4, 1, 10)")
	wantAnswers(t, db, "frames", map[string]string{
		"SELECT JSON_ARRAYAGG(v) OVER () FROM t ORDER BY id":                                                      "[10, null, 30, 10];[10, null, 30, 10];[10, null, 30, 10];[10, null, 30, 10]",
		"SELECT JSON_ARRAYAGG(id) OVER (PARTITION BY g) FROM t ORDER BY id":                                       "[1, 2, 4];[1, 2, 4];[3];[1, 2, 4]",
		"SELECT JSON_ARRAYAGG(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id": "[1];[1, 2];[2, 3];[3, 4]",
		"SELECT id, JSON_LENGTH(JSON_ARRAYAGG(id) OVER (ORDER BY v)) FROM t ORDER BY id":                          "1,3;2,1;3,4;4,3",
	})
}

// TestNthValueAndEmptyWindows: NTH_VALUE(x, N) is x of the frame's N-th
// row (the engine had none), over the frame clause or MySQL's default
// frame, and refuses an N that is no positive integer with 1210, as
// MySQL does; FIRST_VALUE, LAST_VALUE, LAG and LEAD over OVER () failed
// with an internal error. The answers are MariaDB 10.11's, but OVER ()
// of LAG and LEAD, which MariaDB refuses (MySQL takes them).
func TestNthValueAndEmptyWindows(t *testing.T) {
	db := inDatabase(t, "nth",
		"CREATE TABLE t (id INT PRIMARY KEY, g CHAR(1), x DECIMAL(6,2))",
		"INSERT INTO t VALUES (1, 'a', 10.50), (2, 'a', 99.99), (3, 'b', 5.00), (4, 'b', 250.00), (5, 'a', 7.77)")
	wantAnswers(t, db, "NTH_VALUE", map[string]string{
		"SELECT id, NTH_VALUE(x, 2) OVER (ORDER BY id) FROM t ORDER BY id":                                                     "1,NULL;2,99.99;3,99.99;4,99.99;5,99.99",
		"SELECT id, NTH_VALUE(x, 2) OVER (PARTITION BY g ORDER BY x) FROM t ORDER BY id":                                       "1,10.50;2,10.50;3,NULL;4,250.00;5,NULL",
		"SELECT id, NTH_VALUE(x, 3) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id":            "1,NULL;2,5.00;3,250.00;4,7.77;5,NULL",
		"SELECT id, NTH_VALUE(x, 1) OVER w, NTH_VALUE(x, 2) OVER w FROM t WINDOW w AS (ORDER BY id DESC) ORDER BY id LIMIT 2":  "1,7.77,250.00;2,7.77,250.00",
		"SELECT COUNT(DISTINCT f), COUNT(DISTINCT l) FROM (SELECT FIRST_VALUE(x) OVER () f, LAST_VALUE(x) OVER () l FROM t) q": "1,1",
		"SELECT COUNT(*), COUNT(p), COUNT(n) FROM (SELECT LAG(x) OVER () p, LEAD(x, 2) OVER () n FROM t) q":                    "5,4,3",
	})
	for _, q := range []string{"SELECT NTH_VALUE(x, 0) OVER () FROM t", "SELECT NTH_VALUE(x, id) OVER (ORDER BY id) FROM t"} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1210, "", "Incorrect arguments to nth_value")
	}
}
