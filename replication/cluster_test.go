package replication

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/internal/testenv"
)

type member struct {
	n    *Node
	m    *listMachine
	cfg  Config
	addr string
}

func startMember(t *testing.T, id, addr, dir string, join []string) *member {
	t.Helper()
	cfg := DefaultConfig(dir)
	cfg.NodeID, cfg.RaftAddr, cfg.Join = id, addr, join
	cfg.ApplyTimeout = 5 * time.Second
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	m := &listMachine{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := Open(ctx, cfg, m)
	if err != nil {
		t.Fatalf("start %s: %v", id, err)
	}
	return &member{n: n, m: m, cfg: cfg, addr: addr}
}

func startCluster(t *testing.T) []*member {
	t.Helper()
	first := testenv.FreeAddr(t)
	ms := []*member{startMember(t, "n1", first, t.TempDir(), nil)}
	for i := 2; i <= 3; i++ {
		ms = append(ms, startMember(t, fmt.Sprintf("n%d", i), testenv.FreeAddr(t), t.TempDir(), []string{first}))
	}
	t.Cleanup(func() {
		for _, m := range ms {
			m.n.Close()
		}
	})
	return ms
}

func leaderOf(t *testing.T, ms []*member) *member {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range ms {
			if m.n.raft != nil && m.n.IsLeader() {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no leader")
	return nil
}

func TestClusterWritesOnEveryNode(t *testing.T) {
	ms := startCluster(t)
	ctx := context.Background()
	for i, m := range ms {
		if err := m.n.Propose(ctx, []byte(fmt.Sprint("w", i))); err != nil {
			t.Fatalf("write on %s: %v", m.cfg.NodeID, err)
		}
		// A forwarded write is applied locally before Propose returns.
		if got := m.m.list(); len(got) == 0 || got[len(got)-2:] != fmt.Sprint("w", i) {
			t.Fatalf("%s does not see its own write: %q", m.cfg.NodeID, got)
		}
	}
	// State machine errors come back on followers too.
	for _, m := range ms {
		if err := m.n.Propose(ctx, []byte("bad")); err == nil || err.Error() != "rejected" {
			t.Fatalf("%s: %v", m.cfg.NodeID, err)
		}
	}
	for _, m := range ms {
		if err := m.n.ReadBarrier(ctx, ReadLinearizable); err != nil {
			t.Fatal(err)
		}
		if got := m.m.list(); got != "w0,w1,w2" {
			t.Fatalf("%s after a linearizable barrier: %q", m.cfg.NodeID, got)
		}
	}
	members, err := ms[1].n.Members(ctx)
	if err != nil || len(members) != 3 {
		t.Fatalf("members: %v %v", members, err)
	}
	for _, m := range members {
		if !m.Reachable || !m.Voter {
			t.Fatalf("member %+v", m)
		}
	}
}

func TestLeaderFailover(t *testing.T) {
	ms := startCluster(t)
	ctx := context.Background()
	old := leaderOf(t, ms)
	if err := old.n.Propose(ctx, []byte("before")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	old.n.Close()
	var rest []*member
	for _, m := range ms {
		if m != old {
			rest = append(rest, m)
		}
	}
	var err error
	for time.Since(start) < 10*time.Second {
		if err = rest[0].n.Propose(ctx, []byte("after")); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("no write accepted after the leader died: %v", err)
	}
	t.Logf("new leader accepted a write %v after the old one stopped", time.Since(start).Round(time.Millisecond))
	if got := rest[0].m.list(); got != "before,after" {
		t.Fatalf("got %q", got)
	}
}

func TestIsolatedLeaderLosesLinearizableReads(t *testing.T) {
	ms := startCluster(t)
	ctx := context.Background()
	old := leaderOf(t, ms)
	var others []string
	var rest []*member
	for _, m := range ms {
		if m != old {
			others = append(others, m.addr)
			rest = append(rest, m)
		}
	}
	old.n.Isolate(others)
	for _, m := range rest {
		m.n.Isolate([]string{old.addr})
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := old.n.ReadBarrier(rctx, ReadLinearizable); err == nil {
		t.Fatal("an isolated leader served a linearizable read")
	}
	if err := old.n.Propose(rctx, []byte("lost")); err == nil {
		t.Fatal("an isolated leader acknowledged a write")
	}
	// The majority elects a leader and goes on.
	var err error
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err = rest[0].n.Propose(ctx, []byte("majority")); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("majority side: %v", err)
	}
	// Heal: the old leader converges.
	old.n.Isolate(nil)
	for _, m := range rest {
		m.n.Isolate(nil)
	}
	deadline = time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if old.n.ReadBarrier(ctx, ReadLinearizable) == nil && old.m.list() == rest[0].m.list() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("old leader did not converge: %q vs %q", old.m.list(), rest[0].m.list())
}

func TestNoLeaderFailsFast(t *testing.T) {
	ms := startCluster(t)
	leaderOf(t, ms)
	ms[1].n.Close()
	ms[2].n.Close()
	start := time.Now()
	err := ms[0].n.Propose(context.Background(), []byte("x"))
	if err == nil {
		t.Fatal("a write without a quorum succeeded")
	}
	if !errors.Is(err, ErrNoLeader) && !errors.Is(err, ErrUnknownOutcome) && !errors.Is(err, ErrTimeout) {
		t.Logf("error: %v", err)
	}
	if d := time.Since(start); d > 12*time.Second {
		t.Fatalf("write hung for %v", d)
	}
}
