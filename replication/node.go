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
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	raftwal "github.com/hashicorp/raft-wal"
	"go.etcd.io/bbolt"
)

// Errors returned by a Node.
var (
	ErrNotLeader = errors.New("replication: this node is not the leader")
	ErrNoLeader  = errors.New("replication: no leader is available; retry")
	// ErrUnknownOutcome means a write reached the leader but leadership was
	// lost before it was known whether the write committed.
	ErrUnknownOutcome = errors.New("replication: leadership changed before the write was known to commit")
	ErrClosed         = errors.New("replication: node is closed")
	ErrTimeout        = errors.New("replication: timed out waiting for the log")
	ErrNotClustered   = errors.New("replication: this node runs without a network transport")
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
	// DataDir holds the log (raft.db, or wal/; see LogStore) and snapshots.
	DataDir string
	// NodeID names this node in the cluster; it must not change.
	NodeID string
	// RaftAddr is where Raft and the cluster service listen; empty means a
	// single node with no network transport.
	RaftAddr string
	// AdvertiseAddr is the address other nodes reach this one at; RaftAddr
	// when empty.
	AdvertiseAddr string
	// Join lists members of an existing cluster to join through. A node
	// without state and without Join starts a new one-voter cluster.
	Join []string
	// NonVoter joins as a non-voting member.
	NonVoter bool
	// SnapshotThreshold is how many log entries trigger a snapshot.
	SnapshotThreshold uint64
	// SnapshotInterval is how often Raft checks whether to snapshot.
	SnapshotInterval time.Duration
	// TrailingLogs is how many entries are kept after a snapshot, so a
	// lagging follower can catch up from the log rather than a snapshot.
	TrailingLogs uint64
	// ApplyTimeout bounds how long a write may wait for the log.
	ApplyTimeout time.Duration
	// Errors carries state-machine errors from the leader to followers.
	Errors ErrorCodec
	// LogStore picks the log's storage for a new data directory: LogBolt
	// (raft.db, the default) or LogWAL (segment files under wal/, one
	// fsync per appended batch). A directory that already holds a log
	// keeps its kind; naming the other kind for it is an error.
	LogStore string
	Logger   *slog.Logger
}

// The log stores Config.LogStore names.
const (
	LogBolt = "bolt"
	LogWAL  = "wal"
)

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

// ReadLevel is how fresh a read must be.
type ReadLevel int

const (
	// ReadNone reads local state as it is.
	ReadNone ReadLevel = iota
	// ReadWeak reads state at least as fresh as the leader's when the read
	// began, by the leader's own judgement that it still leads.
	ReadWeak
	// ReadLinearizable reads state that includes every write acknowledged
	// before the read began: the leader confirms its leadership with a
	// quorum and the reader waits until that commit index is applied.
	ReadLinearizable
)

// ParseReadLevel parses none, weak or linearizable.
func ParseReadLevel(s string) (ReadLevel, error) {
	switch strings.ToLower(s) {
	case "none":
		return ReadNone, nil
	case "weak":
		return ReadWeak, nil
	case "linearizable":
		return ReadLinearizable, nil
	}
	return 0, fmt.Errorf("replication: unknown read consistency %q (none, weak or linearizable)", s)
}

// Node is one member of the Raft group.
type Node struct {
	cfg       Config
	raft      *raft.Raft
	logs      raft.LogStore
	fsm       *fsm
	store     logStore
	transport raft.Transport
	closer    io.Closer
	mux       *mux
	peers     peers
	errs      ErrorCodec
	log       *slog.Logger
	self      string

	handlers struct {
		sync.Mutex
		m map[string]LeaderHandler
	}

	// termBarrier is the term in which this leader last pushed a read
	// barrier through the log: the first linearizable read of a term must,
	// so that the commit index it reads covers every earlier term.
	termBarrier struct {
		sync.Mutex
		term uint64
	}
}

// Open starts the node. A node with no state and no Join list bootstraps a
// one-voter group; with a Join list it joins through one of the members
// (on every start, so the same command line serves first start, restart and
// scale-up). Open returns once a leader is known and this node has caught
// up with it.
func Open(ctx context.Context, cfg Config, sm StateMachine) (*Node, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ApplyTimeout == 0 {
		cfg.ApplyTimeout = 10 * time.Second
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, log: cfg.Logger, errs: cfg.Errors}
	if n.errs == nil {
		n.errs = plainErrors{}
	}
	rc := raft.DefaultConfig()
	rc.LocalID = raft.ServerID(cfg.NodeID)
	rc.SnapshotThreshold = cfg.SnapshotThreshold
	rc.SnapshotInterval = cfg.SnapshotInterval
	rc.TrailingLogs = cfg.TrailingLogs
	rc.HeartbeatTimeout = 500 * time.Millisecond
	rc.ElectionTimeout = 500 * time.Millisecond
	rc.LeaderLeaseTimeout = 250 * time.Millisecond
	// A single node's routine self-election is not worth a warning.
	level := hclog.Warn
	if cfg.RaftAddr == "" {
		level = hclog.Error
	}
	rc.Logger = hclog.New(&hclog.LoggerOptions{
		Name:   "raft",
		Level:  level,
		Output: &slogWriter{log: cfg.Logger},
	})

	opened, err := openLogStore(cfg)
	if err != nil {
		return nil, err
	}
	store := &closingStore{logStore: opened}
	n.store = store
	logs, err := raft.NewLogCache(512, store)
	if err != nil {
		store.Close()
		return nil, err
	}
	fileSnaps, err := raft.NewFileSnapshotStoreWithLogger(cfg.DataDir, 2, rc.Logger)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("replication: open snapshot store: %w", err)
	}
	snaps := &snapshotStore{SnapshotStore: fileSnaps}
	n.logs = logs
	if cfg.RaftAddr == "" {
		var addr raft.ServerAddress
		addr, n.transport = raft.NewInmemTransport(raft.ServerAddress(cfg.NodeID))
		n.self = string(addr)
	} else {
		ln, err := net.Listen("tcp", cfg.RaftAddr)
		if err != nil {
			store.Close()
			return nil, fmt.Errorf("replication: listen on %s: %w", cfg.RaftAddr, err)
		}
		n.self = cfg.AdvertiseAddr
		if n.self == "" {
			n.self = ln.Addr().String()
		}
		n.mux = newMux(ln, n.self)
		tr := raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{
			Stream: raftLayer{m: n.mux}, MaxPool: 3, Timeout: 10 * time.Second, Logger: rc.Logger,
		})
		n.transport, n.closer = tr, tr
		go n.serveCluster()
	}
	existing, err := raft.HasExistingState(logs, store, snaps)
	if err != nil {
		n.closeStores()
		return nil, err
	}
	n.fsm = &fsm{sm: sm, log: cfg.Logger, snaps: snaps}
	r, err := raft.NewRaft(rc, n.fsm, logs, store, snaps, n.transport)
	if err != nil {
		n.closeStores()
		return nil, fmt.Errorf("replication: start raft: %w", err)
	}
	n.raft = r
	switch {
	case !existing && len(cfg.Join) == 0:
		f := r.BootstrapCluster(raft.Configuration{Servers: []raft.Server{{ID: rc.LocalID, Address: raft.ServerAddress(n.self)}}})
		if err := f.Error(); err != nil && !errors.Is(err, raft.ErrCantBootstrap) {
			n.Close()
			return nil, fmt.Errorf("replication: bootstrap: %w", err)
		}
	case !existing:
		if err := n.join(ctx); err != nil {
			n.Close()
			return nil, err
		}
	case len(cfg.Join) > 0:
		// A restarting member is already in the configuration; joining
		// again only matters if its address changed, and must not hold up
		// the start when the members named are down.
		go func() {
			jctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := n.join(jctx); err != nil {
				n.log.Warn("rejoin failed", "err", err)
			}
		}()
	}
	if err := n.waitReady(ctx); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// join asks the members named in Join, in turn and until ctx ends, to add
// this node, following redirects to the leader.
func (n *Node) join(ctx context.Context) error {
	voter := byte(1)
	if n.cfg.NonVoter {
		voter = 0
	}
	req := append(append(encodeString(n.cfg.NodeID), encodeString(n.self)...), voter)
	var last error
	for {
		for _, addr := range n.cfg.Join {
			target := addr
			for hop := 0; hop < 3; hop++ {
				status, reply, err := n.peers.call(target, opJoin, req, 5*time.Second)
				switch {
				case err != nil:
					last = err
				case status == statusOK:
					n.log.Info("joined the cluster", "via", target, "node_id", n.cfg.NodeID)
					return nil
				case status == statusNotLeader && len(reply) > 0:
					target = string(reply)
					continue
				default:
					last = errors.New(string(reply))
				}
				break
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("replication: could not join through %v: %v", n.cfg.Join, last)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// waitReady waits until a leader is known and this node has applied
// everything committed. The linearizable barrier matters after a restart:
// a new leader's commit index covers its earlier log only once it has
// committed an entry of its own term, which that barrier waits for.
func (n *Node) waitReady(ctx context.Context) error {
	for {
		if err := n.ReadBarrier(ctx, ReadLinearizable); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return fmt.Errorf("replication: waiting for a leader: %w", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("replication: waiting for a leader: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (n *Node) closeStores() {
	if n.closer != nil {
		n.closer.Close()
	}
	if n.mux != nil {
		n.mux.close()
	}
	n.peers.closeAll()
	n.store.Close()
}

// closingStore is the log store as Raft sees it, for the moment the node
// closes: Raft's shutdown does not wait for the transport's heartbeat
// handler, which may still be raising the current term when the store
// closes, and Raft panics on any failure to save it. Once closing, term
// and vote writes are dropped instead (a heartbeat only raises the term; a
// vote is cast in Raft's main loop, which has stopped by then); log writes
// still fail, so nothing is acknowledged that was not stored.
type closingStore struct {
	logStore
	mu     sync.RWMutex
	closed bool
}

func (s *closingStore) Set(k, v []byte) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil
	}
	return s.logStore.Set(k, v)
}

func (s *closingStore) SetUint64(k []byte, v uint64) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil
	}
	return s.logStore.SetUint64(k, v)
}

func (s *closingStore) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.logStore.Close()
}

// logStore is the log and stable store Raft runs on.
type logStore interface {
	raft.LogStore
	raft.StableStore
	io.Closer
}

func openLogStore(cfg Config) (logStore, error) {
	kind := cfg.LogStore
	for _, k := range []struct{ name, path string }{{LogBolt, "raft.db"}, {LogWAL, "wal"}} {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, k.path)); err != nil {
			continue
		}
		if kind != "" && kind != k.name {
			return nil, fmt.Errorf("replication: %s holds a %s log (%s), not a %s one; start it with the log it has", cfg.DataDir, k.name, k.path, kind)
		}
		kind = k.name
	}
	if kind == "" {
		kind = LogBolt
	}
	switch kind {
	case LogBolt:
		// The log store need not persist bolt's freelist on every commit:
		// it is rebuilt by a scan when the file is opened, and skipping it
		// writes fewer pages per fsync (rqlite does the same).
		store, err := raftboltdb.New(raftboltdb.Options{
			Path:        filepath.Join(cfg.DataDir, "raft.db"),
			BoltOptions: &bbolt.Options{Timeout: 10 * time.Second, NoFreelistSync: true, FreelistType: bbolt.FreelistMapType},
		})
		if err != nil {
			return nil, fmt.Errorf("replication: open log store: %w", err)
		}
		return store, nil
	case LogWAL:
		dir := filepath.Join(cfg.DataDir, "wal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("replication: open log store: %w", err)
		}
		w, err := raftwal.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("replication: open log store: %w", err)
		}
		return w, nil
	}
	return nil, fmt.Errorf("replication: unknown log store %q (want %s or %s)", cfg.LogStore, LogBolt, LogWAL)
}

// leaderWait bounds how long a write or read waits for an election.
const leaderWait = 3 * time.Second

// Propose appends a command to the log and waits until it is committed
// (fsynced on a quorum) and applied on this node. On a follower it is
// forwarded to the leader. The error is the state machine's.
func (n *Node) Propose(ctx context.Context, cmd []byte) error {
	deadline := time.Now().Add(n.cfg.ApplyTimeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	noLeaderSince := time.Time{}
	for {
		if n.raft.State() == raft.Shutdown {
			return ErrClosed
		}
		if n.raft.State() == raft.Leader {
			_, applyErr, err := n.applyLocal(cmd, time.Until(deadline))
			if !errors.Is(err, ErrNotLeader) {
				if err != nil {
					return err
				}
				return applyErr
			}
		} else if addr, _ := n.raft.LeaderWithID(); addr != "" {
			noLeaderSince = time.Time{}
			status, reply, err := n.peers.call(string(addr), opApply, cmd, time.Until(deadline))
			switch {
			case err != nil:
				return fmt.Errorf("%w: forwarding to the leader at %s: %v", ErrUnknownOutcome, addr, err)
			case status == statusOK:
				d := payloadReader{b: reply}
				idx := d.uvarint()
				failed := d.byte() == 1
				if d.err != nil {
					return d.err
				}
				var applyErr error
				if failed {
					applyErr = n.errs.DecodeError(d.b)
				}
				// Wait for the write locally so this node's next read sees
				// it. The write has committed whatever the wait gives: a
				// node too slow to apply it in time still reports the
				// commit (its reads at the weak and linearizable levels
				// wait for it anyway), never a failure.
				if err := n.waitApplied(ctx, idx, time.Until(deadline)); err != nil && !errors.Is(err, ErrTimeout) {
					return err
				}
				return applyErr
			case status == statusNotLeader:
				// Leadership moved before the leader took the write; retry.
			default:
				return fmt.Errorf("replication: leader at %s: %s", addr, reply)
			}
		} else if noLeaderSince.IsZero() {
			noLeaderSince = time.Now()
		} else if time.Since(noLeaderSince) > leaderWait {
			return ErrNoLeader
		}
		if time.Now().After(deadline) {
			return ErrTimeout
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// applyLocal appends a command on the leader. err is about the log; applyErr
// is the state machine's verdict.
func (n *Node) applyLocal(cmd []byte, timeout time.Duration) (idx uint64, applyErr, err error) {
	f := n.raft.Apply(cmd, timeout)
	if err := f.Error(); err != nil {
		switch {
		case errors.Is(err, raft.ErrNotLeader):
			return 0, nil, fmt.Errorf("%w: %v", ErrNotLeader, err)
		case errors.Is(err, raft.ErrLeadershipLost):
			return 0, nil, ErrUnknownOutcome
		case errors.Is(err, raft.ErrRaftShutdown):
			return 0, nil, ErrClosed
		case errors.Is(err, raft.ErrEnqueueTimeout):
			return 0, nil, ErrTimeout
		}
		return 0, nil, fmt.Errorf("replication: %w", err)
	}
	applyErr, _ = f.Response().(error)
	return f.Index(), applyErr, nil
}

// leaderReadIndex is the index a read must see applied, computed by the
// leader; linearizable reads first confirm leadership with a quorum.
func (n *Node) leaderReadIndex(linearizable bool) (uint64, error) {
	if n.raft.State() != raft.Leader {
		return 0, ErrNotLeader
	}
	if linearizable {
		for range n.verifyRounds() {
			if err := n.raft.VerifyLeader().Error(); err != nil {
				return 0, fmt.Errorf("%w: %v", ErrNotLeader, err)
			}
		}
		term := n.raft.CurrentTerm()
		n.termBarrier.Lock()
		if n.termBarrier.term != term {
			if err := n.raft.Barrier(n.cfg.ApplyTimeout).Error(); err != nil {
				n.termBarrier.Unlock()
				return 0, fmt.Errorf("%w: %v", ErrNotLeader, err)
			}
			n.termBarrier.term = term
		}
		n.termBarrier.Unlock()
	}
	return n.raft.CommitIndex(), nil
}

// verifyRounds is how many VerifyLeader rounds in a row confirm leadership
// for a linearizable read. A round counts the answer to any heartbeat that
// is in flight when it asks, and one sent before the read began (before
// this node was cut off, say) may still answer. Each follower, non-voters
// included, has at most one heartbeat in flight, so there are at most as
// many stale answers as followers, and each confirms one round at most;
// with one round more than they can fill, some round was confirmed by a
// quorum of heartbeats all sent after the read began.
func (n *Node) verifyRounds() int {
	voters, servers := 0, 0
	if f := n.raft.GetConfiguration(); f.Error() == nil {
		for _, s := range f.Configuration().Servers {
			servers++
			if s.Suffrage == raft.Voter {
				voters++
			}
		}
	}
	if voters < 2 {
		return 1
	}
	others := voters / 2 // answers a round needs besides the leader's own
	return (servers-1)/others + 1
}

// ReadBarrier returns once this node's state is fresh enough for a read at
// the given level.
func (n *Node) ReadBarrier(ctx context.Context, level ReadLevel) error {
	if level == ReadNone {
		return nil
	}
	linear := level == ReadLinearizable
	start := time.Now()
	for {
		var idx uint64
		var err error
		if n.raft.State() == raft.Leader {
			idx, err = n.leaderReadIndex(linear)
		} else if addr, _ := n.raft.LeaderWithID(); addr != "" {
			var status byte
			var reply []byte
			flag := []byte{0}
			if linear {
				flag[0] = 1
			}
			status, reply, err = n.peers.call(string(addr), opReadIndex, flag, leaderWait)
			switch {
			case err != nil:
			case status == statusOK:
				d := payloadReader{b: reply}
				idx, err = d.uvarint(), d.err
			case status == statusNotLeader:
				err = ErrNotLeader
			default:
				err = errors.New(string(reply))
			}
		} else {
			err = ErrNoLeader
		}
		if err == nil {
			return n.waitApplied(ctx, idx, n.cfg.ApplyTimeout)
		}
		if n.raft.State() == raft.Shutdown {
			return ErrClosed
		}
		if time.Since(start) > leaderWait {
			return fmt.Errorf("%w (%v)", ErrNoLeader, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// waitApplied waits until the state machine has applied the log up to idx.
// Raft's own AppliedIndex counts entries handed to the state machine, not
// entries it has finished applying, so the state machine's progress is
// tracked here: the last command or configuration entry at or below idx
// must have been applied (no-op and barrier entries never reach it).
func (n *Node) waitApplied(ctx context.Context, idx uint64, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	wait := func(ready func() bool) error {
		for !ready() {
			if time.Now().After(deadline) {
				return ErrTimeout
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(500 * time.Microsecond):
			}
		}
		return nil
	}
	if err := wait(func() bool { return n.raft.AppliedIndex() >= idx }); err != nil {
		return err
	}
	var l raft.Log
	for target := idx; target > 0; target-- {
		if n.logs.GetLog(target, &l) != nil {
			// Compacted away: covered by a snapshot the state machine holds.
			return nil
		}
		if l.Type == raft.LogCommand || l.Type == raft.LogConfiguration {
			return wait(func() bool { return n.fsm.applied.Load() >= target })
		}
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

// ID is this node's id.
func (n *Node) ID() string { return n.cfg.NodeID }

// IsLeader reports whether this node leads.
func (n *Node) IsLeader() bool { return n.raft.State() == raft.Leader }

// Leader returns the leader's id and address, empty when none is known.
func (n *Node) Leader() (id, addr string) {
	a, i := n.raft.LeaderWithID()
	return string(i), string(a)
}

// Member describes one server of the cluster.
type Member struct {
	ID, Address string
	Voter       bool
	Leader      bool
	// Reachable is false when the member did not answer a status request;
	// State, LastContact and AppliedIndex are then unknown.
	Reachable    bool
	State        string
	LastContact  time.Time
	AppliedIndex uint64
}

type status struct {
	ID           string
	AppliedIndex uint64
	State        string
	LastContact  time.Time
}

func (n *Node) localStatus() status {
	last := n.raft.LastContact()
	if n.raft.State() == raft.Leader {
		last = time.Now()
	}
	return status{ID: n.cfg.NodeID, AppliedIndex: n.raft.AppliedIndex(), State: strings.ToLower(n.raft.State().String()), LastContact: last}
}

// Members lists the configured servers, asking each for its status.
func (n *Node) Members(ctx context.Context) ([]Member, error) {
	f := n.raft.GetConfiguration()
	if err := f.Error(); err != nil {
		return nil, err
	}
	_, leaderID := n.raft.LeaderWithID()
	var out []Member
	for _, s := range f.Configuration().Servers {
		m := Member{ID: string(s.ID), Address: string(s.Address), Voter: s.Suffrage == raft.Voter, Leader: s.ID == leaderID}
		if string(s.ID) == n.cfg.NodeID {
			st := n.localStatus()
			m.Reachable, m.State, m.LastContact, m.AppliedIndex = true, st.State, st.LastContact, st.AppliedIndex
		} else if n.mux != nil {
			status, reply, err := n.peers.call(m.Address, opStatus, nil, 300*time.Millisecond)
			if err == nil && status == statusOK {
				d := payloadReader{b: reply}
				d.string()
				m.AppliedIndex = d.uvarint()
				m.State = d.string()
				m.LastContact = time.Unix(0, d.varint())
				m.Reachable = d.err == nil
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// AddVoter adds (or re-addresses) a voting member; on a follower the
// request goes to the leader.
func (n *Node) AddVoter(id, addr string) error { return n.changeMembers(opJoin, id, addr, true) }

// AddNonvoter adds a member that receives the log but does not vote.
func (n *Node) AddNonvoter(id, addr string) error { return n.changeMembers(opJoin, id, addr, false) }

// RemoveServer removes a member.
func (n *Node) RemoveServer(id string) error { return n.changeMembers(opRemove, id, "", false) }

func (n *Node) changeMembers(op byte, id, addr string, voter bool) error {
	if n.raft.State() == raft.Leader {
		if op == opRemove {
			return n.removeServer(id)
		}
		return n.addServer(id, addr, voter)
	}
	leader, _ := n.raft.LeaderWithID()
	if leader == "" {
		return ErrNoLeader
	}
	req := encodeString(id)
	if op == opJoin {
		v := byte(0)
		if voter {
			v = 1
		}
		req = append(append(req, encodeString(addr)...), v)
	}
	status, reply, err := n.peers.call(string(leader), op, req, n.cfg.ApplyTimeout)
	if err != nil {
		return err
	}
	if status != statusOK {
		return errors.New(string(reply))
	}
	return nil
}

func (n *Node) addServer(id, addr string, voter bool) error {
	if n.raft.State() != raft.Leader {
		return ErrNotLeader
	}
	f := n.raft.GetConfiguration()
	if err := f.Error(); err != nil {
		return err
	}
	for _, s := range f.Configuration().Servers {
		sameID, sameAddr := string(s.ID) == id, string(s.Address) == addr
		if sameID && sameAddr && (s.Suffrage == raft.Voter) == voter {
			return nil
		}
		if sameID || sameAddr {
			if err := n.raft.RemoveServer(s.ID, 0, n.cfg.ApplyTimeout).Error(); err != nil {
				return err
			}
		}
	}
	var fut raft.IndexFuture
	if voter {
		fut = n.raft.AddVoter(raft.ServerID(id), raft.ServerAddress(addr), 0, n.cfg.ApplyTimeout)
	} else {
		fut = n.raft.AddNonvoter(raft.ServerID(id), raft.ServerAddress(addr), 0, n.cfg.ApplyTimeout)
	}
	return fut.Error()
}

func (n *Node) removeServer(id string) error {
	if n.raft.State() != raft.Leader {
		return ErrNotLeader
	}
	return n.raft.RemoveServer(raft.ServerID(id), 0, n.cfg.ApplyTimeout).Error()
}

// Isolate cuts Raft traffic between this node and the peers at the given
// addresses, in both directions; an empty list heals. It exists for fault
// tests.
func (n *Node) Isolate(peers []string) error {
	if n.mux == nil {
		return ErrNotClustered
	}
	n.mux.isolate(peers)
	return nil
}

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
	sm    StateMachine
	log   *slog.Logger
	snaps *snapshotStore
	// applied is the index of the last entry the state machine finished.
	applied atomic.Uint64
}

var _ raft.ConfigurationStore = (*fsm)(nil)

func (f *fsm) Apply(l *raft.Log) any {
	if l.Type != raft.LogCommand {
		return nil
	}
	err := f.sm.Apply(l.Index, l.Data)
	f.applied.Store(l.Index)
	return err
}

// StoreConfiguration sees configuration entries, so that applied covers
// them too.
func (f *fsm) StoreConfiguration(index uint64, _ raft.Configuration) { f.applied.Store(index) }

func (f *fsm) Snapshot() (raft.FSMSnapshot, error) {
	s, err := f.sm.Snapshot()
	if err != nil {
		return nil, err
	}
	return &fsmSnapshot{s: s}, nil
}

func (f *fsm) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	if err := f.sm.Restore(rc); err != nil {
		return err
	}
	f.applied.Store(f.snaps.opened.Load())
	return nil
}

// snapshotStore remembers the index of the snapshot last opened, which is
// the one Raft restores next: Restore itself is not told.
type snapshotStore struct {
	raft.SnapshotStore
	opened atomic.Uint64
}

func (s *snapshotStore) Open(id string) (*raft.SnapshotMeta, io.ReadCloser, error) {
	meta, rc, err := s.SnapshotStore.Open(id)
	if err == nil {
		s.opened.Store(meta.Index)
	}
	return meta, rc, err
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
