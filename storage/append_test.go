package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// viaLog returns ops as the log hands them to a follower: encoded and
// decoded.
func viaLog(t *testing.T, ops ...Op) *Command {
	t.Helper()
	c, err := DecodeCommand(EncodeCommand(&Command{Ops: ops}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func contents(t *testing.T, s *Store, table string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for id, r := range scanAll(t, s, "d", table) {
		out[id] = EncodeKey(r)
	}
	return out
}

// appendTables creates the same three tables in a store: one whose appends
// take the columnar path (integer key, plain secondary index), one that
// falls back to rows (a unique secondary index), and one without a key.
func appendTables(t testing.TB) *Store {
	s := newTestStore(t) // d.t: unique index on score, the row path
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "fast", Schema: testSchema(),
		Indexes: []*IndexDef{{Name: "by_name", Columns: []string{"name"}}}})
	keyless := testSchema()
	keyless.PK = nil
	keyless.Columns[0].Meta = ""
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "keyless", Schema: keyless})
	return s
}

func testRows(from, to int64) []Row {
	var rows []Row
	for i := from; i <= to; i++ {
		r := row(i, fmt.Sprintf("n%03d", i%50), float64(i))
		if i%7 == 0 {
			r[1], r[3], r[4] = nil, nil, nil
		}
		rows = append(rows, r)
	}
	return rows
}

func recordOf(rows []Row) arrow.RecordBatch {
	return buildRecord(memory.DefaultAllocator, arrowSchema(testSchema()), rows)
}

func TestAppendMatchesInsert(t *testing.T) {
	byRows, byBatch := appendTables(t), appendTables(t)
	var next uint64 = 1
	for _, span := range [][2]int64{{1, 10}, {11, 5000}, {5001, 5003}, {5004, 9000}} {
		rows := testRows(span[0], span[1])
		ids := make([]uint64, len(rows))
		for i := range ids {
			ids[i] = next
			next++
		}
		for _, table := range []string{"t", "fast", "keyless"} {
			var rids []uint64
			if table == "keyless" {
				rids = ids
			}
			mustApply(t, byRows, Op{Kind: OpInsert, DB: "d", Table: table, Rows: rows, RowIDs: rids})
			c := viaLog(t, Op{Kind: OpAppend, DB: "d", Table: table, Batch: recordOf(rows), RowIDs: rids})
			if err := byBatch.Apply(0, c); err != nil {
				t.Fatalf("%s %v: %v", table, span, err)
			}
		}
	}
	for _, table := range []string{"t", "fast", "keyless"} {
		want, got := contents(t, byRows, table), contents(t, byBatch, table)
		if len(got) != len(want) || len(got) != 9000 {
			t.Fatalf("%s: %d rows appended, %d inserted", table, len(got), len(want))
		}
		for id, r := range want {
			if got[id] != r {
				t.Fatalf("%s: row %q differs", table, id)
			}
		}
		wi, _ := byRows.Table("d", table)
		gi, _ := byBatch.Table("d", table)
		if wi.Rows != gi.Rows || wi.AutoInc != gi.AutoInc {
			t.Fatalf("%s: rows/auto-increment %d/%d appended, %d/%d inserted", table, gi.Rows, gi.AutoInc, wi.Rows, wi.AutoInc)
		}
	}
	next1, _ := byBatch.AllocRowIDs("d", "keyless", 1)
	next2, _ := byRows.AllocRowIDs("d", "keyless", 1)
	if next1 != next2 || next1 != next {
		t.Fatalf("next row id %d appended, %d inserted, want %d", next1, next2, next)
	}
	// The secondary index finds the appended rows.
	r := Range{{Cut{CutBelow, "n007"}, Cut{CutAbove, "n007"}}}
	want, _, _ := byRows.Lookup("d", "fast", "by_name", []Range{r})
	got, _, err := byBatch.Lookup("d", "fast", "by_name", []Range{r})
	if err != nil || len(got) != len(want) || len(got) == 0 {
		t.Fatalf("index lookup: %d rows appended, %d inserted (%v)", len(got), len(want), err)
	}
	// Batches read from a table with the same key each fall in one
	// partition, and are kept as they are.
	mustApply(t, byBatch, Op{Kind: OpCreateTable, DB: "d", Table: "copy", Schema: testSchema()})
	err = byBatch.ScanRecords(context.Background(), "d", "fast", func(rec arrow.RecordBatch) error {
		return byBatch.Apply(0, viaLog(t, Op{Kind: OpAppend, DB: "d", Table: "copy", Batch: rec}))
	})
	if err != nil {
		t.Fatal(err)
	}
	want2, got2 := contents(t, byBatch, "fast"), contents(t, byBatch, "copy")
	if len(got2) != len(want2) {
		t.Fatalf("copy: %d rows of %d", len(got2), len(want2))
	}
	for id, r := range want2 {
		if got2[id] != r {
			t.Fatalf("copy: row %q differs", id)
		}
	}
	if rows, _, _ := byBatch.Lookup("d", "copy", "", []Range{{{Cut{CutAbove, int64(8990)}, Cut{CutAboveAll, nil}}}}); len(rows) != 10 {
		t.Fatalf("copy: primary range found %d rows", len(rows))
	}
	// Deleting appended rows works and compacts as usual.
	var keys []string
	for i := int64(1); i <= 9000; i += 2 {
		keys = append(keys, EncodeKey([]any{i}))
	}
	mustApply(t, byBatch, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: keys})
	if n := len(scanAll(t, byBatch, "d", "fast")); n != 4500 {
		t.Fatalf("after deleting half: %d rows", n)
	}
}

func TestAppendFailuresChangeNothing(t *testing.T) {
	s := appendTables(t)
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(1, 1000))})
	before := contents(t, s, "fast")
	wrongKind := testSchema()
	wrongKind.Columns[2].Kind = KindInt64
	nullRow := testRows(3000, 3000)
	nullRow[0][0] = nil
	cases := []struct {
		name string
		ops  []Op
		want error
	}{
		{"stored key", []Op{{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(990, 2000))}}, ErrDuplicateKey},
		{"key twice in the batch", []Op{{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(append(testRows(2000, 2500), testRows(2100, 2100)...))}}, ErrDuplicateKey},
		{"after an insert in the same command", []Op{
			{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(5000, 5010)},
			{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(6000, 7000))},
			{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(1, 1)},
		}, ErrDuplicateKey},
		{"wrong column type", []Op{{Kind: OpAppend, DB: "d", Table: "fast",
			Batch: buildRecord(memory.DefaultAllocator, arrowSchema(wrongKind), []Row{{int64(4000), "x", int64(1), nil, nil}})}}, ErrBadValue},
		{"NULL key", []Op{{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(nullRow)}}, ErrNotNull},
		{"keyless without row ids", []Op{{Kind: OpAppend, DB: "d", Table: "keyless", Batch: recordOf(testRows(1, 10))}}, ErrBadValue},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.Apply(0, viaLog(t, c.ops...))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			after := contents(t, s, "fast")
			if len(after) != len(before) {
				t.Fatalf("%d rows after a failed command, %d before", len(after), len(before))
			}
			for id, r := range before {
				if after[id] != r {
					t.Fatalf("row %q changed", id)
				}
			}
		})
	}
	if info, _ := s.Table("d", "fast"); info.AutoInc != 1001 {
		t.Fatalf("auto-increment moved to %d by failed commands", info.AutoInc)
	}
}

func TestAppendCommandVersions(t *testing.T) {
	rows := EncodeCommand(&Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: testRows(1, 2)}}})
	if rows[0] != commandVersionBefore {
		t.Fatalf("a command without an append is written as version %d", rows[0])
	}
	b := EncodeCommand(&Command{Ops: []Op{{Kind: OpAppend, DB: "d", Table: "t", Batch: recordOf(testRows(1, 20)), RowIDs: []uint64{7}}}})
	if b[0] != 2 {
		t.Fatalf("an append is written as version %d", b[0])
	}
	c, err := DecodeCommand(b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Ops[0].Batch.NumRows() != 20 || len(c.Ops[0].RowIDs) != 1 {
		t.Fatalf("decoded %d rows, %d row ids", c.Ops[0].Batch.NumRows(), len(c.Ops[0].RowIDs))
	}
	for i := range b {
		if _, err := DecodeCommand(b[:i]); err == nil {
			t.Fatalf("truncated at %d decoded", i)
		}
	}
	old := append([]byte{commandVersionBefore}, b[1:]...)
	if _, err := DecodeCommand(old); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("an append in a version 1 command: %v", err)
	}
}

func TestScanRecordsSeesLiveRows(t *testing.T) {
	s := appendTables(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(1, 3*sealRows*partitionCount+100)})
	var keys []string
	for i := int64(1); i <= 3*sealRows*partitionCount; i += 5 {
		keys = append(keys, EncodeKey([]any{i}))
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: keys})
	want := map[string]bool{}
	for _, r := range scanAll(t, s, "d", "fast") {
		want[EncodeKey(r)] = true
	}
	got := 0
	err := s.ScanRecords(context.Background(), "d", "fast", func(rec arrow.RecordBatch) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			if !want[EncodeKey(rowAt(rec.Columns(), i))] {
				t.Fatalf("row %v is not live", rowAt(rec.Columns(), i))
			}
			got++
		}
		return nil
	})
	if err != nil || got != len(want) {
		t.Fatalf("scanned %d rows of %d (%v)", got, len(want), err)
	}
	stop := errors.New("stop")
	if err := s.ScanRecords(context.Background(), "d", "fast", func(arrow.RecordBatch) error { return stop }); err != stop {
		t.Fatalf("fn's error: %v", err)
	}
	if err := s.ScanRecords(context.Background(), "d", "nope", nil); !errors.Is(err, ErrTableNotFound) {
		t.Fatalf("unknown table: %v", err)
	}
}

// TestScanKeyOrder: a KeyCursor reads every live row once, in key order,
// across sealed batches (appended and sealed from the tail) and the tail,
// as of when it was opened; a table without a primary key has none.
func TestScanKeyOrder(t *testing.T) {
	s := appendTables(t)
	n := int64(3*sealRows*partitionCount + 100)
	// Keys in descending order, half appended as batches, half inserted.
	var rows []Row
	for i := n; i >= 1; i-- {
		rows = append(rows, testRows(i, i)...)
	}
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(rows[:len(rows)/2])})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: rows[len(rows)/2:]})
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: []string{EncodeKey([]any{int64(5)})}})
	if _, ok, err := s.ScanKeyOrder("d", "fast", int(n-2)); ok || err != nil {
		t.Fatalf("a table over maxRows: %v %v", ok, err)
	}
	c, ok, err := s.ScanKeyOrder("d", "fast", int(n))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	defer c.Close()
	// Changed after the cursor opened: not seen.
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: []string{EncodeKey([]any{int64(7)})}})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(n+1, n+1)})
	if c.Len() != int(n-1) {
		t.Fatalf("cursor of %d rows, want %d", c.Len(), n-1)
	}
	want := int64(1)
	for r, ok := c.Next(); ok; r, ok = c.Next() {
		if want == 5 {
			want++
		}
		if r[0] != want {
			t.Fatalf("row with key %v where %d comes", r[0], want)
		}
		want++
	}
	if want != n+1 {
		t.Fatalf("read up to %d, want %d", want-1, n)
	}
	if _, ok, err := s.ScanKeyOrder("d", "keyless", 100); ok || err != nil {
		t.Fatalf("keyless table: %v %v", ok, err)
	}
}

// TestCheck: a table's bookkeeping checks out after appends, inserts,
// deletes and NULLs in an indexed column, and a broken identity map is
// reported.
func TestCheck(t *testing.T) {
	s := appendTables(t)
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(1, 3*sealRows))})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(3*sealRows+1, 3*sealRows+40)})
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: []string{EncodeKey([]any{int64(7)})}})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "keyless", Rows: testRows(1, 5), RowIDs: []uint64{1, 2, 3, 4, 5}})
	for _, table := range []string{"fast", "keyless"} {
		if err := s.Check("d", table); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
	}
	tb, _ := s.table("d", "fast")
	ghost := intID(1 << 40)
	tb.locs.set(ghost, loc{})
	if err := s.Check("d", "fast"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("an identity without a row: %v", err)
	}
	tb.locs.del(ghost)
	if err := s.Check("d", "nope"); !errors.Is(err, ErrTableNotFound) {
		t.Fatalf("a missing table: %v", err)
	}
}

// The content index of a keyless table is built on its first lookup, so
// it must then agree with rows added before (by append and by insert) and
// follow every later change.
func TestKeylessContentIndexBuiltOnFirstLookup(t *testing.T) {
	s := appendTables(t)
	rows := testRows(1, 3)
	twice := append(append([]Row(nil), rows...), rows[1]) // rows[1] stored twice
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "keyless", Batch: recordOf(twice), RowIDs: []uint64{1, 2, 3, 4}})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "keyless", Rows: []Row{rows[1]}, RowIDs: []uint64{7}})
	lookup := func(r Row) []uint64 {
		t.Helper()
		ids, err := s.IdentitiesByContent("d", "keyless", r)
		if err != nil {
			t.Fatal(err)
		}
		var out []uint64
		for _, id := range ids {
			out = append(out, keylessRowID(id))
		}
		return out
	}
	if got := lookup(rows[1]); !slices.Equal(got, []uint64{2, 4, 7}) {
		t.Fatalf("row stored three times: row ids %v, want [2 4 7] (in the order added)", got)
	}
	if got := lookup(rows[0]); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("row stored once: row ids %v, want [1]", got)
	}
	// Once built, the index follows deletes and appends.
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "keyless", Keys: []string{KeylessIdentity(4)}})
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "keyless", Batch: recordOf([]Row{rows[0]}), RowIDs: []uint64{9}})
	if got := lookup(rows[1]); !slices.Equal(got, []uint64{2, 7}) {
		t.Fatalf("after deleting row id 4: %v, want [2 7]", got)
	}
	if got := lookup(rows[0]); !slices.Equal(got, []uint64{1, 9}) {
		t.Fatalf("after appending row id 9: %v, want [1 9]", got)
	}
	if got := lookup(testRows(50, 50)[0]); len(got) != 0 {
		t.Fatalf("a row never stored: %v", got)
	}
	// A table that was never looked up by content does not hold the index.
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "other", Schema: s.mustTable(t, "d", "keyless").schema})
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "other", Batch: recordOf(rows), RowIDs: []uint64{1, 2, 3}})
	if s.mustTable(t, "d", "other").content != nil {
		t.Fatal("appends built the content index of a table nobody looked up by content")
	}
}

func (s *Store) mustTable(t *testing.T, db, name string) *Table {
	t.Helper()
	s.mu.RLock()
	defer s.mu.RUnlock()
	tb, err := s.table(db, name)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestScanRecordsReusesUnchangedTails: a second scan of a table whose
// tails nothing has changed gets the batches the first one built, and
// every write that touches a tail (insert, delete, an update written as a
// delete and an insert, seal, truncate, a new column) is seen by the next
// scan.
func TestScanRecordsReusesUnchangedTails(t *testing.T) {
	s := appendTables(t)
	scan := func() (map[string]string, []arrow.RecordBatch) {
		t.Helper()
		got := map[string]string{}
		var recs []arrow.RecordBatch
		_, err := s.ScanIdentified(context.Background(), "d", "fast", func(rec arrow.RecordBatch, ids []string) error {
			recs = append(recs, rec)
			for i, id := range ids {
				got[id] = EncodeKey(rowAt(rec.Columns(), i))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got, recs
	}
	check := func(step string) []arrow.RecordBatch {
		t.Helper()
		got, recs := scan()
		want := contents(t, s, "fast")
		if len(got) != len(want) {
			t.Fatalf("%s: scanned %d rows, table holds %d", step, len(got), len(want))
		}
		for id, r := range want {
			if got[id] != r {
				t.Fatalf("%s: row %q scanned as %q, stored %q", step, id, got[id], r)
			}
		}
		return recs
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(1, 40)})
	first := check("insert")
	again := check("no change")
	if len(first) == 0 || len(again) != len(first) {
		t.Fatalf("%d and %d batches", len(first), len(again))
	}
	for i := range first {
		if first[i] != again[i] {
			t.Fatalf("partition %d's tail was built again with nothing changed", i)
		}
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(41, 41)})
	check("one more row")
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: []string{EncodeKey([]any{int64(3)})}})
	check("delete")
	mustApply(t, s,
		Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: []string{EncodeKey([]any{int64(5)})}},
		Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: []Row{row(5, "changed", 55)}})
	check("update")
	mustApply(t, s, Op{Kind: OpAddColumn, DB: "d", Table: "fast", Column: &Column{Name: "extra", Kind: KindInt64, Nullable: true}, Position: -1, Fill: int64(7)})
	check("add column")
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: withExtra(testRows(42, sealRows*partitionCount+80))})
	check("sealed")
	mustApply(t, s, Op{Kind: OpTruncate, DB: "d", Table: "fast"})
	check("truncate")
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: withExtra(testRows(1, 40))})
	check("insert after truncate")
	// The same keys again with other values: every tail has the length
	// and deletion count it had, in a new array.
	mustApply(t, s, Op{Kind: OpTruncate, DB: "d", Table: "fast"})
	rows := withExtra(testRows(1, 40))
	for _, r := range rows {
		r[2] = r[2].(float64) + 0.5
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: rows})
	check("same shape, new values")
	// A partition's tail sealed and grown back to the length it had, in a
	// new array.
	mustApply(t, s, Op{Kind: OpTruncate, DB: "d", Table: "fast"})
	var inPart0 []Row
	for _, r := range withExtra(testRows(1, 8*sealRows)) {
		if partitionOf(EncodeKey(r[:1])) == 0 {
			inPart0 = append(inPart0, r)
		}
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: inPart0[:10]})
	check("ten rows in one partition")
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: inPart0[10 : sealRows+10]})
	if p := s.mustTable(t, "d", "fast").parts[0]; len(p.tail) != 10 || len(p.batches) != 1 {
		t.Fatalf("partition 0 has %d batches and %d tail rows, want 1 and 10", len(p.batches), len(p.tail))
	}
	check("sealed and grown back")
}

func withExtra(rows []Row) []Row {
	for i, r := range rows {
		rows[i] = append(r, int64(i))
	}
	return rows
}
