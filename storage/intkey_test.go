package storage

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestIntKeyIndexAgreesWithFilter checks lookups through a secondary
// index on an integer column (kept as intEntry) against a filter of
// every row, for random ranges over keys with NULLs and repeats, after
// inserts, updates and deletes.
func TestIntKeyIndexAgreesWithFilter(t *testing.T) {
	// The column's comparison also reads a cut at a uint64, which the
	// index must then compare through it.
	cmp := func(a, b any) int {
		x, y := asInt(a), asInt(b)
		return int(x - y)
	}
	s, schema := intKeyed(t, Options{Compare: func(Column) CompareFunc { return cmp }})
	rng := rand.New(rand.NewPCG(3, 4))
	key := func() any {
		if rng.IntN(8) == 0 {
			return nil
		}
		return rng.Int64N(40) - 20
	}
	live := map[int64]any{}
	var rows []Row
	for id := int64(1); id <= 400; id++ {
		g := key()
		rows = append(rows, Row{id, g, fmt.Sprint("v", id)})
		live[id] = g
	}
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "t", Batch: buildRecord(memory.DefaultAllocator, arrowSchema(schema), rows[:300])})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows[300:]})
	var dels []string
	for id := int64(1); id <= 400; id += 7 {
		dels = append(dels, intID(id))
		delete(live, id)
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: dels})
	// An update is a delete and an insert of the row by its identity.
	var changed []Row
	var keys []string
	for id := int64(3); id <= 400; id += 11 {
		if _, ok := live[id]; ok {
			g := key()
			changed = append(changed, Row{id, g, "changed"})
			keys = append(keys, intID(id))
			live[id] = g
		}
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: keys}, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: changed})

	cut := func() Cut {
		switch rng.IntN(9) {
		case 0:
			return Cut{Kind: CutBelowNull}
		case 1:
			return Cut{Kind: CutAboveNull}
		case 2:
			return Cut{Kind: CutAboveAll}
		case 3:
			return Cut{Kind: CutBelow, Key: uint64(rng.IntN(20))} // not an int64
		case 4, 5:
			return Cut{Kind: CutBelow, Key: rng.Int64N(44) - 22}
		}
		return Cut{Kind: CutAbove, Key: rng.Int64N(44) - 22}
	}
	for range 500 {
		r := Range{{Lo: cut(), Hi: cut()}}
		got, err := s.LookupIdentities("d", "t", "ig", []Range{r})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for id, g := range live {
			if cutBelow(r[0].Lo, g, cmp) && cutAbove(r[0].Hi, g, cmp) {
				want = append(want, intID(id))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("range %v: got %d rows, want %d", fmt.Sprint(r), len(got), len(want))
		}
	}
}

func asInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case uint64:
		return int64(v)
	}
	panic(fmt.Sprintf("not a number: %T", v))
}

// TestLookupColumns checks lookups that read some columns against whole
// rows: through the primary key and the integer index (which the index
// alone answers when it holds every column asked for), and with a column
// only the row has.
func TestLookupColumns(t *testing.T) {
	s := spreadRows(t, func(id int64) string { return fmt.Sprint("v", id) })
	ranges := []Range{
		{{Lo: Cut{Kind: CutBelow, Key: int64(3)}, Hi: Cut{Kind: CutAbove, Key: int64(3)}}},
		{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveNull}}},
		{{Lo: Cut{Kind: CutAbove, Key: int64(-5)}, Hi: Cut{Kind: CutBelow, Key: int64(7)}}},
	}
	pkRanges := []Range{
		{{Lo: Cut{Kind: CutBelow, Key: int64(-50000000)}, Hi: Cut{Kind: CutAbove, Key: int64(90000000)}}},
		{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveAll}}},
	}
	// Indexes kept as boxed values: on text, and on two columns.
	mustApply(t, s, Op{Kind: OpCreateIndex, DB: "d", Table: "t", Index: &IndexDef{Name: "iv", Columns: []string{"v"}}})
	mustApply(t, s, Op{Kind: OpCreateIndex, DB: "d", Table: "t", Index: &IndexDef{Name: "igv", Columns: []string{"g", "v"}}})
	textRanges := []Range{
		{{Lo: Cut{Kind: CutBelow, Key: "v1"}, Hi: Cut{Kind: CutAbove, Key: "v2"}}},
		{{Lo: Cut{Kind: CutBelow, Key: "v-7"}, Hi: Cut{Kind: CutAbove, Key: "v-7"}}},
	}
	for _, c := range []struct {
		index  string
		ranges []Range
		need   []bool
	}{
		{"ig", ranges, []bool{true, true, false}},
		{"ig", ranges, []bool{false, true, false}},
		{"ig", ranges, []bool{true, false, false}},
		{"ig", ranges, []bool{false, false, false}},
		{"ig", ranges, []bool{true, true, true}},
		{"ig", ranges, []bool{false, false, true}},
		{"", pkRanges, []bool{true, false, false}},
		{"", pkRanges, []bool{true, true, false}},
		{"iv", textRanges, []bool{true, false, true}},
		{"iv", textRanges, []bool{false, false, true}},
		{"iv", textRanges, []bool{true, true, true}},
		{"igv", ranges, []bool{true, true, true}},
		{"igv", ranges, []bool{false, true, false}},
	} {
		for i := range c.ranges {
			rs := c.ranges[i : i+1]
			if i == len(c.ranges)-1 {
				rs = c.ranges // several ranges at once
			}
			whole, wantIDs, err := s.Lookup("d", "t", c.index, rs)
			if err != nil {
				t.Fatal(err)
			}
			got, ids, err := s.LookupColumns("d", "t", c.index, rs, c.need)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids, wantIDs) || len(got) != len(whole) || len(got) == 0 {
				t.Fatalf("%q %v need %v: %d rows, want %d", c.index, rs, c.need, len(got), len(whole))
			}
			for j, r := range got {
				for col, n := range c.need {
					if n && fmt.Sprint(r[col]) != fmt.Sprint(whole[j][col]) {
						t.Fatalf("%q %v need %v: row %d column %d is %v, want %v", c.index, rs, c.need, j, col, r[col], whole[j][col])
					}
				}
			}
		}
	}
	for _, id := range []string{"", intID(5)[:1], intID(1 << 40)[:3], intID(5) + "x", EncodeKey([]any{"5"})} {
		if k, ok := intIDKey(id); ok {
			t.Errorf("intIDKey(%q) = %d, want no key", id, k)
		}
	}
	for _, k := range []int64{0, 1, -1, 63, -64, 64, 1 << 40, -(1 << 40), math.MaxInt64, math.MinInt64} {
		if got, ok := intIDKey(intID(k)); !ok || got != k {
			t.Errorf("intIDKey(intID(%d)) = %d, %v", k, got, ok)
		}
	}
}

// spreadRows is intKeyed's table with 601 rows, ids spread over the
// integers, g the id modulo 13 or NULL for one in five, v text(id); 400
// in a sealed batch and the rest in the tail.
func spreadRows(t *testing.T, text func(id int64) string) *Store {
	s, schema := intKeyed(t, Options{})
	var rows []Row
	for id := int64(-300); id <= 300; id++ {
		var g any = id % 13
		if id%5 == 0 {
			g = nil
		}
		rows = append(rows, Row{id * 1000003, g, text(id)})
	}
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "t", Batch: buildRecord(memory.DefaultAllocator, arrowSchema(schema), rows[:400])})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows[400:]})
	return s
}

// intKeyed makes a store holding the table d.t (id BIGINT PRIMARY KEY, g
// BIGINT, v TEXT) with the index ig on g.
func intKeyed(tb testing.TB, opts Options) (*Store, *Schema) {
	s := New(opts)
	schema := &Schema{Columns: []Column{
		{Name: "id", Kind: KindInt64},
		{Name: "g", Kind: KindInt64, Nullable: true},
		{Name: "v", Kind: KindString, Nullable: true},
	}, PK: []int{0}}
	mustApply(tb, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(tb, s, Op{Kind: OpCreateTable, DB: "d", Table: "t", Schema: schema,
		Indexes: []*IndexDef{{Name: "ig", Columns: []string{"g"}}}})
	return s, schema
}

// TestNullKeyIsRefused: a row whose key column holds NULL is refused with
// ErrNotNull, even where the column's schema allows NULL, and the command
// changes nothing. The log applied such a row by panicking, which stopped
// the server (and again at every restart, replaying the command).
func TestNullKeyIsRefused(t *testing.T) {
	s := New(Options{})
	schema := &Schema{Columns: []Column{
		{Name: "v", Kind: KindInt64, Nullable: true},
		{Name: "id", Kind: KindInt64, Nullable: true},
	}, PK: []int{1}}
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "t", Schema: schema})
	err := s.Apply(0, &Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{int64(1), int64(1)}, {int64(2), nil}}}}})
	if !errors.Is(err, ErrNotNull) {
		t.Fatalf("a NULL key: %v, want ErrNotNull", err)
	}
	if n := len(scanAll(t, s, "d", "t")); n != 0 {
		t.Errorf("the refused command left %d rows", n)
	}
}
