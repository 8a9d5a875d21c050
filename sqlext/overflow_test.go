package sqlext_test

import (
	"strings"
	"testing"
)

// TestFloatOverflowIsOutOfRange: a DOUBLE result out of range is error 1690
// wherever the operation sits (select list, VALUES, SET, inside a chain)
// and whether an operator or a function (POW, EXP) computes it,
// a statement that meets one changes nothing, and finite results are
// untouched.
func TestFloatOverflowIsOutOfRange(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE f", "USE f",
		"CREATE TABLE t (id INT PRIMARY KEY, x DOUBLE)",
		"INSERT INTO t VALUES (1, 1e308), (2, 1.5)")
	for _, q := range []string{
		"SELECT 1e308 * 10",
		"SELECT -1e308 * 10",
		"SELECT 1e308 + 1e308",
		"SELECT 1e308 / 1e-10",
		"SELECT 1 + 2 + 1e308 * 10 + 4",
		"SELECT 1 / (1e308 * 10)",
		"SELECT id, x * 10 FROM t ORDER BY id",
		"INSERT INTO t VALUES (3, 1e308 * 10)",
		"UPDATE t SET x = x * 10",
		"SELECT POW(10, 400)",
		"SELECT POWER(-10, 401)",
		"SELECT POW(0, -1)",
		"SELECT EXP(1000)",
		"SELECT DEGREES(1e308)",
		"SELECT COT(0)",
		"SELECT id, POW(x, 2) FROM t ORDER BY id",
		"INSERT INTO t VALUES (3, EXP(1000))",
	} {
		_, err := db.Exec(q)
		t.Run(q, func(t *testing.T) { wantMySQLError(t, err, 1690, "22003") })
	}
	wantAnswers(t, db, "answers", map[string]string{
		"SELECT 1e300 * 1e5 / 1e15":                                             "1e+290",
		"SELECT 7e0 / 2, 1e0 / 0":                                               "3.5,NULL",
		"SELECT x * 10 FROM t WHERE id = 2":                                     "15",
		"SELECT 1 + 2 * 3 - 4":                                                  "3",
		"SELECT x + 0 FROM t WHERE id = 1":                                      "1e+308",
		"SELECT COUNT(*), SUM(x < 2) FROM t":                                    "2,1",
		"SELECT -1.7e308 - 1e306 FROM t LIMIT 1":                                "-1.7099999999999999e+308",
		"SELECT 2e0 * 3 + 1 - 0.5 FROM t LIMIT 1":                               "6.5",
		"SELECT POW(2, 10), POW(10, -400), EXP(-1000), POW(NULL, 1), EXP(NULL)": "1024,0,0,NULL,NULL",
		"SELECT POWER(x, 2), EXP(0), DEGREES(PI()) FROM t WHERE id = 2":         "2.25,1,180",
	})
	// MySQL names the function in the message as it names it: 'pow(10,400)'.
	_, err := db.Exec("SELECT POW(10, 400)")
	if err == nil || !strings.Contains(err.Error(), "DOUBLE value is out of range in 'pow(10,400)'") {
		t.Errorf("POW(10, 400): %v", err)
	}
}

// TestIntegerArithmeticIsExact: +, - and * of integers give MySQL's exact
// results, BIGINT UNSIGNED when either operand is unsigned, and error 1690
// where MySQL's overflow (the engine wrapped around, or computed an
// unsigned operand in signed 64 bits).
func TestIntegerArithmeticIsExact(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db,
		"CREATE DATABASE ia", "USE ia",
		"CREATE TABLE t (id INT PRIMARY KEY, u BIGINT UNSIGNED, s BIGINT, small INT UNSIGNED)",
		"INSERT INTO t VALUES (1, 18446744073709551615, 9223372036854775807, 0), (2, 10, -9223372036854775808, 5)")
	for _, q := range []string{
		"SELECT 9223372036854775807 + 1",
		"SELECT -9223372036854775808 - 1",
		"SELECT 9223372036854775807 * 2",
		"SELECT 4294967296 * 4294967296",
		"SELECT CAST(1 AS UNSIGNED) - 2",
		"SELECT u + 1 FROM t WHERE id = 1",
		"SELECT s + 1 FROM t WHERE id = 1",
		"SELECT s - 1 FROM t WHERE id = 2",
		"SELECT small - 1 FROM t WHERE id = 1",
		"SELECT 1 + 2 + s + 4 FROM t WHERE id = 1",
		"SELECT u * 3 - 31 FROM t WHERE id = 2",
		"SELECT s + u FROM t WHERE id = 2",
		"UPDATE t SET s = s * 2",
	} {
		_, err := db.Exec(q)
		t.Run(q, func(t *testing.T) { wantMySQLError(t, err, 1690, "22003") })
	}
	wantAnswers(t, db, "answers", map[string]string{
		"SELECT 18446744073709551615 + 0, 18446744073709551615 - 1":      "18446744073709551615,18446744073709551614",
		"SELECT u - 1, u - 18446744073709551615 FROM t WHERE id = 1":     "18446744073709551614,0",
		"SELECT u * 3 - 30, small + -5 FROM t WHERE id = 2":              "0,0",
		"SELECT -9223372036854775807 - 1, 7 - 10, -5 * 3":                "-9223372036854775808,-3,-15",
		"SELECT 2 + 3 * 4 - 1, TRUE + 1, 1 + 2.5, 10 - 0.5":              "13,2,3.5,9.5",
		"SELECT s + 10, u + 9223372036854775798 + s FROM t WHERE id = 2": "-9223372036854775798,0",
		"SELECT SUM(id * 2) FROM t":                                      "6",
		"SELECT s FROM t ORDER BY id":                                    "9223372036854775807;-9223372036854775808",
	})
}
