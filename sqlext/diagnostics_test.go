package sqlext_test

import (
	"context"
	"fmt"
	"testing"
)

// TestDiagnosticsArea: a failed statement leaves its error in the
// diagnostics area, where SHOW WARNINGS and SHOW ERRORS list it and
// SHOW COUNT(*), @@warning_count and @@error_count count it, until the
// next statement; the answers and column names are MariaDB 10.11's. The
// engine kept warnings alone and knew neither SHOW ERRORS, SHOW COUNT(*)
// nor the two variables.
func TestDiagnosticsArea(t *testing.T) {
	db := inDatabase(t, "diag", "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)")
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ask := func(q string) string {
		t.Helper()
		rows, err := c.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		out := [][]string{cols}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			row := make([]string, len(cols))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				row[i] = fmt.Sprint(v)
			}
			out = append(out, row)
		}
		return flat(out)
	}
	fail := func(q string) {
		t.Helper()
		if _, err := c.ExecContext(context.Background(), q); err == nil {
			t.Fatalf("%s: no error", q)
		}
	}
	// after checks what the statements that read the area answer; none
	// of them empties it.
	after := func(when string, answers map[string]string) {
		t.Helper()
		for q, want := range answers {
			if got := ask(q); got != want {
				t.Errorf("after %s, %s = %q, want %q", when, q, got, want)
			}
		}
	}
	fail("SELECT * FROM nosuch")
	after("a failed SELECT", map[string]string{
		"SHOW WARNINGS":          "Level,Code,Message;Error,1146,Table 'diag.nosuch' doesn't exist",
		"SHOW ERRORS":            "Level,Code,Message;Error,1146,Table 'diag.nosuch' doesn't exist",
		"SHOW ERRORS LIMIT 1, 5": "Level,Code,Message",
		"SHOW COUNT(*) ERRORS":   "@@session.error_count;1",
		"SHOW COUNT(*) WARNINGS": "@@session.warning_count;1",
		"SELECT @@error_count, @@session.warning_count AS w": "@@error_count,w;1,1",
	})
	ask("SELECT id FROM t")
	after("a SELECT that succeeded", map[string]string{"SHOW ERRORS": "Level,Code,Message"})
	ask("SELECT CAST('x' AS SIGNED) FROM t")
	after("a warning", map[string]string{
		"SHOW WARNINGS":                         "Level,Code,Message;Warning,1292,Truncated incorrect INTEGER value: 'x'",
		"SHOW ERRORS":                           "Level,Code,Message",
		"SELECT @@warning_count, @@error_count": "@@warning_count,@@error_count;1,0",
	})
	fail("INSERT INTO t VALUES (1)")
	after("a duplicate key", map[string]string{"SHOW WARNINGS": "Level,Code,Message;Error,1062,Duplicate entry '1' for key 't.PRIMARY'"})
	fail("SELEC 1")
	after("a syntax error", map[string]string{"SHOW COUNT(*) ERRORS": "@@session.error_count;1"})
}

// TestDiagnosticsOfFirstStatement: a connection's first statement may
// read the diagnostics area, empty then; it was 1105 (unsupported) before
// the connection had run another statement.
func TestDiagnosticsOfFirstStatement(t *testing.T) {
	_, addr, _ := serve(t)
	for q, want := range map[string]string{
		"SHOW COUNT(*) WARNINGS": "0", "SHOW COUNT(*) ERRORS": "0", "SELECT @@warning_count": "0",
	} {
		fresh := connect(t, addr, "")
		var got string
		if err := fresh.QueryRow(q).Scan(&got); err != nil || got != want {
			t.Errorf("%s first: %q, %v", q, got, err)
		}
		fresh.Close()
	}
	fresh := connect(t, addr, "")
	rows, err := fresh.Query("SHOW ERRORS")
	if err != nil {
		t.Fatalf("SHOW ERRORS first: %v", err)
	}
	if rows.Next() {
		t.Error("SHOW ERRORS first lists an error")
	}
	rows.Close()
}
