package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// marshalStored is what jsonText must agree with: encoding/json without
// HTML escaping (maps give the bytewise member order), with a whole
// float64 written as a DOUBLE (storedDoubles).
func marshalStored(t *testing.T, v any) string {
	t.Helper()
	return marshalBare(t, storedDoubles(v))
}

// marshalBare is v as encoding/json writes it without HTML escaping, a
// whole float64 as an integer: the text of commands of versions 6 and 7.
func marshalBare(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}

// storedDoubles is v with each float64 the json.Number AppendJSONDouble
// writes, so that encoding/json writes the document as it is stored.
func storedDoubles(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return x
		}
		return json.Number(AppendJSONDouble(nil, x))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = storedDoubles(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = storedDoubles(e)
		}
		return out
	}
	return v
}

// TestAppendJSONDouble: a stored DOUBLE is written as encoding/json
// writes it, with ".0" after a whole one, and reads back as the same
// float, over the values either side of each change of form.
func TestAppendJSONDouble(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1e-7, 1e-6, 9.99e-7, 1e15 - 1, 1e15, -1e15, 1e20, 1e21, 1.5e21,
		-3e-300, 0.1, math.MaxFloat64, math.SmallestNonzeroFloat64, 9007199254740993}
	for range 2000 {
		vals = append(vals, math.Ldexp(rng.Float64()-0.5, rng.IntN(200)-100), float64(rng.Int64N(1<<60)-1<<59))
	}
	for _, f := range vals {
		got := string(AppendJSONDouble([]byte("x"), f))[1:]
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.ContainsAny(want, ".e") {
			want = append(want, ".0"...)
		}
		if got != string(want) {
			t.Errorf("%v written as %s, want %s", f, got, want)
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || math.Float64bits(back) != math.Float64bits(f) {
			t.Errorf("%s reads back as %v, want %v", got, back, f)
		}
	}
}

// docType is the struct type of the documents jsonDocs builds: members
// named so that field order differs from member order, one of each
// member type, and a nested struct.
var docType = arrow.StructOf(
	arrow.Field{Name: "z", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	arrow.Field{Name: "a<b>&", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	arrow.Field{Name: "B", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	arrow.Field{Name: "é\u2028", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	arrow.Field{Name: "nested", Type: arrow.StructOf(
		arrow.Field{Name: "1", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "0", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	), Nullable: true},
)

// jsonDocs builds n documents of docType, some rows and members NULL, and
// the value encoding/json is given for each (nil for a NULL row).
func jsonDocs(n int) (*array.Struct, []any) {
	rng := rand.New(rand.NewPCG(5, 6))
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 1e-7, 1e-6, 9.99e-7, 1e20, 1e21, 1.5e21, -3e-300,
		123456789.125, 0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64}
	texts := []string{"", "plain", `quote " and \ back`, "<html> & 'x'", "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f",
		"é ü 漢字 😀", "line\u2028para\u2029", "bad \xff\xfe utf8", "\xe2\x82"}
	b := array.NewStructBuilder(memory.DefaultAllocator, docType)
	defer b.Release()
	want := make([]any, n)
	for i := range n {
		if i%11 == 5 {
			b.AppendNull()
			continue
		}
		b.Append(true)
		doc := map[string]any{}
		f := floats[i%len(floats)]
		if i >= len(floats) {
			f = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(60)-30))
		}
		b.FieldBuilder(0).(*array.Float64Builder).Append(f)
		doc["z"] = f
		if i%5 == 3 {
			b.FieldBuilder(1).AppendNull()
			doc["a<b>&"] = nil
		} else {
			s := texts[i%len(texts)]
			b.FieldBuilder(1).(*array.LargeStringBuilder).Append(s)
			doc["a<b>&"] = s
		}
		k := rng.Int64() - math.MaxInt64/2
		b.FieldBuilder(2).(*array.Int64Builder).Append(k)
		doc["B"] = k
		u := rng.Uint64()
		b.FieldBuilder(3).(*array.Uint64Builder).Append(u)
		doc["é\u2028"] = u
		nb := b.FieldBuilder(4).(*array.StructBuilder)
		if i%7 == 2 {
			nb.AppendNull() // and a NULL in each member
			doc["nested"] = nil
		} else {
			nb.Append(true)
			p := rng.Float64()
			nb.FieldBuilder(0).(*array.Float64Builder).Append(p)
			nb.FieldBuilder(1).(*array.Float64Builder).Append(1 - p)
			doc["nested"] = map[string]any{"1": p, "0": 1 - p}
		}
		want[i] = doc
	}
	return b.NewStructArray(), want
}

// The text written for a struct is encoding/json's for the same document
// with whole DOUBLEs written with ".0" (storedDoubles), the form the SQL
// layer stores JSON in, over every member type, strings
// needing each kind of escape, floats in both formats, and NULL rows and
// members.
// A batch of more than jsonPartRows rows is written in parts on as many
// goroutines as there are cores; the test runs with one core and with
// three (three uneven parts).
func TestJSONTextMatchesEncodingJSON(t *testing.T) {
	for _, procs := range []int{1, 3} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			checkJSONText(t, 3*jsonPartRows+100)
		})
	}
	checkJSONText(t, 300)
}

func checkJSONText(t *testing.T, n int) {
	s, want := jsonDocs(n)
	defer s.Release()
	if err := CheckJSONStruct(s); err != nil {
		t.Fatal(err)
	}
	got := jsonText(s, false)
	defer got.Release()
	if got.Len() != n {
		t.Fatalf("%d rows of text for %d documents", got.Len(), n)
	}
	for i, w := range want {
		if w == nil {
			if got.IsValid(i) {
				t.Fatalf("row %d: NULL document written as %q", i, got.Value(i))
			}
			continue
		}
		if got.IsNull(i) || got.Value(i) != marshalStored(t, w) {
			t.Fatalf("row %d: got %q, want %q", i, got.Value(i), marshalStored(t, w))
		}
	}
	// A slice of the array reads its own rows.
	sl := array.NewSlice(s, 100, 200).(*array.Struct)
	defer sl.Release()
	part := jsonText(sl, false)
	defer part.Release()
	for i := range part.Len() {
		if part.IsValid(i) != got.IsValid(100+i) || part.Value(i) != got.Value(100+i) {
			t.Fatalf("slice row %d: %q, whole array %q", i, part.Value(i), got.Value(100+i))
		}
	}
}

// jsonTable is d.j: an integer key and a nullable string column.
func jsonTable(t *testing.T) *Store {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "j", Schema: &Schema{Columns: []Column{
		{Name: "id", Kind: KindInt64},
		{Name: "doc", Kind: KindString, Nullable: true},
	}, PK: []int{0}}})
	return s
}

func withKeys(t *testing.T, from int64, doc arrow.Array) arrow.RecordBatch {
	t.Helper()
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	for i := range doc.Len() {
		kb.Append(from + int64(i))
	}
	k := kb.NewArray()
	defer k.Release()
	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "doc", Type: doc.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(sch, []arrow.Array{k, doc}, int64(doc.Len()))
}

// docsBatch is n rows of d.j: keys from 1 and jsonDocs.
func docsBatch(t *testing.T, n int) (arrow.RecordBatch, []any) {
	docs, want := jsonDocs(n)
	defer docs.Release()
	return withKeys(t, 1, docs), want
}

// An append whose string column comes as a struct goes through the log as
// a version 8 command and stores each row's JSON text; a command of
// version 6 or 7, as logged before version 8, stores the text it stored
// then (a whole float64 as an integer), and older versions refuse it as
// corrupt.
func TestAppendJSONStruct(t *testing.T) {
	rec, want := docsBatch(t, 300)
	defer rec.Release()
	b := EncodeCommand(&Command{Ops: []Op{{Kind: OpAppend, DB: "d", Table: "j", Batch: rec}}})
	if b[0] != 8 {
		t.Fatalf("an append of a struct column is written as version %d", b[0])
	}
	for _, v := range []byte{2, 5} {
		old := append([]byte{v}, b[1:]...)
		if _, err := DecodeCommand(old); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a struct column in a version %d command: %v", v, err)
		}
	}
	wholes := 0
	for _, v := range []byte{6, 7, 8} {
		s := jsonTable(t)
		c, err := DecodeCommand(append([]byte{v}, b[1:]...))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(0, c); err != nil {
			t.Fatal(err)
		}
		for id, r := range scanAll(t, s, "d", "j") {
			i := r[0].(int64) - 1
			if want[i] == nil {
				if r[1] != nil {
					t.Fatalf("%q: NULL document stored as %v", id, r[1])
				}
				continue
			}
			w := marshalStored(t, want[i])
			if v < 8 {
				w = marshalBare(t, want[i])
			}
			if r[1] != w {
				t.Fatalf("version %d, row %d: stored %v, want %s", v, i+1, r[1], w)
			}
			if v == 8 && w != marshalBare(t, want[i]) {
				wholes++
			}
		}
	}
	if wholes == 0 {
		t.Fatal("no document held a whole float64")
	}
}

// A struct that JSON cannot write fails the command and leaves the table
// as it was: a NaN, a member of another type, two members of one name.
func TestAppendJSONStructRefused(t *testing.T) {
	s := jsonTable(t)
	good, _ := docsBatch(t, 20)
	defer good.Release()
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "j", Batch: good})
	before := len(scanAll(t, s, "d", "j"))

	// Row 3 is NULL, so its infinity is never written: no error.
	vals := array.NewFloat64Builder(memory.DefaultAllocator)
	defer vals.Release()
	vals.AppendValues([]float64{0.5, math.NaN(), math.Inf(1)}, nil)
	p := vals.NewArray()
	defer p.Release()
	valid := memory.NewBufferBytes([]byte{0b011})
	nanDocs, err := array.NewStructArrayWithNulls([]arrow.Array{p}, []string{"p"}, valid, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer nanDocs.Release()

	boolType := arrow.StructOf(arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean})
	bools := array.NewStructBuilder(memory.DefaultAllocator, boolType)
	defer bools.Release()
	bools.Append(true)
	bools.FieldBuilder(0).(*array.BooleanBuilder).Append(true)
	boolDocs := bools.NewStructArray()
	defer boolDocs.Release()

	twiceType := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64})
	twice := array.NewStructBuilder(memory.DefaultAllocator, twiceType)
	defer twice.Release()
	twice.Append(true)
	twice.FieldBuilder(0).(*array.Int64Builder).Append(1)
	twice.FieldBuilder(1).(*array.Int64Builder).Append(2)
	twiceDocs := twice.NewStructArray()
	defer twiceDocs.Release()

	for name, doc := range map[string]arrow.Array{"NaN": nanDocs, "bool member": boolDocs, "member twice": twiceDocs} {
		t.Run(name, func(t *testing.T) {
			if err := CheckJSONStruct(doc); err == nil {
				t.Fatal("CheckJSONStruct accepted it")
			}
			rec := withKeys(t, 1000, doc)
			defer rec.Release()
			err := s.Apply(0, &Command{Ops: []Op{{Kind: OpAppend, DB: "d", Table: "j", Batch: rec}}})
			if !errors.Is(err, ErrBadValue) {
				t.Fatalf("got %v, want %v", err, ErrBadValue)
			}
			if n := len(scanAll(t, s, "d", "j")); n != before {
				t.Fatalf("%d rows after a failed append, %d before", n, before)
			}
		})
	}
	hidden := array.NewSlice(nanDocs, 2, 3)
	defer hidden.Release()
	if err := CheckJSONStruct(hidden); err != nil {
		t.Fatalf("a NaN under a NULL row: %v", err)
	}
}
