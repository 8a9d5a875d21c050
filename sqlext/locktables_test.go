package sqlext_test

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// TestTableLocks: LOCK TABLES ... READ stops other sessions' writes of
// the table until UNLOCK TABLES and refuses the holder's (1099); WRITE
// stops other sessions' reads too; FLUSH TABLES WITH READ LOCK stops
// every other session's writes, DDL included (account changes go
// through), and refuses the holder's (1223); a wait ends with the lock's
// release, the holder's disconnect, BEGIN (table locks), or
// lock_wait_timeout (1205). The engine took these statements and locked
// nothing. FLUSH LOGS and its kin, with nothing to act on, succeed;
// FLUSH STATUS starts the session's counters again.
func TestTableLocks(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE lt", "CREATE TABLE lt.t (id INT PRIMARY KEY)", "INSERT INTO lt.t VALUES (1)")
	ctx := context.Background()
	session := func() *sql.Conn {
		t.Helper()
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	run := func(c *sql.Conn, q string) {
		t.Helper()
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// started runs q on c, answering on the channel when it ends.
	started := func(c *sql.Conn, q string) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := c.ExecContext(ctx, q)
			done <- err
		}()
		return done
	}
	// waiting checks that the statement behind done has not ended.
	waiting := func(what string, done <-chan error) {
		t.Helper()
		select {
		case err := <-done:
			t.Fatalf("%s went through a lock (%v)", what, err)
		case <-time.After(300 * time.Millisecond):
		}
	}
	ended := func(what string, done <-chan error) {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s still waits after the lock went", what)
		}
	}

	// a's sessions have a pool of their own, which closing disconnects.
	apool := connect(t, addr, "")
	a, err := apool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := session()
	run(a, "LOCK TABLES lt.t READ")
	insert := started(b, "INSERT INTO lt.t VALUES (2)")
	waiting("another session's INSERT under a READ lock", insert)
	_, err = a.ExecContext(ctx, "INSERT INTO lt.t VALUES (3)")
	wantMySQLMessage(t, "the holder's write", err, 1099, "HY000", "Table 't' was locked with a READ lock and can't be updated")
	var n int
	if err := a.QueryRowContext(ctx, "SELECT COUNT(*) FROM lt.t").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the holder's read under a READ lock: %d, %v", n, err)
	}
	run(a, "UNLOCK TABLES")
	ended("the INSERT after UNLOCK TABLES", insert)

	run(a, "LOCK TABLES lt.t WRITE")
	read := make(chan error, 1)
	go func() {
		var n int
		read <- b.QueryRowContext(ctx, "SELECT COUNT(*) FROM lt.t WHERE id = 1").Scan(&n)
	}()
	waiting("another session's read under a WRITE lock", read)
	run(a, "INSERT INTO lt.t VALUES (4)")
	run(a, "BEGIN")
	ended("the read after BEGIN", read)
	run(a, "COMMIT")

	run(a, "FLUSH TABLES WITH READ LOCK")
	create := started(b, "CREATE TABLE lt.u (id INT)")
	waiting("another session's CREATE TABLE under the global read lock", create)
	_, err = a.ExecContext(ctx, "DELETE FROM lt.t WHERE id = 4")
	wantMySQLMessage(t, "the holder's write", err, 1223, "HY000", "Can't execute the query because you have a conflicting read lock")
	// Account changes go through: waiting, they would hold up logins.
	run(session(), "CREATE USER during IDENTIFIED BY 'pw'")
	c := session()
	run(c, "SET SESSION lock_wait_timeout = 1")
	_, err = c.ExecContext(ctx, "DELETE FROM lt.t WHERE id = 4")
	wantMySQLError(t, err, 1205, "HY000")
	a.Close()
	apool.Close() // the holder's disconnect ends its locks
	ended("the CREATE TABLE after the holder left", create)
	wantAnswers(t, db, "what went through", map[string]string{"SELECT GROUP_CONCAT(id ORDER BY id) FROM lt.t": "1,2,4"})

	mustExecAll(t, db, "FLUSH LOGS", "FLUSH ERROR LOGS", "FLUSH NO_WRITE_TO_BINLOG TABLES", "FLUSH HOSTS")
	counts := session()
	run(counts, "SELECT 1")
	run(counts, "FLUSH LOCAL STATUS")
	run(counts, "SELECT 1")
	var name, selects string
	if err := counts.QueryRowContext(ctx, "SHOW SESSION STATUS LIKE 'Com_select'").Scan(&name, &selects); err != nil || selects != "1" {
		t.Errorf("Com_select after FLUSH STATUS and one SELECT: %s, %v", selects, err)
	}
	mustExecAll(t, db, "CREATE USER plain IDENTIFIED BY 'pw'", "GRANT SELECT ON lt.* TO plain")
	_, err = connectAs(t, addr, "plain:pw", "lt").Exec("FLUSH TABLES WITH READ LOCK")
	wantMySQLError(t, err, 1227, "42000")
}
