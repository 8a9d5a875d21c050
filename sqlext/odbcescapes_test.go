package sqlext_test

import (
	"strings"
	"testing"
)

// TestODBCEscapes: ODBC's escapes, which ODBC drivers and the BI tools
// over them send as written, are read as MySQL reads them: {d '...'},
// {t '...'} and {ts '...'} are a DATE, a TIME and a DATETIME, {fn f(x)}
// is f(x), and {oj ...} the join inside it. The engine's parser refused
// the braces. Each column is named as written, braces included, and the
// answers and names are MariaDB 10.11's.
func TestODBCEscapes(t *testing.T) {
	db := inDatabase(t, "odbc",
		"CREATE TABLE o (id INT PRIMARY KEY, c INT, d DATE)",
		"CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(10))",
		"INSERT INTO o VALUES (1, 1, '2024-01-15'), (2, 9, '2024-02-01')",
		"INSERT INTO c VALUES (1, 'ann')")
	wantAnswers(t, db, "ODBC escapes", map[string]string{
		"SELECT {fn CONCAT('a', 'b')}, {d '2020-01-02'}, {ts '2020-01-02 03:04:05'}, {t '03:04:05.5'}": "ab,2020-01-02,2020-01-02 03:04:05,03:04:05.5",
		"SELECT { fn UCASE({fn CONCAT('x', 'y')}) }, {d '2020-01-02'} + INTERVAL 1 DAY":                "XY,2020-01-03",
		"SELECT o.id, c.name FROM {oj o LEFT OUTER JOIN c ON o.c = c.id} ORDER BY o.id":                "1,ann;2,NULL",
		"SELECT id FROM o WHERE d >= {d '2024-01-20'} AND id = {fn ABS(-2)}":                           "2",
		"SELECT '{fn x}', CONCAT('{', 'd', '}')":                                                       "{fn x},{d}",
	})
	for q, want := range map[string]string{
		"SELECT {fn CONCAT('a', 'b')}, {d '2020-01-02'}, {ts '2020-01-02 03:04:05'} AS x, { fn UCASE({fn CONCAT('x', 'y')}) }": "{fn CONCAT('a', 'b')};{d '2020-01-02'};x;{ fn UCASE({fn CONCAT('x', 'y')}) }",
		"SELECT DATE '2020-01-02', TIME'03:04:05', TIMESTAMP '2020-01-02 03:04:05' + INTERVAL 1 DAY":                           "DATE '2020-01-02';TIME'03:04:05';TIMESTAMP '2020-01-02 03:04:05' + INTERVAL 1 DAY",
	} {
		var names []string
		for _, c := range resultColumns(t, db, q) {
			names = append(names, c.Name())
		}
		if got := strings.Join(names, ";"); got != want {
			t.Errorf("%s: columns %q, want %q", q, got, want)
		}
	}
	if got, want := columnTypes(t, db, "SELECT {d '2020-01-02'}, {t '03:04:05'}, {ts '2020-01-02 03:04:05.25'}"), "DATE TIME(0) DATETIME(2)"; got != want {
		t.Errorf("escaped literals typed %s, want %s", got, want)
	}
	_, err := db.Exec("SELECT {d 'x'}")
	wantMySQLMessage(t, "{d 'x'}", err, 1525, "", "Incorrect DATE value: 'x'")
	if _, err := db.Exec("SELECT {1}"); err == nil {
		t.Error("SELECT {1}: no error")
	}
}
