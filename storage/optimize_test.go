package storage

import (
	"fmt"
	"slices"
	"testing"
)

// TestOptimizeSealsEveryRow: OpOptimize leaves every live row in a batch
// with no deleted rows and no tail, keeps the rows and what the indexes
// find, and the table takes writes after it.
func TestOptimizeSealsEveryRow(t *testing.T) {
	s, _ := intKeyed(t, Options{})
	var rows []Row
	for id := int64(1); id <= 3*sealRows; id++ {
		rows = append(rows, Row{id, id % 7, fmt.Sprint(id)})
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	var dels []string
	for id := int64(1); id <= 3*sealRows; id += 3 {
		dels = append(dels, intID(id))
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: dels})
	all := func() []string {
		ids, err := s.LookupIdentities("d", "t", "ig", []Range{nil})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(ids)
		return ids
	}
	before := all()
	c, err := DecodeCommand(EncodeCommand(&Command{Ops: []Op{{Kind: OpOptimize, DB: "d", Table: "t"}}}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(0, c); err != nil {
		t.Fatal(err)
	}
	tbl := s.mu.dbs["d"].tables["t"]
	for pi, p := range tbl.parts {
		if len(p.tail) != 0 {
			t.Errorf("partition %d keeps %d tail rows", pi, len(p.tail))
		}
		for bi, b := range p.batches {
			if b.ndel != 0 {
				t.Errorf("partition %d batch %d keeps %d deleted rows", pi, bi, b.ndel)
			}
		}
	}
	if err := s.Check("d", "t"); err != nil {
		t.Fatal(err)
	}
	if after := all(); !slices.Equal(after, before) {
		t.Fatalf("%d rows before, %d after", len(before), len(after))
	}
	got, _, err := s.Lookup("d", "t", "ig", []Range{{{Lo: Cut{Kind: CutBelow, Key: int64(3)}, Hi: Cut{Kind: CutAbove, Key: int64(3)}}}})
	if err != nil || len(got) == 0 {
		t.Fatal(len(got), err)
	}
	for _, r := range got {
		if r[1] != int64(3) || r[2] != fmt.Sprint(r[0]) {
			t.Fatalf("row %v", r)
		}
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{int64(-1), int64(3), "-1"}}})
	if err := s.Check("d", "t"); err != nil {
		t.Fatal(err)
	}
}
