package storage

import "slices"

// Resume is the index entry a page of a lookup ended at (LookupPage).
type Resume struct {
	k     int64      // in a primary key of one integer (index.ints)
	key   intEntry   // in a secondary index on one integer (index.keys)
	entry indexEntry // in any other index (index.tree)
}

// LookupPage is LookupColumns over one range, a page at a time, for a
// reader that may stop early: a semi join stops at a key's first match,
// a LIMIT at its count, and each read only the rows it asked for where a
// lookup reads every row of its range first. A page holds at most limit
// rows, those after the entry the page before ended at (after; nil for
// the first page); next is where it ended, nil when the range holds no
// more rows. Each page reads the table as it is then: a row written
// between two pages is read as the later page finds it.
func (s *Store) LookupPage(db, table, indexName string, r Range, need []bool, after *Resume, limit int) (rows []Row, ids []string, next *Resume, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, nil, nil, err
	}
	x, err := t.indexNamed(indexName)
	if err != nil {
		return nil, nil, nil, err
	}
	p := &page{t: t, x: x, need: need, limit: max(limit, 1), covered: t.covers(x, need)}
	n := min(p.limit, 256)
	p.rows, p.ids = make([]Row, 0, n), make([]string, 0, n)
	if p.covered {
		p.cells = make(Row, 0, n*len(t.schema.Columns))
	}
	p.scan(r, after)
	return p.rows, p.ids, p.next, nil
}

// page is one page of a LookupPage.
type page struct {
	t       *Table
	x       *index
	need    []bool
	limit   int
	covered bool // the index holds every column read (Table.covers)
	cells   Row  // the values of covered rows, one slice for the page
	rows    []Row
	ids     []string
	next    *Resume
}

func (p *page) scan(r Range, after *Resume) {
	x := p.x
	switch {
	case x.ints != nil:
		if after != nil {
			r = from(r, Cut{Kind: CutAbove, Key: after.k})
		}
		x.scanInts(r, func(k int64) bool {
			return p.add(intID(k), Resume{k: k}, func(row Row) { row[x.cols[0]] = k }, func() loc { return p.t.locs.atInt(k) })
		})
	case x.keys != nil:
		if after != nil {
			r = from(r, cutBefore(after.key.value()))
		}
		x.scanKeys(r, func(e intEntry) bool {
			if after != nil && !lessIntEntry(after.key, e) {
				return true // read by a page before
			}
			return p.add(e.id, Resume{key: e}, func(row Row) {
				row[x.cols[0]] = e.value()
				row[p.t.primary.cols[0]] = e.pk
			}, func() loc { return p.t.rowLoc(e.id, e.pk) })
		})
	default:
		if after != nil {
			r = from(r, cutBefore(after.entry.vals[0]))
		}
		x.scanTree(r, func(e indexEntry) bool {
			if after != nil && !x.less(after.entry, e) {
				return true
			}
			return p.add(e.id, Resume{entry: e}, func(row Row) {
				for i, c := range x.cols {
					row[c] = e.vals[i]
				}
				row[p.t.primary.cols[0]], _ = intIDKey(e.id)
			}, func() loc { return p.t.locs.at(e.id) })
		})
	}
}

// add takes the row of an entry: from the entry itself through fill when
// the index covers the columns read, else from where at says it is. It
// reports whether the page has room for more.
func (p *page) add(id string, at Resume, fill func(Row), where func() loc) bool {
	var row Row
	if p.covered {
		w := len(p.t.schema.Columns)
		if len(p.cells)+w > cap(p.cells) {
			p.cells = make(Row, 0, cap(p.cells)+w)
		}
		at := len(p.cells)
		p.cells = p.cells[:at+w]
		row = p.cells[at : at+w : at+w]
		fill(row)
	} else {
		row = p.t.rowColumns(where(), p.need)
	}
	p.rows, p.ids = append(p.rows, row), append(p.ids, id)
	if len(p.rows) < p.limit {
		return true
	}
	p.next = &at
	return false
}

// rowLoc is where the row of identity id is, read by its integer primary
// key pk when the table has one.
func (t *Table) rowLoc(id string, pk int64) loc {
	if t.intKeyed() {
		return t.locs.atInt(pk)
	}
	return t.locs.at(id)
}

// from is r starting at lo on its first column; lo is never below r's own
// start, being an entry r holds.
func from(r Range, lo Cut) Range {
	if len(r) == 0 {
		return Range{{Lo: lo, Hi: Cut{Kind: CutAboveAll}}}
	}
	r = slices.Clone(r)
	r[0].Lo = lo
	return r
}

// cutBefore is the cut just before value v, NULL included.
func cutBefore(v any) Cut {
	if v == nil {
		return Cut{Kind: CutBelowNull}
	}
	return Cut{Kind: CutBelow, Key: v}
}
