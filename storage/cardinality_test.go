package storage

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCardinality: the distinct counts of each leading run of an index's
// columns, NULLs one value, match a count of the rows themselves, for a
// primary key of one integer, an index of one integer column, one of a
// text column and one of both; past cardinalityLimit entries they are
// scaled from the entries read.
func TestCardinality(t *testing.T) {
	s := New(Options{})
	mustApply(t, s, Op{Kind: OpCreateDatabase, DB: "d"})
	mustApply(t, s, Op{Kind: OpCreateTable, DB: "d", Table: "t",
		Schema: &Schema{Columns: []Column{{Name: "id", Kind: KindInt64}, {Name: "g", Kind: KindInt64, Nullable: true},
			{Name: "s", Kind: KindString, Nullable: true}}, PK: []int{0}},
		Indexes: []*IndexDef{{Name: "g", Columns: []string{"g"}}, {Name: "s", Columns: []string{"s"}}, {Name: "gs", Columns: []string{"g", "s"}}}})
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []Row
	distinct := map[string]map[string]bool{"g": {}, "s": {}, "gs": {}}
	for id := range 2000 {
		var g, str any
		if rng.IntN(10) > 0 {
			g = int64(rng.IntN(50))
		}
		if rng.IntN(10) > 0 {
			str = fmt.Sprint("v", rng.IntN(300))
		}
		rows = append(rows, Row{int64(id), g, str})
		distinct["g"][fmt.Sprint(g)] = true
		distinct["s"][fmt.Sprint(str)] = true
		distinct["gs"][fmt.Sprint(g, "|", str)] = true
	}
	mustApply(t, s, Op{Kind: OpInsert, DB: "d", Table: "t", Rows: rows})
	want := map[string][]uint64{
		"PRIMARY": {2000},
		"g":       {uint64(len(distinct["g"]))},
		"s":       {uint64(len(distinct["s"]))},
		"gs":      {uint64(len(distinct["g"])), uint64(len(distinct["gs"]))},
	}
	for name, w := range want {
		got, err := s.Cardinality("d", "t", name)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: %v, %v; want %v", name, got, err, w)
		}
	}
	if _, err := s.Cardinality("d", "t", "nope"); err == nil {
		t.Error("an index that is not there has a cardinality")
	}

	// Read half the entries of the index on g and scale by two.
	defer func(n int) { cardinalityLimit = n }(cardinalityLimit)
	cardinalityLimit = 1000
	half := map[string]bool{}
	sorted := 0
	for _, g := range sortedInts(rows) {
		if sorted++; sorted > 1000 {
			break
		}
		half[g] = true
	}
	got, err := s.Cardinality("d", "t", "g")
	if want := uint64(2 * len(half)); err != nil || len(got) != 1 || got[0] != want {
		t.Errorf("estimated from half: %v, %v; want %d", got, err, want)
	}
}

// sortedInts is the g column of rows in index order (NULL first), as
// text.
func sortedInts(rows []Row) []string {
	var nulls, out []string
	counts := map[int64]int{}
	for _, r := range rows {
		if r[1] == nil {
			nulls = append(nulls, "<nil>")
			continue
		}
		counts[r[1].(int64)]++
	}
	out = append(out, nulls...)
	for g := range int64(50) {
		for range counts[g] {
			out = append(out, fmt.Sprint(g))
		}
	}
	return out
}
