package storage

import "testing"

// TestReturnAutoIncOnlyWhenNoneTakenSince: values given back move the
// counter back only while it still stands where the failed statement
// left it; once another request has taken values they stay taken.
func TestReturnAutoIncOnlyWhenNoneTakenSince(t *testing.T) {
	s := newTestStore(t)
	first, err := s.AllocAutoInc("d", "t", 1)
	if err != nil || first != 1 {
		t.Fatalf("first value %d, %v; want 1", first, err)
	}
	if !s.ReturnAutoInc("d", "t", 1, 2) {
		t.Fatal("the last run taken was not given back")
	}
	if v, _ := s.AllocAutoInc("d", "t", 1); v != 1 {
		t.Fatalf("after giving back: %d, want 1", v)
	}
	// Another request takes 2 before the run 1..2 is given back: the
	// counter stays, so 2 is not handed out twice.
	mine, _ := s.AllocAutoInc("d", "t", 1)
	other, _ := s.AllocAutoInc("d", "t", 1)
	if mine != 2 || other != 3 {
		t.Fatalf("values %d and %d, want 2 and 3", mine, other)
	}
	if s.ReturnAutoInc("d", "t", 2, 3) {
		t.Fatal("a run gave back values taken after it")
	}
	if v, _ := s.PeekAutoInc("d", "t"); v != 4 {
		t.Fatalf("next %d, want 4", v)
	}

	// Raising the counter reports where it was, so the raise can be undone.
	before, after, err := s.RaiseAutoInc("d", "t", 100)
	if err != nil || before != 4 || after != 101 {
		t.Fatalf("raise to 100: %d -> %d, %v; want 4 -> 101", before, after, err)
	}
	if before, after, _ = s.RaiseAutoInc("d", "t", 50); before != 101 || after != 101 {
		t.Fatalf("raise below the counter: %d -> %d, want 101 -> 101", before, after)
	}
	if !s.ReturnAutoInc("d", "t", 4, 101) {
		t.Fatal("the raise was not undone")
	}
	// Never below what the table holds.
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: []Row{row(9, "x", 1)}})
	if v, _ := s.AllocAutoInc("d", "t", 1); v != 10 {
		t.Fatalf("after a stored 9: %d, want 10", v)
	}
	if _, _, err := s.RaiseAutoInc("d", "nope", 1); err == nil {
		t.Fatal("raising the counter of a missing table succeeded")
	}
}
