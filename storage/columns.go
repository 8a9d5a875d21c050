package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Errors of the columnar scan.
var (
	ErrNotNumeric = errors.New("storage: column is not numeric")
	ErrNullValue  = errors.New("storage: NULL value")
)

// numeric reports whether a kind can be read as float64 by ScanFloat64.
func numeric(k Kind) bool {
	return k == KindInt64 || k == KindUint64 || k == KindFloat32 || k == KindFloat64
}

// chunkSnap is one partition as it stood when a columnar scan began: its
// sealed batches (retained, so compaction cannot free them under us), the
// delete markers copied, and the live tail rows already converted.
type chunkSnap struct {
	batches []batchView
	tail    [][]float64 // per requested column
	tailN   int
}

// ScanFloat64 reads the live rows of a table column by column, as float64,
// without building a row per value. It visits partitions in the order Scan
// numbers them and, inside each, the sealed batches and then the tail, so
// the rows come in the same order as Scan's cursors yield them. fn gets n
// rows and one slice of n values per requested column; the slices may alias
// Arrow buffers and are valid only during the call. Columns must be of a
// numeric kind (ErrNotNumeric otherwise) and hold no NULL among the live
// rows (ErrNullValue); both errors name the column.
func (s *Store) ScanFloat64(ctx context.Context, db, table string, cols []int, fn func(n int, cols [][]float64) error) error {
	snaps, names, err := s.snapshotColumns(db, table, cols)
	if err != nil {
		return err
	}
	defer func() {
		for _, p := range snaps {
			for _, v := range p.batches {
				v.b.rec.Release()
			}
		}
	}()
	out := make([][]float64, len(cols))
	var scratch [][]float64
	for _, p := range snaps {
		for _, v := range p.batches {
			if err := ctx.Err(); err != nil {
				return err
			}
			n := len(v.b.ids)
			live := n
			if v.deleted != nil {
				live = n - popcount(v.deleted, n)
			}
			if live == 0 {
				continue
			}
			if scratch == nil {
				scratch = make([][]float64, len(cols))
			}
			for k, c := range cols {
				a := v.b.cols[c]
				if a.NullN() > 0 && nullAmongLive(a, v.deleted) {
					return fmt.Errorf("%w in column %q of %s.%s", ErrNullValue, names[k], db, table)
				}
				if f, ok := a.(*array.Float64); ok && v.deleted == nil {
					out[k] = f.Float64Values()
					continue
				}
				if cap(scratch[k]) < live {
					scratch[k] = make([]float64, live)
				}
				out[k] = gather(scratch[k][:live], a, v.deleted)
			}
			if err := fn(live, out); err != nil {
				return err
			}
		}
		if p.tailN > 0 {
			if err := fn(p.tailN, p.tail); err != nil {
				return err
			}
		}
	}
	return nil
}

// snapshotColumns takes what a columnar scan needs under the read lock and
// nothing more, so writers wait only for the copy of the small tails.
func (s *Store) snapshotColumns(db, table string, cols []int) ([]chunkSnap, []string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(cols))
	for k, c := range cols {
		if c < 0 || c >= len(t.schema.Columns) {
			return nil, nil, fmt.Errorf("%w: ordinal %d in %s.%s", ErrColumnNotFound, c, db, table)
		}
		col := t.schema.Columns[c]
		names[k] = col.Name
		if !numeric(col.Kind) {
			return nil, nil, fmt.Errorf("%w: column %q of %s.%s holds %v", ErrNotNumeric, col.Name, db, table, col.Kind)
		}
	}
	snaps := make([]chunkSnap, len(t.parts))
	for pi, p := range t.parts {
		sp := &snaps[pi]
		for _, b := range p.batches {
			if b.ndel == len(b.ids) {
				continue
			}
			b.rec.Retain()
			v := batchView{b: b}
			if b.ndel > 0 {
				v.deleted = append([]uint64(nil), b.deleted...)
			}
			sp.batches = append(sp.batches, v)
		}
		live := len(p.tail) - p.tailDel
		if live == 0 {
			continue
		}
		sp.tail = make([][]float64, len(cols))
		for k := range cols {
			sp.tail[k] = make([]float64, 0, live)
		}
		for _, r := range p.tail {
			if r == nil {
				continue
			}
			for k, c := range cols {
				f, ok := toFloat(r[c])
				if !ok {
					for _, x := range snaps[:pi+1] {
						for _, v := range x.batches {
							v.b.rec.Release()
						}
					}
					return nil, nil, fmt.Errorf("%w in column %q of %s.%s", ErrNullValue, names[k], db, table)
				}
				sp.tail[k] = append(sp.tail[k], f)
			}
		}
		sp.tailN = live
	}
	return snaps, names, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

func isSet(bits []uint64, i int) bool { return bits[i>>6]&(1<<(uint(i)&63)) != 0 }

func popcount(bits []uint64, n int) int {
	c := 0
	for i := 0; i < n; i++ {
		if isSet(bits, i) {
			c++
		}
	}
	return c
}

func nullAmongLive(a arrow.Array, deleted []uint64) bool {
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) && (deleted == nil || !isSet(deleted, i)) {
			return true
		}
	}
	return false
}

// gather converts the live values of a numeric Arrow column into dst.
func gather(dst []float64, a arrow.Array, deleted []uint64) []float64 {
	k := 0
	put := func(i int, f float64) {
		if deleted == nil || !isSet(deleted, i) {
			dst[k] = f
			k++
		}
	}
	switch c := a.(type) {
	case *array.Float64:
		for i, f := range c.Float64Values() {
			put(i, f)
		}
	case *array.Float32:
		for i, f := range c.Float32Values() {
			put(i, float64(f))
		}
	case *array.Int64:
		for i, x := range c.Int64Values() {
			put(i, float64(x))
		}
	case *array.Uint64:
		for i, x := range c.Uint64Values() {
			put(i, float64(x))
		}
	default:
		panic(fmt.Sprintf("storage: gather from %T", a))
	}
	return dst[:k]
}
