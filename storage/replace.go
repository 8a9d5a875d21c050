package storage

import (
	"fmt"
	"hash/fnv"
)

// Fingerprint sums up a table's rows and their identities, in any order:
// two sets of rows have the same fingerprint only if they are the same
// (but for a chance of about 2^-64). OpReplaceTable carries the
// fingerprint of the rows its new table was computed from, so that a
// write that committed after they were read fails the replacement
// instead of being lost. It depends on the rows alone, so every replica
// decides alike.
func Fingerprint(rows []Row, ids []string) uint64 {
	var sum uint64
	var e encoder
	for i, r := range rows {
		e.buf = e.buf[:0]
		e.string(ids[i])
		e.row(r)
		h := fnv.New64a()
		h.Write(e.buf)
		sum += h.Sum64()
	}
	return sum ^ uint64(len(rows))*0x9e3779b97f4a7c15
}

// replaceTable applies OpReplaceTable: t becomes a table of op.Schema and
// op.Indexes holding op.Rows, as long as t still holds the rows op was
// computed from. The new table is built aside, so a failure (a key held
// twice, a value its column cannot hold) leaves t as it was.
func (s *Store) replaceTable(t *Table, op *Op) error {
	rows, ids := t.allRows()
	if Fingerprint(rows, ids) != op.Fingerprint {
		return fmt.Errorf("%w: table %s changed during ALTER TABLE; retry", ErrConflict, t.name)
	}
	nt, err := s.newTableOf(t.db, t.name, op.Schema, op.Indexes)
	if err != nil {
		return err
	}
	if err := nt.insertRows(op.Rows, op.RowIDs, &undo{}); err != nil {
		nt.release()
		return err
	}
	// The counter never moves back, nor to a value a row holds.
	next := max(op.AutoInc, t.autoInc)
	if nt.autoCol >= 0 {
		for _, r := range op.Rows {
			if v, ok := autoValue(r[nt.autoCol]); ok && v >= next {
				next = v + 1
			}
		}
	}
	nt.autoInc = next
	nt.nextRowID = max(nt.nextRowID, t.nextRowID)
	t.release()
	*t = *nt
	s.resetAlloc(t.db, t.name)
	return nil
}
