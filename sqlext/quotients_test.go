package sqlext_test

import "testing"

// TestQuotientsUnrounded: a division read as a number by a function is
// its whole quotient, rounded to the division's decimals only where it
// is shown, as in MySQL (Item_func_div::decimal_op; the answers are
// MariaDB 10.11's): the engine rounded it first, so ROUND(1/3, 6) was
// 0.333300, SUM(x/3) of three ones 0.9999 and IFNULL(-7/3, 0e0) -2.3333;
// and so is +, - or * over a division, read by a function, by % or by
// arithmetic computed as a DOUBLE.
func TestQuotientsUnrounded(t *testing.T) {
	db := inDatabase(t, "qu",
		"CREATE TABLE t (id INT PRIMARY KEY, x INT, d DECIMAL(6,2))",
		"INSERT INTO t VALUES (1, 1, 1.00), (2, 1, 2.00), (3, 1, 4.00)")
	wantAnswers(t, db, "quotients", map[string]string{
		"SELECT ROUND(1/3, 6), TRUNCATE(2/3, 6), ROUND(2/3, 4), 1/3, CONCAT(1/3, ''), CAST(1/3 AS CHAR)":        "0.333333,0.666666,0.6667,0.3333,0.3333,0.3333",
		"SELECT SUM(x/3), AVG(x/3), SUM(d/7), ROUND(SUM(x/3), 6) FROM t":                                        "1.0000,0.33333333,1.000000,1.000000",
		"SELECT IFNULL(-7/3, 0e0), COALESCE(x/3, 0e0), IF(x = 1, x/3, 0e0), IFNULL(7/3, 1) FROM t WHERE id = 1": "-2.333333333,0.333333333,0.333333333,2.3333",
		"SELECT x/3, ROUND(100 * x / 3, 2) FROM t WHERE id = 1":                                                 "0.3333,33.33",
		// +, - and * over a division, read whole too.
		"SELECT ROUND(x / 3 * 100, 6), (x / 3 * 100) % 7e0, (FLOOR(id) * (10 / -7)) % 2.5e0, x / 3 * 100 FROM t WHERE id = 1": "33.333333,5.3333333,-1.428571428,33.3333",
		// GREATEST and LEAST of quotients, read by arithmetic or a
		// function, are the quotient whole (they were rounded first:
		// 15.0015, 0.9999, 0.333300).
		"SELECT 5 / GREATEST(id / 3, 0.1), GREATEST(id / 3, 0.1), GREATEST(1 / 3, 0.1) * 3, LEAST(2 / 3, 1) + 0, (5 / GREATEST(id / 3, 0.1)) * 2, ROUND(GREATEST(1 / 3, 0), 6), GREATEST(1 / 3, 0) * 1e0 FROM t WHERE id = 1": "15.0000,0.3333,1.0000,0.6667,30.0000,0.333333,0.333333333",
		// So is a DECIMAL operand of arithmetic computed as a DOUBLE.
		"SELECT (1e0 + 0) * (3 / 7), 2e0 * (10.5 - 3/7), 1/3 * 3e0, (1/3) + 0e0, 1e0 - 2/3, 1/3 * 3, (('2x' + '3') + 3) * (d - (3 / 7)) FROM t WHERE id = 1": "0.428571428,20.142857144,0.999999999,0.333333333,0.333333334,1.0000,4.571428576",
	})
}
