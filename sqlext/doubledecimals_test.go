package sqlext_test

import (
	"net"
	"os/exec"
	"strings"
	"testing"
)

// TestDoubleWithFixedDecimals: a DOUBLE computed from operands with fixed
// decimals is written in the text protocol with MySQL's number of
// decimals for it (the larger of the operands' for % and *, 4 more for /,
// none for FLOOR); one computed from a DOUBLE column or a float literal
// with all its digits; the binary protocol sends the value. The Go
// driver reads a DOUBLE as a number, so the text is read with the mariadb
// client. So is the text of such a DOUBLE in CONCAT or CAST AS CHAR. The
// answers are MariaDB 10.11's.
func TestDoubleWithFixedDecimals(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE fx", "CREATE TABLE fx.t (id INT PRIMARY KEY, i INT, d DECIMAL(10,2), f DOUBLE)",
		"INSERT INTO fx.t VALUES (1, 7, 12.50, 2.5)")
	for q, want := range map[string]string{
		"SELECT (2.5 % FLOOR('3')) / id, (2.5 % FLOOR('3')) / 3, 0.5 % (CEIL(f) / i), FLOOR('3') / 7 FROM fx.t": "2.50000 0.83333 0.0714 0.4286",
		"SELECT ROUND(f, 2), FLOOR('3') / 7 + d, -(FLOOR('3') / 7), IFNULL(FLOOR('3') / 7, 0) FROM fx.t":        "2.50 12.9286 -0.4286 0.4286",
		"SELECT 2.5 + 1e0, f * 1.5, SQRT(FLOOR('4')), FLOOR('1e20') / 7 FROM fx.t":                              "3.5 3.75 2 14285714285714287000.0000",
		"SELECT AVG(FLOOR('3') / 7), SUM(FLOOR('3') / 7) FROM fx.t":                                             "0.42857143 0.4286",
		"SELECT * FROM (SELECT 1.5e0 x) q UNION ALL SELECT FLOOR('3') / 7":                                      "1.5 0.42857142857142855",
		"SELECT FLOOR('3') / 7 AS y FROM fx.t ORDER BY y LIMIT 1":                                               "0.4286",
	} {
		if got := mariadbText(t, addr, q); got != want {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	if got, want := flat(queryStrings(t, db, "SELECT FLOOR('3') / 7 FROM fx.t WHERE id = ?", 1)), "0.42857142857142855"; got != want {
		t.Errorf("binary protocol: %s, want %s", got, want)
	}
	// Written as text inside the statement, such a DOUBLE keeps its
	// decimals too (CONCAT, CAST AS CHAR); it was written with all its
	// digits, or none (CONCAT(ROUND(5e0, 2)) was '5').
	wantAnswers(t, db, "as text", map[string]string{
		"SELECT CONCAT(ROUND(f * 4.4, 2), ' EUR'), CAST(ROUND(5e0, 2) AS CHAR), CONCAT_WS('-', IFNULL(i, ROUND(f, 1)), FLOOR('3') / 7) FROM fx.t": "11.00 EUR,5.00,7.0-0.4286",
		"SELECT CONCAT(f), CONCAT(f * 2), CONCAT(1e20) FROM fx.t":                                                                                 "2.5,5,1e20",
	})
}

// mariadbText is q's answer as the mariadb client prints it, its values
// as the server wrote them, separated by spaces; the test is skipped
// where there is no client.
func mariadbText(t *testing.T, addr, q string) string {
	t.Helper()
	cli, err := exec.LookPath("mariadb")
	if err != nil {
		t.Skip("no mariadb client")
	}
	host, port, _ := net.SplitHostPort(addr)
	out, err := exec.Command(cli, "-h", host, "-P", port, "-uroot", "-N", "-B", "-e", q).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", q, err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
