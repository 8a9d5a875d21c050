package sqlext

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// index describes a stored index to the planner. Lookups are answered from
// storage's ordered indexes; PreciseMatch is false, so the engine re-checks
// its filters and a lookup may safely return a superset (it does when a key
// cannot be converted to the column's type).
type index struct {
	t       *Table
	name    string
	cols    []int
	unique  bool
	comment string
	// prefix is each column's prefix length, 0 for a whole column, or nil
	// for a key of whole columns (see indexPrefixes). Storage keys the
	// whole values all the same, a finer order of the same rows.
	prefix []uint16
}

var _ sql.Index = (*index)(nil)

func (x *index) ID() string       { return x.name }
func (x *index) Database() string { return x.t.info.DB }
func (x *index) Table() string    { return x.t.Name() }
func (x *index) IsUnique() bool   { return x.unique }
func (x *index) IsSpatial() bool  { return false }
func (x *index) IsFullText() bool { return false }
func (x *index) IsVector() bool   { return false }
func (x *index) Comment() string  { return x.comment }
func (x *index) IndexType() string {
	return "BTREE"
}
func (x *index) IsGenerated() bool                          { return false }
func (x *index) CanSupport(*sql.Context, ...sql.Range) bool { return true }
func (x *index) CanSupportOrderBy(sql.Expression) bool      { return false }

// An index reads its rows in ascending key order, and only that way. The
// engine takes an index that does not say so for one it can read
// backwards, and answered ORDER BY k DESC, and MAX(k), with the rows of a
// lookup in ascending order (MAX(id) was the smallest id).
var _ sql.OrderedIndex = (*index)(nil)

func (x *index) Order() sql.IndexOrder   { return sql.IndexOrderAsc }
func (x *index) Reversible() bool        { return false }
func (x *index) PrefixLengths() []uint16 { return x.prefix }

func (x *index) Expressions() []string {
	out := make([]string, len(x.cols))
	for i, c := range x.cols {
		out[i] = x.t.expressionString(c)
	}
	return out
}

// ColumnExpressionTypes are the types the engine converts a lookup's keys
// to: the columns', but a TIME(n)'s keys are read as TIMEs without
// rounding them to its digits (timeKeyType).
func (x *index) ColumnExpressionTypes() []sql.ColumnExpressionType {
	out := make([]sql.ColumnExpressionType, len(x.cols))
	for i, c := range x.cols {
		typ := x.t.sch.Schema[c].Type
		if tt, ok := typ.(timeType); ok {
			typ = timeKeyType{tt}
		}
		out[i] = sql.ColumnExpressionType{Expression: x.t.expressionString(c), Type: typ}
	}
	return out
}

// GetIndexes gives the table's indexes in the order MySQL keeps a table's
// keys, which SHOW CREATE TABLE, SHOW INDEX and information_schema show:
// the unique keys first, those of NOT NULL columns before the others,
// the primary key first of all and keys with a prefix after those
// without, then the other keys, each group in the order the keys were
// made. Storage keeps them in the order they were made.
func (t *Table) GetIndexes(ctx *sql.Context) ([]sql.Index, error) {
	var out []sql.Index
	var ranks []int
	if len(t.info.Schema.PK) > 0 {
		out = append(out, &index{t: t, name: "PRIMARY", cols: t.info.Schema.PK, unique: true})
		ranks = append(ranks, 0)
	}
	for _, d := range t.info.Indexes {
		x := &index{t: t, name: d.Name, unique: d.Unique}
		var m indexMeta
		if json.Unmarshal([]byte(d.Meta), &m) == nil {
			x.comment = m.Comment
		}
		if m.Fulltext {
			continue
		}
		nullable := false
		for j, c := range d.Columns {
			i := t.info.Schema.ColumnIndex(c)
			x.cols = append(x.cols, i)
			nullable = nullable || i >= 0 && i < len(t.sch.Schema) && t.sch.Schema[i].Nullable
			if j < len(m.Prefix) && m.Prefix[j] > 0 && i >= 0 && i < len(t.sch.Schema) {
				x.prefix = appendPrefix(x.prefix, j, m.Prefix[j], t.sch.Schema[i])
			}
		}
		out = append(out, x)
		ranks = append(ranks, keyRank(d.Unique, nullable, x.prefix != nil))
	}
	if !slices.IsSorted(ranks) {
		order := make([]int, len(out))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return ranks[a] - ranks[b] })
		sorted := make([]sql.Index, len(out))
		for i, j := range order {
			sorted[i] = out[j]
		}
		out = sorted
	}
	return out, nil
}

// appendPrefix is prefix, the prefix lengths of an index's columns
// before its j-th, with n as that column's, when n is shorter than the
// column c now is: a column made as short as its prefix, or shorter, is
// keyed whole, as MySQL then keys it.
func appendPrefix(prefix []uint16, j int, n uint16, c *sql.Column) []uint16 {
	if wholePrefix(int64(n), c.Type) {
		return prefix
	}
	if len(prefix) <= j {
		prefix = append(prefix, make([]uint16, j+1-len(prefix))...)
	}
	prefix[j] = n
	return prefix
}

// keyRank is a key's place in MySQL's order of a table's keys (see
// GetIndexes): 0 for the primary key.
func keyRank(unique, nullable, prefix bool) int {
	if !unique {
		return 5
	}
	rank := 1
	if nullable {
		rank += 2
	}
	if prefix {
		rank++
	}
	return rank
}

func (t *Table) PreciseMatch() bool { return false }

// rangeRows is iter's rows in the ranges of lookup, of the index x, as
// the engine compares them (inRanges), for a lookup whose keys do not
// convert exactly to the column's values: the table's rows would be a
// superset, which the engine's conditions above narrow, but for those a
// filter of its own drops (impliedConditions). A row the engine cannot
// compare with a key is kept, for the conditions to judge.
type rangeRows struct {
	sql.RowIter
	x      *index
	ranges sql.MySQLRangeCollection
}

func (it *rangeRows) Next(ctx *sql.Context) (sql.Row, error) {
	for {
		r, err := it.RowIter.Next(ctx)
		if err != nil {
			return nil, err
		}
		if in, err := inRanges(it.ranges, it.x.cols, r); in || err != nil {
			return r, nil
		}
	}
}

func (t *Table) IndexedAccess(ctx *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	c := *t
	c.lookup = &lookup
	return &c
}

type lookupPartition struct{ lookup sql.IndexLookup }

func (lookupPartition) Key() []byte { return []byte("lookup") }

func (t *Table) LookupPartitions(ctx *sql.Context, lookup sql.IndexLookup) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(lookupPartition{lookup: lookup}), nil
}

// lookupRows answers an index lookup: committed rows from the storage index,
// minus those the transaction changed, plus the rows the transaction holds
// for the table that lie in the lookup's ranges. It is exact but where a
// key cannot be converted to its column's value exactly: then it scans,
// and the engine's filters narrow the rows (a lookup join's keys are
// converted by the engine first).
func (t *Table) lookupRows(ctx *sql.Context, lookup sql.IndexLookup) (sql.RowIter, error) {
	x, ok := lookup.Index.(*index)
	if !ok {
		return nil, sql.ErrIndexNotFound.New(lookup.Index.ID())
	}
	if err := t.p.fresh(ctx); err != nil {
		return nil, err
	}
	if err := t.p.awaitRead(ctx, t.info.DB, t.info.Name); err != nil {
		return nil, err
	}
	tt := txFrom(ctx).table(t.info.DB, t.info.Name)
	var rows []sql.Row
	ranges, ok := t.storageRanges(ctx, x, lookup)
	if !ok {
		iter, err := t.fullScan(ctx)
		coll, isMySQL := lookup.Ranges.(sql.MySQLRangeCollection)
		if err != nil || !isMySQL {
			return iter, err
		}
		return &rangeRows{RowIter: iter, x: x, ranges: coll}, nil
	}
	locking := lockingRead(ctx)
	if len(ranges) == 1 && tt == nil && !t.fkRead && !locking {
		return &pagedLookup{t: t, index: x.name, r: ranges[0], size: firstPageOf(ranges[0])}, nil
	}
	// Not lookup.IsEmptyRange: the engine sets it for every lookup by a
	// NULL key, the null-safe (a <=> b) ones included, whose ranges read
	// the NULLs; storageRanges leaves out the ranges no row is in.
	if len(ranges) > 0 {
		need := t.read
		if locking {
			need = nil // the rows are checked whole at commit
		}
		srows, ids, err := t.p.store.LookupColumns(t.info.DB, t.info.Name, x.name, ranges, need)
		if err != nil {
			return nil, translateStorage(err)
		}
		if t.fkRead || locking {
			txFrom(ctx).noteLookup(t.info.DB, t.info.Name, x.name, ranges, ids)
		}
		var locked *lockedRows
		if locking {
			locked = &lockedRows{}
		}
		rows = make([]sql.Row, 0, len(srows))
		for i, r := range srows {
			if tt != nil {
				if _, touched := tt.changes[ids[i]]; touched {
					continue
				}
			}
			locked.add(ids[i], r)
			rows = append(rows, t.toSQLOwned(r))
		}
		locked.note(ctx, t)
	}
	if tt != nil {
		// A lookup join takes the rows a lookup gives as the ones its
		// key matches, so those the transaction wrote must match too.
		overlay, exact := t.keyOverlay(x, tt, ranges)
		if !exact {
			in, err := t.p.store.RangeFilter(t.info.DB, t.info.Name, x.name, ranges)
			if err != nil {
				return nil, translateStorage(err)
			}
			overlay = t.overlayRows(tt, in)
		}
		if len(overlay) > 0 {
			// The transaction's own rows go in key order with the
			// rest: the engine drops an ORDER BY the index gives.
			rows = append(rows, overlay...)
			t.sortByIndex(ctx, x, rows)
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// A lookup of one range, by a statement whose transaction has not
// written the table, reads the store a page at a time (pagedLookup), so
// that a reader that stops early reads only what it took: a semi join
// (EXISTS, IN) stops at the first row of a key that meets its condition,
// where a lookup read every row of the key first, and a LIMIT over an
// index's range stops at its count. Pages grow fourfold, so that a
// reader of every row seeks a few times. The first page of a lookup by
// key values is small, as a semi join takes one row and a lookup by a
// unique key finds one; that of a range (BETWEEN, <) is larger, as its
// reader mostly reads it whole (sysbench's range queries read 100 rows).
// Each page reads the committed rows as they are then, as each lookup of
// a join does.
const (
	firstKeyPage   = 4
	firstRangePage = 128
	lastPage       = 8192
)

// firstPageOf is the size of the first page of a lookup of r.
func firstPageOf(r storage.Range) int {
	for _, c := range r {
		if c.Lo.Kind != storage.CutBelow || c.Hi.Kind != storage.CutAbove || !sameKey(c.Lo.Key, c.Hi.Key) {
			return firstRangePage
		}
	}
	return firstKeyPage
}

// sameKey reports whether two stored keys are one value; keys of kinds
// it does not compare count as different (the lookup reads a range's
// first page).
func sameKey(a, b any) bool {
	switch x := a.(type) {
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return false
}

type pagedLookup struct {
	t     *Table
	index string
	r     storage.Range
	size  int

	rows []storage.Row
	i    int
	next *storage.Resume
	read bool // a page was read, and next says whether more are left
}

func (it *pagedLookup) Next(ctx *sql.Context) (sql.Row, error) {
	for it.i >= len(it.rows) {
		if it.read && it.next == nil {
			return nil, io.EOF
		}
		t := it.t
		rows, _, next, err := t.p.store.LookupPage(t.info.DB, t.info.Name, it.index, it.r, t.read, it.next, it.size)
		if err != nil {
			return nil, translateStorage(err)
		}
		it.rows, it.i, it.next, it.read = rows, 0, next, true
		it.size = min(it.size*4, lastPage)
	}
	r := it.rows[it.i]
	it.rows[it.i] = nil
	it.i++
	return it.t.toSQLOwned(r), nil
}

func (it *pagedLookup) Close(*sql.Context) error { return nil }

// keyOverlay is, when each of ranges is one value of every column of x
// (a SELECT, UPDATE or DELETE by a key), the rows the transaction holds
// under those keys, and exact says so: found by their identities for an
// integer primary key, else through the transaction's point index of x
// (txTable.pending). Otherwise the caller reads every row the
// transaction holds for the table (overlayRows) and keeps those in
// range, which made n writes by key in one transaction take time in n².
// Only keys of integers and text, whose stored forms compare as their
// bytes (text by its collation's weights).
func (t *Table) keyOverlay(x *index, tt *txTable, ranges []storage.Range) (rows []sql.Row, exact bool) {
	byIdentity := x.name == "PRIMARY"
	var ids []string
	for _, r := range ranges {
		if len(r) != len(x.cols) {
			return nil, false
		}
		key := make([]any, len(r))
		for i, cr := range r {
			if cr.Lo.Kind != storage.CutBelow || cr.Hi.Kind != storage.CutAbove || cr.Lo.Key != cr.Hi.Key {
				return nil, false
			}
			switch cr.Lo.Key.(type) {
			case int64, uint64:
			case string:
				byIdentity = false
			default:
				return nil, false
			}
			key[i] = cr.Lo.Key
		}
		if byIdentity {
			ids = append(ids, storage.EncodeKey(key))
			continue
		}
		ids = append(ids, tt.pending(t.keyer(x), key)...)
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		if c, ok := tt.changes[id]; ok && c.row != nil {
			rows = append(rows, t.toSQL(c.row))
		}
	}
	return rows, true
}

// sortByIndex puts rows in the order of the index's columns, NULL first.
func (t *Table) sortByIndex(ctx *sql.Context, x *index, rows []sql.Row) {
	slices.SortStableFunc(rows, func(a, b sql.Row) int {
		for _, c := range x.cols {
			av, bv := a[c], b[c]
			switch {
			case av == nil && bv == nil:
				continue
			case av == nil:
				return -1
			case bv == nil:
				return 1
			}
			if n, err := t.sch.Schema[c].Type.Compare(ctx, av, bv); err == nil && n != 0 {
				return n
			}
		}
		return 0
	})
}

func (t *Table) fullScan(ctx *sql.Context) (sql.RowIter, error) {
	parts, _ := t.Partitions(ctx)
	plain := *t
	plain.lookup = nil
	return sql.NewTableRowIter(ctx, &plain, parts), nil
}

// storageRanges converts the engine's ranges into storage's, converting each
// key to the column's stored form. ok is false when a key cannot be
// converted exactly; the caller then scans.
func (t *Table) storageRanges(ctx *sql.Context, x *index, lookup sql.IndexLookup) ([]storage.Range, bool) {
	coll, ok := lookup.Ranges.(sql.MySQLRangeCollection)
	if !ok {
		return nil, false
	}
	out := make([]storage.Range, 0, len(coll))
	for _, r := range coll {
		if nullKeyed(r) || emptyRange(r) {
			continue
		}
		sr := make(storage.Range, 0, len(r))
		for i, ce := range r {
			if i >= len(x.cols) {
				break
			}
			col := x.cols[i]
			lo, ok1 := t.cut(ctx, col, ce.LowerBound)
			var hi storage.Cut
			ok2 := true
			if ok1 && isPoint(ce) {
				// A lookup join's range for one key, made for every
				// outer row: the key converts once.
				hi = storage.Cut{Kind: storage.CutAbove, Key: lo.Key}
			} else {
				hi, ok2 = t.cut(ctx, col, ce.UpperBound)
			}
			if !ok1 || !ok2 {
				return nil, false
			}
			sr = append(sr, storage.ColumnRange{Lo: lo, Hi: hi})
		}
		out = append(out, sr)
	}
	return out, true
}

// isPoint reports whether ce is the range of one value, [k, k], for
// keys of the types a lookup join's keys have, which compare with ==.
func isPoint(ce sql.MySQLRangeColumnExpr) bool {
	lo, ok1 := ce.LowerBound.(sql.Below)
	hi, ok2 := ce.UpperBound.(sql.Above)
	if !ok1 || !ok2 {
		return false
	}
	switch lo.Key.(type) {
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint, string:
		return lo.Key == hi.Key
	}
	return false
}

// nullKeyed reports whether r bounds a column by a NULL key, as a lookup
// join's range does for an outer row whose key is NULL: a range no row
// is in (an IS NULL range is bounded by BelowNull and AboveNull).
func nullKeyed(r sql.MySQLRange) bool {
	for _, ce := range r {
		for _, c := range []sql.MySQLRangeCut{ce.LowerBound, ce.UpperBound} {
			switch v := c.(type) {
			case sql.Below:
				if v.Key == nil {
					return true
				}
			case sql.Above:
				if v.Key == nil {
					return true
				}
			}
		}
	}
	return false
}

// emptyRange reports whether a column of r is bounded by an empty range,
// as the engine's lookups for contradictory conditions are.
func emptyRange(r sql.MySQLRange) bool {
	for _, ce := range r {
		if isPoint(ce) {
			continue // never empty
		}
		if empty, err := ce.IsEmpty(); err == nil && empty {
			return true
		}
	}
	return false
}

func (t *Table) cut(ctx *sql.Context, col int, c sql.MySQLRangeCut) (storage.Cut, bool) {
	switch v := c.(type) {
	case sql.BelowNull:
		return storage.Cut{Kind: storage.CutBelowNull}, true
	case sql.AboveNull:
		return storage.Cut{Kind: storage.CutAboveNull}, true
	case sql.AboveAll:
		return storage.Cut{Kind: storage.CutAboveAll}, true
	case sql.Below:
		k, ok := t.rangeKey(ctx, col, v.Key)
		return storage.Cut{Kind: storage.CutBelow, Key: k}, ok
	case sql.Above:
		k, ok := t.rangeKey(ctx, col, v.Key)
		return storage.Cut{Kind: storage.CutAbove, Key: k}, ok
	}
	return storage.Cut{}, false
}

func (t *Table) rangeKey(ctx *sql.Context, col int, key any) (any, bool) {
	if key == nil {
		return nil, false
	}
	typ := t.sch.Schema[col].Type
	v, inRange, err := typ.Convert(ctx, key)
	if err != nil || inRange != sql.InRange || v == nil {
		return nil, false
	}
	// A conversion that changed the value (rounding a fractional key into
	// an integer column, say) would make the cut inexact.
	if cmp, err := typ.Compare(ctx, key, v); err != nil || cmp != 0 {
		return nil, false
	}
	sv, err := t.codecs[col].asRead(v)
	if err != nil {
		return nil, false
	}
	return sv, true
}
