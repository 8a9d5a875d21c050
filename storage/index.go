package storage

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/google/btree"
)

// CutKind places a cut on the ordered line of a column's values, on which
// NULL sorts before every other value.
type CutKind uint8

const (
	CutBelowNull CutKind = iota // before everything, NULL included
	CutAboveNull                // after NULL, before every non-NULL value
	CutBelow                    // just before Key
	CutAbove                    // just after Key
	CutAboveAll                 // after everything
)

// Cut is a position between values.
type Cut struct {
	Kind CutKind
	Key  any
}

// ColumnRange is the set of values between two cuts.
type ColumnRange struct{ Lo, Hi Cut }

// Range constrains a prefix of an index's columns.
type Range []ColumnRange

func cutBelow(c Cut, v any, cmp CompareFunc) bool {
	switch c.Kind {
	case CutBelowNull:
		return true
	case CutAboveNull:
		return v != nil
	case CutBelow:
		return v != nil && cmp(v, c.Key) >= 0
	case CutAbove:
		return v != nil && cmp(v, c.Key) > 0
	}
	return false
}

func cutAbove(c Cut, v any, cmp CompareFunc) bool {
	switch c.Kind {
	case CutAboveAll:
		return true
	case CutAboveNull:
		return v == nil
	case CutBelow:
		return v == nil || cmp(v, c.Key) < 0
	case CutAbove:
		return v == nil || cmp(v, c.Key) <= 0
	}
	return false
}

func (r Range) contains(vals []any, cmps []CompareFunc) bool {
	for i, cr := range r {
		if i >= len(vals) {
			break
		}
		if !cutBelow(cr.Lo, vals[i], cmps[i]) || !cutAbove(cr.Hi, vals[i], cmps[i]) {
			return false
		}
	}
	return true
}

// indexEntry is one row's key in an ordered index. Real entries have pos 0;
// search pivots use -1 or +1 to sit before or after every entry that shares
// their (possibly shorter) value prefix.
type indexEntry struct {
	vals []any
	id   string
	pos  int8
}

// intID is the identity of the row whose primary key is the one int64
// k: what EncodeKey gives for it.
func intID(k int64) string {
	var b [1 + binary.MaxVarintLen64]byte
	b[0] = tagInt64
	return string(binary.AppendVarint(b[:1], k))
}

// index is an ordered set of (column values, row identity) pairs. A
// primary key of one BIGINT-like column is kept in ints, a tree of the
// keys alone (intTree), instead of tree: a row's identity is made from its
// key (intID) when a lookup needs it, so entries are 8 bytes without
// pointers, need no boxing and compare in place. An insert moves a
// quarter of the bytes it moved with the identity beside the key, and the
// collector does not scan the tree. A secondary index on one BIGINT-like
// column is kept in keys, whose entries hold the key in place (intEntry).
type index struct {
	def    *IndexDef // nil for the primary key
	cols   []int
	cmps   []CompareFunc
	unique bool
	tree   *btree.BTreeG[indexEntry]
	ints   *intTree
	keys   *btree.BTreeG[intEntry] // a secondary index on one int64 column
}

func newIndex(def *IndexDef, cols []int, cmps []CompareFunc, unique bool) *index {
	x := &index{def: def, cols: cols, cmps: cmps, unique: unique}
	x.tree = btree.NewG[indexEntry](32, x.less)
	return x
}

// newIntIndex is newIndex for a primary key of one int64 column, which
// never holds NULL and orders naturally.
func newIntIndex(col int, cmp CompareFunc) *index {
	x := &index{cols: []int{col}, cmps: []CompareFunc{cmp}, unique: true}
	x.ints = newIntTree()
	return x
}

func (x *index) compare(a, b indexEntry) int {
	n := min(len(a.vals), len(b.vals))
	for i := 0; i < n; i++ {
		av, bv := a.vals[i], b.vals[i]
		switch {
		case av == nil && bv == nil:
		case av == nil:
			return -1
		case bv == nil:
			return 1
		default:
			if c := x.cmps[i](av, bv); c != 0 {
				return c
			}
		}
	}
	if a.pos != 0 || b.pos != 0 {
		return int(a.pos) - int(b.pos)
	}
	return strings.Compare(a.id, b.id)
}

func (x *index) less(a, b indexEntry) bool { return x.compare(a, b) < 0 }

func (x *index) key(r Row) []any {
	vals := make([]any, len(x.cols))
	for i, c := range x.cols {
		vals[i] = r[c]
	}
	return vals
}

func (x *index) insert(r Row, id string) { x.insertVals(x.key(r), id) }
func (x *index) insertVals(vals []any, id string) {
	if x.ints != nil {
		x.ints.Insert(vals[0].(int64))
		return
	}
	if x.keys != nil {
		if e, ok := intKey(vals[0], id, 0); ok {
			x.keys.ReplaceOrInsert(e)
		}
		return
	}
	x.tree.ReplaceOrInsert(indexEntry{vals: vals, id: id})
}

// insertInt is insertVals for an index kept in ints.
func (x *index) insertInt(k int64) { x.ints.Insert(k) }

func (x *index) remove(r Row, id string) {
	if x.ints != nil {
		x.ints.Delete(r[x.cols[0]].(int64))
		return
	}
	if x.keys != nil {
		if e, ok := intKey(r[x.cols[0]], id, 0); ok {
			x.keys.Delete(e)
		}
		return
	}
	x.tree.Delete(indexEntry{vals: x.key(r), id: id})
}

// equal calls fn with the identity of each entry whose key equals vals, in
// order, until fn returns false. Keys holding NULL equal nothing.
func (x *index) equal(vals []any, fn func(id string) bool) {
	for _, v := range vals {
		if v == nil {
			return
		}
	}
	if x.ints != nil {
		k, ok := vals[0].(int64)
		if !ok {
			return
		}
		if x.ints.Has(k) {
			fn(intID(k))
		}
		return
	}
	if x.keys != nil {
		x.equalKeys(vals[0], fn)
		return
	}
	x.tree.AscendGreaterOrEqual(indexEntry{vals: vals, pos: -1}, func(e indexEntry) bool {
		return x.equalVals(vals, e.vals) && fn(e.id)
	})
}

// conflict returns the identity of a row other than self whose key equals
// vals, for unique indexes. Keys holding NULL never conflict, as in MySQL.
func (x *index) conflict(vals []any, self string) (string, bool) {
	var found string
	ok := false
	x.equal(vals, func(id string) bool {
		if id == self {
			return true
		}
		found, ok = id, true
		return false
	})
	return found, ok
}

func (x *index) equalVals(a, b []any) bool {
	for i := range a {
		if a[i] == nil || b[i] == nil {
			return false
		}
		if x.cmps[i](a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

// scan calls fn with the identity of every entry inside r, in index order.
func (x *index) scan(r Range, fn func(id string) bool) {
	if x.ints != nil {
		x.scanInts(r, func(k int64) bool { return fn(intID(k)) })
		return
	}
	if x.keys != nil {
		x.scanKeys(r, func(e intEntry) bool { return fn(e.id) })
		return
	}
	x.scanTree(r, func(e indexEntry) bool { return fn(e.id) })
}

// scanTree is scan over tree, giving the entries.
func (x *index) scanTree(r Range, fn func(e indexEntry) bool) {
	if len(r) == 0 {
		x.tree.Ascend(fn)
		return
	}
	first := r[0]
	visit := func(e indexEntry) bool {
		if !cutAbove(first.Hi, e.vals[0], x.cmps[0]) {
			return false
		}
		if r.contains(e.vals, x.cmps) {
			return fn(e)
		}
		return true
	}
	switch first.Lo.Kind {
	case CutBelowNull:
		x.tree.Ascend(visit)
	case CutAboveNull:
		x.tree.AscendGreaterOrEqual(indexEntry{vals: []any{nil}, pos: 1}, visit)
	case CutBelow:
		x.tree.AscendGreaterOrEqual(indexEntry{vals: []any{first.Lo.Key}, pos: -1}, visit)
	case CutAbove:
		x.tree.AscendGreaterOrEqual(indexEntry{vals: []any{first.Lo.Key}, pos: 1}, visit)
	case CutAboveAll:
	}
}

// scanInts is scan over ints, giving the keys. A cut whose key is not an
// int64 is handled by comparing through the column's CompareFunc from the
// first entry.
func (x *index) scanInts(r Range, fn func(k int64) bool) {
	if len(r) == 0 {
		x.ints.Ascend(fn)
		return
	}
	first := r[0]
	visit := func(k int64) bool {
		v := any(k)
		if !cutAbove(first.Hi, v, x.cmps[0]) {
			return false
		}
		if cutBelow(first.Lo, v, x.cmps[0]) {
			return fn(k)
		}
		return true
	}
	k, ok := first.Lo.Key.(int64)
	switch {
	case first.Lo.Kind == CutBelow && ok:
		x.ints.AscendGreaterOrEqual(k, visit)
	case first.Lo.Kind == CutAbove && ok && k == math.MaxInt64:
	case first.Lo.Kind == CutAbove && ok:
		x.ints.AscendGreaterOrEqual(k+1, visit)
	case first.Lo.Kind == CutAboveAll:
	default:
		x.ints.Ascend(visit)
	}
}
