package storage

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// BenchmarkAppendFrom applies what ML_PREDICT_TABLE logs for a
// 50,000-row input: per stored batch of the input, a command naming its
// rows by key with one new DOUBLE column, through the codec, into a new
// table each time.
func BenchmarkAppendFrom(b *testing.B) {
	s := appendTables(b)
	const n = 50000
	mustApply(b, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(1, n))})
	out := testSchema()
	out.Columns = append(out.Columns, Column{Name: "p", Kind: KindFloat64, Nullable: true})
	var cmds [][]byte
	if _, err := s.ScanIdentified(context.Background(), "d", "fast", func(rec arrow.RecordBatch, ids []string) error {
		ps := make([]float64, len(ids))
		for i := range ps {
			ps[i] = float64(i) / 3
		}
		p := doubles(ps...)
		defer p.Release()
		cmds = append(cmds, EncodeCommand(&Command{Ops: []Op{{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "fast", Keys: ids, Batch: p}}}))
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		name := fmt.Sprintf("out%d", i)
		mustApply(b, s, Op{Kind: OpCreateTable, DB: "d", Table: name, Schema: out})
		b.StartTimer()
		for _, raw := range cmds {
			c, err := DecodeCommand(raw)
			if err != nil {
				b.Fatal(err)
			}
			c.Ops[0].Table = name
			if err := s.Apply(0, c); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		mustApply(b, s, Op{Kind: OpDropTable, DB: "d", Table: name})
		b.StartTimer()
	}
}
