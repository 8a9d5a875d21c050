package storage

import (
	"math"
	"slices"
	"strings"

	"github.com/google/btree"
)

// intEntry is one row's key in a secondary index on one BIGINT-like
// column (index.keys). The key is held in place rather than boxed in a
// slice of values, so a search compares two integers where an
// indexEntry follows two pointers and calls the column's comparison:
// point lookups, what a lookup join makes for each outer row, took
// about a third of the time (BenchmarkLookupSecondary).
type intEntry struct {
	id   string
	k    int64
	pk   int64 // the primary key when it is one integer (id is intID(pk))
	null bool  // the key is NULL, which sorts before every number
	pos  int8  // as indexEntry's: -1 or +1 for search pivots
}

func lessIntEntry(a, b intEntry) bool {
	if a.null != b.null {
		return a.null
	}
	if !a.null && a.k != b.k {
		return a.k < b.k
	}
	if a.pos != b.pos {
		return a.pos < b.pos
	}
	return strings.Compare(a.id, b.id) < 0
}

func newIntKeyIndex(def *IndexDef, col int, cmp CompareFunc, unique bool) *index {
	x := &index{def: def, cols: []int{col}, cmps: []CompareFunc{cmp}, unique: unique}
	x.keys = btree.NewG[intEntry](32, lessIntEntry)
	return x
}

// intKey is the entry for key value v; ok is false for a value that is
// neither NULL nor an int64, which no row of the column holds.
func intKey(v any, id string, pos int8) (e intEntry, ok bool) {
	e = intEntry{id: id, pos: pos}
	// Kept beside the key, the primary key spares a lookup reading the
	// identity's bytes, a cache miss an entry.
	e.pk, _ = intIDKey(id)
	if v == nil {
		e.null = true
		return e, true
	}
	e.k, ok = v.(int64)
	return e, ok
}

func (e intEntry) value() any {
	if e.null {
		return nil
	}
	return e.k
}

// intCutAbove is cutAbove for an entry, comparing in place when the cut's
// key is an int64.
func (x *index) intCutAbove(c Cut, e intEntry) bool {
	k, isInt := c.Key.(int64)
	switch {
	case c.Kind == CutBelow && isInt:
		return e.null || e.k < k
	case c.Kind == CutAbove && isInt:
		return e.null || e.k <= k
	}
	return cutAbove(c, e.value(), x.cmps[0])
}

// scanKeys is scan over keys, giving the entries.
func (x *index) scanKeys(r Range, fn func(e intEntry) bool) {
	if len(r) == 0 {
		x.keys.Ascend(fn)
		return
	}
	lo, hi := r[0].Lo, r[0].Hi
	visit := func(e intEntry) bool {
		if !x.intCutAbove(hi, e) {
			return false
		}
		return fn(e)
	}
	k, isInt := lo.Key.(int64)
	switch {
	case lo.Kind == CutBelowNull:
		x.keys.Ascend(visit)
	case lo.Kind == CutAboveNull:
		x.keys.AscendGreaterOrEqual(intEntry{k: math.MinInt64, pos: -1}, visit)
	case lo.Kind == CutBelow && isInt:
		x.keys.AscendGreaterOrEqual(intEntry{k: k, pos: -1}, visit)
	case lo.Kind == CutAbove && isInt:
		x.keys.AscendGreaterOrEqual(intEntry{k: k, pos: 1}, visit)
	case lo.Kind == CutAboveAll:
	default:
		// A cut at a value of another type: compare through the
		// column's function from the first number.
		x.keys.AscendGreaterOrEqual(intEntry{k: math.MinInt64, pos: -1}, func(e intEntry) bool {
			if !cutBelow(lo, e.k, x.cmps[0]) {
				return true
			}
			return visit(e)
		})
	}
}

// equalKeys is equal over keys.
func (x *index) equalKeys(v any, fn func(id string) bool) {
	e, ok := intKey(v, "", -1)
	if !ok || e.null {
		return
	}
	x.keys.AscendGreaterOrEqual(e, func(got intEntry) bool {
		return !got.null && got.k == e.k && fn(got.id)
	})
}

// covers reports whether a lookup through x can make the rows it gives
// from x's entries alone: the table's primary key is one integer column,
// which each entry's identity (or, for the integer indexes, the entry
// itself) holds, and need marks no column but those and x's own.
func (t *Table) covers(x *index, need []bool) bool {
	if !t.intKeyed() || len(need) != len(t.schema.Columns) {
		return false
	}
	for c, n := range need {
		if n && c != t.primary.cols[0] && !slices.Contains(x.cols, c) {
			return false
		}
	}
	return true
}

// scanCovered is scan over an index that covers a lookup (t.covers),
// giving each row's identity and the row made from the entry, width
// columns wide with the primary key in column pk.
func (x *index) scanCovered(r Range, width, pk int, fn func(id string, row Row) bool) {
	switch {
	case x.ints != nil:
		x.scanInts(r, func(k int64) bool {
			row := make(Row, width)
			row[pk] = k
			return fn(intID(k), row)
		})
	case x.keys != nil:
		x.scanKeys(r, func(e intEntry) bool {
			row := make(Row, width)
			row[x.cols[0]] = e.value()
			row[pk] = e.pk
			return fn(e.id, row)
		})
	default:
		x.scanTree(r, func(e indexEntry) bool {
			row := make(Row, width)
			for i, c := range x.cols {
				row[c] = e.vals[i]
			}
			row[pk], _ = intIDKey(e.id)
			return fn(e.id, row)
		})
	}
}

// rowColumns is rowAt reading only the columns need marks (every column
// when need is nil), into a row of the caller's own: a row of the tail
// is copied whole.
func (t *Table) rowColumns(l loc, need []bool) Row {
	p := t.parts[l.part]
	if l.batch < 0 {
		return slices.Clone(p.tail[l.idx])
	}
	return p.batches[l.batch].rowOf(int(l.idx), need)
}

// rowOf is row i reading only the columns need marks, every column when
// need is empty or nil.
func (b *batch) rowOf(i int, need []bool) Row {
	r := make(Row, len(b.cols))
	for c, a := range b.cols {
		if c >= len(need) || need[c] {
			r[c] = columnValue(a, i)
		}
	}
	return r
}
