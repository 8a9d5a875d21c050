package storage

import (
	"fmt"
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
	s := New(Options{Compare: func(Column) CompareFunc { return cmp }})
	schema := &Schema{Columns: []Column{
		{Name: "id", Kind: KindInt64},
		{Name: "g", Kind: KindInt64, Nullable: true},
	}, PK: []int{0}}
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "t", Schema: schema,
		Indexes: []*IndexDef{{Name: "ig", Columns: []string{"g"}}}})
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
		rows = append(rows, Row{id, g})
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
			changed = append(changed, Row{id, g})
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
