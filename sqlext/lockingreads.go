package sqlext

import "strings"

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
