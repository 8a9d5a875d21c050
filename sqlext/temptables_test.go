package sqlext_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/sqlext"
)

// hiddenTables lists the stored tables of db that hold temporary tables.
func hiddenTables(t *testing.T, srv *sqlext.Server, db string) []string {
	t.Helper()
	names, err := srv.Store().Tables(db)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "#sqltmp_") {
			out = append(out, n)
		}
	}
	return out
}

// waitNoHidden waits until db holds no temporary table.
func waitNoHidden(t *testing.T, srv *sqlext.Server, db string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(hiddenTables(t, srv, db)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("temporary tables left: %v", hiddenTables(t, srv, db))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTemporaryTables: CREATE TEMPORARY TABLE makes a table only its
// session sees, that hides a table of the same name for that session
// (qualified references included, as in MySQL), that works as any table
// does (indexes, transactions, ALTER, CREATE ... SELECT, point selects),
// is left out of SHOW TABLES and information_schema, and goes when the
// session ends. The engine refused CREATE TEMPORARY TABLE.
func TestTemporaryTables(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db, "CREATE DATABASE tt", "CREATE TABLE tt.t (id INT PRIMARY KEY, v VARCHAR(5))", "INSERT INTO tt.t VALUES (1, 'reg')")
	db.SetMaxIdleConns(0) // a session ends when its connection is put back
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"USE tt",
		"CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, x INT, KEY (x))",
		"INSERT INTO t VALUES (5, 50), (6, 60)",
		"BEGIN", "INSERT INTO t VALUES (7, 70)", "ROLLBACK",
		"ALTER TABLE t ADD COLUMN y INT DEFAULT 9",
		"CREATE TEMPORARY TABLE t2 AS SELECT id * 10 AS a FROM t",
		"UPDATE t SET x = x + 1 WHERE id = 6",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for q, want := range map[string]string{
		"SELECT * FROM t ORDER BY id":      "5,50,9;6,61,9",
		"SELECT * FROM t WHERE id = 5":     "5,50,9",
		"SELECT id FROM tt.t WHERE x > 55": "6",
		"SELECT a FROM t2 ORDER BY a":      "50;60",
		"SHOW TABLES":                      "t",
		"SELECT COUNT(*) FROM information_schema.TABLES WHERE table_schema = 'tt'": "1",
	} {
		if got := flat(queryStrings(t, conn, q)); got != want {
			t.Errorf("in the session: %s = %q, want %q", q, got, want)
		}
	}
	if ddl := queryStrings(t, conn, "SHOW CREATE TABLE t")[0][1]; !strings.HasPrefix(ddl, "CREATE TEMPORARY TABLE `t`") {
		t.Errorf("SHOW CREATE TABLE: %s", ddl)
	}
	// Other sessions see the table of that name, and nothing by the hidden names.
	wantAnswers(t, db, "another session", map[string]string{
		"SELECT * FROM tt.t":              "1,reg",
		"SELECT * FROM tt.t WHERE id = 1": "1,reg",
	})
	if _, err := db.Exec("SELECT * FROM tt.t2"); err == nil {
		t.Error("another session reads the temporary table t2")
	}
	hidden := hiddenTables(t, srv, "tt")
	if len(hidden) != 2 {
		t.Fatalf("stored temporary tables: %v", hidden)
	}
	if _, err := db.Exec("SELECT * FROM tt.`" + hidden[0] + "`"); err == nil {
		t.Error("a temporary table is read by its hidden name")
	}
	if _, err := db.Exec("CREATE TABLE tt.`#sqltmp_x` (a INT)"); err == nil {
		t.Error("a table was created with a hidden name")
	}
	if _, err := conn.ExecContext(ctx, "DROP TEMPORARY TABLE t"); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, conn, "SELECT * FROM t")); got != "1,reg" {
		t.Errorf("after DROP TEMPORARY TABLE the session reads %q", got)
	}
	conn.Close()
	waitNoHidden(t, srv, "tt")

	// A session's tables left by a server that stopped go at its next start.
	conn, err = db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TEMPORARY TABLE tt.left (a INT)"); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	conn.Close()
	srv, db = openIn(t, dir)
	defer srv.Close()
	waitNoHidden(t, srv, "tt")
	wantAnswers(t, db, "after a restart", map[string]string{"SELECT * FROM tt.t": "1,reg"})
}
