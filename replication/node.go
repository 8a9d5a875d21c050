package replication

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
)

// Errors returned by a Node.
var (
	ErrNotLeader = errors.New("replication: this node is not the leader")
	ErrClosed    = errors.New("replication: node is closed")
	ErrTimeout   = errors.New("replication: timed out waiting for the log")
)

// StateMachine is what the log drives. Apply must be deterministic; its
// error is returned to the proposer and the command has no effect.
type StateMachine interface {
	Apply(index uint64, cmd []byte) error
	Snapshot() (Snapshot, error)
	Restore(r io.Reader) error
}

// Snapshot is a point-in-time copy being written out while Apply goes on.
type Snapshot interface {
	WriteTo(w io.Writer) (int64, error)
	Release()
}

// Config configures a Node.
type Config struct {
	// DataDir holds raft.db (log and stable store) and snapshots/.
	DataDir string
	// NodeID names this node in the cluster.
	NodeID string
	// RaftAddr is the address Raft listens on; empty means a single node
	// with no network transport.
	RaftAddr string
	// SnapshotThreshold is how many log entries trigger a snapshot.
	SnapshotThreshold uint64
	// SnapshotInterval is how often Raft checks whether to snapshot.
	SnapshotInterval time.Duration
	// TrailingLogs is how many entries are kept after a snapshot.
	TrailingLogs uint64
	// ApplyTimeout bounds how long a proposal waits to be enqueued.
	ApplyTimeout time.Duration
	Logger       *slog.Logger
}

// DefaultConfig returns the single-node defaults.
func DefaultConfig(dataDir string) Config {
	return Config{
		DataDir:           dataDir,
		NodeID:            "node1",
		SnapshotThreshold: 8192,
		SnapshotInterval:  30 * time.Second,
		TrailingLogs:      10240,
		ApplyTimeout:      10 * time.Second,
		Logger:            slog.Default(),
	}
}

// Node is one member of the Raft group.
type Node struct {
	cfg       Config
	raft      *raft.Raft
	store     *raftboltdb.BoltStore
	transport raft.Transport
	closer    io.Closer
	log       *slog.Logger
}

// Open starts the node, bootstrapping a one-voter group on first start, and
// returns once it leads and has applied the whole log (single node) or has
// joined the group.
func Open(ctx context.Context, cfg Config, sm StateMachine) (*Node, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, log: cfg.Logger}
	rc := raft.DefaultConfig()
	rc.LocalID = raft.ServerID(cfg.NodeID)
	rc.SnapshotThreshold = cfg.SnapshotThreshold
	rc.SnapshotInterval = cfg.SnapshotInterval
	rc.TrailingLogs = cfg.TrailingLogs
	rc.HeartbeatTimeout = 500 * time.Millisecond
	rc.ElectionTimeout = 500 * time.Millisecond
	rc.LeaderLeaseTimeout = 250 * time.Millisecond
	rc.Logger = hclog.New(&hclog.LoggerOptions{
		Name:   "raft",
		Level:  hclog.Warn,
		Output: &slogWriter{log: cfg.Logger},
	})

	store, err := raftboltdb.New(raftboltdb.Options{Path: filepath.Join(cfg.DataDir, "raft.db")})
	if err != nil {
		return nil, fmt.Errorf("replication: open log store: %w", err)
	}
	n.store = store
	logs, err := raft.NewLogCache(512, store)
	if err != nil {
		store.Close()
		return nil, err
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(cfg.DataDir, 2, rc.Logger)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("replication: open snapshot store: %w", err)
	}
	var addr raft.ServerAddress
	if cfg.RaftAddr == "" {
		addr, n.transport = raft.NewInmemTransport(raft.ServerAddress(cfg.NodeID))
	} else {
		tcpAddr, err := net.ResolveTCPAddr("tcp", cfg.RaftAddr)
		if err != nil {
			store.Close()
			return nil, err
		}
		tr, err := raft.NewTCPTransportWithLogger(cfg.RaftAddr, tcpAddr, 3, 10*time.Second, rc.Logger)
		if err != nil {
			store.Close()
			return nil, err
		}
		addr, n.transport, n.closer = tr.LocalAddr(), tr, tr
	}
	existing, err := raft.HasExistingState(logs, store, snaps)
	if err != nil {
		n.closeStores()
		return nil, err
	}
	r, err := raft.NewRaft(rc, &fsm{sm: sm, log: cfg.Logger}, logs, store, snaps, n.transport)
	if err != nil {
		n.closeStores()
		return nil, fmt.Errorf("replication: start raft: %w", err)
	}
	n.raft = r
	if !existing {
		f := r.BootstrapCluster(raft.Configuration{Servers: []raft.Server{{ID: rc.LocalID, Address: addr}}})
		if err := f.Error(); err != nil && !errors.Is(err, raft.ErrCantBootstrap) {
			n.Close()
			return nil, fmt.Errorf("replication: bootstrap: %w", err)
		}
	}
	if err := n.waitReady(ctx); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// waitReady waits for leadership and then for every earlier entry to apply.
func (n *Node) waitReady(ctx context.Context) error {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for n.raft.State() != raft.Leader {
		select {
		case <-ctx.Done():
			return fmt.Errorf("replication: waiting for leadership: %w", ctx.Err())
		case <-t.C:
		}
	}
	return n.raft.Barrier(0).Error()
}

func (n *Node) closeStores() {
	if n.closer != nil {
		n.closer.Close()
	}
	n.store.Close()
}

// Propose appends a command to the log and waits until it is committed
// (fsynced on a quorum) and applied. The error is the state machine's.
func (n *Node) Propose(ctx context.Context, cmd []byte) error {
	timeout := n.cfg.ApplyTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	f := n.raft.Apply(cmd, timeout)
	if err := f.Error(); err != nil {
		switch {
		case errors.Is(err, raft.ErrNotLeader), errors.Is(err, raft.ErrLeadershipLost):
			return fmt.Errorf("%w: %v", ErrNotLeader, err)
		case errors.Is(err, raft.ErrRaftShutdown):
			return ErrClosed
		case errors.Is(err, raft.ErrEnqueueTimeout):
			return ErrTimeout
		}
		return fmt.Errorf("replication: %w", err)
	}
	if err, ok := f.Response().(error); ok && err != nil {
		return err
	}
	return nil
}

// Snapshot takes a snapshot now and truncates the log behind it.
func (n *Node) Snapshot() error {
	err := n.raft.Snapshot().Error()
	if errors.Is(err, raft.ErrNothingNewToSnapshot) {
		return nil
	}
	return err
}

// AppliedIndex is the index of the last entry applied to the state machine.
func (n *Node) AppliedIndex() uint64 { return n.raft.AppliedIndex() }

// Close stops Raft and closes its stores.
func (n *Node) Close() error {
	var err error
	if n.raft != nil {
		err = n.raft.Shutdown().Error()
	}
	n.closeStores()
	return err
}

type fsm struct {
	sm  StateMachine
	log *slog.Logger
}

func (f *fsm) Apply(l *raft.Log) any {
	if l.Type != raft.LogCommand {
		return nil
	}
	return f.sm.Apply(l.Index, l.Data)
}

func (f *fsm) Snapshot() (raft.FSMSnapshot, error) {
	s, err := f.sm.Snapshot()
	if err != nil {
		return nil, err
	}
	return &fsmSnapshot{s: s}, nil
}

func (f *fsm) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	return f.sm.Restore(rc)
}

type fsmSnapshot struct{ s Snapshot }

func (s *fsmSnapshot) Persist(sink raft.SnapshotSink) error {
	if _, err := s.s.WriteTo(sink); err != nil {
		sink.Cancel()
		return err
	}
	return sink.Close()
}

func (s *fsmSnapshot) Release() { s.s.Release() }

// slogWriter forwards Raft's log lines to slog.
type slogWriter struct{ log *slog.Logger }

func (w *slogWriter) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(bytes.TrimRight(p, "\n")))
	switch {
	case strings.Contains(line, "[ERROR]"):
		w.log.Error(line, "component", "raft")
	case strings.Contains(line, "[WARN]"):
		w.log.Warn(line, "component", "raft")
	default:
		w.log.Info(line, "component", "raft")
	}
	return len(p), nil
}
