package replication

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/raft"
)

// The cluster service: what a node asks of another node (usually the
// leader) outside Raft itself. Each request is an op byte and a payload;
// each response a status byte and a payload.
const (
	opApply     byte = 1 // payload: command; reply: uvarint log index, error
	opReadIndex byte = 2 // payload: 1 byte, linearizable; reply: uvarint commit index
	opJoin      byte = 3 // payload: id, address, 1 byte voter
	opRemove    byte = 4 // payload: id
	opStatus    byte = 5 // reply: id, uvarint applied index, state, varint last contact (unix ns)
	opCustom    byte = 6 // payload: handler name, request; reply: the handler's answer (on the leader only)

	statusOK  byte = 0
	statusErr byte = 1
	// statusNotLeader asks the caller to find the leader and retry.
	statusNotLeader byte = 2
)

// ErrorCodec carries state-machine errors across nodes, so a write forwarded
// to the leader fails on the follower with the same error it would have had
// on the leader.
type ErrorCodec interface {
	EncodeError(error) []byte
	DecodeError([]byte) error
}

type plainErrors struct{}

func (plainErrors) EncodeError(err error) []byte { return []byte(err.Error()) }
func (plainErrors) DecodeError(b []byte) error   { return errors.New(string(b)) }

func (n *Node) serveCluster() {
	for {
		select {
		case c := <-n.mux.cluster:
			go n.serveConn(c)
		case <-n.mux.done:
			return
		}
	}
}

func (n *Node) serveConn(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		op, err := r.ReadByte()
		if err != nil {
			return
		}
		payload, err := readBytes(r)
		if err != nil {
			return
		}
		status, reply := n.handle(op, payload)
		out := append([]byte{status}, binary.AppendUvarint(nil, uint64(len(reply)))...)
		if _, err := c.Write(append(out, reply...)); err != nil {
			return
		}
	}
}

func (n *Node) handle(op byte, p []byte) (byte, []byte) {
	fail := func(err error) (byte, []byte) {
		if errors.Is(err, ErrNotLeader) {
			// The reply names the leader, if known, so callers can follow.
			addr, _ := n.raft.LeaderWithID()
			return statusNotLeader, []byte(addr)
		}
		return statusErr, []byte(err.Error())
	}
	switch op {
	case opApply:
		idx, applyErr, err := n.applyLocal(p, n.cfg.ApplyTimeout)
		if err != nil {
			return fail(err)
		}
		reply := binary.AppendUvarint(nil, idx)
		if applyErr != nil {
			reply = append(reply, 1)
			reply = append(reply, n.errs.EncodeError(applyErr)...)
		} else {
			reply = append(reply, 0)
		}
		return statusOK, reply
	case opReadIndex:
		idx, err := n.leaderReadIndex(len(p) > 0 && p[0] == 1)
		if err != nil {
			return fail(err)
		}
		return statusOK, binary.AppendUvarint(nil, idx)
	case opJoin:
		d := payloadReader{b: p}
		id, addr, voter := d.string(), d.string(), d.byte() == 1
		if d.err != nil {
			return fail(d.err)
		}
		if err := n.addServer(id, addr, voter); err != nil {
			return fail(err)
		}
		return statusOK, nil
	case opRemove:
		d := payloadReader{b: p}
		id := d.string()
		if d.err != nil {
			return fail(d.err)
		}
		if err := n.removeServer(id); err != nil {
			return fail(err)
		}
		return statusOK, nil
	case opCustom:
		d := payloadReader{b: p}
		name := d.string()
		if d.err != nil {
			return fail(d.err)
		}
		reply, err := n.serveLeader(name, d.b)
		if err != nil {
			return fail(err)
		}
		return statusOK, reply
	case opStatus:
		s := n.localStatus()
		reply := encodeString(s.ID)
		reply = binary.AppendUvarint(reply, s.AppliedIndex)
		reply = append(reply, encodeString(s.State)...)
		reply = binary.AppendVarint(reply, s.LastContact.UnixNano())
		return statusOK, reply
	}
	return statusErr, []byte(fmt.Sprintf("unknown op %d", op))
}

type payloadReader struct {
	b   []byte
	err error
}

func (d *payloadReader) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.err = errors.New("replication: short request")
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *payloadReader) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.err = errors.New("replication: bad varint")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *payloadReader) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.err = errors.New("replication: bad varint")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *payloadReader) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errors.New("replication: short request")
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// peers keeps idle connections to other nodes' cluster service.
type peers struct {
	mu   sync.Mutex
	idle map[string][]net.Conn
}

// call sends one request. A pooled connection may have died with its peer,
// so a failure on one is retried once on a fresh connection.
func (ps *peers) call(addr string, op byte, payload []byte, timeout time.Duration) (byte, []byte, error) {
	for attempt := 0; attempt < 2; attempt++ {
		c, pooled, err := ps.get(addr, timeout, attempt > 0)
		if err != nil {
			return 0, nil, err
		}
		status, reply, err := roundTrip(c, op, payload, timeout)
		if err != nil {
			c.Close()
			if pooled {
				continue
			}
			return 0, nil, err
		}
		ps.put(addr, c)
		return status, reply, nil
	}
	return 0, nil, fmt.Errorf("replication: cannot reach %s", addr)
}

func (ps *peers) get(addr string, timeout time.Duration, fresh bool) (net.Conn, bool, error) {
	if !fresh {
		ps.mu.Lock()
		if cs := ps.idle[addr]; len(cs) > 0 {
			c := cs[len(cs)-1]
			ps.idle[addr] = cs[:len(cs)-1]
			ps.mu.Unlock()
			return c, true, nil
		}
		ps.mu.Unlock()
	}
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, false, err
	}
	if _, err := c.Write([]byte{protoCluster}); err != nil {
		c.Close()
		return nil, false, err
	}
	return c, false, nil
}

func (ps *peers) put(addr string, c net.Conn) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.idle == nil {
		ps.idle = make(map[string][]net.Conn)
	}
	if len(ps.idle[addr]) >= 16 {
		c.Close()
		return
	}
	ps.idle[addr] = append(ps.idle[addr], c)
}

func (ps *peers) closeAll() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, cs := range ps.idle {
		for _, c := range cs {
			c.Close()
		}
	}
	ps.idle = nil
}

func roundTrip(c net.Conn, op byte, payload []byte, timeout time.Duration) (byte, []byte, error) {
	c.SetDeadline(time.Now().Add(timeout))
	defer c.SetDeadline(time.Time{})
	req := append([]byte{op}, binary.AppendUvarint(nil, uint64(len(payload)))...)
	if _, err := c.Write(append(req, payload...)); err != nil {
		return 0, nil, err
	}
	var status [1]byte
	if _, err := io.ReadFull(c, status[:]); err != nil {
		return 0, nil, err
	}
	reply, err := readBytes(c)
	return status[0], reply, err
}

// LeaderHandler answers a request that only the leader may answer (handing
// out auto-increment values, for one: a value must be unique cluster-wide).
type LeaderHandler func(request []byte) ([]byte, error)

// HandleOnLeader registers a handler under a name, on every node; it runs
// on whichever node leads when a request arrives.
func (n *Node) HandleOnLeader(name string, h LeaderHandler) {
	n.handlers.Lock()
	defer n.handlers.Unlock()
	if n.handlers.m == nil {
		n.handlers.m = make(map[string]LeaderHandler)
	}
	n.handlers.m[name] = h
}

func (n *Node) serveLeader(name string, req []byte) ([]byte, error) {
	if n.raft.State() != raft.Leader {
		return nil, ErrNotLeader
	}
	n.handlers.Lock()
	h := n.handlers.m[name]
	n.handlers.Unlock()
	if h == nil {
		return nil, fmt.Errorf("replication: no handler %q", name)
	}
	return h(req)
}

// OnLeader runs the named handler on the leader: here when this node
// leads, otherwise through the cluster service.
func (n *Node) OnLeader(ctx context.Context, name string, req []byte) ([]byte, error) {
	start := time.Now()
	for {
		if n.raft.State() == raft.Leader {
			reply, err := n.serveLeader(name, req)
			if !errors.Is(err, ErrNotLeader) {
				return reply, err
			}
		} else if addr, _ := n.raft.LeaderWithID(); addr != "" {
			status, reply, err := n.peers.call(string(addr), opCustom, append(encodeString(name), req...), n.cfg.ApplyTimeout)
			switch {
			case err != nil:
				return nil, fmt.Errorf("%w: asking the leader at %s: %v", ErrNoLeader, addr, err)
			case status == statusOK:
				return reply, nil
			case status != statusNotLeader:
				return nil, errors.New(string(reply))
			}
		}
		if time.Since(start) > leaderWait {
			return nil, ErrNoLeader
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}
