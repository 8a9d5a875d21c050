package replication

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// listMachine appends each command to a list; commands starting with "bad"
// are rejected.
type listMachine struct {
	mu       sync.Mutex
	items    []string
	restores int
}

func (m *listMachine) Apply(index uint64, cmd []byte) error {
	if bytes.HasPrefix(cmd, []byte("bad")) {
		return errors.New("rejected")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items = append(m.items, string(cmd))
	return nil
}

type listSnapshot struct{ data string }

func (s listSnapshot) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, s.data)
	return int64(n), err
}
func (listSnapshot) Release() {}

func (m *listMachine) Snapshot() (Snapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return listSnapshot{data: strings.Join(m.items, "\n")}, nil
}

func (m *listMachine) Restore(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items = nil
	if len(b) > 0 {
		m.items = strings.Split(string(b), "\n")
	}
	m.restores++
	return nil
}

func (m *listMachine) list() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.items, ",")
}

func open(t *testing.T, dir string, m *listMachine) *Node {
	t.Helper()
	cfg := DefaultConfig(dir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := Open(ctx, cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSingleNodeLogSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	m := &listMachine{}
	n := open(t, dir, m)
	ctx := context.Background()
	for _, c := range []string{"a", "b", "c"} {
		if err := n.Propose(ctx, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Propose(ctx, []byte("bad one")); err == nil || err.Error() != "rejected" {
		t.Fatalf("state machine error not returned: %v", err)
	}
	if err := n.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if err := n.Propose(ctx, []byte("d")); err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	// A fresh state machine is rebuilt from the snapshot and the log tail.
	m2 := &listMachine{}
	n2 := open(t, dir, m2)
	defer n2.Close()
	if got := m2.list(); got != "a,b,c,d" {
		t.Fatalf("after restart: %q", got)
	}
	if m2.restores != 1 {
		t.Fatalf("restored %d snapshots, want 1", m2.restores)
	}
}

func TestConcurrentProposals(t *testing.T) {
	m := &listMachine{}
	n := open(t, t.TempDir(), m)
	defer n.Close()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				if err := n.Propose(context.Background(), []byte("x")); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if got := len(strings.Split(m.list(), ",")); got != 200 {
		t.Fatalf("applied %d commands, want 200", got)
	}
}

func TestProposeAfterClose(t *testing.T) {
	n := open(t, t.TempDir(), &listMachine{})
	n.Close()
	if err := n.Propose(context.Background(), []byte("late")); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v", err)
	}
}
