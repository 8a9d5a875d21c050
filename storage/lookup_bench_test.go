package storage

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkLookupSecondary looks up single keys through a secondary
// index on an integer column of a 200,000-row table, as the inner side
// of a lookup join does once per outer row: whole rows, and the key and
// primary key alone, which the index covers.
func BenchmarkLookupSecondary(b *testing.B) {
	s, schema := intKeyed(b, Options{})
	const n = 200000
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]Row, 0, n)
	for i := int64(1); i <= n; i++ {
		var aid any = rng.Int64N(n*6/10) + 1
		if i%50 == 0 {
			aid = nil
		}
		rows = append(rows, Row{i, aid, "v"})
	}
	mustApply(b, s, Op{Kind: OpAppend, DB: "d", Table: "t", Batch: buildRecord(memory.DefaultAllocator, arrowSchema(schema), rows)})
	keys := make([]int64, 4096)
	for i := range keys {
		keys[i] = rng.Int64N(n/2) + 1
	}
	for _, c := range []struct {
		name string
		need []bool
	}{{"rows", nil}, {"covered", []bool{true, true, false}}} {
		b.Run(c.name, func(b *testing.B) {
			found := 0
			for i := range b.N {
				k := keys[i%len(keys)]
				r := Range{{Lo: Cut{Kind: CutBelow, Key: k}, Hi: Cut{Kind: CutAbove, Key: k}}}
				got, _, err := s.LookupColumns("d", "t", "ig", []Range{r}, c.need)
				if err != nil {
					b.Fatal(err)
				}
				found += len(got)
			}
			if found == 0 {
				b.Fatal("no rows found")
			}
		})
	}
}
