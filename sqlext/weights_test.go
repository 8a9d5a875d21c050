package sqlext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// TestWeightsAreTheEngines: writeWeights writes, for every collation the
// engine knows, the bytes the engine's WriteWeightString writes, so that
// hashes and keys made from either agree.
func TestWeightsAreTheEngines(t *testing.T) {
	inputs := []string{"", "a", "Abc-123 xyz", "café", "CAFE", "naïve ß ẞ", "日本語テキスト", "emoji 😀!",
		"bad \xff\xfe utf-8", strings.Repeat("83868641912-28773972837-", 10) + "é", "\x00\x01\x7f"}
	tested := 0
	// The engine knows collation ids below 324 (its table of them).
	for id := sql.CollationID(0); id < 324; id++ {
		if id.Name() == "" || (id != sql.Collation_binary && id.Sorter() == nil) {
			continue
		}
		tested++
		for _, s := range inputs {
			var want, got bytes.Buffer
			if err := id.WriteWeightString(&want, s); err != nil {
				t.Fatalf("%s %q: %v", id.Name(), s, err)
			}
			if err := writeWeights(&got, id, s); err != nil {
				t.Fatalf("%s %q: %v", id.Name(), s, err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s %q: %x, want %x", id.Name(), s, got.Bytes(), want.Bytes())
			}
		}
	}
	if tested < 50 {
		t.Fatalf("only %d collations tested", tested)
	}
}
