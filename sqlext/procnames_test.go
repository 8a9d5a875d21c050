package sqlext_test

import (
	"strings"
	"testing"
)

// TestProcedureVariableColumns: a procedure's SELECT of a variable alone
// names its column by the variable, as written, as MySQL does; it was
// named by the variable's value (SELECT x gave a column named 5), in a
// loop too.
func TestProcedureVariableColumns(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE pv", "USE pv", "CREATE TABLE c (id INT PRIMARY KEY)", "INSERT INTO c VALUES (10)",
		"CREATE PROCEDURE q(IN pin INT) BEGIN DECLARE x INT DEFAULT 5; DECLARE i INT DEFAULT 0; "+
			"SELECT x; SELECT x + 1; SELECT x AS y, pin; SELECT id, X FROM c; "+
			"WHILE i < 2 DO SET i = i + 1; SELECT i; END WHILE; END")
	rows, err := db.Query("CALL q(7)")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sets []string
	for {
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, strings.Join(cols, ","))
		for rows.Next() {
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if got, want := strings.Join(sets, " | "), "x | x + 1 | y,pin | id,X | i | i"; !strings.HasPrefix(got, want) {
		t.Errorf("result columns %q, want %q", got, want)
	}
}
