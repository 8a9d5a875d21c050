package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// An OpAppendFrom appends rows whose leading columns are another table's
// stored rows, named by identity in Keys, and whose remaining columns are
// the op's Batch: what ML_PREDICT_TABLE writes, the input rows with a
// prediction after them. The log then carries each copied row as its key
// rather than its values. Every node holds the same source rows at the
// op's place in the log, so every node appends the same rows; a key that
// names no row fails the command everywhere alike.
//
// The rows are those the source holds when the op is applied. A writer
// that computed the op's columns from rows it read earlier must make sure
// no write reached the source in between: Writes counts them.

// appendFrom applies an OpAppendFrom to t; batch is the op's with its
// JSON columns written (jsonColumns).
func (s *Store) appendFrom(t *Table, op *Op, batch arrow.RecordBatch, u *undo) error {
	src, err := s.table(op.FromDB, op.FromTable)
	if err != nil {
		return err
	}
	if src == t {
		return fmt.Errorf("%w: %s appends rows of itself", ErrBadValue, t.name)
	}
	n := len(src.schema.Columns)
	if len(t.schema.Columns) != n+int(batch.NumCols()) {
		return fmt.Errorf("%w: %s has %d columns, not the %d of %s and the %d appended", ErrBadValue,
			t.name, len(t.schema.Columns), n, src.name, batch.NumCols())
	}
	for i := range n {
		if !arrow.TypeEqual(src.asch.Field(i).Type, t.asch.Field(i).Type) {
			return fmt.Errorf("%w: column %q of %s is not stored as column %q of %s", ErrBadValue,
				t.schema.Columns[i].Name, t.name, src.schema.Columns[i].Name, src.name)
		}
	}
	if int(batch.NumRows()) != len(op.Keys) {
		return fmt.Errorf("%w: %d keys for %d appended rows", ErrBadValue, len(op.Keys), batch.NumRows())
	}
	rows, err := src.gather(op.Keys)
	if err != nil {
		return err
	}
	defer rows.Release()
	for i, a := range batch.Columns() {
		if !arrow.TypeEqual(a.DataType(), t.asch.Field(n+i).Type) {
			return fmt.Errorf("%w: column %q of kind %v got Arrow %v", ErrBadValue,
				t.schema.Columns[n+i].Name, t.schema.Columns[n+i].Kind, a.DataType())
		}
	}
	cols := append(append(make([]arrow.Array, 0, len(t.schema.Columns)), rows.Columns()...), batch.Columns()...)
	rec := array.NewRecordBatch(t.asch, cols, int64(len(op.Keys)))
	defer rec.Release()
	// Such a target is most often being filled with a copy of every
	// source row, in one command per stored batch.
	return t.appendRecord(rec, op.RowIDs, u, min(src.nrows, 1<<22))
}

// gather returns the rows of t that keys name, in that order, as one batch
// of t's layout. Keys that name consecutive rows of a stored batch, as a
// scan of the table gives them, are sliced from it without a copy.
func (t *Table) gather(keys []string) (arrow.RecordBatch, error) {
	type piece struct {
		b      *batch // nil for tail rows
		lo, hi int
		rows   []Row
	}
	var pieces []piece
	for i := 0; i < len(keys); {
		l, ok := t.locs.get(keys[i])
		if !ok {
			return nil, fmt.Errorf("%w: a row of %s that the append copies is gone", ErrConflict, t.name)
		}
		p := t.parts[l.part]
		if l.batch < 0 {
			r := p.tail[l.idx]
			if k := len(pieces) - 1; k >= 0 && pieces[k].b == nil {
				pieces[k].rows = append(pieces[k].rows, r)
			} else {
				pieces = append(pieces, piece{rows: []Row{r}})
			}
			i++
			continue
		}
		b := p.batches[l.batch]
		lo, hi := int(l.idx), int(l.idx)+1
		for i++; i < len(keys) && hi < len(b.ids) && b.ids[hi] == keys[i] && !b.isDeleted(hi); i++ {
			hi++
		}
		pieces = append(pieces, piece{b: b, lo: lo, hi: hi})
	}
	recs := make([]arrow.RecordBatch, len(pieces))
	defer func() {
		for _, r := range recs {
			if r != nil {
				r.Release()
			}
		}
	}()
	for i, pc := range pieces {
		if pc.b != nil {
			recs[i] = pc.b.rec.NewSlice(int64(pc.lo), int64(pc.hi))
		} else {
			recs[i] = buildRecord(memory.DefaultAllocator, t.asch, pc.rows)
		}
	}
	switch len(recs) {
	case 0:
		return buildRecord(memory.DefaultAllocator, t.asch, nil), nil
	case 1:
		r := recs[0]
		recs[0] = nil
		return r, nil
	}
	cols := make([]arrow.Array, len(t.schema.Columns))
	parts := make([]arrow.Array, len(recs))
	for c := range cols {
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			for _, done := range cols[:c] {
				done.Release()
			}
			return nil, err
		}
		cols[c] = a
	}
	rec := array.NewRecordBatch(t.asch, cols, int64(len(keys)))
	for _, a := range cols {
		a.Release()
	}
	return rec, nil
}

// WriteMark names a table, and how many commands have been applied to
// it: two marks are equal only if no command reached the table, nor any
// other took its name, in between.
type WriteMark struct{ table, writes uint64 }

// Writes is the mark of the table that has the name now, zero if none.
// A reader that reads the same mark before and after some work knows
// that no write reached the table in between: a write, a schema change,
// a drop and recreate, a rename onto the name, a snapshot restore.
func (s *Store) Writes(db, table string) WriteMark {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return WriteMark{}
	}
	return t.mark
}
