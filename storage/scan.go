package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Partitions is the number of hash partitions of every table.
const Partitions = partitionCount

// Cursor iterates over the live rows of one partition as they were when the
// scan began. It holds no lock: sealed batches are immutable, and the
// mutable parts (delete markers, the tail) were copied when it was made.
type Cursor struct {
	batches []batchView
	tail    []Row
	ids     []string
	bi, ri  int
	ti      int

	// For scans by batch: the partition, its tail's state when the
	// cursor was made, and the tail's batch if a scan had built it.
	part      *partition
	tailState tailState
	tailRec   *tailRecord

	need []bool // the columns Next reads from batches (ReadColumns)
}

// ReadColumns makes Next read only the columns need marks from sealed
// batches, leaving the others nil (nil need: every column). Rows of the
// tail come whole.
func (c *Cursor) ReadColumns(need []bool) { c.need = need }

type batchView struct {
	b       *batch
	deleted []uint64
}

// Scan opens a cursor over one partition of a table.
func (s *Store) Scan(db, table string, part int) (*Cursor, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, err
	}
	return t.cursor(part), nil
}

// ScanTable opens cursors over every partition of a table at one instant,
// so a scan of the whole table sees each committed command entirely or not
// at all.
func (s *Store) ScanTable(db, table string) ([]*Cursor, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, err
	}
	out := make([]*Cursor, partitionCount)
	for i := range out {
		out[i] = t.cursor(i)
	}
	return out, nil
}

func (t *Table) cursor(part int) *Cursor {
	p := t.parts[part]
	c := &Cursor{batches: make([]batchView, len(p.batches)), part: p}
	c.tailState = tailState{rows: p.tail, del: p.tailDel, sch: t.asch}
	if tr := p.tailRec.Load(); tr != nil && tr.state.same(c.tailState) {
		c.tailRec = tr
	}
	for i, b := range p.batches {
		b.rec.Retain()
		v := batchView{b: b, deleted: b.deleted}
		if b.ndel > 0 {
			v.deleted = append([]uint64(nil), b.deleted...)
		} else {
			v.deleted = nil
		}
		c.batches[i] = v
	}
	c.tail = make([]Row, 0, len(p.tail)-p.tailDel)
	c.ids = make([]string, 0, cap(c.tail))
	for i, r := range p.tail {
		if r != nil {
			c.tail = append(c.tail, r)
			c.ids = append(c.ids, p.tailIDs[i])
		}
	}
	return c
}

// tailRecord returns the live tail rows the cursor saw as one Arrow batch
// and their identities: the partition's cached batch when nothing has
// changed the tail since it was built, else a new one, which is cached for
// the next scan. The batch is shared: callers must not release it.
func (c *Cursor) tailRecord() *tailRecord {
	if c.tailRec == nil {
		c.tailRec = &tailRecord{state: c.tailState, rec: buildRecord(memory.DefaultAllocator, c.tailState.sch, c.tail), ids: c.ids}
		c.part.tailRec.Store(c.tailRec)
	}
	return c.tailRec
}

// Next returns the next row and its identity; ok is false at the end.
func (c *Cursor) Next() (r Row, id string, ok bool) {
	for c.bi < len(c.batches) {
		v := &c.batches[c.bi]
		for c.ri < len(v.b.ids) {
			i := c.ri
			c.ri++
			if v.deleted != nil && v.deleted[i>>6]&(1<<(uint(i)&63)) != 0 {
				continue
			}
			return v.b.rowOf(i, c.need), v.b.ids[i], true
		}
		c.bi++
		c.ri = 0
	}
	if c.ti < len(c.tail) {
		c.ti++
		return c.tail[c.ti-1], c.ids[c.ti-1], true
	}
	return nil, "", false
}

// Close releases the batches the cursor holds.
func (c *Cursor) Close() {
	for _, v := range c.batches {
		v.b.rec.Release()
	}
	c.batches = nil
}

// KeyCursor reads a table's rows in primary-key order as they were when
// it was opened. It takes the order and each row's place at once, and
// reads a row only when asked for it: sealed batches do not change (the
// cursor holds the ones it reads from), and a tail row is replaced,
// never changed in place.
type KeyCursor struct {
	at   []keyPlace
	held []*batch
	i    int
	need []bool
}

// ReadColumns is Cursor.ReadColumns for a KeyCursor.
func (c *KeyCursor) ReadColumns(need []bool) { c.need = need }

// keyPlace is where one row is: row i of a sealed batch, or a tail row.
type keyPlace struct {
	b *batch
	i int32
	r Row
}

// ScanKeyOrder opens a KeyCursor over a table with a primary key and at
// most maxRows rows; ok is false for any other table.
func (s *Store) ScanKeyOrder(db, table string, maxRows int) (c *KeyCursor, ok bool, err error) {
	return s.ScanKeyOrderExcept(db, table, maxRows, nil)
}

// ScanKeyOrderExcept is ScanKeyOrder leaving out the rows whose identity
// skip reports (a transaction's reader leaves out the rows it changed).
func (s *Store) ScanKeyOrderExcept(db, table string, maxRows int, skip func(id string) bool) (c *KeyCursor, ok bool, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil || t.primary == nil || t.locs.len() > maxRows {
		return nil, false, err
	}
	c = &KeyCursor{at: make([]keyPlace, 0, t.locs.len())}
	held := map[*batch]bool{}
	place := func(l loc) bool {
		if l.batch < 0 {
			c.at = append(c.at, keyPlace{r: t.parts[l.part].tail[l.idx]})
			return true
		}
		b := t.parts[l.part].batches[l.batch]
		if !held[b] {
			held[b] = true
			b.rec.Retain()
			c.held = append(c.held, b)
		}
		c.at = append(c.at, keyPlace{b: b, i: l.idx})
		return true
	}
	if t.intKeyed() {
		t.primary.scanInts(nil, func(k int64) bool {
			if skip != nil && skip(intID(k)) {
				return true
			}
			return place(t.locs.atInt(k))
		})
	} else {
		t.primary.scan(nil, func(id string) bool {
			if skip != nil && skip(id) {
				return true
			}
			return place(t.locs.at(id))
		})
	}
	return c, true, nil
}

// Len is the number of rows the cursor reads.
func (c *KeyCursor) Len() int { return len(c.at) }

// Next returns the next row in key order.
func (c *KeyCursor) Next() (Row, bool) {
	if c.i >= len(c.at) {
		return nil, false
	}
	p := c.at[c.i]
	c.i++
	if p.b == nil {
		return p.r, true
	}
	return p.b.rowOf(int(p.i), c.need), true
}

// Close releases the batches the cursor holds.
func (c *KeyCursor) Close() {
	for _, b := range c.held {
		b.rec.Release()
	}
	c.held, c.at = nil, nil
}

// Check verifies a table's bookkeeping: every live row is where its
// identity says and has the key its identity encodes, and every index
// holds one entry per live row, each naming a live row. It returns what
// it found wrong, nil when nothing.
func (s *Store) Check(db, table string) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return err
	}
	live := 0
	for pi := range t.parts {
		c := t.cursor(pi)
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			live++
			l, found := t.locs.get(id)
			if !found || l.part != int32(pi) {
				c.Close()
				return fmt.Errorf("%w: row %q of %s is not where its identity says", ErrCorrupt, id, t.name)
			}
			if t.primary != nil && t.identity(r, 0) != id {
				c.Close()
				return fmt.Errorf("%w: row %q of %s has another key", ErrCorrupt, id, t.name)
			}
		}
		c.Close()
	}
	if live != t.locs.len() {
		return fmt.Errorf("%w: %s has %d rows and %d identities", ErrCorrupt, t.name, live, t.locs.len())
	}
	for _, x := range append([]*index{t.primary}, t.indexes...) {
		if x == nil {
			continue
		}
		n, bad := 0, ""
		x.scan(nil, func(id string) bool {
			n++
			if _, ok := t.locs.get(id); !ok {
				bad = id
				return false
			}
			return true
		})
		name := "PRIMARY"
		if x.def != nil {
			name = x.def.Name
		}
		if bad != "" || n != live {
			return fmt.Errorf("%w: index %s of %s holds %d entries for %d rows", ErrCorrupt, name, t.name, n, live)
		}
	}
	return nil
}
