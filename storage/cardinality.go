package storage

// cardinalityLimit is the most index entries Cardinality reads; past it
// the counts are scaled up from the entries read, as an estimate, so
// that the store's read lock is held for a bounded time.
var cardinalityLimit = 1 << 20

// Cardinality gives, for the table's index indexName (the primary key
// for "" or PRIMARY), the number of distinct values of each leading run
// of its columns: of the first column, of the first two, and so on, with
// NULLs counted as one value. It is what MySQL's SHOW INDEX calls an
// index's cardinality: exact for an index of up to cardinalityLimit
// entries, estimated from its first cardinalityLimit entries above that.
func (s *Store) Cardinality(db, table, indexName string) ([]uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, x, err := s.indexOf(db, table, indexName)
	if err != nil {
		return nil, err
	}
	return x.cardinality(t.nrows), nil
}

// cardinality counts the distinct leading runs of x's columns among the
// first cardinalityLimit entries in index order, scaled to rows when
// there are more.
func (x *index) cardinality(rows int) []uint64 {
	counts := make([]uint64, len(x.cols))
	read := 0
	switch {
	case x.ints != nil:
		// A primary key of one integer: every key differs.
		counts[0] = uint64(x.ints.Len())
		return counts
	case x.keys != nil:
		var prev intEntry
		x.keys.Ascend(func(e intEntry) bool {
			if read == 0 || e.null != prev.null || !e.null && e.k != prev.k {
				counts[0]++
			}
			prev, read = e, read+1
			return read < cardinalityLimit
		})
	default:
		var prev []any
		x.tree.Ascend(func(e indexEntry) bool {
			same := 0 // the leading columns equal to the previous entry's
			for read > 0 && same < len(counts) && sameKey(prev[same], e.vals[same], x.cmps[same]) {
				same++
			}
			for k := same; k < len(counts); k++ {
				counts[k]++
			}
			prev, read = e.vals, read+1
			return read < cardinalityLimit
		})
	}
	if read >= cardinalityLimit && rows > read {
		for k := range counts {
			counts[k] = uint64(float64(counts[k]) * float64(rows) / float64(read))
		}
	}
	return counts
}

// sameKey says whether two values of an index column are one value for
// counting, NULL being one with NULL.
func sameKey(a, b any, cmp CompareFunc) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return cmp(a, b) == 0
}
