package storage

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const (
	// partitionCount is the number of hash partitions per table. Scans read
	// partitions independently; a small fixed count keeps tiny tables cheap.
	partitionCount = 4
	// sealRows is the size at which a partition's mutable tail becomes an
	// immutable Arrow batch.
	sealRows = 4096
)

// partitionOf places a row identity in a partition with FNV-1a, which is
// stable across processes and versions.
func partitionOf(id string) int {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return int(h % partitionCount)
}

type batch struct {
	rec     arrow.RecordBatch
	cols    []arrow.Array
	ids     []string
	deleted []uint64 // bitset over rows
	ndel    int
}

func (b *batch) isDeleted(i int) bool { return b.deleted[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b *batch) row(i int) Row { return rowAt(b.cols, i) }

type partition struct {
	batches []*batch
	tail    []Row // nil marks a deleted tail row
	tailIDs []string
	tailDel int
	// tailRec is the live tail as an Arrow batch, built by the last scan
	// that needed one; it is valid while tailState matches.
	tailRec atomic.Pointer[tailRecord]
}

// tailRecord is a partition's live tail rows as one Arrow batch, and the
// tail state it was built from. The tail only grows (in place or into a
// new array) and marks deletions by counting them until it is sealed into
// a new array, so the array's first element, the length and the deletion
// count together name one content; holding the array keeps its address
// from being reused for another tail.
type tailRecord struct {
	state tailState
	rec   arrow.RecordBatch
	ids   []string
}

type tailState struct {
	rows []Row // the tail as it was: only its address and length are compared
	del  int
	sch  *arrow.Schema
}

func (a tailState) same(b tailState) bool {
	return len(a.rows) == len(b.rows) && a.del == b.del && a.sch == b.sch &&
		(len(a.rows) == 0 || &a.rows[0] == &b.rows[0])
}

// loc says where a live row sits: batch index inside its partition, or -1
// for the tail.
type loc struct {
	part  int32
	batch int32
	idx   int32
}

// Table is one stored table. All access goes through Store, which holds the
// lock that guards it.
type Table struct {
	db, name string
	schema   *Schema
	cmps     []CompareFunc
	asch     *arrow.Schema
	parts    [partitionCount]*partition
	locs     locMap
	primary  *index
	// exactKey says the primary key's identity encoding is equal exactly
	// when the key compares equal (integer and timestamp columns), so the
	// identity map alone finds a duplicate key without a walk of the
	// primary index; a string key under a case-insensitive collation is
	// not so.
	exactKey bool
	indexes  []*index
	// content maps a keyless table's rows, by their encoded content, to
	// their identities. Only a statement that finds keyless rows by
	// content needs it, so it is built on that first use (contentIndex)
	// and kept from then on; until then appends skip encoding every row a
	// second time and holding that copy.
	content map[string][]string
	nrows   int
	// autoInc is the next auto-increment value (0 when the table has none);
	// nextRowID numbers keyless rows. Both only move forward.
	autoInc   uint64
	nextRowID uint64
	autoCol   int
	// mark tells this table from every other the process has held, and
	// counts the commands applied to it (Store.Writes).
	mark WriteMark
}

// tableSeq numbers the tables a process creates, restores or rebuilds.
var tableSeq atomic.Uint64

func newTable(db, name string, s *Schema, cf CompareFactory) *Table {
	t := &Table{db: db, name: name, autoCol: -1, mark: WriteMark{table: tableSeq.Add(1)}}
	t.reset(s, cf)
	return t
}

// reset installs a schema and empties the table.
func (t *Table) reset(s *Schema, cf CompareFactory) {
	t.schema = s
	t.cmps = make([]CompareFunc, len(s.Columns))
	for i, c := range s.Columns {
		t.cmps[i] = cf(c)
	}
	t.asch = arrowSchema(s)
	for i := range t.parts {
		t.parts[i] = &partition{}
	}
	t.content = nil
	t.primary = nil
	if len(s.PK) > 0 {
		cmps := make([]CompareFunc, len(s.PK))
		for i, p := range s.PK {
			cmps[i] = t.cmps[p]
		}
		if len(s.PK) == 1 && s.Columns[s.PK[0]].Kind == KindInt64 {
			t.primary = newIntIndex(s.PK[0], cmps[0])
		} else {
			t.primary = newIndex(nil, append([]int(nil), s.PK...), cmps, true)
		}
		t.exactKey = true
		for _, p := range s.PK {
			switch s.Columns[p].Kind {
			case KindInt64, KindUint64, KindTimestamp:
			default:
				t.exactKey = false
			}
		}
	}
	t.locs = newLocMap(t.intKeyed(), 0)
	old := t.indexes
	t.indexes = nil
	for _, x := range old {
		_ = t.addIndex(x.def)
	}
	t.nrows = 0
}

// intKeyed says whether the table's identities are intID(k) of its one
// integer primary key column.
func (t *Table) intKeyed() bool { return t.primary != nil && t.primary.ints != nil }

func (t *Table) addIndex(def *IndexDef) error {
	cols := make([]int, len(def.Columns))
	cmps := make([]CompareFunc, len(def.Columns))
	for i, name := range def.Columns {
		c := t.schema.ColumnIndex(name)
		if c < 0 {
			return fmt.Errorf("%w: %q in index %q", ErrColumnNotFound, name, def.Name)
		}
		cols[i], cmps[i] = c, t.cmps[c]
	}
	var x *index
	if len(cols) == 1 && t.schema.Columns[cols[0]].Kind == KindInt64 {
		x = newIntKeyIndex(def, cols[0], cmps[0], def.Unique)
	} else {
		x = newIndex(def, cols, cmps, def.Unique)
	}
	for id, l := range t.locs.all() {
		r := t.rowAt(l)
		if x.unique {
			if other, dup := x.conflict(x.key(r), id); dup {
				return &DuplicateError{Index: def.Name, Key: t.keyString(x, r), Existing: other}
			}
		}
		x.insert(r, id)
	}
	t.indexes = append(t.indexes, x)
	return nil
}

// Identity returns the identity of a row as stored: its encoded primary key,
// or for keyless tables the encoded row id.
func (t *Table) identity(r Row, rowID uint64) string {
	if t.primary == nil {
		var b [10]byte
		b[0] = tagUint64
		n := binary.PutUvarint(b[1:], rowID)
		return string(b[:1+n])
	}
	return EncodeKey(t.primary.key(r))
}

// contentIndex builds the content index of a keyless table if it is not
// built yet. Identities of equal rows are listed in the order the rows
// were added, as they would have been had the index been kept all along.
func (t *Table) contentIndex() {
	if t.primary != nil || t.content != nil {
		return
	}
	m := make(map[string][]string, t.nrows)
	for id, l := range t.locs.all() {
		ck := EncodeKey(t.rowAt(l))
		m[ck] = append(m[ck], id)
	}
	for _, ids := range m {
		if len(ids) > 1 {
			sort.Slice(ids, func(a, b int) bool { return keylessRowID(ids[a]) < keylessRowID(ids[b]) })
		}
	}
	t.content = m
}

func (t *Table) rowAt(l loc) Row {
	p := t.parts[l.part]
	if l.batch < 0 {
		return p.tail[l.idx]
	}
	return p.batches[l.batch].row(int(l.idx))
}

func (t *Table) keyString(x *index, r Row) string {
	parts := make([]string, len(x.cols))
	for i, c := range x.cols {
		parts[i] = fmt.Sprint(r[c])
	}
	return strings.Join(parts, "-")
}

// checkInsert reports the conflict an insert of r would cause.
func (t *Table) checkInsert(r Row, id string) error {
	if len(r) != len(t.schema.Columns) {
		return fmt.Errorf("%w: table %q has %d columns, row has %d", ErrBadValue, t.name, len(t.schema.Columns), len(r))
	}
	for i := range t.schema.Columns {
		if err := CheckValue(&t.schema.Columns[i], r[i]); err != nil {
			return err
		}
	}
	for _, p := range t.schema.PK {
		if r[p] == nil {
			// A key column holds no NULL whatever its schema says: the
			// row could not be found by its key (and an integer key's
			// row map could not place it).
			return fmt.Errorf("%w: column %q", ErrNotNull, t.schema.Columns[p].Name)
		}
	}
	if _, ok := t.locs.get(id); ok {
		return &DuplicateError{Index: "PRIMARY", Key: t.keyString(t.primary, r), Existing: id}
	}
	if t.primary != nil && !t.exactKey {
		if other, dup := t.primary.conflict(t.primary.key(r), id); dup {
			return &DuplicateError{Index: "PRIMARY", Key: t.keyString(t.primary, r), Existing: other}
		}
	}
	for _, x := range t.indexes {
		if !x.unique {
			continue
		}
		if other, dup := x.conflict(x.key(r), id); dup {
			return &DuplicateError{Index: x.def.Name, Key: t.keyString(x, r), Existing: other}
		}
	}
	return nil
}

// DuplicateError says which unique index an insert collided with and the
// identity of the row already holding the key.
type DuplicateError struct {
	Index    string
	Key      string
	Existing string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("storage: duplicate entry '%s' for key '%s'", e.Key, e.Index)
}

func (e *DuplicateError) Unwrap() error { return ErrDuplicateKey }

func (t *Table) insert(r Row, id string) {
	pi := partitionOf(id)
	p := t.parts[pi]
	t.locs.set(id, loc{part: int32(pi), batch: -1, idx: int32(len(p.tail))})
	p.tail = append(p.tail, r)
	p.tailIDs = append(p.tailIDs, id)
	t.register(r, id)
	live := len(p.tail) - p.tailDel
	if live >= sealRows {
		t.seal(pi)
	}
}

// register adds a row to the indexes and counters; where the row sits is
// the caller's business.
func (t *Table) register(r Row, id string) {
	if t.primary != nil {
		t.primary.insert(r, id)
	} else if t.content != nil {
		ck := EncodeKey(r)
		t.content[ck] = append(t.content[ck], id)
	}
	for _, x := range t.indexes {
		x.insert(r, id)
	}
	if t.autoCol >= 0 {
		if n, ok := autoValue(r[t.autoCol]); ok && n >= t.autoInc && n < ^uint64(0) {
			t.autoInc = n + 1
		}
	}
	t.nrows++
}

func autoValue(v any) (uint64, bool) {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return 0, false
		}
		return uint64(x), true
	case uint64:
		return x, true
	case float64:
		if x < 0 {
			return 0, false
		}
		return uint64(x), true
	case float32:
		if x < 0 {
			return 0, false
		}
		return uint64(x), true
	}
	return 0, false
}

func (t *Table) delete(id string) bool {
	l, ok := t.locs.get(id)
	if !ok {
		return false
	}
	r := t.rowAt(l)
	p := t.parts[l.part]
	if l.batch < 0 {
		p.tail[l.idx] = nil
		p.tailDel++
	} else {
		b := p.batches[l.batch]
		b.deleted[l.idx>>6] |= 1 << (uint(l.idx) & 63)
		b.ndel++
		if b.ndel*2 > len(b.ids) {
			defer t.compact(int(l.part), int(l.batch))
		}
	}
	t.locs.del(id)
	if t.primary != nil {
		t.primary.remove(r, id)
	} else if t.content != nil {
		ck := EncodeKey(r)
		ids := t.content[ck]
		for i, x := range ids {
			if x == id {
				ids = append(ids[:i:i], ids[i+1:]...)
				break
			}
		}
		if len(ids) == 0 {
			delete(t.content, ck)
		} else {
			t.content[ck] = ids
		}
	}
	for _, x := range t.indexes {
		x.remove(r, id)
	}
	t.nrows--
	return true
}

// seal turns the live tail rows of a partition into an Arrow batch.
func (t *Table) seal(pi int) {
	p := t.parts[pi]
	rows := make([]Row, 0, len(p.tail)-p.tailDel)
	ids := make([]string, 0, cap(rows))
	for i, r := range p.tail {
		if r != nil {
			rows = append(rows, r)
			ids = append(ids, p.tailIDs[i])
		}
	}
	p.tail, p.tailIDs, p.tailDel = nil, nil, 0
	if len(rows) == 0 {
		return
	}
	t.appendBatch(pi, buildRecord(memory.DefaultAllocator, t.asch, rows), ids)
}

func (t *Table) appendBatch(pi int, rec arrow.RecordBatch, ids []string) {
	p := t.parts[pi]
	b := &batch{rec: rec, cols: rec.Columns(), ids: ids, deleted: make([]uint64, (len(ids)+63)/64)}
	bi := int32(len(p.batches))
	p.batches = append(p.batches, b)
	for i, id := range ids {
		t.locs.set(id, loc{part: int32(pi), batch: bi, idx: int32(i)})
	}
}

// optimize folds the delete markers of every batch and seals every tail,
// so that each live row is in a batch: what OpOptimize does.
func (t *Table) optimize() {
	for pi, p := range t.parts {
		for bi := len(p.batches) - 1; bi >= 0; bi-- {
			if p.batches[bi].ndel > 0 {
				t.compact(pi, bi)
			}
		}
		t.seal(pi)
	}
}

// compact folds the delete markers of a batch away by moving its live rows
// back into the tail; an empty batch slot is removed.
func (t *Table) compact(pi, bi int) {
	p := t.parts[pi]
	b := p.batches[bi]
	for i, id := range b.ids {
		if !b.isDeleted(i) {
			t.locs.set(id, loc{part: int32(pi), batch: -1, idx: int32(len(p.tail))})
			p.tail = append(p.tail, b.row(i))
			p.tailIDs = append(p.tailIDs, id)
		}
	}
	b.rec.Release()
	p.batches = append(p.batches[:bi], p.batches[bi+1:]...)
	for j := bi; j < len(p.batches); j++ {
		for i, id := range p.batches[j].ids {
			if !p.batches[j].isDeleted(i) {
				t.locs.set(id, loc{part: int32(pi), batch: int32(j), idx: int32(i)})
			}
		}
	}
	if len(p.tail)-p.tailDel >= sealRows {
		t.seal(pi)
	}
}

// allRows returns every live row in partition order with its identity.
func (t *Table) allRows() ([]Row, []string) {
	rows := make([]Row, 0, t.nrows)
	ids := make([]string, 0, t.nrows)
	for _, p := range t.parts {
		for _, b := range p.batches {
			for i, id := range b.ids {
				if !b.isDeleted(i) {
					rows = append(rows, b.row(i))
					ids = append(ids, id)
				}
			}
		}
		for i, r := range p.tail {
			if r != nil {
				rows = append(rows, r)
				ids = append(ids, p.tailIDs[i])
			}
		}
	}
	return rows, ids
}

func (t *Table) release() {
	for _, p := range t.parts {
		for _, b := range p.batches {
			b.rec.Release()
		}
		p.batches = nil
	}
}
