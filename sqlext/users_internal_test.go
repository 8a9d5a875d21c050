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

// openInternal starts a server on a fresh data dir, closed when the test
// ends, and returns it with a function running one statement as root.
func openInternal(t *testing.T) (*Server, context.Context, func(q string)) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DataDir, cfg.Addr = t.TempDir(), "127.0.0.1:0"
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	run := func(q string) {
		t.Helper()
		sctx := s.NewContext(ctx)
		_, iter, _, err := s.engine.Query(sctx, q)
		if err == nil {
			_, err = sql.RowIterToRows(sctx, iter)
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return s, ctx, run
}

// TestReloadUsersNeverEmpty: a node applying another node's user change
// swaps the whole set at once, so a reader (a client connecting) never
// sees a moment without users, which refused even root.
func TestReloadUsersNeverEmpty(t *testing.T) {
	s, _, run := openInternal(t)
	run("CREATE USER reader IDENTIFIED BY 'pw'")
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
		s.users.remember(nil) // as if another node had written blob
		if err := s.catchUpUsers(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	<-done
	if empty.Load() > 0 {
		t.Fatalf("%d of %d reads saw no users while they were reloaded", empty.Load(), reads.Load())
	}
}

// persistFunc is a user persister made of a function.
type persistFunc func(*sql.Context, []byte) error

func (f persistFunc) Persist(ctx *sql.Context, data []byte) error { return f(ctx, data) }

// TestOwnUserChangeIsNotUndone: a reload poked while this node's own user
// change is on its way through the log must not load the users from
// before it. It did, and the next GRANT then persisted the engine's users
// without the new one, which was lost at the next restart.
func TestOwnUserChangeIsNotUndone(t *testing.T) {
	s, ctx, run := openInternal(t)
	run("CREATE USER alpha IDENTIFIED BY 'pw'")
	db := s.engine.Analyzer.Catalog.MySQLDb
	// Hold each change between the moment the persister knows it and its
	// commit, with a reload poked in that gap.
	db.SetPersister(persistFunc(func(ctx *sql.Context, data []byte) error {
		s.users.remember(data)
		s.usersChanged <- struct{}{}
		time.Sleep(100 * time.Millisecond)
		return s.users.Persist(ctx, data)
	}))
	run("CREATE USER beta IDENTIFIED BY 'pw'")
	db.SetPersister(s.users)
	run("GRANT SELECT ON *.* TO alpha")
	// The grant is applied; any reload poked by it has had time to run.
	time.Sleep(100 * time.Millisecond)
	rd := db.Reader()
	got := db.GetUser(rd, "beta", "%", false)
	rd.Close()
	if got == nil {
		t.Fatal("the user created is gone from the engine")
	}
	fresh := mysql_db.CreateEmptyMySQLDb()
	if err := fresh.LoadData(s.NewContext(ctx), s.store.Users()); err != nil {
		t.Fatal(err)
	}
	rd = fresh.Reader()
	defer rd.Close()
	if fresh.GetUser(rd, "beta", "%", false) == nil {
		t.Fatal("the user created is gone from the replicated users")
	}
}
