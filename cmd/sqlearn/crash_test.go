package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// payload is what row id must hold; a row with anything else was torn.
func payload(id int) string {
	h := sha256.Sum256([]byte(fmt.Sprint(id)))
	return strings.Repeat(hex.EncodeToString(h[:]), 8)
}

// TestCrashDurability kills the server with SIGKILL in the middle of a
// concurrent write load, several times, once while a snapshot is being
// written. Every acknowledged transaction must survive each restart whole,
// no unacknowledged transaction may survive in part, and the server must
// keep accepting writes. It runs on each kind of log (--raft-log).
func TestCrashDurability(t *testing.T) {
	for _, log := range []string{"bolt", "wal"} {
		t.Run("log="+log, func(t *testing.T) { crashDurability(t, log) })
	}
}

func crashDurability(t *testing.T, log string) {
	dir := t.TempDir()
	// Small snapshot thresholds make snapshots frequent, so the run also
	// exercises restarts from a snapshot plus a log tail.
	flags := []string{"--raft-log", log, "--raft-snapshot-threshold", "200", "--raft-snapshot-interval", "100ms"}
	p := startBinary(t, dir, flags...)
	db := p.db(t, "root", "", "")
	exec1(t, db, "CREATE DATABASE crash")
	exec1(t, db, "CREATE TABLE crash.t (id INT PRIMARY KEY, grp INT NOT NULL, body TEXT NOT NULL)")
	db.Close()

	acked := map[int]bool{}   // ids of acknowledged transactions' rows
	groups := map[int][]int{} // transaction group -> its row ids
	next := 0
	const clients, rowsPerTx = 6, 3
	for round := 0; round < 4; round++ {
		duringSnapshot := round == 3
		db := p.db(t, "root", "", "crash")
		var mu sync.Mutex
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					mu.Lock()
					g := next
					next++
					ids := make([]int, rowsPerTx)
					for i := range ids {
						ids[i] = g*rowsPerTx + i
					}
					groups[g] = ids
					mu.Unlock()
					if err := insertGroup(db, g, ids); err != nil {
						continue // not acknowledged: may or may not be there, but whole
					}
					mu.Lock()
					for _, id := range ids {
						acked[id] = true
					}
					mu.Unlock()
				}
			}()
		}
		if duringSnapshot {
			waitForSnapshotInProgress(t, dir, 20*time.Second)
		} else {
			waitForAcks(t, &mu, acked, len(acked)+300, 20*time.Second)
		}
		p.kill()
		stop()
		wg.Wait()
		db.Close()

		p = startBinary(t, dir, flags...)
		db = p.db(t, "root", "", "crash")
		present := readAll(t, db)
		for id := range acked {
			if _, ok := present[id]; !ok {
				t.Fatalf("round %d: acknowledged row %d lost after SIGKILL", round, id)
			}
		}
		for g, ids := range groups {
			n := 0
			for _, id := range ids {
				if body, ok := present[id]; ok {
					n++
					if body != payload(id) {
						t.Fatalf("round %d: row %d torn", round, id)
					}
				}
			}
			if n != 0 && n != len(ids) {
				t.Fatalf("round %d: transaction %d partly applied (%d of %d rows)", round, g, n, len(ids))
			}
		}
		t.Logf("round %d: %d acknowledged rows, %d present after restart", round, len(acked), len(present))
		db.Close()
	}
	// Still accepting writes after all that.
	db = p.db(t, "root", "", "crash")
	exec1(t, db, "INSERT INTO crash.t VALUES (-1, -1, 'after')")
}

func insertGroup(db *sql.DB, g int, ids []int) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := tx.Exec("INSERT INTO t VALUES (?, ?, ?)", id, g, payload(id)); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

func readAll(t *testing.T, db *sql.DB) map[int]string {
	t.Helper()
	rows, err := db.Query("SELECT id, body FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var id int
		var body string
		if err := rows.Scan(&id, &body); err != nil {
			t.Fatal(err)
		}
		out[id] = body
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func waitForAcks(t *testing.T, mu *sync.Mutex, acked map[int]bool, want int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the load did not get %d acknowledgements in %v", want, limit)
}

// waitForSnapshotInProgress returns while the snapshot store is writing a
// snapshot (its temporary directory exists).
func waitForSnapshotInProgress(t *testing.T, dir string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		tmp, _ := filepath.Glob(filepath.Join(dir, "snapshots", "*.tmp"))
		if len(tmp) > 0 {
			return
		}
		time.Sleep(200 * time.Microsecond)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "snapshots"))
	t.Fatalf("no snapshot was in progress within %v (snapshots dir has %d entries)", limit, len(entries))
}
