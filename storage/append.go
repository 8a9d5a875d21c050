package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// appendTailRows is the share of a partition below which an appended batch
// goes to the partition's tail as rows rather than becoming a sealed batch
// of its own, so that many small appends do not leave many tiny batches.
const appendTailRows = 256

// ArrowSchema is the Arrow schema of a table's stored batches: one field
// per column, in order, of the Arrow type that holds the column's kind. An
// OpAppend batch must have exactly these field types.
func ArrowSchema(s *Schema) *arrow.Schema { return arrowSchema(s) }

// NewColumnBuilder returns an Arrow builder for values of kind k, as
// ArrowSchema lays them out. AppendValue adds storage values to it.
func NewColumnBuilder(k Kind) array.Builder {
	return array.NewBuilder(memory.DefaultAllocator, arrowType(k))
}

// AppendValue appends one storage value (nil for NULL) to a builder made by
// NewColumnBuilder for the value's kind; a value of another kind panics.
func AppendValue(b array.Builder, v any) { appendColumn(b, []Row{{v}}, 0) }

// ScanRecords calls fn with the live rows of a table as Arrow record
// batches of ArrowSchema's layout, seen at one instant as ScanTable sees
// them and in the same order. A batch is valid only during its call; fn
// must copy what it keeps (Retain is not enough for batches with deleted
// rows, which are built for the call).
func (s *Store) ScanRecords(ctx context.Context, db, table string, fn func(rec arrow.RecordBatch) error) error {
	_, err := s.ScanIdentified(ctx, db, table, func(rec arrow.RecordBatch, _ []string) error { return fn(rec) })
	return err
}

// ScanIdentified is ScanRecords with each batch's row identities, and the
// table's mark (Writes) at the instant the scan reads.
func (s *Store) ScanIdentified(ctx context.Context, db, table string, fn func(rec arrow.RecordBatch, ids []string) error) (WriteMark, error) {
	s.mu.RLock()
	t, err := s.table(db, table)
	if err != nil {
		s.mu.RUnlock()
		return WriteMark{}, err
	}
	writes := t.mark
	sch := t.asch
	cursors := make([]*Cursor, partitionCount)
	for i := range cursors {
		cursors[i] = t.cursor(i)
	}
	s.mu.RUnlock()
	defer func() {
		for _, c := range cursors {
			c.Close()
		}
	}()
	for _, c := range cursors {
		for _, v := range c.batches {
			if err := ctx.Err(); err != nil {
				return writes, err
			}
			rec, ids := v.b.rec, v.b.ids
			if v.deleted != nil {
				live := make([]int, 0, len(v.b.ids))
				ids = make([]string, 0, len(v.b.ids))
				for i := range v.b.ids {
					if !isSet(v.deleted, i) {
						live = append(live, i)
						ids = append(ids, v.b.ids[i])
					}
				}
				if len(live) == 0 {
					continue
				}
				rec = takeRecord(sch, v.b.cols, live)
			}
			err := fn(rec, ids)
			if v.deleted != nil {
				rec.Release()
			}
			if err != nil {
				return writes, err
			}
		}
		if len(c.tail) > 0 {
			// A small table lives in its tails: building them anew for
			// every scan was a tenth of a training call on 442 rows.
			tr := c.tailRecord()
			if err := fn(tr.rec, tr.ids); err != nil {
				return writes, err
			}
		}
	}
	return writes, nil
}

// takeRecord copies the rows at idx of a batch's columns into a new batch.
func takeRecord(sch *arrow.Schema, cols []arrow.Array, idx []int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for c, f := range b.Fields() {
		f.Reserve(len(idx))
		takeColumn(f, cols[c], idx)
	}
	return b.NewRecordBatch()
}

func takeColumn(f array.Builder, a arrow.Array, idx []int) {
	switch fb := f.(type) {
	case *array.Int64Builder:
		take(fb, a.(*array.Int64), idx)
	case *array.Uint64Builder:
		take(fb, a.(*array.Uint64), idx)
	case *array.Float32Builder:
		take(fb, a.(*array.Float32), idx)
	case *array.Float64Builder:
		take(fb, a.(*array.Float64), idx)
	case *array.LargeStringBuilder:
		take(fb, a.(*array.LargeString), idx)
	case *array.BinaryBuilder:
		take(fb, a.(*array.LargeBinary), idx)
	case *array.TimestampBuilder:
		take(fb, a.(*array.Timestamp), idx)
	default:
		panic(fmt.Sprintf("storage: no take for builder %T", f))
	}
}

// take appends the values of src at idx to dst, NULLs included.
func take[T any](dst interface {
	Append(T)
	AppendNull()
}, src interface {
	IsNull(int) bool
	Value(int) T
}, idx []int) {
	for _, i := range idx {
		if src.IsNull(i) {
			dst.AppendNull()
		} else {
			dst.Append(src.Value(i))
		}
	}
}

// checkRecord reports why a batch cannot be appended to t: a column count
// or Arrow type other than ArrowSchema's, or a NULL in a NOT NULL column.
func (t *Table) checkRecord(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(t.schema.Columns) {
		return fmt.Errorf("%w: table %q has %d columns, batch has %d", ErrBadValue, t.name, len(t.schema.Columns), rec.NumCols())
	}
	for i, c := range t.schema.Columns {
		a := rec.Column(i)
		if !arrow.TypeEqual(a.DataType(), t.asch.Field(i).Type) {
			return fmt.Errorf("%w: column %q of kind %v got Arrow %v", ErrBadValue, c.Name, c.Kind, a.DataType())
		}
		if !c.Nullable && a.NullN() > 0 {
			return fmt.Errorf("%w: column %q", ErrNotNull, c.Name)
		}
	}
	return nil
}

// appendable says whether an appended batch can skip the per-row insert
// path: duplicates must be found by identity alone, which holds for
// keyless tables and exact primary keys without other unique indexes.
func (t *Table) appendable() bool {
	if t.primary != nil && !t.exactKey {
		return false
	}
	for _, x := range t.indexes {
		if x.unique {
			return false
		}
	}
	return true
}

// recordRows boxes every row of a batch.
func recordRows(rec arrow.RecordBatch) []Row {
	rows := make([]Row, rec.NumRows())
	for i := range rows {
		rows[i] = rowAt(rec.Columns(), i)
	}
	return rows
}

// appendRecord applies an OpAppend: the same change as inserting the
// batch's rows one by one, without boxing them. Each row's place is
// decided and entered in the identity map in one pass that also finds
// duplicate keys; then each partition's share becomes a sealed batch
// (small shares go to the tail as rows) and the rows are entered in the
// indexes. Nothing changes when it fails. sizeHint is how many rows the
// table is expected to hold once a run of appends is done, or 0.
func (t *Table) appendRecord(rec arrow.RecordBatch, rowIDs []uint64, u *undo, sizeHint int) error {
	if err := t.checkRecord(rec); err != nil {
		return err
	}
	n := int(rec.NumRows())
	keyless := t.primary == nil
	if keyless && len(rowIDs) != n {
		return fmt.Errorf("%w: keyless append to %s needs one row id per row", ErrBadValue, t.name)
	}
	if !t.appendable() {
		return t.insertRows(recordRows(rec), rowIDs, u)
	}
	cols := rec.Columns()
	ids := t.identities(cols, rowIDs, n)
	part := make([]uint8, n)
	var counts [partitionCount]int
	for i, id := range ids {
		pi := partitionOf(id)
		part[i] = uint8(pi)
		counts[pi]++
	}
	// Where each partition's share goes: a new batch after the existing
	// ones, or the end of the tail.
	var next [partitionCount]loc
	for pi, c := range counts {
		p := t.parts[pi]
		if c >= appendTailRows {
			next[pi] = loc{part: int32(pi), batch: int32(len(p.batches))}
		} else {
			next[pi] = loc{part: int32(pi), batch: -1, idx: int32(len(p.tail))}
		}
	}
	if t.locs.len() == 0 {
		// A first append (as to a table just created for it) sizes the
		// map once instead of growing it through every doubling: for the
		// rows the caller expects the table to take, or for the batch's.
		t.locs = newLocMap(t.intKeyed(), max(n, sizeHint))
	}
	for i, id := range ids {
		if _, dup := t.locs.get(id); dup {
			for _, placed := range ids[:i] {
				t.locs.del(placed)
			}
			return &DuplicateError{Index: "PRIMARY", Key: t.keyString(t.primary, rowAt(cols, i)), Existing: id}
		}
		pi := part[i]
		t.locs.set(id, next[pi])
		next[pi].idx++
	}
	for pi, c := range counts {
		if c == 0 {
			continue
		}
		var idx []int
		if c < n {
			idx = make([]int, 0, c)
			for i := range part {
				if int(part[i]) == pi {
					idx = append(idx, i)
				}
			}
		}
		p := t.parts[pi]
		if c < appendTailRows {
			if idx == nil {
				idx = make([]int, n)
				for i := range idx {
					idx[i] = i
				}
			}
			for _, i := range idx {
				r := rowAt(cols, i)
				p.tail = append(p.tail, r)
				p.tailIDs = append(p.tailIDs, ids[i])
				t.register(r, ids[i])
			}
			if len(p.tail)-p.tailDel >= sealRows {
				t.seal(pi)
			}
			continue
		}
		var sub arrow.RecordBatch
		pids := ids
		if c == n {
			// The whole batch belongs here, as when it was read from a
			// table with the same key: it is kept as it is.
			sub = array.NewRecordBatch(t.asch, cols, int64(n))
		} else {
			pids = make([]string, c)
			for k, i := range idx {
				pids[k] = ids[i]
			}
			sub = takeRecord(t.asch, cols, idx)
		}
		p.batches = append(p.batches, &batch{rec: sub, cols: sub.Columns(), ids: pids, deleted: make([]uint64, (c+63)/64)})
		if idx == nil {
			for i := range n {
				t.registerAt(cols, i, ids[i])
			}
			continue
		}
		for _, i := range idx {
			t.registerAt(cols, i, ids[i])
		}
	}
	if keyless {
		for _, rid := range rowIDs {
			if rid >= t.nextRowID {
				t.nextRowID = rid + 1
			}
		}
	}
	u.steps = append(u.steps, func() {
		for _, id := range ids {
			t.delete(id)
		}
	})
	return nil
}

// identities returns the identity of each row of a batch, as identity
// would give it, cut from one string.
func (t *Table) identities(cols []arrow.Array, rowIDs []uint64, n int) []string {
	var buf []byte
	ends := make([]int, n)
	switch {
	case t.primary == nil:
		buf = make([]byte, 0, 4*n)
		for i := range ends {
			buf = binary.AppendUvarint(append(buf, tagUint64), rowIDs[i])
			ends[i] = len(buf)
		}
	case t.primary.ints != nil && cols[t.primary.cols[0]].NullN() == 0:
		keys := cols[t.primary.cols[0]].(*array.Int64).Int64Values()
		buf = make([]byte, 0, 4*n)
		for i := range ends {
			buf = binary.AppendVarint(append(buf, tagInt64), keys[i])
			ends[i] = len(buf)
		}
	default:
		var e encoder
		for i := range ends {
			for _, c := range t.primary.cols {
				e.value(columnValue(cols[c], i))
			}
			ends[i] = len(e.buf)
		}
		buf = e.buf
	}
	all := string(buf)
	ids := make([]string, n)
	start := 0
	for i, end := range ends {
		ids[i] = all[start:end]
		start = end
	}
	return ids
}

// rowAt boxes row i of a batch's columns.
func rowAt(cols []arrow.Array, i int) Row {
	r := make(Row, len(cols))
	for c, a := range cols {
		r[c] = columnValue(a, i)
	}
	return r
}

// registerAt is register for row i of a batch already placed in a
// partition: only the columns the indexes and counters need are boxed.
func (t *Table) registerAt(cols []arrow.Array, i int, id string) {
	if t.primary == nil {
		if t.content != nil {
			ck := EncodeKey(rowAt(cols, i))
			t.content[ck] = append(t.content[ck], id)
		}
	} else if t.primary.ints != nil {
		t.primary.insertInt(cols[t.primary.cols[0]].(*array.Int64).Value(i))
	} else {
		t.primary.insertVals(valsAt(cols, t.primary.cols, i), id)
	}
	for _, x := range t.indexes {
		x.insertVals(valsAt(cols, x.cols, i), id)
	}
	if t.autoCol >= 0 {
		if n, ok := autoValue(columnValue(cols[t.autoCol], i)); ok && n >= t.autoInc && n < ^uint64(0) {
			t.autoInc = n + 1
		}
	}
	t.nrows++
}

func valsAt(cols []arrow.Array, ords []int, i int) []any {
	vals := make([]any, len(ords))
	for k, c := range ords {
		vals[k] = columnValue(cols[c], i)
	}
	return vals
}

// record appends a batch as a length and an Arrow IPC stream (schema, then
// the one batch). The stream is measured first, which copies nothing, so
// that it can then be written straight into the command after its length:
// written to a buffer of its own, the batch was copied twice more.
func (e *encoder) record(rec arrow.RecordBatch) {
	var n countingWriter
	writeRecord(&n, rec)
	e.uvarint(uint64(n))
	start := len(e.buf)
	writeRecord((*appendingWriter)(e), rec)
	if len(e.buf)-start != int(n) {
		panic(fmt.Sprintf("storage: encode batch: measured %d bytes, wrote %d", n, len(e.buf)-start))
	}
}

func writeRecord(w io.Writer, rec arrow.RecordBatch) {
	iw := ipc.NewWriter(w, ipc.WithSchema(rec.Schema()))
	if err := iw.Write(rec); err != nil {
		panic(fmt.Sprintf("storage: encode batch: %v", err))
	}
	if err := iw.Close(); err != nil {
		panic(fmt.Sprintf("storage: encode batch: %v", err))
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

type appendingWriter encoder

func (a *appendingWriter) Write(p []byte) (int, error) {
	a.buf = append(a.buf, p...)
	return len(p), nil
}

// recordBytes bounds the size of a batch's IPC stream from above: its
// buffers, padded to 64 bytes each, plus room for the schema and headers.
func recordBytes(rec arrow.RecordBatch) int {
	n := 4096
	for _, a := range rec.Columns() {
		for _, b := range a.Data().Buffers() {
			if b != nil {
				n += b.Len() + 64
			}
		}
	}
	return n
}

// decodeRecord reads what encodeRecord wrote. Malformed input is an error,
// never a panic, and so is a stream holding other than one batch.
func decodeRecord(b []byte) (rec arrow.RecordBatch, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("%w: batch: %v", ErrCorrupt, p)
		}
	}()
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: batch: %v", ErrCorrupt, err)
	}
	defer r.Release()
	if !r.Next() {
		return nil, fmt.Errorf("%w: batch: no record: %v", ErrCorrupt, r.Err())
	}
	rec = r.RecordBatch()
	rec.Retain()
	if r.Next() {
		rec.Release()
		return nil, fmt.Errorf("%w: batch: more than one record", ErrCorrupt)
	}
	for i, a := range rec.Columns() {
		if a.Len() != int(rec.NumRows()) {
			rec.Release()
			return nil, fmt.Errorf("%w: batch: column %d has %d rows of %d", ErrCorrupt, i, a.Len(), rec.NumRows())
		}
		if err := validateArray(a); err != nil {
			rec.Release()
			return nil, fmt.Errorf("%w: batch: column %d: %v", ErrCorrupt, i, err)
		}
	}
	return rec, nil
}

// validateArray checks the buffers of the array kinds storage uses against
// their length, so reading a value cannot run past them. Strings are not
// required to be UTF-8, as the row path does not require it either.
func validateArray(a arrow.Array) error {
	var offsets []int64
	switch x := a.(type) {
	case *array.LargeString:
		if err := x.Validate(); err != nil {
			return err
		}
		offsets = x.ValueOffsets()
	case *array.LargeBinary:
		if err := x.Validate(); err != nil {
			return err
		}
		offsets = x.ValueOffsets()
	}
	if offsets != nil {
		for i := 1; i < len(offsets); i++ {
			if offsets[i] < offsets[i-1] || offsets[i-1] < 0 {
				return fmt.Errorf("offsets decrease at %d", i)
			}
		}
		return nil
	}
	if s, ok := a.(*array.Struct); ok {
		return validateStruct(s)
	}
	d := a.Data()
	width := 0
	switch a.DataType().ID() {
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.TIMESTAMP:
		width = 8
	case arrow.FLOAT32:
		width = 4
	default:
		return fmt.Errorf("unexpected type %v", a.DataType())
	}
	bufs := d.Buffers()
	end := d.Offset() + d.Len()
	if len(bufs) < 2 || bufs[1] == nil || bufs[1].Len() < end*width {
		return fmt.Errorf("value buffer too short")
	}
	if d.NullN() > 0 && (bufs[0] == nil || bufs[0].Len()*8 < end) {
		return fmt.Errorf("validity buffer too short")
	}
	return nil
}

// validateStruct checks a struct column (JSON, jsontext.go): its
// validity buffer and each member's buffers, which must hold as many rows
// as the struct.
func validateStruct(s *array.Struct) error {
	if err := checkJSONType(s.DataType()); err != nil {
		return err
	}
	d := s.Data()
	if bufs := d.Buffers(); d.NullN() > 0 && (len(bufs) < 1 || bufs[0] == nil || bufs[0].Len()*8 < d.Offset()+d.Len()) {
		return fmt.Errorf("validity buffer too short")
	}
	for k := 0; k < s.NumField(); k++ {
		c := s.Field(k)
		if c.Len() < s.Len() {
			return fmt.Errorf("member %d has %d rows of %d", k, c.Len(), s.Len())
		}
		if err := validateArray(c); err != nil {
			return fmt.Errorf("member %d: %w", k, err)
		}
	}
	return nil
}

// ColumnValue reads value i of a column of ArrowSchema's layout as a
// storage value (nil for NULL); binary values are copied.
func ColumnValue(a arrow.Array, i int) any { return columnValue(a, i) }
