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

func TestLockingStatement(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT v FROM t WHERE id = 1 FOR UPDATE":       true,
		"select v from t for share nowait":              true,
		"SELECT v FROM t LOCK IN SHARE MODE":            true,
		"SELECT 'for update' FROM t":                    false,
		"SELECT v FROM t -- for update\n":               false,
		"UPDATE t SET v = 1":                            false,
		"SELECT `for`, `update` FROM t":                 false,
		"INSERT INTO t SELECT * FROM u FOR UPDATE":      true,
		"SELECT v FROM t /* lock in share mode */":      false,
		"SELECT share, `update` FROM t ORDER BY update": false,
	} {
		if got := lockingStatement(q); got != want {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}
