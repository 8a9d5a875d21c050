package storage

import (
	"errors"
	"testing"
)

// TestDropIndexedColumn: OpDropIndexedColumn takes the column out of
// every index and drops an index left without columns, in one command
// that fails whole when a unique index it shrinks would hold duplicates;
// OpDropColumn, as logged before it existed, still refuses an indexed
// column. Its command is version 3; a version 2 command holding it is
// corrupt.
func TestDropIndexedColumn(t *testing.T) {
	s := New(Options{})
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "t",
		Schema:  &Schema{Columns: []Column{{Name: "id", Kind: KindInt64}, {Name: "a", Kind: KindInt64, Nullable: true}, {Name: "b", Kind: KindInt64, Nullable: true}}, PK: []int{0}},
		Indexes: []*IndexDef{{Name: "a", Columns: []string{"a"}}, {Name: "ab", Columns: []string{"a", "b"}}, {Name: "u", Columns: []string{"b", "a"}, Unique: true}}})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{int64(1), int64(1), int64(5)}, {int64(2), int64(2), int64(5)}}})
	apply := func(op Op) error {
		c, err := DecodeCommand(EncodeCommand(&Command{Ops: []Op{op}}))
		if err != nil {
			t.Fatal(err)
		}
		return s.Apply(0, c)
	}
	indexes := func() map[string][]string {
		info, err := s.Table("d", "t")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, x := range info.Indexes {
			out[x.Name] = x.Columns
		}
		return out
	}
	if err := apply(Op{Kind: OpDropColumn, DB: "d", Table: "t", Name: "a"}); !errors.Is(err, ErrBadSchema) {
		t.Fatalf("OpDropColumn of an indexed column: %v", err)
	}
	if err := apply(Op{Kind: OpDropIndexedColumn, DB: "d", Table: "t", Name: "a"}); err == nil {
		t.Fatal("u shrunk to (b) holds 5 twice, yet the drop went through")
	}
	if got := indexes(); len(got) != 3 || len(got["u"]) != 2 {
		t.Fatalf("after the failed drop: %v", got)
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{EncodeKey([]any{int64(2)})}})
	if err := apply(Op{Kind: OpDropIndexedColumn, DB: "d", Table: "t", Name: "A"}); err != nil {
		t.Fatal(err)
	}
	got := indexes()
	if len(got) != 2 || len(got["ab"]) != 1 || got["ab"][0] != "b" || len(got["u"]) != 1 || got["u"][0] != "b" {
		t.Fatalf("indexes after dropping a: %v", got)
	}
	rows, _, err := s.Lookup("d", "t", "u", []Range{{{Lo: Cut{Kind: CutBelow, Key: int64(5)}, Hi: Cut{Kind: CutAbove, Key: int64(5)}}}})
	if err != nil || len(rows) != 1 || len(rows[0]) != 2 || rows[0][1] != int64(5) {
		t.Fatalf("lookup in the shrunk unique index: %v, %v", rows, err)
	}

	b := EncodeCommand(&Command{Ops: []Op{{Kind: OpDropIndexedColumn, DB: "d", Table: "t", Name: "b"}}})
	if b[0] != 3 {
		t.Fatalf("written as version %d", b[0])
	}
	if _, err := DecodeCommand(append([]byte{2}, b[1:]...)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("in a version 2 command: %v", err)
	}
	if _, err := DecodeCommand(append([]byte{commandVersion + 1}, b[1:]...)); !errors.Is(err, ErrFormatVersion) {
		t.Fatalf("a version after the newest: %v", err)
	}
}
