package sqlext_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSetPersist: SET PERSIST sets a global variable and keeps it in the
// data dir for the next start, where it is set again; SET PERSIST_ONLY
// keeps it for the next start alone; RESET PERSIST forgets it (3615 for
// one not kept, a warning with IF EXISTS); a read-only or session-only
// variable and a bad value are refused and not kept. The engine refused
// both SETs (1105) and the parser RESET PERSIST.
func TestSetPersist(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	// The variables are the process's, which other tests share: put
	// them back.
	t.Cleanup(func() {
		_, db := openIn(t, t.TempDir())
		mustExecAll(t, db, "SET GLOBAL max_connect_errors = 100", "SET GLOBAL net_retry_count = 10")
	})
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "SET PERSIST max_connect_errors = 250", "SET PERSIST_ONLY net_retry_count = 12")
	wantAnswers(t, db, "after SET PERSIST", map[string]string{
		"SELECT @@GLOBAL.max_connect_errors, @@GLOBAL.net_retry_count": "250,10"})
	for _, q := range []string{"SET PERSIST version = 'x'", "SET PERSIST max_connect_errors = 'lots'", "SET PERSIST timestamp = 1"} {
		if _, err := db.Exec(q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "persisted-variables.json")); err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, db, "SET GLOBAL max_connect_errors = 100")
	db.Close()
	srv.Close()

	srv, db = openIn(t, dir)
	db.SetMaxOpenConns(1)
	wantAnswers(t, db, "after a restart", map[string]string{
		"SELECT @@GLOBAL.max_connect_errors, @@GLOBAL.net_retry_count": "250,12"})
	mustExecAll(t, db, "RESET PERSIST net_retry_count", "RESET PERSIST IF EXISTS net_retry_count")
	_, err := db.Exec("RESET PERSIST net_retry_count")
	wantMySQLMessage(t, "a variable not kept", err, 3615, "HY000", "Variable net_retry_count does not exist in persisted config file")
	mustExecAll(t, db, "RESET PERSIST", "SET GLOBAL max_connect_errors = 100", "SET GLOBAL net_retry_count = 10")
	db.Close()
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	wantAnswers(t, db, "after RESET PERSIST and a restart", map[string]string{
		"SELECT @@GLOBAL.max_connect_errors, @@GLOBAL.net_retry_count": "100,10"})
}
