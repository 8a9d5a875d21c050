package sqlext

import "testing"

// BenchmarkPreparable is what deciding whether a statement to prepare
// needs rewriting costs for one that does not: a parse.
func BenchmarkPreparable(b *testing.B) {
	var sp statementParser
	q := "SELECT c, pad FROM sbtest1 WHERE id = ? AND k BETWEEN ? AND ? ORDER BY c LIMIT 10"
	for range b.N {
		if _, ok := sp.preparable(q); ok {
			b.Fatal("rewrote a statement the parser reads")
		}
	}
}
