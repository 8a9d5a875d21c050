package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestTimestampDigitsOnTheWire: a TIMESTAMP(n) column of a result
// reports n decimals, as a DATETIME(n) does, so that a client of the binary protocol keeps its fraction: the
// engine gave it none, and the Go driver's prepared statements (without
// parseTime) answered 03:04:05 for 03:04:05.123456. Also through the
// point-select fast path, and for TIMESTAMP without digits.
func TestTimestampDigitsOnTheWire(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE tw",
		"CREATE TABLE tw.t (id INT PRIMARY KEY, a DATETIME(3), b TIMESTAMP(6), c TIMESTAMP(2), d TIMESTAMP)",
		"INSERT INTO tw.t VALUES (1, '2024-01-02 03:04:05.123', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05.5', '2024-01-02 03:04:05')")
	raw, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/tw", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	const want = "2024-01-02 03:04:05.123,2024-01-02 03:04:05.123456,2024-01-02 03:04:05.50,2024-01-02 03:04:05"
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"SELECT a, b, c, d FROM t", nil},                       // text protocol
		{"SELECT a, b, c, d FROM t WHERE id + 0 = ?", []any{1}}, // prepared, through the planner
		{"SELECT a, b, c, d FROM t WHERE id = ?", []any{1}},     // prepared, the point-select fast path
	} {
		if got := flat(queryStrings(t, raw, q.sql, q.args...)); got != want {
			t.Errorf("%s: %s, want %s", q.sql, got, want)
		}
		rows, err := raw.Query(q.sql, q.args...)
		if err != nil {
			t.Fatal(err)
		}
		cts, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cts {
			_, scale, _ := c.DecimalSize()
			got = append(got, fmt.Sprintf("%s(%d)", c.DatabaseTypeName(), scale))
		}
		rows.Close()
		if g, w := strings.Join(got, ", "), "DATETIME(3), TIMESTAMP(6), TIMESTAMP(2), TIMESTAMP(0)"; g != w {
			t.Errorf("%s: columns %s, want %s", q.sql, g, w)
		}
	}
}

// TestZeroYearOnTheWire: YEAR 0 reads as 0000 in a text result, as in
// MySQL and MariaDB 10.11 (the engine wrote 0), and other years as they
// are; read with the mariadb client, as the Go driver reads a YEAR as a
// number.
func TestZeroYearOnTheWire(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE yz", "CREATE TABLE yz.y (id INT PRIMARY KEY, y YEAR)",
		"INSERT INTO yz.y VALUES (1, 0), (2, 2024), (3, 99), (4, NULL)")
	for q, want := range map[string]string{
		"SELECT id, y, y + 0 FROM yz.y ORDER BY id": "1 0000 0 2 2024 2024 3 1999 1999 4 NULL NULL",
		"SELECT MAX(y), MIN(y) FROM yz.y":           "2024 0000",
	} {
		if got := mariadbText(t, addr, q); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}
