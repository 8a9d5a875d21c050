package sqlext_test

import "testing"

// TestDecimalArithmeticScale: +, - and * of DECIMALs are sent with the
// scale of their type, the larger of the operands' for + and -, their sum
// for *, in the text and the binary protocol (a DECIMAL read back from
// storage has lost its trailing zeros). The answers are MariaDB 10.11's.
func TestDecimalArithmeticScale(t *testing.T) {
	db := numericTable(t)
	const q = "SELECT d*d, d+d, d-1, d*2, d*d*d, d*i, d*d + 0e0, CONCAT(d*d) FROM nm.t WHERE id = "
	const want = "156.2500,25.00,11.50,25.00,1953.125000,87.50,156.25,156.2500"
	if got := flat(queryStrings(t, db, q+"1")); got != want {
		t.Errorf("text: %s, want %s", got, want)
	}
	if got := flat(queryStrings(t, db, q+"?", 1)); got != want {
		t.Errorf("binary: %s, want %s", got, want)
	}
	if got, want := columnTypes(t, db, "SELECT d*d, d+d, d*d*d, d*i FROM nm.t"), "DECIMAL(20,4) DECIMAL(11,2) DECIMAL(30,6) DECIMAL(20,2)"; got != want {
		t.Errorf("types %s, want %s", got, want)
	}
	wantAnswers(t, db, "decimal arithmetic", map[string]string{
		"SELECT SUM(d*d) FROM nm.t":                             "9999999998000156.8127",
		"SELECT d*d FROM nm.t WHERE id = 2 UNION ALL SELECT 1":  "0.5625;1.0000",
		"SELECT x FROM (SELECT d*d x FROM nm.t WHERE id = 1) q": "156.2500",
		"SELECT d*d FROM nm.t WHERE id IN (1, 2) ORDER BY d*d":  "0.5625;156.2500",
	})
}
