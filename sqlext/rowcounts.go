package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// The engine counts the rows a write statement affected from the rows it
// passes on, which miss some: a REPLACE whose row repeats the keys of two
// rows deletes both but passes on one, and a row that an UPDATE or ON
// DUPLICATE KEY UPDATE changed only to text its collation holds equal
// ('x' to 'X') it takes as unchanged, where MySQL compares the record's
// bytes. While such a statement is built, the session's rowCounts are
// its own (statementBuilder); the editors built for it note there what
// the engine misses, and recounted puts it into the result the client
// and ROW_COUNT() read.

// rowCounts is what the engine's count of one statement misses.
type rowCounts struct {
	// table is the statement's table (tableKey): only its editors count.
	table string
	// deletes are rows a REPLACE deleted for a row beyond the first.
	deletes int
	// quiet are rows changed only to text their collation holds equal.
	quiet int
	// same are rows the engine took as changed that are stored as they
	// were (CHAR values given trailing spaces, compared under a NO PAD
	// collation).
	same int
	// own says that matched and changed are the statement's own count
	// of the rows a multiple-table UPDATE matched and changed, which
	// replaces the engine's (joinUpdateIter).
	own              bool
	matched, changed int
	// anyTable says that every table's editors count, deleted the rows
	// they delete: the count of a DELETE of named tables, whose engine
	// count is of the rows of the join it read.
	anyTable bool
	deleted  int
}

// countsFor is the statement's rowCounts when t is its table, or nil.
func countsFor(ctx *sql.Context, t *Table) *rowCounts {
	s, ok := ctx.Session.(*Session)
	if !ok || s.counts == nil || !s.counts.anyTable && s.counts.table != tableKey(t.info.DB, t.info.Name) {
		return nil
	}
	return s.counts
}

// countKind is how a statement counts the rows it affected.
type countKind int

const (
	notRecounted countKind = iota
	countReplace
	countUpsert // INSERT ... ON DUPLICATE KEY UPDATE
	countUpdate
	countDeletes // DELETE of named tables
)

// recountedKind is how n counts its rows, and its table, when n is a
// statement whose count recounted corrects.
func recountedKind(n sql.Node) (countKind, sql.Node) {
	switch n := n.(type) {
	case *plan.TriggerExecutor:
		return recountedKind(n.Left())
	case *joinTriggers:
		return recountedKind(n.update)
	case *deleteTriggers:
		return recountedKind(n.del)
	case *plan.DeleteFrom:
		if n.HasExplicitTargets() {
			return countDeletes, nil
		}
	case *plan.InsertInto:
		switch {
		case n.IsReplace:
			return countReplace, n.Destination
		case len(n.OnDupExprs) > 0:
			return countUpsert, n.Destination
		}
	case *plan.Update:
		return countUpdate, n.Child
	}
	return notRecounted, nil
}

// statementBuilder is the analyzer's builder, which builds b's whole
// statements (and subqueries, as they run), never a part of one: the
// statements it recounts are counted just below the iterator it returns.
type statementBuilder struct{ b sql.NodeExecBuilder }

func (sb statementBuilder) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	if ok && s.capture != nil && s.capture.node == nil {
		s.capture.node = n // the statement's plan (planAndRun)
	}
	kind, target := recountedKind(n)
	if !ok || kind == notRecounted {
		return sb.b.Build(ctx, n, row)
	}
	c := &rowCounts{anyTable: kind == countDeletes}
	if t := writtenTable(target); t != nil {
		c.table = tableKey(t.info.DB, t.info.Name)
	}
	prev := s.counts
	s.counts = c
	defer func() { s.counts = prev }()
	iter, err := sb.b.Build(ctx, n, row)
	if err != nil || iter == nil {
		return iter, err
	}
	return &recounted{RowIter: iter, counts: c, kind: kind}, nil
}

// writtenTable is the table of ours that a write statement's target
// node writes, or nil.
func writtenTable(n sql.Node) *Table {
	if n == nil {
		return nil
	}
	if ins, err := plan.GetInsertable(n); err == nil {
		return storedTable(ins)
	}
	if up, err := plan.GetUpdatable(n); err == nil {
		return storedTable(up)
	}
	return nil
}

// recounted passes on a write statement's result with its counts
// corrected. It is a sql.MutableRowIter so that the engine puts the
// iterator that counts between it and the statement's rows.
type recounted struct {
	sql.RowIter
	counts *rowCounts
	kind   countKind
}

var _ sql.MutableRowIter = (*recounted)(nil)

func (r *recounted) GetChildIter() sql.RowIter { return r.RowIter }

func (r *recounted) WithChildIter(child sql.RowIter) sql.RowIter {
	nr := *r
	nr.RowIter = child
	return &nr
}

func (r *recounted) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := r.RowIter.Next(ctx)
	if err != nil || len(row) != 1 {
		return row, err
	}
	res, ok := row[0].(types.OkResult)
	if !ok {
		return row, nil
	}
	// CLIENT_FOUND_ROWS counts a row an UPDATE matched but left as it
	// was, and one ON DUPLICATE KEY UPDATE left so, as affected.
	found := ctx.Client().Capabilities&mysql.CapabilityClientFoundRows != 0
	c := r.counts
	switch r.kind {
	case countReplace:
		res.RowsAffected += uint64(c.deletes)
	case countUpsert:
		// A row updated counts 2, where the engine counted 0 (1 for
		// CLIENT_FOUND_ROWS).
		// and a row left as it was counts 0 (1), where the engine
		// counted 2.
		if found {
			res.RowsAffected += uint64(c.quiet)
			res.RowsAffected -= uint64(c.same)
		} else {
			res.RowsAffected += 2 * uint64(c.quiet)
			res.RowsAffected -= 2 * uint64(c.same)
		}
	case countUpdate:
		info, ok := res.Info.(plan.UpdateInfo)
		if !ok {
			break
		}
		info.Updated += c.quiet - c.same
		if c.own {
			info.Matched, info.Updated = c.matched, c.changed
		}
		res.Info = info
		res.RowsAffected = uint64(info.Updated)
		if found {
			res.RowsAffected = uint64(info.Matched)
		}
		ctx.SetLastQueryInfoInt(sql.FoundRows, int64(info.Matched))
	case countDeletes:
		res.RowsAffected = uint64(c.deleted)
	}
	ctx.SetLastQueryInfoInt(sql.RowCount, int64(res.RowsAffected))
	return sql.Row{res}, nil
}
