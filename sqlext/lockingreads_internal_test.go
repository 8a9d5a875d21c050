package sqlext

import "testing"

// TestLockingReadsRewritten: MySQL 8's FOR SHARE, NOWAIT and SKIP LOCKED
// are written as the parser reads them; words inside strings stay.
func TestLockingReadsRewritten(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT id FROM t FOR SHARE":                      "SELECT id FROM t LOCK IN SHARE MODE",
		"SELECT id FROM t WHERE a = 1 FOR SHARE NOWAIT":   "SELECT id FROM t WHERE a = 1 LOCK IN SHARE MODE",
		"SELECT id FROM t FOR UPDATE SKIP LOCKED":         "SELECT id FROM t FOR UPDATE",
		"select id from t for update nowait":              "select id from t FOR UPDATE",
		"SELECT 'FOR SHARE' FROM t FOR SHARE SKIP LOCKED": "SELECT 'FOR SHARE' FROM t LOCK IN SHARE MODE",
	} {
		if got, ok := rewriteLockingReads(q); !ok || got != want {
			t.Errorf("%s: %q (%v), want %q", q, got, ok, want)
		}
	}
	if got, ok := rewriteLockingReads("SELECT id FROM t FOR UPDATE"); ok {
		t.Errorf("plain FOR UPDATE rewritten: %q", got)
	}
}
