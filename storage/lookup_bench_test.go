package storage

import (
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"testing"
)

// BenchmarkLookupSecondary looks up single keys through a secondary
// index on an integer column of a 200,000-row table, as the inner side
// of a lookup join does once per outer row.
func BenchmarkLookupSecondary(b *testing.B) {
	s := New(Options{})
	schema := &Schema{Columns: []Column{
		{Name: "id", Kind: KindInt64},
		{Name: "aid", Kind: KindInt64, Nullable: true},
		{Name: "v", Kind: KindInt64, Nullable: true},
	}, PK: []int{0}}
	mustApply(b, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(b, s, Op{Kind: OpCreateTable, DB: "d", Table: "b", Schema: schema,
		Indexes: []*IndexDef{{Name: "iaid", Columns: []string{"aid"}}}})
	const n = 200000
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]Row, 0, n)
	for i := int64(1); i <= n; i++ {
		var aid any = rng.Int64N(n*6/10) + 1
		if i%50 == 0 {
			aid = nil
		}
		rows = append(rows, Row{i, aid, rng.Int64N(10)})
	}
	mustApply(b, s, Op{Kind: OpAppend, DB: "d", Table: "b", Batch: buildRecord(memory.DefaultAllocator, arrowSchema(schema), rows)})
	keys := make([]int64, 4096)
	for i := range keys {
		keys[i] = rng.Int64N(n/2) + 1
	}
	b.ResetTimer()
	found := 0
	for i := range b.N {
		k := keys[i%len(keys)]
		r := Range{{Lo: Cut{Kind: CutBelow, Key: k}, Hi: Cut{Kind: CutAbove, Key: k}}}
		got, _, err := s.Lookup("d", "b", "iaid", []Range{r})
		if err != nil {
			b.Fatal(err)
		}
		found += len(got)
	}
	if found == 0 {
		b.Fatal("no rows found")
	}
}
