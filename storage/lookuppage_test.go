package storage

import (
	"fmt"
	"slices"
	"testing"
)

// TestLookupPage: the pages of a lookup, of any size, hold the rows and
// identities one lookup of the range gives, in its order, through each
// kind of index (a primary key of one integer, a secondary index on an
// integer, on text, on two columns; a table keyed by text) and whether
// or not the index alone answers.
func TestLookupPage(t *testing.T) {
	s := spreadRows(t, func(id int64) string { return fmt.Sprint("v", id%40) })
	mustApply(t, s, Op{Kind: OpCreateIndex, DB: "d", Table: "t", Index: &IndexDef{Name: "iv", Columns: []string{"v"}}})
	mustApply(t, s, Op{Kind: OpCreateIndex, DB: "d", Table: "t", Index: &IndexDef{Name: "igv", Columns: []string{"g", "v"}}})
	textKeyed := &Schema{Columns: []Column{{Name: "k", Kind: KindString}, {Name: "g", Kind: KindInt64, Nullable: true}}, PK: []int{0}}
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "s", Schema: textKeyed, Indexes: []*IndexDef{{Name: "sg", Columns: []string{"g"}}}})
	var srows []Row
	for i := range 200 {
		srows = append(srows, Row{fmt.Sprintf("k%03d", i), int64(i % 7)})
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "s", Rows: srows})

	point := func(v any) Range { return Range{{Lo: Cut{Kind: CutBelow, Key: v}, Hi: Cut{Kind: CutAbove, Key: v}}} }
	nulls := Range{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveNull}}}
	all := Range{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveAll}}}
	for _, c := range []struct {
		table, index string
		r            Range
		need         []bool
	}{
		{"t", "", Range{{Lo: Cut{Kind: CutAbove, Key: int64(-50000000)}, Hi: Cut{Kind: CutBelow, Key: int64(90000000)}}}, nil},
		{"t", "", all, []bool{true, false, false}},
		{"t", "", nil, []bool{true, true, true}},
		{"t", "ig", point(int64(3)), nil},
		{"t", "ig", point(int64(3)), []bool{true, true, false}},
		{"t", "ig", nulls, []bool{false, false, true}},
		{"t", "ig", Range{{Lo: Cut{Kind: CutAbove, Key: int64(-5)}, Hi: Cut{Kind: CutBelow, Key: int64(7)}}}, nil},
		{"t", "ig", nil, []bool{true, true, false}},
		{"t", "iv", point("v7"), nil},
		{"t", "iv", Range{{Lo: Cut{Kind: CutBelow, Key: "v1"}, Hi: Cut{Kind: CutAbove, Key: "v2"}}}, []bool{true, false, true}},
		{"t", "igv", Range{{Lo: Cut{Kind: CutBelow, Key: int64(2)}, Hi: Cut{Kind: CutAbove, Key: int64(4)}}, {Lo: Cut{Kind: CutBelow, Key: "v1"}, Hi: Cut{Kind: CutAboveAll}}}, nil},
		{"t", "igv", all, []bool{true, true, true}},
		{"s", "sg", point(int64(4)), nil},
		{"s", "sg", all, []bool{true, true}},
		{"s", "", all, nil},
	} {
		want, wantIDs, err := s.LookupColumns("d", c.table, c.index, []Range{c.r}, c.need)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%s %q %v: no rows to page through", c.table, c.index, c.r)
		}
		for _, size := range []int{1, 3, 50, 10000} {
			var got []Row
			var ids []string
			var after *Resume
			for pages := 0; ; pages++ {
				rows, pids, next, err := s.LookupPage("d", c.table, c.index, c.r, c.need, after, size)
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) > size || len(rows) != len(pids) || pages > len(want)+1 {
					t.Fatalf("%s %q %v by %d: a page of %d rows and %d identities", c.table, c.index, c.r, size, len(rows), len(pids))
				}
				got, ids = append(got, rows...), append(ids, pids...)
				if next == nil {
					break
				}
				after = next
			}
			if !slices.Equal(ids, wantIDs) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s %q %v by %d: %d rows, want %d", c.table, c.index, c.r, size, len(got), len(want))
			}
		}
	}
}

// TestLookupPageAfterWrites: a page after writes reads the table as it
// is then, from where the page before ended, even when the row it ended
// at is gone: a row added after that point is read, one added before it
// is not, and no row is read twice.
func TestLookupPageAfterWrites(t *testing.T) {
	s, _ := intKeyed(t, Options{})
	var rows []Row
	for id := int64(1); id <= 40; id++ {
		rows = append(rows, Row{id, int64(id % 2), "v"})
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	for _, index := range []string{"ig", ""} {
		r := Range{{Lo: Cut{Kind: CutBelow, Key: int64(1)}, Hi: Cut{Kind: CutAbove, Key: int64(1)}}} // odd ids
		if index == "" {
			r = Range{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveAll}}}
		}
		first, _, next, err := s.LookupPage("d", "t", index, r, nil, nil, 5)
		if err != nil || next == nil {
			t.Fatal(err, next)
		}
		last := first[len(first)-1][0].(int64)
		mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{intID(last)}},
			Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{int64(-1), int64(1), "before"}, {int64(99), int64(1), "after"}}})
		rest, _, _, err := s.LookupPage("d", "t", index, r, nil, next, 1000)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		for _, row := range append(first, rest...) {
			id := row[0].(int64)
			if seen[id] || id == -1 {
				t.Errorf("index %q: row %d read twice or from before the page's end", index, id)
			}
			seen[id] = true
		}
		if !seen[99] {
			t.Errorf("index %q: the row added after the page's end was not read", index)
		}
		mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{intID(-1), intID(99)}},
			Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{last, int64(last % 2), "v"}}})
	}
}
