package storage

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// appendFromTables makes d.fast (integer key) hold rows in sealed batches,
// some deleted, and in the tails, and creates d.out (keyed as d.fast) and
// d.kout (keyless), each with d.fast's columns and a DOUBLE after them.
func appendFromTables(t *testing.T) *Store {
	t.Helper()
	s := appendTables(t)
	mustApply(t, s, Op{Kind: OpAppend, DB: "d", Table: "fast", Batch: recordOf(testRows(1, 3000))})
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "fast", Rows: testRows(3001, 3040)})
	var gone []string
	for i := int64(5); i <= 3040; i += 97 {
		gone = append(gone, EncodeKey([]any{i}))
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "fast", Keys: gone})
	out := testSchema()
	out.Columns = append(out.Columns, Column{Name: "p", Kind: KindFloat64, Nullable: true})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "out", Schema: out})
	kout := out.clone()
	kout.PK = nil
	kout.Columns[0].Meta = ""
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "kout", Schema: kout})
	return s
}

func doubles(vals ...float64) arrow.RecordBatch {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	a := b.NewArray()
	defer a.Release()
	sch := arrow.NewSchema([]arrow.Field{{Name: "p", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	return array.NewRecordBatch(sch, []arrow.Array{a}, int64(len(vals)))
}

// An append that names source rows by key stores what appending the whole
// rows would: for runs of a stored batch, tail rows, keys in another
// order, and for a keyless target, after a trip through the log's codec.
func TestAppendFromMatchesAppend(t *testing.T) {
	s := appendFromTables(t)
	want := map[string]string{}
	var next uint64 = 1
	var scanned int
	before, err := s.ScanIdentified(context.Background(), "d", "fast", func(rec arrow.RecordBatch, ids []string) error {
		if len(ids) != int(rec.NumRows()) {
			t.Fatalf("%d ids for %d rows", len(ids), rec.NumRows())
		}
		keys := slices.Clone(ids)
		if scanned%2 == 1 {
			slices.Reverse(keys) // not a run of the stored batch
		}
		scanned++
		ps := make([]float64, len(keys))
		rids := make([]uint64, len(keys))
		for i, k := range keys {
			r, ok, err := s.Get("d", "fast", k)
			if err != nil || !ok {
				t.Fatalf("scanned key %q: %v %v", k, ok, err)
			}
			ps[i] = float64(r[0].(int64)) / 2
			want[k] = EncodeKey(append(r, ps[i]))
			rids[i] = next
			next++
		}
		p := doubles(ps...)
		defer p.Release()
		for _, op := range []Op{
			{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "fast", Keys: keys, Batch: p},
			{Kind: OpAppendFrom, DB: "d", Table: "kout", FromDB: "D", FromTable: "Fast", Keys: keys, Batch: p, RowIDs: rids},
		} {
			c := viaLog(t, op)
			if c.Ops[0].FromDB != op.FromDB || c.Ops[0].FromTable != op.FromTable || !slices.Equal(c.Ops[0].Keys, keys) {
				t.Fatalf("codec: %q.%q %d keys, want %q.%q %d", c.Ops[0].FromDB, c.Ops[0].FromTable, len(c.Ops[0].Keys), op.FromDB, op.FromTable, len(keys))
			}
			if err := s.Apply(0, c); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 3 {
		t.Fatalf("only %d batches scanned; the test wants batches and tails", scanned)
	}
	got := contents(t, s, "out")
	if len(got) != len(want) || len(want) != 3040-32 {
		t.Fatalf("%d rows appended, want %d (of %d source rows)", len(got), len(want), 3040-32)
	}
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("row %q differs", k)
		}
	}
	kept := map[string]int{}
	for _, r := range contents(t, s, "kout") {
		kept[r]++
	}
	for _, w := range want {
		if kept[w] != 1 {
			t.Fatalf("keyless copy holds a row %d times", kept[w])
		}
	}
	if s.Writes("d", "fast") != before {
		t.Fatal("appending copies of d.fast counted as writes to it")
	}
}

// A key that names no source row fails the whole command, and the target
// keeps what it held; so do mismatched layouts.
func TestAppendFromRefusesWhatItCannotCopy(t *testing.T) {
	s := appendFromTables(t)
	k1, k2 := EncodeKey([]any{int64(1)}), EncodeKey([]any{int64(2)})
	p := doubles(1, 2)
	defer p.Release()
	three := doubles(1, 2, 3)
	defer three.Release()
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "out", Rows: []Row{append(row(9999, "x", 1), 0.5)}})
	cases := []struct {
		name string
		op   Op
		want error
	}{
		{"deleted source row", Op{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "fast", Keys: []string{k1, EncodeKey([]any{int64(5)})}, Batch: p}, ErrConflict},
		{"more keys than rows", Op{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "fast", Keys: []string{k1, k2}, Batch: three}, ErrBadValue},
		{"source with other columns", Op{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "out", Keys: []string{k1, k2}, Batch: p}, ErrBadValue},
		{"no such source", Op{Kind: OpAppendFrom, DB: "d", Table: "out", FromDB: "d", FromTable: "nope", Keys: []string{k1, k2}, Batch: p}, ErrTableNotFound},
	}
	for _, c := range cases {
		err := s.Apply(0, &Command{Ops: []Op{
			{Kind: OpInsert, DB: "d", Table: "out", Rows: []Row{append(row(8888, "y", 2), 0.25)}},
			c.op,
		}})
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if got := contents(t, s, "out"); len(got) != 1 {
			t.Errorf("%s: the target holds %d rows after the failed command, want 1", c.name, len(got))
		}
	}
}

// Writes changes with every command that names the table, under any
// spelling of its name, with a rename onto its name, and with a restore,
// and not with writes to other tables.
func TestWritesCountsWritesToATable(t *testing.T) {
	s := appendFromTables(t)
	w := func() WriteMark { return s.Writes("d", "fast") }
	before := w()
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1)}})
	if w() != before {
		t.Fatal("a write to d.t moved d.fast's count")
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "D", Table: "FAST", Rows: testRows(5000, 5000)})
	if w() == before {
		t.Fatal("an insert into D.FAST left d.fast's count")
	}
	before = w()
	mustApply(t, s, Op{Kind: OpDropTable, DB: "d", Table: "fast"})
	mustApply(t, s, Op{Kind: OpRenameTable, DB: "d", Table: "out", NewName: "fast"})
	if w() == before {
		t.Fatalf("drop and a rename onto the name: mark %v, was %v", w(), before)
	}
	before = w()
	snap := s.Snapshot()
	var buf bytes.Buffer
	if _, err := snap.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	snap.Release()
	if err := s.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	if w() == before {
		t.Fatal("a restore left the count")
	}
}
