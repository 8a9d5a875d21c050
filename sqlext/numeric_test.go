package sqlext_test

import (
	"database/sql"
	"strings"
	"testing"
)

// numericTable is the table the tests of numeric.go read, with the
// values the answers below were taken from MariaDB for. It is read back
// from disk, as a table usually is: a DECIMAL freshly inserted keeps the
// exponent of the text it was written as, one read back does not.
func numericTable(t *testing.T) *sql.DB {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE nm",
		"CREATE TABLE nm.t (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE, s VARCHAR(20))",
		`INSERT INTO nm.t VALUES (1, 7, 3, 12.50, 2.5, 'Hello'), (2, -3, 0, -0.75, -1e-3, 'abc def'),
			(3, NULL, NULL, NULL, NULL, NULL), (4, 0, 18446744073709551615, 99999999.99, 1e20, ''),
			(5, 2147483647, 42, 0.01, 3.14159, '  pad  ')`)
	srv.Close()
	srv, db = openIn(t, dir)
	t.Cleanup(func() { srv.Close() })
	return db
}

// TestDecimalText: a DECIMAL becomes text with its type's scale, a
// division's being the dividend's plus 4, and x % y has the larger scale
// of the two.
func TestDecimalText(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "decimal text", map[string]string{
		"SELECT CAST(d AS CHAR) FROM nm.t ORDER BY id":                            "12.50;-0.75;NULL;99999999.99;0.01",
		"SELECT CONCAT(d, '|') FROM nm.t WHERE id = 1":                            "12.50|",
		"SELECT CAST(10/id AS CHAR) FROM nm.t ORDER BY id":                        "10.0000;5.0000;3.3333;2.5000;2.0000",
		"SELECT CAST(d/3 AS CHAR), CAST(d*d AS CHAR) FROM nm.t WHERE id = 1":      "4.166667,156.2500",
		"SELECT CAST(1/3*3 AS CHAR), CAST(0.5 % (3/7) AS CHAR)":                   "1.0000,0.0714",
		"SELECT 0.5 % (3/7), d % 7, d % 0.3 FROM nm.t WHERE id = 1":               "0.0714,5.50,0.20",
		"SELECT -0.75 % 0.5, -7 % 3, 7 % -3, 10 % (d - d) FROM nm.t WHERE id = 1": "-0.25,-1,1,NULL",
		"SELECT u % -2, -7 % u, '7x' % 3 FROM nm.t WHERE id = 1":                  "1,-1,1",
		"SELECT CAST(d AS CHAR(3)), LEFT(d, 4) FROM nm.t WHERE id = 2":            "-0.,-0.7",
	})
}

// TestGreatestLeastOfNumbers: GREATEST and LEAST compare numbers in the
// type they merge to, text with a number as a DOUBLE, and strings in
// their collation (the engine compared their bytes: LEAST('a', 'B') was
// 'B' in the default collation, which ignores case).
func TestGreatestLeastOfNumbers(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "greatest and least", map[string]string{
		"SELECT LEAST('a', 'B'), GREATEST('a', 'B'), GREATEST('é', 'f'), LEAST('b', NULL)":                   "a,B,f,NULL",
		"SELECT GREATEST(_utf8mb4'a' COLLATE utf8mb4_bin, 'B'), LEAST('10', '9', '11'), GREATEST('x ', 'x')": "a,10,x ",
		"SELECT GREATEST(d, 1), LEAST(d, 1) FROM nm.t ORDER BY id":                                           "12.50,1.00;1.00,-0.75;NULL,NULL;99999999.99,1.00;1.00,0.01",
		"SELECT GREATEST(u, -7), LEAST(u, -7) FROM nm.t ORDER BY id":                                         "3,-7;0,-7;NULL,NULL;18446744073709551615,-7;42,-7",
		"SELECT GREATEST('2x', 1), LEAST('2x', 10), GREATEST('10', '9')":                                     "2,2,9",
		"SELECT GREATEST(i, f), LEAST(i, f), GREATEST(d, 1.5, i) FROM nm.t WHERE id IN (1, 2) ORDER BY id":   "7,2.5,12.50;-0.001,-3,1.50",
		"SELECT GREATEST(u, 5), LEAST(i, -1), GREATEST(1, NULL) FROM nm.t WHERE id = 4":                      "18446744073709551615,-1,NULL",
	})
}

// TestNumericFunctionsOfText: ABS, FLOOR, CEIL and ROUND read text by its
// numeric prefix, keep a DOUBLE a DOUBLE and an exact number exact.
func TestRoundingAndSignOfText(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "numeric functions", map[string]string{
		"SELECT ABS('3'), 10 + ABS('3'), FLOOR('2x'), CEIL('2.5x'), ROUND('2x', 1), SIGN('-2x')":              "3,13,2,3,2,-1",
		"SELECT ABS(d), ABS(i), CEIL(d), FLOOR(d), ROUND(d), ROUND(d, 1), ROUND(d, 3) FROM nm.t WHERE id = 2": "0.75,3,0,-1,-1,-0.8,-0.750",
		"SELECT ROUND(d, -1), ROUND(d, id), ROUND(i, -1) FROM nm.t WHERE id = 5":                              "0,0.01,2147483650",
		"SELECT CEIL(f) = 1e20, FLOOR(f) = 1e20, FLOOR(-f) = -1e20 FROM nm.t WHERE id = 4":                    "1,1,1",
		"SELECT ROUND(u, 1), ROUND(u, -1), ROUND(u) FROM nm.t WHERE id = 4":                                   "18446744073709551615,18446744073709551620,18446744073709551615",
		"SELECT ROUND(2.5e0), ROUND(-2.5), ROUND(f, 1), ROUND(d, NULL) FROM nm.t WHERE id = 5":                "2,-3,3.1,NULL",
	})
	wantRefused(t, db, refusal{"SELECT ABS(-9223372036854775808)", 1690})
}

// TestSignOfExactNumbers: SIGN of a DECIMAL, a DOUBLE and text is the
// number's sign (the engine's gave SIGN(0.01) and SIGN(-0.001e0) as 0).
func TestSignOfExactNumbers(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "sign", map[string]string{
		"SELECT SIGN(0.01), SIGN(-0.5), SIGN(0.0), SIGN('-2x'), SIGN(NULL)":              "1,-1,0,-1,NULL",
		"SELECT SIGN(d), SIGN(10 % d), SIGN(f), SIGN(u), SIGN(i) FROM nm.t WHERE id = 2": "-1,1,-1,0,-1",
	})
}

// TestIntegerDivision: x DIV y truncates toward zero, through DECIMALs
// when an operand is not an integer, and refuses a quotient out of
// BIGINT's range with 1690.
func TestIntegerDivision(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "div", map[string]string{
		"SELECT d DIV 1000, d DIV 0.001, d DIV '2x' FROM nm.t ORDER BY id": "0,12500,6;0,-750,0;NULL,NULL,NULL;99999,99999999990,49999999;0,10,0",
		"SELECT '3' DIV (2.5 - 7), -7 DIV 2, 7 DIV 0, 7.5 DIV 0.0":         "0,-3,NULL,NULL",
		"SELECT u DIV 2, i DIV -2, u DIV i FROM nm.t WHERE id = 4":         "9223372036854775807,0,NULL",
		// d DIV '2x' is 0 for d = -0.75, and 10 % 0 NULL.
		"SELECT 10 % (d DIV '2x') FROM nm.t ORDER BY id": "4;NULL;NULL;10;NULL",
	})
	wantRefused(t, db,
		refusal{"SELECT f DIV 2 FROM nm.t", 1690},
		refusal{"SELECT IFNULL(f, 3) DIV ('2x' / 1) FROM nm.t", 1690},
		refusal{"SELECT ROUND(f, 1) DIV (0 - 2.5) FROM nm.t", 1690},
		refusal{"SELECT u DIV -1 FROM nm.t", 1690},
		refusal{"SELECT -9223372036854775808 DIV -1", 1690})
}

// TestChoiceOfNumbersType: IFNULL, COALESCE and IF of numbers take the
// type the numbers merge to, so that a signed value chosen over a BIGINT
// UNSIGNED keeps its sign.
func TestChoiceOfNumbersType(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "choice", map[string]string{
		"SELECT IFNULL(u, -7), COALESCE(NULL, u, -7), IF(u IS NULL, -7, u) FROM nm.t ORDER BY id":          "3,3,3;0,0,0;-7,-7,-7;18446744073709551615,18446744073709551615,18446744073709551615;42,42,42",
		"SELECT IFNULL(d, 1.555), IFNULL(i, 2.5), COALESCE(i, u) FROM nm.t WHERE id IN (2, 3) ORDER BY id": "-0.750,-3.0,-3;1.555,2.5,NULL",
		"SELECT IFNULL(s, 1), IF(id > 2, i, 'x') FROM nm.t WHERE id IN (2, 3) ORDER BY id":                 "abc def,x;1,NULL",
	})
}

// TestChoiceOfNumberAndText: IFNULL, COALESCE and IF of a number and
// text are text, a DECIMAL written with its scale.
func TestChoiceOfNumberAndText(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "choice of text", map[string]string{
		"SELECT IFNULL(i, 'x'), IFNULL(d, 'x'), IF(id > 2, d / 3, 'y') FROM nm.t WHERE id IN (1, 3, 5) ORDER BY id": "7,12.50,y;x,x,NULL;2147483647,0.01,0.003333",
		"SELECT IFNULL(LENGTH(SUBSTRING('', NULL)), '2x'), COALESCE(NULL, 2.5e0, 'a')":                              "2x,2.5",
	})
}

// TestFloorOfWideDecimal: FLOOR and CEIL of a DECIMAL product too wide
// for a BIGINT stay a DECIMAL.
func TestFloorOfWideDecimal(t *testing.T) {
	db := numericTable(t)
	wantAnswers(t, db, "floor of a wide decimal", map[string]string{
		"SELECT FLOOR(u * 2.5), CEIL(u * 2.5), ROUND(u * 2.5) FROM nm.t WHERE id = 4": "46116860184273879037,46116860184273879038,46116860184273879038",
	})
}

// TestCastToDecimal: CAST(x AS DECIMAL(p, s)) rounds x to s decimals,
// half away from zero, gives a value past p digits as the largest of
// DECIMAL(p, s) of its sign with warning 1264, reads text by its numeric
// prefix (warning 1292 for the rest), and takes DECIMAL as DECIMAL(10,
// 0), as MySQL does. The answers are MariaDB 10.11's; the engine kept x
// as it was unless s was above 0, and gave a value past p digits as 0.
func TestCastToDecimal(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	wantAnswers(t, db, "casts", map[string]string{
		"SELECT CAST(12345678901.55 AS DECIMAL(10,0)), CAST(-123.456 AS DECIMAL(4,2)), CAST('1e30' AS DECIMAL(5,1)), CAST(1.5 AS DECIMAL)": "9999999999,-99.99,9999.9,2",
		"SELECT CAST(2.345 AS DECIMAL(5,2)), CAST(-2.345 AS DECIMAL(5,2)), CAST(99.995 AS DECIMAL(4,2)), CAST(1e3 AS DECIMAL(6,2))":        "2.35,-2.35,99.99,1000.00",
		"SELECT CAST('abc' AS DECIMAL(5,2)), CAST('12.5x' AS DECIMAL(5,2)), CONVERT('7.77', DECIMAL(3,1)), CAST(NULL AS DECIMAL(5,2))":     "0.00,12.50,7.8,NULL",
	})
	wantWarnings(t, db, "SELECT CAST(-123.456 AS DECIMAL(4,2))", "1264 Out of range value for column 'convert(-123.456, decimal(4,2))' at row 1")
	wantWarnings(t, db, "SELECT CAST('12.5x' AS DECIMAL(5,2))", "1292 Truncated incorrect DECIMAL value: '12.5x'")
}

// TestCaseOfDecimals: a CASE whose results are numbers, a DECIMAL among
// them, is a DECIMAL of the widest whole part and scale, as in MySQL;
// the engine made it a DECIMAL(65,10), so a SUM of it showed ten
// decimals and CREATE TABLE ... AS SELECT made such columns. The answers
// are MariaDB 10.11's.
func TestCaseOfDecimals(t *testing.T) {
	db := inDatabase(t, "cd",
		"CREATE TABLE o (id INT PRIMARY KEY, amount DECIMAL(10,2), status VARCHAR(9))",
		"INSERT INTO o VALUES (1, 10.50, 'paid'), (2, 20.00, 'new'), (3, 5.25, 'paid')",
		"CREATE TABLE ct AS SELECT CASE status WHEN 'paid' THEN amount ELSE 0 END c, CASE WHEN id > 2 THEN amount ELSE 1.5 END c2, CASE WHEN id > 9 THEN amount END c4 FROM o")
	wantAnswers(t, db, "decimals", map[string]string{
		"SELECT SUM(CASE status WHEN 'paid' THEN amount ELSE 0 END) FROM o":                 "15.75",
		"SELECT GROUP_CONCAT(CASE WHEN id > 2 THEN amount ELSE 1.5 END ORDER BY id) FROM o": "1.50,1.50,5.25",
		"SELECT GROUP_CONCAT(c, '/', c2 ORDER BY c) FROM ct":                                "0.00/1.50,5.25/5.25,10.50/1.50",
	})
	if got := showCreate(t, db, "SHOW CREATE TABLE ct"); !strings.Contains(got, "`c` decimal(10,2)") || !strings.Contains(got, "`c2` decimal(10,2)") || !strings.Contains(got, "`c4` decimal(10,2)") {
		t.Errorf("CREATE TABLE ... AS SELECT of CASEs: %s", got)
	}
}
