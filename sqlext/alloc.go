package sqlext

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
)

// Auto-increment values and hidden row ids must be unique across the
// cluster, so the leader hands them out from its storage allocator; a
// follower asks it. (After a failover the new leader starts from the
// committed counters, so a value the old leader handed out but never
// committed may be handed out again; the second commit then fails with a
// duplicate-key error rather than storing two rows under one key.)
const allocHandler = "sqlext.alloc"

type allocKind byte

const (
	// Reserve n values; reply the first, then the next value before and
	// after (see autoTaken).
	allocAutoInc allocKind = 1
	allocRowIDs  allocKind = 2 // reserve n row ids, reply the first
	// Make the next value at least n+1; reply n, then the next value
	// before and after.
	bumpAutoInc allocKind = 3
	// n runs of (floor, length): for each in turn make the next value at
	// least floor+1 and reserve length values; reply each run's first.
	allocAutoIncRuns allocKind = 4
	// Move the next value back from to to n, unless it has moved on
	// since: to follows n in the request. Reply 1 if it moved back.
	returnAutoInc allocKind = 5
)

// autoRun is a run of rows that take new AUTO_INCREMENT values, all above
// floor.
type autoRun struct{ floor, n uint64 }

// leaderCaller runs a named handler on the leader.
type leaderCaller interface {
	OnLeader(ctx context.Context, name string, req []byte) ([]byte, error)
}

func (p *Provider) allocate(ctx context.Context, kind allocKind, db, table string, n uint64) (uint64, error) {
	reply, err := p.sendAlloc(ctx, binary.AppendUvarint(allocHeader(kind, db, table), n))
	return decodeAlloc(reply, err)
}

// takeAutoInc is allocate for allocAutoInc and bumpAutoInc on behalf of a
// statement's row, recording the values taken in the session's
// transaction so that the statement can give them back if it fails.
func (p *Provider) takeAutoInc(ctx *sql.Context, kind allocKind, db, table string, n uint64) (uint64, error) {
	reply, err := p.sendAlloc(ctx, binary.AppendUvarint(allocHeader(kind, db, table), n))
	if err != nil {
		return 0, err
	}
	v, k := binary.Uvarint(reply)
	if k <= 0 {
		return 0, errors.New("sqlext: bad allocation reply")
	}
	before, k1 := binary.Uvarint(reply[k:])
	after, k2 := binary.Uvarint(reply[max(k+k1, k):])
	if k1 > 0 && k2 > 0 {
		if tx := txFrom(ctx); tx != nil {
			tx.tookAuto(db, table, before, after)
		}
	}
	return v, nil
}

// returnAutoInc gives back a run of values a failed statement took, if no
// one has taken values since.
func (p *Provider) returnAutoInc(ctx context.Context, db, table string, run autoTaken) error {
	req := binary.AppendUvarint(allocHeader(returnAutoInc, db, table), run.from)
	_, err := p.sendAlloc(ctx, binary.AppendUvarint(req, run.to))
	return err
}

// allocateRuns reserves values for runs in one request to the leader and
// returns the first value of each.
func (p *Provider) allocateRuns(ctx context.Context, db, table string, runs []autoRun) ([]uint64, error) {
	req := binary.AppendUvarint(allocHeader(allocAutoIncRuns, db, table), uint64(len(runs)))
	for _, r := range runs {
		req = binary.AppendUvarint(req, r.floor)
		req = binary.AppendUvarint(req, r.n)
	}
	reply, err := p.sendAlloc(ctx, req)
	if err != nil {
		return nil, err
	}
	firsts := make([]uint64, len(runs))
	for i := range firsts {
		v, k := binary.Uvarint(reply)
		if k <= 0 {
			return nil, errors.New("sqlext: bad allocation reply")
		}
		firsts[i], reply = v, reply[k:]
	}
	return firsts, nil
}

// allocHeader starts an allocation request: its kind and table.
func allocHeader(kind allocKind, db, table string) []byte {
	req := []byte{byte(kind)}
	req = binary.AppendUvarint(req, uint64(len(db)))
	req = append(req, db...)
	req = binary.AppendUvarint(req, uint64(len(table)))
	return append(req, table...)
}

// sendAlloc has the leader (this node, without replication) answer req.
func (p *Provider) sendAlloc(ctx context.Context, req []byte) ([]byte, error) {
	if p.leader == nil {
		return p.serveAlloc(req)
	}
	reply, err := p.leader.OnLeader(ctx, allocHandler, req)
	return reply, translate(err)
}

func decodeAlloc(reply []byte, err error) (uint64, error) {
	if err != nil {
		return 0, err
	}
	v, k := binary.Uvarint(reply)
	if k <= 0 {
		return 0, errors.New("sqlext: bad allocation reply")
	}
	return v, nil
}

var errBadAllocRequest = errors.New("sqlext: bad allocation request")

// serveAlloc answers an allocation request on the leader.
func (p *Provider) serveAlloc(req []byte) ([]byte, error) {
	if len(req) < 1 {
		return nil, errBadAllocRequest
	}
	kind, rest := allocKind(req[0]), req[1:]
	str := func() (string, bool) {
		l, k := binary.Uvarint(rest)
		if k <= 0 || uint64(len(rest)-k) < l {
			return "", false
		}
		s := string(rest[k : k+int(l)])
		rest = rest[k+int(l):]
		return s, true
	}
	db, ok1 := str()
	table, ok2 := str()
	n, k := binary.Uvarint(rest)
	if !ok1 || !ok2 || k <= 0 {
		return nil, errBadAllocRequest
	}
	rest = rest[k:]
	switch kind {
	case allocAutoIncRuns:
		return p.serveRuns(db, table, n, rest)
	case allocAutoInc:
		v, err := p.store.AllocAutoInc(db, table, n)
		if err != nil {
			return nil, err
		}
		return binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(nil, v), v), v+n), nil
	case allocRowIDs:
		v, err := p.store.AllocRowIDs(db, table, n)
		if err != nil {
			return nil, err
		}
		return binary.AppendUvarint(nil, v), nil
	case bumpAutoInc:
		before, after, err := p.store.RaiseAutoInc(db, table, n)
		if err != nil {
			return nil, err
		}
		return binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(nil, n), before), after), nil
	case returnAutoInc:
		to, k := binary.Uvarint(rest)
		if k <= 0 {
			return nil, errBadAllocRequest
		}
		if p.store.ReturnAutoInc(db, table, n, to) {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	}
	return nil, fmt.Errorf("%w: kind %d", errBadAllocRequest, kind)
}

// serveRuns answers an allocAutoIncRuns request: count runs encoded in rest.
func (p *Provider) serveRuns(db, table string, count uint64, rest []byte) ([]byte, error) {
	var reply []byte
	for ; count > 0; count-- {
		floor, k1 := binary.Uvarint(rest)
		if k1 <= 0 {
			return nil, errBadAllocRequest
		}
		n, k2 := binary.Uvarint(rest[k1:])
		if k2 <= 0 {
			return nil, errBadAllocRequest
		}
		rest = rest[k1+k2:]
		if _, _, err := p.store.RaiseAutoInc(db, table, floor); err != nil {
			return nil, err
		}
		first, err := p.store.AllocAutoInc(db, table, n)
		if err != nil {
			return nil, err
		}
		reply = binary.AppendUvarint(reply, first)
	}
	return reply, nil
}
