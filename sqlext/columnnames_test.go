package sqlext_test

import (
	"strings"
	"testing"
)

// TestColumnsNamedAsWritten: a column selected as an expression is named
// by the expression as the statement writes it (the answers are MariaDB
// 10.11's): without the comma before it, where the parser kept the
// comma of a list written with a space before it (SELECT a , b; the
// leading-comma style); without a comment after it; and with an
// assignment to a variable as written, where the name was the server's
// own rewriting of it.
func TestColumnsNamedAsWritten(t *testing.T) {
	db := inDatabase(t, "cn", "CREATE TABLE t (id INT PRIMARY KEY, a INT)", "INSERT INTO t VALUES (1, 10)")
	db.SetMaxOpenConns(1)
	for q, want := range map[string]string{
		"SELECT 1 , 2 ,3": "1;2;3",
		"SELECT id\n     , a + 1\n     , 'x'\nFROM t":                       "id;a + 1;x",
		"SELECT 1 /* one */ , 2 -- two\n":                                   "1;2",
		"SELECT @x := 1, CONCAT(@y := 2, 'a'), 1 + (@z := 3), @w := 4 AS w": "@x := 1;CONCAT(@y := 2, 'a');1 + (@z := 3);w",
		"SELECT a , @n := a * 2 FROM t":                                     "a;@n := a * 2",
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		rows.Close()
		if got := strings.Join(cols, ";"); got != want {
			t.Errorf("%q: columns %q, want %q", q, got, want)
		}
	}
}
