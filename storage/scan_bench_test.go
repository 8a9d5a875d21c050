package storage

import "testing"

// BenchmarkScanOrder reads every row of a 60,000-row table in key order
// (ScanKeyOrder, what a query without ORDER BY reads from a keyed table
// of up to OrderedScanRows rows) and in storage order (ScanTable's
// partition cursors).
func BenchmarkScanOrder(b *testing.B) {
	s := appendTables(b)
	const n = 60000
	mustApply(b, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(1, n/2))})
	mustApply(b, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(n/2+1, n)})
	b.Run("key", func(b *testing.B) {
		for range b.N {
			c, ok, err := s.ScanKeyOrder("d", "fast", n)
			if err != nil || !ok {
				b.Fatal(ok, err)
			}
			rows := 0
			for _, ok := c.Next(); ok; _, ok = c.Next() {
				rows++
			}
			c.Close()
			if rows != n {
				b.Fatal(rows)
			}
		}
	})
	b.Run("storage", func(b *testing.B) {
		for range b.N {
			cs, err := s.ScanTable("d", "fast")
			if err != nil {
				b.Fatal(err)
			}
			rows := 0
			for _, c := range cs {
				for _, _, ok := c.Next(); ok; _, _, ok = c.Next() {
					rows++
				}
				c.Close()
			}
			if rows != n {
				b.Fatal(rows)
			}
		}
	})
}
