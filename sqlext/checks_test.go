package sqlext_test

import (
	"strings"
	"testing"
)

// TestCheckConstraints creates, enforces, alters and drops CHECK
// constraints, and finds them again after a restart.
func TestCheckConstraints(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE ck",
		"CREATE TABLE ck.t (id INT PRIMARY KEY, a INT, b INT, CONSTRAINT pos CHECK (a > 0), CHECK (b < 10))",
		"INSERT INTO ck.t VALUES (1, 1, 1)")
	code := func(q string) uint16 { return errorCode(t, db, q) }
	wantRefused(t, db,
		refusal{"INSERT INTO ck.t VALUES (2, -1, 1)", 3819},
		refusal{"INSERT INTO ck.t VALUES (2, 1, 20)", 3819},
		refusal{"UPDATE ck.t SET a = -5", 3819},
		refusal{"ALTER TABLE ck.t ADD CONSTRAINT big CHECK (a > 100)", 3819}, // the row (1, 1, 1) breaks it
		refusal{"ALTER TABLE ck.t ADD CONSTRAINT pos CHECK (a > -100)", 3822},
		refusal{"ALTER TABLE ck.t DROP CHECK nope", 3940},
	)
	if got := queryStrings(t, db, "SELECT COUNT(*), SUM(a) FROM ck.t"); got[0][0] != "1" || got[0][1] != "1" {
		t.Errorf("refused writes left %v", got)
	}
	names := func() string {
		var out []string
		for _, r := range queryStrings(t, db, "SELECT constraint_name FROM information_schema.CHECK_CONSTRAINTS WHERE constraint_schema = 'ck' ORDER BY 1") {
			out = append(out, r[0])
		}
		return strings.Join(out, ",")
	}
	if got := names(); got != "pos,t_chk_1" {
		t.Errorf("constraints %q, want pos,t_chk_1", got)
	}
	mustExecAll(t, db, "ALTER TABLE ck.t DROP CHECK pos", "INSERT INTO ck.t VALUES (2, -1, 1)",
		"ALTER TABLE ck.t ADD CONSTRAINT small CHECK (a < 100)")
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	if got := names(); got != "small,t_chk_1" {
		t.Errorf("after restart: constraints %q, want small,t_chk_1", got)
	}
	if got := code("INSERT INTO ck.t VALUES (3, 500, 1)"); got != 3819 {
		t.Errorf("after restart: error %d, want 3819", got)
	}
	if create := queryStrings(t, db, "SHOW CREATE TABLE ck.t")[0][1]; !strings.Contains(create, "CONSTRAINT `small` CHECK ((`a` < 100))") {
		t.Errorf("SHOW CREATE TABLE: %s", create)
	}
}
