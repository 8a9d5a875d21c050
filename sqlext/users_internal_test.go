package sqlext

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
)

// TestReloadUsersNeverEmpty: a node applying another node's user change
// swaps the whole set at once, so a reader (a client connecting) never
// sees a moment without users, which refused even root.
func TestReloadUsersNeverEmpty(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir, cfg.Addr = t.TempDir(), "127.0.0.1:0"
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sctx := s.NewContext(ctx)
	_, iter, _, err := s.engine.Query(sctx, "CREATE USER reader IDENTIFIED BY 'pw'")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sql.RowIterToRows(sctx, iter); err != nil {
		t.Fatal(err)
	}
	blob := s.store.Users()
	if len(blob) == 0 {
		t.Fatal("no replicated users")
	}
	db := s.engine.Analyzer.Catalog.MySQLDb
	var empty, reads atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			r := db.Reader()
			n := 0
			r.VisitUsers(func(*mysql_db.User) { n++ })
			r.Close()
			reads.Add(1)
			if n == 0 {
				empty.Add(1)
			}
		}
	}()
	for i := 0; i < 2000; i++ {
		if err := s.reloadUsers(blob); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	<-done
	if empty.Load() > 0 {
		t.Fatalf("%d of %d reads saw no users while they were reloaded", empty.Load(), reads.Load())
	}
}
