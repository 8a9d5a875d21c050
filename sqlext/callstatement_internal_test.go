package sqlext

import (
	"strings"
	"testing"
)

// BenchmarkCallStatement decides whether a 1 MB multi-row INSERT, as a
// dump or a bulk load sends it, is a CALL: every query a client sends as
// text is asked that before it runs.
func BenchmarkCallStatement(b *testing.B) {
	q := "INSERT INTO t VALUES " + strings.Repeat("(1, 'recall', 2.5),", 50000) + "(0, '', 0)"
	b.SetBytes(int64(len(q)))
	for b.Loop() {
		if callStatement(q) {
			b.Fatal("an INSERT read as a CALL")
		}
	}
}

// TestCallStatement: a CALL is known by its first word, after spaces and
// comments.
func TestCallStatement(t *testing.T) {
	for q, want := range map[string]bool{
		"CALL p()": true, "  call p(1)": true, "/* x */ CALL p()": true, "-- c\nCALL p()": true,
		"CALLS": false, "SELECT 'call'": false, "INSERT INTO recall VALUES (1)": false, "": false,
	} {
		if got := callStatement(q); got != want {
			t.Errorf("callStatement(%q) = %v, want %v", q, got, want)
		}
	}
}
