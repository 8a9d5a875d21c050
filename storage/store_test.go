package storage

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

func mustApply(t testing.TB, s *Store, ops ...Op) {
	t.Helper()
	if err := s.Apply(0, &Command{Ops: ops}); err != nil {
		t.Fatal(err)
	}
}

func testSchema() *Schema {
	return &Schema{Columns: []Column{
		{Name: "id", Kind: KindInt64, Meta: AutoIncrementMeta},
		{Name: "name", Kind: KindString, Nullable: true},
		{Name: "score", Kind: KindFloat64, Nullable: true},
		{Name: "at", Kind: KindTimestamp, Nullable: true},
		{Name: "blob", Kind: KindBinary, Nullable: true},
	}, PK: []int{0}}
}

func newTestStore(t testing.TB) *Store {
	s := New(Options{})
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "t", Schema: testSchema(),
		Indexes: []*IndexDef{{Name: "by_name", Columns: []string{"name"}}, {Name: "u_score", Columns: []string{"score"}, Unique: true}}})
	return s
}

func row(id int64, name string, score float64) Row {
	return Row{id, name, score, time.UnixMicro(id * 1000).UTC(), []byte(name)}
}

func scanAll(t *testing.T, s *Store, db, table string) map[string]Row {
	t.Helper()
	out := map[string]Row{}
	for p := 0; p < Partitions; p++ {
		c, err := s.Scan(db, table, p)
		if err != nil {
			t.Fatal(err)
		}
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			out[id] = r
		}
		c.Close()
	}
	return out
}

func TestInsertDeleteSealCompact(t *testing.T) {
	s := newTestStore(t)
	const n = 3 * sealRows * partitionCount
	var rows []Row
	for i := int64(1); i <= n; i++ {
		rows = append(rows, row(i, fmt.Sprintf("n%05d", i%100), float64(i)))
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	if got := len(scanAll(t, s, "d", "t")); got != n {
		t.Fatalf("scan: %d rows, want %d", got, n)
	}
	// Delete two thirds so batches compact.
	var keys []string
	for i := int64(1); i <= n; i++ {
		if i%3 != 0 {
			keys = append(keys, EncodeKey([]any{i}))
		}
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: keys})
	all := scanAll(t, s, "d", "t")
	if len(all) != n/3 {
		t.Fatalf("after delete: %d rows, want %d", len(all), n/3)
	}
	for _, r := range all {
		if r[0].(int64)%3 != 0 {
			t.Fatalf("deleted row %v still visible", r)
		}
	}
	info, _ := s.Table("d", "t")
	if info.Rows != n/3 || info.AutoInc != n+1 {
		t.Fatalf("info rows=%d autoinc=%d", info.Rows, info.AutoInc)
	}
}

func TestDuplicatesRollBackWholeCommand(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1)}})
	err := s.Apply(0, &Command{Ops: []Op{
		{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(2, "b", 2), row(3, "c", 3)}},
		{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "dup", 4)}},
	}})
	var de *DuplicateError
	if !errors.As(err, &de) || de.Index != "PRIMARY" {
		t.Fatalf("want primary duplicate, got %v", err)
	}
	if got := len(scanAll(t, s, "d", "t")); got != 1 {
		t.Fatalf("partial command left %d rows", got)
	}
	err = s.Apply(0, &Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(5, "e", 1)}}}})
	if !errors.As(err, &de) || de.Index != "u_score" {
		t.Fatalf("want unique index duplicate, got %v", err)
	}
	// Delete then re-insert the same key in one command is an update.
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{EncodeKey([]any{int64(1)})}},
		Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a2", 1)}})
	r, ok, _ := s.Get("d", "t", EncodeKey([]any{int64(1)}))
	if !ok || r[1] != "a2" {
		t.Fatalf("update: got %v", r)
	}
}

func TestIndexRanges(t *testing.T) {
	s := newTestStore(t)
	var rows []Row
	for i := int64(1); i <= 100; i++ {
		rows = append(rows, row(i, fmt.Sprintf("n%03d", i%10), float64(i)))
	}
	rows = append(rows, Row{int64(101), nil, nil, nil, nil})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	cases := []struct {
		name  string
		index string
		r     Range
		want  int
	}{
		{"point", "", Range{{Cut{CutBelow, int64(7)}, Cut{CutAbove, int64(7)}}}, 1},
		{"closed", "", Range{{Cut{CutBelow, int64(10)}, Cut{CutAbove, int64(20)}}}, 11},
		{"open", "", Range{{Cut{CutAbove, int64(10)}, Cut{CutBelow, int64(20)}}}, 9},
		{"to end", "", Range{{Cut{CutAbove, int64(95)}, Cut{CutAboveAll, nil}}}, 6},
		{"secondary point", "by_name", Range{{Cut{CutBelow, "n003"}, Cut{CutAbove, "n003"}}}, 10},
		{"is null", "by_name", Range{{Cut{CutBelowNull, nil}, Cut{CutAboveNull, nil}}}, 1},
		{"not null", "by_name", Range{{Cut{CutAboveNull, nil}, Cut{CutAboveAll, nil}}}, 100},
		{"empty", "u_score", Range{{Cut{CutAbove, 500.0}, Cut{CutAboveAll, nil}}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, ids, err := s.Lookup("d", "t", c.index, []Range{c.r})
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != c.want || len(ids) != c.want {
				t.Fatalf("got %d rows, want %d", len(rows), c.want)
			}
		})
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "k", Schema: &Schema{Columns: []Column{{Name: "v", Kind: KindInt64, Nullable: true}}}})
	var rows []Row
	for i := int64(1); i <= sealRows*2; i++ {
		rows = append(rows, row(i, fmt.Sprintf("n%d", i%7), float64(i)))
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{EncodeKey([]any{int64(5)})}})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "k", Rows: []Row{{int64(1)}, {int64(1)}, {nil}}, RowIDs: []uint64{1, 2, 3}})
	mustApply(t, s, Op{Kind: OpSetUsers, Blob: []byte("users")})
	snap := s.Snapshot()
	// A write after the snapshot must not show up in it.
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(999999, "late", -1)}})
	var buf bytes.Buffer
	if _, err := snap.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	snap.Release()
	r := New(Options{})
	if err := r.Restore(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	got := scanAll(t, r, "d", "t")
	if len(got) != sealRows*2-1 {
		t.Fatalf("restored %d rows", len(got))
	}
	if _, ok := got[EncodeKey([]any{int64(999999)})]; ok {
		t.Fatal("snapshot includes a later write")
	}
	if k := scanAll(t, r, "d", "k"); len(k) != 3 {
		t.Fatalf("keyless restored %d rows", len(k))
	}
	if string(r.Users()) != "users" {
		t.Fatal("users blob lost")
	}
	info, _ := r.Table("d", "t")
	if len(info.Indexes) != 2 || info.AutoInc != sealRows*2+1 {
		t.Fatalf("restored info %+v", info)
	}
	rows2, _, _ := r.Lookup("d", "t", "by_name", []Range{{{Cut{CutBelow, "n3"}, Cut{CutAbove, "n3"}}}})
	if len(rows2) == 0 {
		t.Fatal("secondary index not rebuilt")
	}
	// Corruption is detected.
	bad := append([]byte(nil), buf.Bytes()...)
	bad[len(bad)/2] ^= 0xff
	if err := New(Options{}).Restore(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt snapshot: %v", err)
	}
}

func TestAlterColumns(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2)}})
	mustApply(t, s, Op{Kind: OpAddColumn, DB: "d", Table: "t", Column: &Column{Name: "extra", Kind: KindInt64, Nullable: true}, Position: 1, Fill: int64(7)})
	r, _, _ := s.Get("d", "t", EncodeKey([]any{int64(2)}))
	if len(r) != 6 || r[1] != int64(7) || r[2] != "b" {
		t.Fatalf("after add column: %v", r)
	}
	if err := s.Apply(0, &Command{Ops: []Op{{Kind: OpDropColumn, DB: "d", Table: "t", Name: "name"}}}); err == nil {
		t.Fatal("dropping an indexed column must fail")
	}
	mustApply(t, s, Op{Kind: OpDropColumn, DB: "d", Table: "t", Name: "extra"})
	r, _, _ = s.Get("d", "t", EncodeKey([]any{int64(2)}))
	if len(r) != 5 || r[1] != "b" {
		t.Fatalf("after drop column: %v", r)
	}
}

func TestCommandCodecRoundTrip(t *testing.T) {
	c := &Command{Ops: []Op{
		{Kind: OpCreateTable, DB: "d", Table: "t", Schema: testSchema(), Indexes: []*IndexDef{{Name: "i", Columns: []string{"name"}, Unique: true}}},
		{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "x", 2.5), {int64(2), nil, nil, nil, nil}}},
		{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{"k1", "k2"}},
		{Kind: OpAddColumn, DB: "d", Table: "t", Column: &Column{Name: "c", Kind: KindFloat32}, Position: -1, Fill: float32(1.5)},
		{Kind: OpSetUsers, Blob: []byte{1, 2, 3}},
	}}
	b := EncodeCommand(c)
	got, err := DecodeCommand(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(EncodeCommand(got), b) {
		t.Fatal("re-encoding differs")
	}
	for i := range b {
		if _, err := DecodeCommand(b[:i]); err == nil {
			t.Fatalf("truncated at %d decoded", i)
		}
	}
}

func FuzzDecodeCommand(f *testing.F) {
	f.Add(EncodeCommand(&Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "x", 2)}}}}))
	f.Add(EncodeCommand(&Command{Ops: []Op{{Kind: OpCreateTable, DB: "d", Table: "t", Schema: testSchema()}}}))
	f.Add(EncodeCommand(&Command{Ops: []Op{{Kind: OpAppend, DB: "d", Table: "t", Batch: recordOf(testRows(1, 3))}}}))
	f.Add(EncodeCommand(&Command{Ops: []Op{{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "t", Keys: []string{"k1", "k2"}, Batch: doubles(1, 2)}}}))
	f.Add(EncodeCommand(&Command{Ops: []Op{{Kind: OpCheckLookup, DB: "d", Table: "t", Name: "i", Ranges: nameIs("b"), Keys: []string{"k1"}}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCommand(b)
		if err != nil {
			return
		}
		if _, err := DecodeCommand(EncodeCommand(c)); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
	})
}

func TestArrowNoLeak(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := buildRecord(mem, arrowSchema(testSchema()), []Row{row(1, "a", 1), {int64(2), nil, nil, nil, nil}})
	if v := columnValue(rec.Column(1), 0); v != "a" {
		t.Fatalf("got %v", v)
	}
	rec.Release()
	mem.AssertSize(t, 0)
}

func TestModifyColumnMoves(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2)}})
	var rows []Row
	var keys []string
	for _, c := range []int{0, 1, 2, 3} {
		cur, _ := s.Scan("d", "t", c)
		for r, id, ok := cur.Next(); ok; r, id, ok = cur.Next() {
			nr := append(Row{}, r...)
			nr[2] = nr[2].(float64) * 10
			rows, keys = append(rows, nr), append(keys, id)
		}
		cur.Close()
	}
	col := Column{Name: "score", Kind: KindFloat64, Nullable: true}
	mustApply(t, s, Op{Kind: OpModifyColumn, DB: "d", Table: "t", Name: "score", Column: &col, Position: 0, Rows: rows, Keys: keys})
	info, _ := s.Table("d", "t")
	if info.Schema.Columns[0].Name != "score" || info.Schema.Columns[1].Name != "id" || info.Schema.PK[0] != 1 {
		t.Fatalf("schema after move: %+v", info.Schema)
	}
	r, ok, _ := s.Get("d", "t", EncodeKey([]any{int64(2)}))
	if !ok || r[0] != 20.0 || r[1] != int64(2) || r[2] != "b" {
		t.Fatalf("row after move: %v", r)
	}
}

// A database can be created together with its metadata in one command,
// the only schema change that may share one; any other mix is refused
// and changes nothing.
func TestCreateDatabaseWithMeta(t *testing.T) {
	s := New(Options{})
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "x"}, Op{Kind: OpPutMeta, DB: "X", Name: "collation", Blob: []byte(`"utf8mb4_0900_ai_ci"`)})
	if _, ok := s.Database("x"); !ok {
		t.Fatal("the database was not created")
	}
	if got, _ := s.Meta("x", ""); len(got) != 1 || string(got["collation"]) != `"utf8mb4_0900_ai_ci"` {
		t.Fatalf("its metadata: %q", got)
	}
	for _, ops := range [][]Op{
		{{Kind: OpCreateDatabase, DB: "y"}, {Kind: OpPutMeta, DB: "x", Name: "k", Blob: []byte("v")}},
		{{Kind: OpCreateDatabase, DB: "y"}, {Kind: OpCreateDatabase, DB: "z"}},
		{{Kind: OpCreateDatabase, DB: "x"}, {Kind: OpPutMeta, DB: "x", Name: "k", Blob: []byte("v")}},
	} {
		if err := s.Apply(0, &Command{Ops: ops}); err == nil {
			t.Fatalf("%v applied", ops)
		}
		if _, ok := s.Database("y"); ok {
			t.Fatalf("%v left database y", ops)
		}
	}
	if got, _ := s.Meta("x", ""); len(got) != 1 {
		t.Fatalf("a refused command changed the metadata: %q", got)
	}
}

// A database created with its metadata is written as a version 5
// command, which nodes that refuse a shared schema change do not know.
func TestCreateDatabaseWithMetaVersion(t *testing.T) {
	b := EncodeCommand(&Command{Ops: []Op{{Kind: OpCreateDatabase, DB: "x"}, {Kind: OpPutMeta, DB: "x", Name: "k", Blob: []byte("v")}}})
	if b[0] != 5 {
		t.Fatalf("written as version %d", b[0])
	}
	if b := EncodeCommand(&Command{Ops: []Op{{Kind: OpCreateDatabase, DB: "x"}}}); b[0] != 1 {
		t.Fatalf("a create database alone written as version %d", b[0])
	}
}

// TestRenameIndexedColumn: renaming a column that indexes use renames it
// in them too, and a rename that fails leaves the table as it was. It
// failed for an indexed column, after having renamed the column in the
// live table's indexes, which then named a column the table lacked.
func TestRenameIndexedColumn(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2)}})
	if err := s.Apply(0, &Command{Ops: []Op{{Kind: OpRenameColumn, DB: "d", Table: "t", Name: "name", NewName: "score"}}}); !errors.Is(err, ErrColumnExists) {
		t.Fatalf("a rename to a name the table has: %v", err)
	}
	mustApply(t, s, Op{Kind: OpRenameColumn, DB: "d", Table: "t", Name: "name", NewName: "label"})
	info, _ := s.Table("d", "t")
	if info.Schema.Columns[1].Name != "label" || info.Indexes[0].Columns[0] != "label" || info.Indexes[1].Columns[0] != "score" {
		t.Fatalf("after the rename: %+v, indexes %+v %+v", info.Schema.Columns, info.Indexes[0], info.Indexes[1])
	}
	if err := s.Apply(0, &Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(3, "c", 2)}}}}); err == nil {
		t.Fatal("the unique index on score no longer holds")
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(3, "c", 3)}})
}
