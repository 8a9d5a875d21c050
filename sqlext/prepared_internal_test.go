package sqlext

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlearn/sqlearn/storage"
)

// A prepared command is found by the very bytes proposed, once, with its
// JSON columns already written as text; a copy of the bytes, bytes that
// do not decode, and a proposal that is over find nothing, so the state
// machine decodes them itself.
func TestPreparedCommands(t *testing.T) {
	sb := array.NewStructBuilder(memory.DefaultAllocator, arrow.StructOf(arrow.Field{Name: "p", Type: arrow.PrimitiveTypes.Float64}))
	defer sb.Release()
	for _, v := range []float64{0.25, 1} {
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Float64Builder).Append(v)
	}
	docs := sb.NewArray()
	defer docs.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "doc", Type: docs.DataType()}}, nil), []arrow.Array{docs}, 2)
	defer rec.Release()
	ops := []storage.Op{{Kind: storage.OpAppend, DB: "d", Table: "t", Batch: rec}}
	if !preparable(ops) || preparable([]storage.Op{{Kind: storage.OpInsert, DB: "d", Table: "t"}}) {
		t.Fatal("preparable: an append is worth preparing, an insert of rows is not")
	}
	b := storage.EncodeCommand(&storage.Command{Ops: ops})

	var p preparedCommands
	done := p.prepare(b)
	if _, ok := p.take(bytes.Clone(b)); ok {
		t.Fatal("a copy of the proposed bytes found the prepared command")
	}
	cmd, ok := p.take(b)
	if !ok {
		t.Fatal("the proposed bytes found no prepared command")
	}
	text, isText := cmd.Ops[0].Batch.Column(0).(*array.LargeString)
	if !isText || text.Value(0) != `{"p":0.25}` || text.Value(1) != `{"p":1.0}` {
		t.Fatalf("prepared batch column %v", cmd.Ops[0].Batch.Column(0))
	}
	if _, ok := p.take(b); ok {
		t.Fatal("a prepared command was taken twice")
	}
	done()

	done = p.prepare(b)
	done()
	if _, ok := p.take(b); ok {
		t.Fatal("a proposal that is over left its command behind")
	}
	bad := append([]byte{99}, b[1:]...)
	defer p.prepare(bad)()
	if _, ok := p.take(bad); ok {
		t.Fatal("bytes that do not decode gave a prepared command")
	}
	var none *preparedCommands
	defer none.prepare(b)()
	if _, ok := none.take(b); ok {
		t.Fatal("a provider without prepared commands found one")
	}
}
