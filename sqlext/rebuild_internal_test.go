package sqlext

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
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
	d, err := newDraft(sctx, tbl)
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
	if d, err = newDraft(sctx, tbl); err == nil {
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

// TestAlterComputingRowsIsOneCommand: an ALTER that computes each row's
// value of a column it adds, alone or with other clauses, is one log
// command, so a node stopping half way, or a write in between, cannot
// leave it half done. Column by column it took two commands for each
// such column (the column, then its values).
func TestAlterComputingRowsIsOneCommand(t *testing.T) {
	s, _, run := openInternal(t)
	run("CREATE DATABASE r")
	run("CREATE TABLE r.t (a INT PRIMARY KEY, b INT, KEY bk (b))")
	run("INSERT INTO r.t VALUES (1, 10), (2, 20)")
	// Count the commands proposed (the log's own entries, a barrier, say,
	// are not the statement's).
	counted := &countingProposer{Proposer: s.prov.log}
	s.prov.log = counted
	for _, q := range []string{
		"ALTER TABLE r.t ADD COLUMN c INT DEFAULT (a + b)",
		"ALTER TABLE r.t ADD COLUMN d INT DEFAULT (a * 2), ADD COLUMN e VARCHAR(5) AS (CONCAT(a, '!')) STORED, MODIFY b BIGINT, ADD INDEX dk (d)",
		"ALTER TABLE r.t CHANGE d dd BIGINT",
	} {
		before := counted.n.Load()
		run(q)
		if n := counted.n.Load() - before; n != 1 {
			t.Errorf("%s: %d log commands", q, n)
		}
	}
	info, err := s.store.Table("r", "t")
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, c := range info.Schema.Columns {
		cols = append(cols, c.Name)
	}
	if got := strings.Join(cols, ","); got != "a,b,c,dd,e" || len(info.Indexes) != 2 || info.Indexes[1].Columns[0] != "dd" {
		t.Fatalf("after the ALTERs: columns %s, indexes %v", got, info.Indexes)
	}
	rows, _, err := storedTableNamed(s.NewContext(context.Background()), s.engine.Analyzer.Catalog, "r", "t").storedRows()
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = fmt.Sprint(r)
	}
	slices.Sort(texts)
	if got := strings.Join(texts, " "); got != "[1 10 11 2 1!] [2 20 22 4 2!]" {
		t.Fatalf("rows after the ALTERs: %s", got)
	}
}

// countingProposer counts the commands proposed through it.
type countingProposer struct {
	Proposer
	n atomic.Int64
}

func (c *countingProposer) Propose(ctx context.Context, cmd []byte) error {
	c.n.Add(1)
	return c.Proposer.Propose(ctx, cmd)
}
