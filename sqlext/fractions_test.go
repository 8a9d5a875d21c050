package sqlext_test

import "testing"

// TestFractionDigits: a DATETIME(n) value is written with exactly n
// fractional digits, in text and binary results and as text (CAST AS
// CHAR, CONCAT, a text column); a DATETIME with none. The answers are
// MariaDB 10.11's.
func TestFractionDigits(t *testing.T) {
	db := inDatabase(t, "fr", "CREATE TABLE f (id INT PRIMARY KEY, a DATETIME(6), b DATETIME(3), c DATETIME)",
		"INSERT INTO f VALUES (1, '2024-01-15 10:20:30.5', '2024-01-15 10:20:30.5', '2024-01-15 10:20:30'), (2, '2024-01-15 10:20:30', '2024-01-15 10:20:30', '2024-01-15 10:20:30')",
		"CREATE TABLE tv (id INT PRIMARY KEY, v VARCHAR(40))",
		"INSERT INTO tv SELECT id, b FROM f")
	const one = "2024-01-15 10:20:30.500000,2024-01-15 10:20:30.500,2024-01-15 10:20:30"
	const two = "2024-01-15 10:20:30.000000,2024-01-15 10:20:30.000,2024-01-15 10:20:30"
	wantAnswers(t, db, "text", map[string]string{
		"SELECT a, b, c FROM f ORDER BY id":                         one + ";" + two,
		"SELECT a, b, c FROM f WHERE id = 1":                        one,
		"SELECT CAST(a AS CHAR), CONCAT(b, '|') FROM f ORDER BY id": "2024-01-15 10:20:30.500000,2024-01-15 10:20:30.500|;2024-01-15 10:20:30.000000,2024-01-15 10:20:30.000|",
		"SELECT v FROM tv ORDER BY id":                              "2024-01-15 10:20:30.500;2024-01-15 10:20:30.000",
		"SELECT TIMESTAMP'2024-01-15 10:20:30.50', MAX(a) FROM f":   "2024-01-15 10:20:30.50,2024-01-15 10:20:30.500000",
	})
	// Server-side prepared statements answer in binary rows.
	if got := flat(queryStrings(t, db, "SELECT a, b, c FROM f WHERE id = ? ORDER BY id", 2)); got != two {
		t.Errorf("binary: %s, want %s", got, two)
	}
}
