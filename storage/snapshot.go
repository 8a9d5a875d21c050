package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// snapshotMagic opens every snapshot stream; docs/format/snapshot.md draws
// the rest byte by byte.
const (
	snapshotMagic   = "SQLNSNAP"
	snapshotVersion = 1
	rowIDField      = "__sqlearn_rowid"
	// maxPartitionBytes bounds one partition file read from a snapshot so a
	// corrupt length cannot exhaust memory.
	maxPartitionBytes = 1 << 40
)

// Snapshot is a point-in-time copy of the store that can be written out
// while Apply goes on.
type Snapshot struct {
	applied uint64
	users   []byte
	dbs     []string
	meta    []map[string][]byte
	tables  []tableSnap
}

type tableSnap struct {
	db, name  string
	schema    *Schema
	indexes   []*IndexDef
	autoInc   uint64
	nextRowID uint64
	keyless   bool
	asch      *arrow.Schema
	parts     [partitionCount]partSnap
}

type partSnap struct {
	batches []batchView
	tail    []Row
	tailIDs []string
}

// Snapshot captures the current state cheaply: sealed batches are shared
// (retained), only delete markers and tails are copied.
func (s *Store) Snapshot() *Snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	snap := &Snapshot{applied: s.mu.applied, users: s.mu.users}
	for _, d := range s.mu.dbs {
		snap.dbs = append(snap.dbs, d.name)
		meta := make(map[string][]byte, len(d.meta))
		for k, v := range d.meta {
			meta[k] = v
		}
		snap.meta = append(snap.meta, meta)
		for _, t := range d.tables {
			ts := tableSnap{db: t.db, name: t.name, schema: t.schema, autoInc: t.autoInc,
				nextRowID: t.nextRowID, keyless: t.primary == nil, asch: t.asch}
			for _, x := range t.indexes {
				ts.indexes = append(ts.indexes, x.def)
			}
			for i, p := range t.parts {
				ps := &ts.parts[i]
				for _, b := range p.batches {
					b.rec.Retain()
					v := batchView{b: b}
					if b.ndel > 0 {
						v.deleted = append([]uint64(nil), b.deleted...)
					}
					ps.batches = append(ps.batches, v)
				}
				for j, r := range p.tail {
					if r != nil {
						ps.tail = append(ps.tail, r)
						ps.tailIDs = append(ps.tailIDs, p.tailIDs[j])
					}
				}
			}
			snap.tables = append(snap.tables, ts)
		}
	}
	return snap
}

// Applied is the log index the snapshot reflects.
func (snap *Snapshot) Applied() uint64 { return snap.applied }

// Release drops the snapshot's hold on shared batches.
func (snap *Snapshot) Release() {
	for _, t := range snap.tables {
		for _, p := range t.parts {
			for _, v := range p.batches {
				v.b.rec.Release()
			}
		}
	}
	snap.tables = nil
}

// WriteTo streams the snapshot. Each partition is an Arrow IPC file.
func (snap *Snapshot) WriteTo(w io.Writer) (int64, error) {
	crc := crc32.NewIEEE()
	cw := &countWriter{w: io.MultiWriter(w, crc)}
	bw := bufio.NewWriterSize(cw, 1<<20)
	var e encoder
	flush := func() error {
		_, err := bw.Write(e.buf)
		e.buf = e.buf[:0]
		return err
	}
	e.buf = append(e.buf, snapshotMagic...)
	e.uvarint(snapshotVersion)
	e.uvarint(snap.applied)
	e.bytes(snap.users)
	e.uvarint(uint64(len(snap.dbs)))
	for i, d := range snap.dbs {
		e.string(d)
		keys := make([]string, 0, len(snap.meta[i]))
		for k := range snap.meta[i] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.uvarint(uint64(len(keys)))
		for _, k := range keys {
			e.string(k)
			e.bytes(snap.meta[i][k])
		}
	}
	e.uvarint(uint64(len(snap.tables)))
	if err := flush(); err != nil {
		return cw.n, err
	}
	var buf bytes.Buffer
	for i := range snap.tables {
		t := &snap.tables[i]
		e.string(t.db)
		e.string(t.name)
		e.schema(t.schema)
		e.uvarint(uint64(len(t.indexes)))
		for _, x := range t.indexes {
			e.indexDef(x)
		}
		e.uvarint(t.autoInc)
		e.uvarint(t.nextRowID)
		if err := flush(); err != nil {
			return cw.n, err
		}
		for p := range t.parts {
			buf.Reset()
			if err := t.writePartition(&buf, &t.parts[p]); err != nil {
				return cw.n, err
			}
			e.uvarint(uint64(buf.Len()))
			if err := flush(); err != nil {
				return cw.n, err
			}
			if _, err := bw.Write(buf.Bytes()); err != nil {
				return cw.n, err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	n, err := w.Write(sum[:])
	return cw.n + int64(n), err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (t *tableSnap) fileSchema() *arrow.Schema {
	if !t.keyless {
		return t.asch
	}
	fields := append(append([]arrow.Field{}, t.asch.Fields()...), arrow.Field{Name: rowIDField, Type: arrow.PrimitiveTypes.Uint64})
	return arrow.NewSchema(fields, nil)
}

// writePartition writes the live rows of one partition as an Arrow IPC file.
// Batches without deletions are written as they are; others are rebuilt.
func (t *tableSnap) writePartition(w io.Writer, p *partSnap) error {
	fsch := t.fileSchema()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(fsch))
	if err != nil {
		return err
	}
	writeRows := func(rows []Row, ids []string) error {
		if len(rows) == 0 {
			return nil
		}
		if t.keyless {
			ext := make([]Row, len(rows))
			for i, r := range rows {
				ext[i] = append(append(Row{}, r...), keylessRowID(ids[i]))
			}
			rows = ext
		}
		rec := buildRecord(memory.DefaultAllocator, fsch, rows)
		defer rec.Release()
		return fw.Write(rec)
	}
	for _, v := range p.batches {
		if v.deleted == nil && !t.keyless {
			if err := fw.Write(v.b.rec); err != nil {
				return err
			}
			continue
		}
		var rows []Row
		var ids []string
		for i, id := range v.b.ids {
			if v.deleted == nil || v.deleted[i>>6]&(1<<(uint(i)&63)) == 0 {
				rows = append(rows, v.b.row(i))
				ids = append(ids, id)
			}
		}
		if err := writeRows(rows, ids); err != nil {
			return err
		}
	}
	if err := writeRows(p.tail, p.tailIDs); err != nil {
		return err
	}
	return fw.Close()
}

func keylessRowID(id string) uint64 {
	v, n := binary.Uvarint([]byte(id[1:]))
	if n <= 0 {
		panic("storage: keyless identity without a row id")
	}
	return v
}

// Restore replaces the whole state with a snapshot read from r. On error the
// store is unchanged.
func (s *Store) Restore(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(data) < len(snapshotMagic)+4 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return fmt.Errorf("%w: not a snapshot", ErrCorrupt)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return fmt.Errorf("%w: snapshot checksum mismatch", ErrCorrupt)
	}
	d := decoder{buf: body[len(snapshotMagic):]}
	if v := d.uvarint(); d.err == nil && v != snapshotVersion {
		return fmt.Errorf("%w: snapshot version %d", ErrFormatVersion, v)
	}
	applied := d.uvarint()
	users := d.bytes()
	dbs := make(map[string]*database)
	n := d.count(1)
	for i := 0; i < n && d.err == nil; i++ {
		db := newDatabase(d.string())
		m := d.count(2)
		for j := 0; j < m && d.err == nil; j++ {
			k := d.string()
			db.meta[k] = d.bytes()
		}
		dbs[lower(db.name)] = db
	}
	n = d.count(8)
	for i := 0; i < n && d.err == nil; i++ {
		dbName, name := d.string(), d.string()
		sch := d.schema()
		var defs []*IndexDef
		m := d.count(3)
		for j := 0; j < m && d.err == nil; j++ {
			defs = append(defs, d.indexDef())
		}
		autoInc, nextRowID := d.uvarint(), d.uvarint()
		if d.err != nil {
			break
		}
		db, ok := dbs[lower(dbName)]
		if !ok {
			return fmt.Errorf("%w: table %s in unknown database %s", ErrCorrupt, name, dbName)
		}
		t := newTable(db.name, name, sch, s.cf)
		t.autoCol = autoColumn(sch)
		for _, x := range defs {
			if err := t.addIndex(x); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
		}
		for p := 0; p < partitionCount && d.err == nil; p++ {
			size := d.uvarint()
			if d.err != nil || size > uint64(len(d.buf)) || size > maxPartitionBytes {
				d.fail("partition length")
				break
			}
			if err := t.loadPartition(d.raw(int(size))); err != nil {
				return err
			}
		}
		t.autoInc = max(t.autoInc, autoInc)
		t.nextRowID = max(t.nextRowID, nextRowID)
		db.tables[lower(name)] = t
	}
	if d.err == nil && len(d.buf) != 0 {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return d.err
	}
	s.mu.Lock()
	old := s.mu.dbs
	s.mu.dbs, s.mu.users, s.mu.applied = dbs, users, applied
	s.schemaGen.Add(1)
	s.mu.Unlock()
	for _, db := range old {
		for _, t := range db.tables {
			t.release()
		}
	}
	s.alloc.Lock()
	s.alloc.next = make(map[string]uint64)
	s.alloc.Unlock()
	return nil
}

func (t *Table) loadPartition(file []byte) (err error) {
	defer func() {
		// The IPC reader trusts offsets inside a file whose checksum already
		// matched; a bug there must not take the server down.
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: partition file: %v", ErrCorrupt, r)
		}
	}()
	fr, err := ipc.NewFileReader(bytes.NewReader(file))
	if err != nil {
		return fmt.Errorf("%w: partition file: %v", ErrCorrupt, err)
	}
	defer fr.Close()
	ncol := len(t.schema.Columns)
	keyless := t.primary == nil
	want := ncol
	if keyless {
		want++
	}
	if fr.Schema().NumFields() != want {
		return fmt.Errorf("%w: partition file has %d columns, table %s has %d", ErrCorrupt, fr.Schema().NumFields(), t.name, want)
	}
	for i := 0; i < fr.NumRecords(); i++ {
		rec, err := fr.RecordBatch(i)
		if err != nil {
			return fmt.Errorf("%w: partition file: %v", ErrCorrupt, err)
		}
		for c := 0; c < ncol; c++ {
			if !arrow.TypeEqual(rec.Column(c).DataType(), t.asch.Field(c).Type) {
				return fmt.Errorf("%w: column %d of %s has type %v", ErrCorrupt, c, t.name, rec.Column(c).DataType())
			}
		}
		rows := int(rec.NumRows())
		if rows == 0 {
			continue
		}
		ids := make([]string, rows)
		var cols []arrow.Array
		if keyless {
			rid, ok := rec.Column(ncol).(*array.Uint64)
			if !ok {
				return fmt.Errorf("%w: row id column of %s", ErrCorrupt, t.name)
			}
			for j := range ids {
				ids[j] = KeylessIdentity(rid.Value(j))
				t.nextRowID = max(t.nextRowID, rid.Value(j)+1)
			}
			cols = rec.Columns()[:ncol]
		} else {
			cols = rec.Columns()
		}
		own := array.NewRecordBatch(t.asch, cols, int64(rows))
		b := &batch{rec: own, cols: own.Columns(), ids: ids, deleted: make([]uint64, (rows+63)/64)}
		for j := 0; j < rows; j++ {
			r := b.row(j)
			if !keyless {
				ids[j] = t.identity(r, 0)
			}
			if err := t.checkInsert(r, ids[j]); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			t.locs.set(ids[j], loc{}) // the position is recorded by appendBatch below
			t.register(r, ids[j])
		}
		t.appendBatch(partitionOf(ids[0]), own, ids)
	}
	return nil
}
