package storage

import (
	"errors"
	"testing"
)

// tableRows reads a table's rows and identities at one instant.
func tableRows(t *testing.T, s *Store, db, table string) ([]Row, []string) {
	t.Helper()
	cursors, err := s.ScanTable(db, table)
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	var ids []string
	for _, c := range cursors {
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			rows, ids = append(rows, r), append(ids, id)
		}
		c.Close()
	}
	return rows, ids
}

// TestReplaceTable: a keyed table becomes a keyless one keyed by name,
// in one command that round-trips through the log's encoding; a write
// after the rows were read, a key held twice and a bad value each fail
// it with the table unchanged.
func TestReplaceTable(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)}})
	rows, ids := tableRows(t, s, "d", "t")
	before := Fingerprint(rows, ids)
	if Fingerprint(append([]Row{rows[2]}, rows[:2]...), append([]string{ids[2]}, ids[:2]...)) != before {
		t.Fatal("the fingerprint depends on the rows' order")
	}
	// New table: (name PRIMARY KEY, score), the id column dropped.
	sch := &Schema{Columns: []Column{{Name: "name", Kind: KindString}, {Name: "score", Kind: KindFloat64, Nullable: true}}, PK: []int{0}}
	var next []Row
	for _, r := range rows {
		next = append(next, Row{r[1], r[2]})
	}
	op := Op{Kind: OpReplaceTable, DB: "d", Table: "t", Schema: sch,
		Indexes: []*IndexDef{{Name: "u_score", Columns: []string{"score"}, Unique: true}}, Rows: next, AutoInc: 9, Fingerprint: before}
	b := EncodeCommand(&Command{Ops: []Op{op}})
	if b[0] != 9 {
		t.Fatalf("a replace is written as version %d", b[0])
	}
	for i := range b {
		if _, err := DecodeCommand(b[:i]); err == nil {
			t.Fatalf("truncated at %d decoded", i)
		}
	}

	// A key held twice fails it, with the table as it was.
	dup := op
	dup.Rows = []Row{{"a", 1.0}, {"a", 2.0}, {"c", 3.0}}
	if err := s.Apply(0, &Command{Ops: []Op{dup}}); err == nil {
		t.Fatal("a key held twice was accepted")
	}
	bad := op
	bad.Rows = []Row{{nil, 1.0}, {"b", 2.0}, {"c", 3.0}}
	if err := s.Apply(0, &Command{Ops: []Op{bad}}); err == nil {
		t.Fatal("NULL in a NOT NULL column was accepted")
	}
	if info, _ := s.Table("d", "t"); len(info.Schema.Columns) != 5 || info.Rows != 3 {
		t.Fatalf("a failed replace changed the table: %+v", info)
	}

	// A write that committed after the rows were read fails it.
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(4, "d", 4)}})
	if err := s.Apply(0, &Command{Ops: []Op{op}}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a replace over rows changed since: %v", err)
	}
	mustApply(t, s, Op{Kind: OpDelete, DB: "d", Table: "t", Keys: []string{EncodeKey([]any{int64(4)})}})

	c, err := DecodeCommand(b)
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, c.Ops...)
	info, _ := s.Table("d", "t")
	if len(info.Schema.Columns) != 2 || len(info.Schema.PK) != 1 || info.Schema.PK[0] != 0 || len(info.Indexes) != 1 || info.Rows != 3 {
		t.Fatalf("table after replace: %+v", info)
	}
	r, ok, _ := s.Get("d", "t", EncodeKey([]any{"b"}))
	if !ok || r[1] != 2.0 {
		t.Fatalf("row b after replace: %v %v", r, ok)
	}
	if err := s.Apply(0, &Command{Ops: []Op{{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{{"z", 1.0}}}}}); err == nil {
		t.Fatal("the unique index was not rebuilt")
	}
}

// TestReplaceTableKeyless: a table without a primary key keeps the row
// ids it is given, and its next ids follow them.
func TestReplaceTableKeyless(t *testing.T) {
	s := newTestStore(t)
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(1, "a", 1), row(2, "b", 2)}})
	rows, ids := tableRows(t, s, "d", "t")
	sch := &Schema{Columns: []Column{{Name: "id", Kind: KindInt64, Meta: AutoIncrementMeta}, {Name: "name", Kind: KindString, Nullable: true}}}
	var next []Row
	for _, r := range rows {
		next = append(next, Row{r[0], r[1]})
	}
	mustApply(t, s, Op{Kind: OpReplaceTable, DB: "d", Table: "t", Schema: sch, Rows: next, RowIDs: []uint64{5, 6}, Fingerprint: Fingerprint(rows, ids)})
	got, gotIDs := tableRows(t, s, "d", "t")
	if len(got) != 2 {
		t.Fatalf("%d rows after replace", len(got))
	}
	info, _ := s.Table("d", "t")
	if len(info.Schema.PK) != 0 || info.AutoInc != 3 {
		t.Fatalf("after replace: PK %v, next auto-increment %d", info.Schema.PK, info.AutoInc)
	}
	for _, id := range gotIDs {
		if id != (&Table{}).identity(nil, 5) && id != (&Table{}).identity(nil, 6) {
			t.Fatalf("row ids after replace: %q", gotIDs)
		}
	}
	if err := s.Apply(0, &Command{Ops: []Op{{Kind: OpReplaceTable, DB: "d", Table: "t", Schema: sch, Rows: next, Fingerprint: Fingerprint(got, gotIDs)}}}); err == nil {
		t.Fatal("keyless rows without row ids were accepted")
	}
}
