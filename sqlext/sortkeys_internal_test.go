package sqlext

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// TestCollatedTextComparesAsTheEngine: the keyed sort's comparison of text
// gives the sign the engine's StringType.Compare gives, under the
// collations of utf8mb4 a table can have, over random text of ASCII
// letters, digits, spaces and accented and wider characters, prefixes of
// each other included.
func TestCollatedTextComparesAsTheEngine(t *testing.T) {
	alphabet := []string{"a", "A", "b", "z", "0", "9", " ", "-", "é", "É", "ß", "ø", "中", "😀", "~"}
	random := rand.New(rand.NewPCG(7, 11))
	text := func() string {
		var b strings.Builder
		for range random.IntN(8) {
			b.WriteString(alphabet[random.IntN(len(alphabet))])
		}
		return b.String()
	}
	for _, name := range []string{"utf8mb4_0900_ai_ci", "utf8mb4_0900_as_cs", "utf8mb4_0900_bin", "utf8mb4_general_ci", "utf8mb4_unicode_ci", "utf8mb4_bin"} {
		coll, err := sql.ParseCollation("utf8mb4", name, false)
		if err != nil {
			t.Fatal(err)
		}
		typ := types.MustCreateString(sqltypes.VarChar, 100, coll)
		fields := sql.SortFields{{Column: expression.NewGetField(0, typ, "s", true)}}
		texts := collatedFields(fields)
		if texts == nil || texts[0] == nil {
			t.Fatalf("%s: no comparer", name)
		}
		for range 3000 {
			a, b := text(), text()
			if random.IntN(4) == 0 {
				b = a + text() // a prefix of the other
			}
			want, err := typ.Compare(sql.NewEmptyContext(), a, b)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := texts[0].compare(a, b)
			if !ok || got != want {
				t.Fatalf("%s: compare(%q, %q) = %d (%v), the engine's %d", name, a, b, got, ok, want)
			}
		}
	}
	if _, ok := (&collatedText{ascii: asciiWeights(sql.Collation_Default), sorter: sql.Collation_Default.Sorter()}).compare("a\xff", "ab"); ok {
		t.Error("text that is not UTF-8 compared")
	}
}
