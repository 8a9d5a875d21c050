package sqlext

import (
	"slices"
	"strings"
	"unicode"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// An UPDATE that changes text only to text its column's collation holds
// equal ('x' to 'X' under utf8mb4_0900_ai_ci, 'a' to 'a ' under a PAD
// SPACE one) changes the row in MySQL, which compares the record's bytes.
// The engine compares the old and new rows under the columns' collations
// and writes only rows that differ there, so such an UPDATE left the row
// as it was. caseChanges has the rows of a single-table UPDATE of one of
// our tables with text columns pass through caseWriter, which writes
// those rows itself; the engine then skips them as unchanged, so they
// are written once, and counted changed (rowcounts.go). A table a
// trigger may name is left to the engine: a BEFORE UPDATE trigger changes
// the row after caseWriter has seen it.
func (o *execOverrides) caseChanges(ctx *sql.Context, n *plan.UpdateSource, row sql.Row) (sql.RowIter, error) {
	return o.once(n, func() (sql.RowIter, error) {
		up, err := plan.GetUpdatable(n.Child)
		if err != nil {
			return nil, nil
		}
		t := storedTable(up)
		if t == nil {
			return nil, nil
		}
		var iter sql.RowIter
		if hasText(t.sch.Schema) && len(n.Child.Schema()) == len(t.sch.Schema) && !mayTrigger(ctx, t) {
			if iter, err = o.b.Build(ctx, n, row); err != nil || iter == nil {
				return iter, err
			}
			iter = &caseWriter{RowIter: iter, t: t, counts: countsFor(ctx, t)}
		}
		if _, inSubquery := readCount(n, t); !inSubquery {
			return iter, nil
		}
		// An UPDATE whose new values or WHERE read its own table in a
		// subquery reads every row and works out its new values before
		// it writes one (readFirst).
		if iter == nil {
			if iter, err = o.b.Build(ctx, n, row); err != nil || iter == nil {
				return iter, err
			}
		}
		rows, err := sql.RowIterToRows(ctx, iter)
		if err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(rows...), nil
	})
}

func hasText(sch sql.Schema) bool {
	for _, c := range sch {
		if types.IsText(c.Type) {
			return true
		}
	}
	return false
}

// caseWriter passes on an UPDATE's old and new rows, writing each pair
// that differs only in text its collation holds equal, which it counts
// in the statement's counts.
type caseWriter struct {
	sql.RowIter
	t      *Table
	counts *rowCounts
}

func (c *caseWriter) Next(ctx *sql.Context) (sql.Row, error) {
	r, err := c.RowIter.Next(ctx)
	n := len(c.t.sch.Schema)
	if err != nil || len(r) != 2*n {
		return r, err
	}
	old, now := r[:n], r[n:]
	// A CHAR value is stored without its trailing spaces; the engine
	// compares what will be stored, so that 'x ' for 'x' leaves the row
	// unchanged, as in MySQL.
	for i, col := range c.t.sch.Schema {
		if s, ok := now[i].(string); ok && col.Type.Type() == sqltypes.Char {
			now[i] = strings.TrimRight(s, " ")
		}
	}
	if quiet, err := quietChange(ctx, old, now, c.t.sch.Schema); err != nil || !quiet {
		return r, err
	}
	e := c.t.newEditor(ctx)
	e.counts = c.counts
	defer e.Close(ctx)
	if err := e.Update(ctx, old, now); err != nil {
		return nil, err
	}
	return r, nil
}

// quietChange says whether now differs from old only in text that the
// columns' collations of sch hold equal.
func quietChange(ctx *sql.Context, old, now sql.Row, sch sql.Schema) (bool, error) {
	if !textDiffers(old, now) {
		return false, nil
	}
	return old.Equals(ctx, now, sch)
}

// textDiffers says whether a text value of old and the same column's of
// now differ.
func textDiffers(old, now sql.Row) bool {
	for i := range old {
		a, ok := old[i].(string)
		b, ok2 := now[i].(string)
		if ok && ok2 && a != b {
			return true
		}
	}
	return false
}

// mayTrigger says whether a trigger of t's database may be t's: one whose
// text has t's name as a word, or quoted.
func mayTrigger(ctx *sql.Context, t *Table) bool {
	db, err := t.p.Database(ctx, t.info.DB)
	if err != nil {
		return true
	}
	td, ok := db.(sql.TriggerDatabase)
	if !ok {
		return false
	}
	defs, err := td.GetTriggers(ctx)
	if err != nil {
		return true
	}
	for _, d := range defs {
		words := strings.FieldsFunc(d.CreateStatement, func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$')
		})
		quoted := strings.Contains(strings.ToLower(d.CreateStatement), "`"+strings.ToLower(t.info.Name)+"`")
		if quoted || slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(w, t.info.Name) }) {
			return true
		}
	}
	return false
}
