package sqlext

import (
	"errors"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
)

// TestRebuildFailsOverAWriteSinceItsRead: a row another session commits
// between the moment an ALTER that changes the primary key read the
// table and its replacement fails the ALTER with 1213, and the row and
// the table stay as they were, rather than the row being lost.
func TestRebuildFailsOverAWriteSinceItsRead(t *testing.T) {
	s, ctx, run := openInternal(t)
	run("CREATE DATABASE r")
	run("CREATE TABLE r.t (a INT, b INT)")
	run("INSERT INTO r.t VALUES (1, 1), (2, 2)")
	sctx := s.NewContext(ctx)
	tbl := storedTableNamed(sctx, s.engine.Analyzer.Catalog, "r", "t")
	if tbl == nil {
		t.Fatal("no table r.t")
	}
	d, err := newDraft(tbl)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.addPrimary(sctx, draftKey{name: "PRIMARY", cols: []string{"a"}, unique: true}); err != nil {
		t.Fatal(err)
	}
	run("INSERT INTO r.t VALUES (3, 3)")
	err = d.rebuild(sctx, tbl)
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != mysql.ERLockDeadlock {
		t.Fatalf("a rebuild over a table written since it was read: %v", err)
	}
	info, err := s.store.Table("r", "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Schema.PK) != 0 || info.Rows != 3 {
		t.Fatalf("after the failed rebuild: key %v, %d rows", info.Schema.PK, info.Rows)
	}
	// Read again, it goes through.
	if d, err = newDraft(tbl); err == nil {
		err = d.addPrimary(sctx, draftKey{name: "PRIMARY", cols: []string{"a"}, unique: true})
	}
	if err == nil {
		err = d.rebuild(sctx, tbl)
	}
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := s.store.Table("r", "t"); len(info.Schema.PK) != 1 || info.Rows != 3 {
		t.Fatalf("after the rebuild: key %v, %d rows", info.Schema.PK, info.Rows)
	}
}
