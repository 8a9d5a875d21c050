package sqlext

import (
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// Locking reads take no row locks here: InnoDB's would make a second
// transaction's locking read of a row wait for the first's commit, so
// that of two read-modify-write transactions the second reads what the
// first wrote. Instead, the rows a locking read finds are checked again
// when its transaction commits (storage.OpCheckRows, with the
// OpCheckLookup of each index lookup for rows added to its ranges): if
// another transaction changed them meanwhile, the commit fails with 1213
// and writes nothing, rather than writing over the other's change. The
// statement's text tells a locking read (lockingStatement, kept for the
// session as it begins: Session.lockingReads), and every row that its
// scans and lookups read counts, a subquery's too, where InnoDB locks
// the rows of the outer query only.

// MySQL 8's locking read clauses the parser refuses: FOR SHARE (MySQL
// 8's name for LOCK IN SHARE MODE) and the NOWAIT and SKIP LOCKED after
// FOR UPDATE or FOR SHARE. Reads here take no row locks (transactions
// are checked when they commit, see docs/sql/compatibility.md), so a
// read that would not wait for a lock reads the same rows; the clauses
// are written as the parser reads them.
func rewriteLockingReads(q string) (string, bool) {
	toks := sqlTokens(q)
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].word || !strings.EqualFold(toks[i].text, "FOR") {
			continue
		}
		next := strings.ToUpper(toks[i+1].text)
		if !toks[i+1].word || next != "SHARE" && next != "UPDATE" {
			continue
		}
		end := toks[i+1].end
		j := i + 2
		switch {
		case j < len(toks) && strings.EqualFold(toks[j].text, "NOWAIT"):
			end = toks[j].end
		case j+1 < len(toks) && strings.EqualFold(toks[j].text, "SKIP") && strings.EqualFold(toks[j+1].text, "LOCKED"):
			end = toks[j+1].end
		}
		if next == "UPDATE" && end == toks[i+1].end {
			continue // plain FOR UPDATE the parser reads
		}
		b.WriteString(q[last:toks[i].start])
		if next == "SHARE" {
			b.WriteString("LOCK IN SHARE MODE")
		} else {
			b.WriteString("FOR UPDATE")
		}
		last = end
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// lockingStatement reports whether q holds a locking read clause: FOR
// UPDATE, FOR SHARE or LOCK IN SHARE MODE, outside strings and comments.
func lockingStatement(q string) bool {
	if !containsFold(q, "update") && !containsFold(q, "share") {
		return false
	}
	toks := sqlTokens(q)
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].word || !toks[i+1].word {
			continue
		}
		a, b := toks[i].text, toks[i+1].text
		switch {
		case strings.EqualFold(a, "FOR") && (strings.EqualFold(b, "UPDATE") || strings.EqualFold(b, "SHARE")):
			return true
		case strings.EqualFold(a, "IN") && strings.EqualFold(b, "SHARE") && i > 0 && strings.EqualFold(toks[i-1].text, "LOCK"):
			return true
		}
	}
	return false
}

// lockingRead reports whether the statement ctx runs holds a locking
// read, in a transaction whose commit is to check what it read.
func lockingRead(ctx *sql.Context) bool {
	s, ok := ctx.Session.(*Session)
	return ok && s.lockingReads && txFrom(ctx) != nil
}

// lockedRows gathers the committed rows a scan of a locking read reads,
// whole, and logs them with the transaction when the scan closes.
type lockedRows struct {
	ids  []string
	rows []storage.Row
}

// add keeps a copy of r, the row of identity id: the reader may convert
// r in place (toSQLOwned).
func (l *lockedRows) add(id string, r storage.Row) {
	if l != nil {
		l.ids, l.rows = append(l.ids, id), append(l.rows, slices.Clone(r))
	}
}

func (l *lockedRows) note(ctx *sql.Context, t *Table) {
	if l != nil {
		txFrom(ctx).noteRows(t.info.DB, t.info.Name, l.ids, l.rows)
		l.ids, l.rows = nil, nil
	}
}
