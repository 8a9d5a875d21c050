package sqlext_test

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestKillQueryInterrupts: KILL QUERY stops another connection's running
// statement, which gets MySQL's error 1317, and the connection stays
// usable; KILL of a connection that does not exist is error 1094.
func TestKillQueryInterrupts(t *testing.T) {
	_, addr, db := serve(t)
	victim := connect(t, addr, "")
	victim.SetMaxOpenConns(1)
	var id int64
	if err := victim.QueryRow("SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := victim.ExecContext(context.Background(), "SELECT SLEEP(30)")
		done <- err
	}()
	// Wait until the statement runs, then kill it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.processlist WHERE id = ? AND info LIKE 'SELECT SLEEP%'", id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the statement never showed in the process list")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	mustExec(t, db, fmt.Sprintf("KILL QUERY %d", id))
	select {
	case err := <-done:
		wantMySQLError(t, err, 1317, "70100")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("interrupted %v after KILL QUERY", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the statement still runs 20 s after KILL QUERY")
	}
	if got := flat(queryStrings(t, victim, "SELECT 1")); got != "1" {
		t.Errorf("the killed query's connection: %s", got)
	}
	_, err := db.Exec("KILL 4000000000")
	wantMySQLError(t, err, 1094, "HY000")
}
