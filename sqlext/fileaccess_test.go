package sqlext_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestServerSideFileAccess checks that LOAD DATA INFILE, SELECT ... INTO
// OUTFILE and LOAD_FILE() are refused with MySQL's error 1290 on a server
// without an import directory, and confined to it on one with it.
func TestServerSideFileAccess(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "out.csv")

	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE fa", "CREATE TABLE fa.t (s TEXT)")
	for _, q := range []string{
		"SELECT LOAD_FILE('" + secret + "')",
		"SELECT 1 INTO OUTFILE '" + outside + "'",
		"LOAD DATA INFILE '" + secret + "' INTO TABLE fa.t",
	} {
		_, err := db.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1290 {
			t.Errorf("%s: %v, want error 1290", q, err)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("INTO OUTFILE wrote a file with file access off")
	}

	// With an import directory, a file in it loads; one outside does not.
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(in, []byte("a\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	defer srv.Close()
	db = connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE fa", "CREATE TABLE fa.t (s TEXT)", "LOAD DATA INFILE '"+in+"' INTO TABLE fa.t")
	if got := queryStrings(t, db, "SELECT COUNT(*) FROM fa.t"); got[0][0] != "2" {
		t.Errorf("loaded %s rows, want 2", got[0][0])
	}
	if _, err := db.Exec("LOAD DATA INFILE '" + secret + "' INTO TABLE fa.t"); err == nil {
		t.Error("a file outside the import directory was loaded")
	}
}
