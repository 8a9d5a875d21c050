package storage

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkJSONText writes a classifier's ml_results documents for a
// 4096-row batch, as ML_PREDICT_TABLE's commands carry them.
func BenchmarkJSONText(b *testing.B) {
	const n = 4096
	rng := rand.New(rand.NewPCG(1, 2))
	classT := arrow.StructOf(arrow.Field{Name: "class", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	probT := arrow.StructOf(arrow.Field{Name: "0", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "1", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	sb := array.NewStructBuilder(memory.DefaultAllocator, arrow.StructOf(
		arrow.Field{Name: "predictions", Type: classT, Nullable: true},
		arrow.Field{Name: "probabilities", Type: probT, Nullable: true}))
	defer sb.Release()
	for range n {
		p := rng.Float64()
		sb.Append(true)
		cb := sb.FieldBuilder(0).(*array.StructBuilder)
		cb.Append(true)
		cb.FieldBuilder(0).(*array.Float64Builder).Append(float64(rng.IntN(2)))
		pb := sb.FieldBuilder(1).(*array.StructBuilder)
		pb.Append(true)
		pb.FieldBuilder(0).(*array.Float64Builder).Append(1 - p)
		pb.FieldBuilder(1).(*array.Float64Builder).Append(p)
	}
	s := sb.NewStructArray()
	defer s.Release()
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		jsonText(s, false).Release()
	}
}
