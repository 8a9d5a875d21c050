package replication

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/raft"
)

// One TCP port carries both Raft and the cluster service. The first byte a
// dialer sends picks the protocol; Raft dialers then send their own address,
// which lets a node drop the traffic of peers it has been told to isolate.
const (
	protoRaft    byte = 1
	protoCluster byte = 2
)

var errIsolated = errors.New("replication: peer isolated by fault injection")

// mux accepts connections on the shared port and routes them.
type mux struct {
	ln      net.Listener
	self    string
	raft    chan net.Conn
	cluster chan net.Conn
	done    chan struct{}
	once    sync.Once

	faults struct {
		sync.Mutex
		blocked map[string]bool
		conns   map[net.Conn]string // live Raft connections by peer address
	}
}

func newMux(ln net.Listener, self string) *mux {
	m := &mux{ln: ln, self: self, raft: make(chan net.Conn), cluster: make(chan net.Conn), done: make(chan struct{})}
	m.faults.blocked = make(map[string]bool)
	m.faults.conns = make(map[net.Conn]string)
	go m.serve()
	return m
}

func (m *mux) serve() {
	for {
		c, err := m.ln.Accept()
		if err != nil {
			m.close()
			return
		}
		go m.route(c)
	}
}

func (m *mux) route(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var kind [1]byte
	if _, err := io.ReadFull(c, kind[:]); err != nil {
		c.Close()
		return
	}
	var dst chan net.Conn
	switch kind[0] {
	case protoRaft:
		peer, err := readString(c)
		if err != nil || !m.track(c, peer) {
			c.Close()
			return
		}
		dst = m.raft
	case protoCluster:
		dst = m.cluster
	default:
		c.Close()
		return
	}
	c.SetReadDeadline(time.Time{})
	select {
	case dst <- c:
	case <-m.done:
		c.Close()
	}
}

// track remembers a Raft connection so isolating its peer can cut it; it
// refuses connections from peers already isolated.
func (m *mux) track(c net.Conn, peer string) bool {
	m.faults.Lock()
	defer m.faults.Unlock()
	if m.faults.blocked[peer] {
		return false
	}
	m.faults.conns[c] = peer
	return true
}

func (m *mux) untrack(c net.Conn) {
	m.faults.Lock()
	delete(m.faults.conns, c)
	m.faults.Unlock()
}

// isolate cuts this node off from the given Raft peers (both directions),
// or heals every partition when peers is empty.
func (m *mux) isolate(peers []string) {
	m.faults.Lock()
	defer m.faults.Unlock()
	m.faults.blocked = make(map[string]bool)
	for _, p := range peers {
		m.faults.blocked[p] = true
	}
	for c, peer := range m.faults.conns {
		if m.faults.blocked[peer] {
			c.Close()
			delete(m.faults.conns, c)
		}
	}
}

func (m *mux) blocked(peer string) bool {
	m.faults.Lock()
	defer m.faults.Unlock()
	return m.faults.blocked[peer]
}

func (m *mux) close() {
	m.once.Do(func() {
		close(m.done)
		m.ln.Close()
	})
}

// raftLayer is the Raft transport's view of the mux.
type raftLayer struct{ m *mux }

var _ raft.StreamLayer = raftLayer{}

func (l raftLayer) Accept() (net.Conn, error) {
	select {
	case c := <-l.m.raft:
		return &trackedConn{Conn: c, m: l.m}, nil
	case <-l.m.done:
		return nil, net.ErrClosed
	}
}

func (l raftLayer) Close() error   { l.m.close(); return nil }
func (l raftLayer) Addr() net.Addr { return l.m.ln.Addr() }

func (l raftLayer) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	if l.m.blocked(string(addr)) {
		return nil, errIsolated
	}
	c, err := net.DialTimeout("tcp", string(addr), timeout)
	if err != nil {
		return nil, err
	}
	hdr := append([]byte{protoRaft}, encodeString(l.m.self)...)
	if _, err := c.Write(hdr); err != nil {
		c.Close()
		return nil, err
	}
	if !l.m.track(c, string(addr)) {
		c.Close()
		return nil, errIsolated
	}
	return &trackedConn{Conn: c, m: l.m}, nil
}

type trackedConn struct {
	net.Conn
	m *mux
}

func (c *trackedConn) Close() error {
	c.m.untrack(c.Conn)
	return c.Conn.Close()
}

func encodeString(s string) []byte {
	b := binary.AppendUvarint(nil, uint64(len(s)))
	return append(b, s...)
}

// maxFrame bounds what a peer may make us allocate for one message.
const maxFrame = 1 << 30

func readString(r io.Reader) (string, error) {
	b, err := readBytes(r)
	return string(b), err
}

func readBytes(r io.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(byteReader{r})
	if err != nil {
		return nil, err
	}
	if n > maxFrame {
		return nil, fmt.Errorf("replication: frame of %d bytes is too large", n)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}

type byteReader struct{ io.Reader }

func (b byteReader) ReadByte() (byte, error) {
	var one [1]byte
	_, err := io.ReadFull(b.Reader, one[:])
	return one[0], err
}
