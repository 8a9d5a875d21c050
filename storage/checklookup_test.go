package storage

import (
	"bytes"
	"errors"
	"testing"
)

// nameIs selects the rows of d.t's by_name index whose name is n.
func nameIs(n string) []Range {
	return []Range{{{Lo: Cut{Kind: CutBelow, Key: n}, Hi: Cut{Kind: CutAbove, Key: n}}}}
}

// TestCheckLookup: the op lets its command through when the lookup finds
// exactly the rows it names, fails it whole otherwise (the command's other
// changes are not applied), and counts as no write.
func TestCheckLookup(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2), row(3, "b", 3)}})
	one, two, three := EncodeKey([]any{int64(1)}), EncodeKey([]any{int64(2)}), EncodeKey([]any{int64(3)})
	insert := Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(9, "z", 9)}}
	check := func(index string, ranges []Range, ids ...string) Op {
		return Op{Kind: OpCheckLookup, DB: "d", Table: "t", Name: index, Ranges: ranges, Keys: ids}
	}
	pk := []Range{{{Lo: Cut{Kind: CutBelow, Key: int64(1)}, Hi: Cut{Kind: CutAbove, Key: int64(1)}}}}
	before := s.Writes("d", "t")
	for _, c := range []struct {
		name string
		op   Op
		ok   bool
	}{
		{"the parent as read", check("PRIMARY", pk, one), true},
		{"the children as read, in another order", check("by_name", nameIs("b"), three, two), true},
		{"no child, as read", check("by_name", nameIs("c"), nil...), true},
		{"a parent gone", check("PRIMARY", pk, two), false},
		{"a child added", check("by_name", nameIs("b"), two), false},
		{"a child gone", check("by_name", nameIs("a"), one, two), false},
		{"a child where none was", check("by_name", nameIs("a")), false},
	} {
		err := s.Apply(0, &Command{Ops: []Op{c.op, insert}})
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrConflict)) {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, stored, _ := s.Get("d", "t", EncodeKey([]any{int64(9)})); stored != c.ok {
			t.Errorf("%s: the command's insert is stored: %v", c.name, stored)
		}
		if c.ok {
			mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{EncodeKey([]any{int64(9)})}})
		}
	}
	if err := s.Apply(0, &Command{Ops: []Op{check("nope", nameIs("a"))}}); !errors.Is(err, ErrIndexNotFound) {
		t.Errorf("an unknown index: %v", err)
	}
	if s.Writes("d", "t") == before {
		t.Fatal("the inserts did not count as writes")
	}
	before = s.Writes("d", "t")
	mustApply(t, s, check("PRIMARY", pk, one))
	if s.Writes("d", "t") != before {
		t.Error("a check alone counted as a write")
	}

	// The op round-trips, needs version 7 and refuses a bad cut.
	c := &Command{Ops: []Op{check("by_name", append(nameIs("b"), Range{{Lo: Cut{Kind: CutBelowNull}, Hi: Cut{Kind: CutAboveAll}}}), two, three)}}
	b := EncodeCommand(c)
	if b[0] != 7 {
		t.Fatalf("written as version %d", b[0])
	}
	got, err := DecodeCommand(b)
	if err != nil || !bytes.Equal(EncodeCommand(got), b) || len(got.Ops[0].Ranges) != 2 || got.Ops[0].Ranges[0][0].Lo.Key != "b" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	for i := range b {
		if _, err := DecodeCommand(b[:i]); err == nil {
			t.Fatalf("truncated at %d decoded", i)
		}
	}
	if _, err := DecodeCommand(append([]byte{6}, b[1:]...)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a check in a version 6 command: %v", err)
	}
	bad := EncodeCommand(&Command{Ops: []Op{check("i", []Range{{{Lo: Cut{Kind: 9}, Hi: Cut{Kind: CutAboveAll}}}})}})
	if _, err := DecodeCommand(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("cut kind 9: %v", err)
	}
}

// TestCheckRows: the op lets its command through when each row it names
// holds what it says, fails it whole when one was changed or deleted,
// counts as no write, round-trips as version 11 and is refused in an
// older command.
func TestCheckRows(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2)}})
	one, two := EncodeKey([]any{int64(1)}), EncodeKey([]any{int64(2)})
	nine := EncodeKey([]any{int64(9)})
	insert := Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(9, "z", 9)}}
	check := func(ids []string, rows ...Row) Op {
		return Op{Kind: OpCheckRows, DB: "d", Table: "t", Keys: ids, Rows: rows}
	}
	before := s.Writes("d", "t")
	mustApply(t, s, check([]string{one, two}, row(1, "a", 1), row(2, "b", 2)))
	if s.Writes("d", "t") != before {
		t.Error("a check alone counted as a write")
	}
	for _, c := range []struct {
		name string
		op   Op
		ok   bool
	}{
		{"the rows as read", check([]string{two, one}, row(2, "b", 2), row(1, "a", 1)), true},
		{"a row changed", check([]string{one, two}, row(1, "a", 1), row(2, "b", 3)), false},
		{"a row gone", check([]string{nine}, row(9, "z", 9)), false},
	} {
		if c.ok {
			mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{nine}})
		}
		err := s.Apply(0, &Command{Ops: []Op{c.op, insert}})
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrConflict)) {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, stored, _ := s.Get("d", "t", nine); stored != c.ok {
			t.Errorf("%s: the command's insert is stored: %v", c.name, stored)
		}
		if !c.ok {
			continue
		}
		mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{nine}})
	}

	b := EncodeCommand(&Command{Ops: []Op{check([]string{one}, row(1, "a", 1))}})
	if b[0] != 11 {
		t.Fatalf("written as version %d", b[0])
	}
	got, err := DecodeCommand(b)
	if err != nil || !bytes.Equal(EncodeCommand(got), b) || got.Ops[0].Kind != OpCheckRows || len(got.Ops[0].Rows) != 1 {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if _, err := DecodeCommand(append([]byte{10}, b[1:]...)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a row check in a version 10 command: %v", err)
	}
	if _, err := DecodeCommand(EncodeCommand(&Command{Ops: []Op{check([]string{one})}})); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a row check without its row: %v", err)
	}
}
