package sqlext_test

import (
	"context"
	"testing"
)

// TestIndexOrder: ORDER BY ... DESC and MAX over an indexed column, and
// ORDER BY over one inside a transaction that wrote to the table, answer
// in the order asked. The engine read the index as if it could go
// backwards and gave ascending rows for DESC: MAX(id) was the smallest
// id. Inside a transaction the rows it had written came last.
func TestIndexOrder(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE io",
		"CREATE TABLE io.t (id INT PRIMARY KEY, v VARCHAR(5), n INT, KEY (v), KEY (n))",
		"INSERT INTO io.t VALUES (1, 'a', 30), (2, 'b', NULL), (3, 'c', 10), (4, 'd', 20)")
	wantAnswers(t, db, "descending", map[string]string{
		"SELECT MAX(id), MIN(id) FROM io.t":                         "4,1",
		"SELECT id FROM io.t ORDER BY id DESC LIMIT 2":              "4;3",
		"SELECT id FROM io.t WHERE id > 1 ORDER BY id DESC":         "4;3;2",
		"SELECT v FROM io.t ORDER BY v DESC":                        "d;c;b;a",
		"SELECT v FROM io.t WHERE v >= 'b' ORDER BY v DESC LIMIT 2": "d;c",
		"SELECT MAX(v), MAX(n) FROM io.t":                           "d,30",
		"SELECT id FROM io.t WHERE n > 0 ORDER BY n DESC":           "1;4;3",
		"SELECT id FROM io.t WHERE id > 1 ORDER BY id":              "2;3;4",
	})
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"BEGIN", "INSERT INTO io.t VALUES (0, 'aa', 15)", "UPDATE io.t SET n = 5 WHERE id = 4"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for q, want := range map[string]string{
		"SELECT id FROM io.t WHERE id >= 0 ORDER BY id":      "0;1;2;3;4",
		"SELECT id FROM io.t WHERE n > 0 ORDER BY n":         "4;3;0;1",
		"SELECT id FROM io.t WHERE id >= 0 ORDER BY id DESC": "4;3;2;1;0",
		"SELECT MAX(id) FROM io.t":                           "4",
	} {
		if got := flat(queryStrings(t, conn, q)); got != want {
			t.Errorf("in the transaction: %s = %q, want %q", q, got, want)
		}
	}
}
