package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The engine counts the rows a write statement affected from the rows it
// passes on, which miss some: a REPLACE whose row repeats the keys of two
// rows deletes both but passes on one. While such a statement is built,
// the session's rowCounts are its own (statementBuilder); the editors
// built for it note there what the engine misses, and recounted puts it
// into the result the client and ROW_COUNT() read.

// rowCounts is what the engine's count of one statement misses.
type rowCounts struct {
	// table is the statement's table (tableKey): only its editors count.
	table string
	// deletes are rows a REPLACE deleted for a row beyond the first.
	deletes int
}

// countsFor is the statement's rowCounts when t is its table, or nil.
func countsFor(ctx *sql.Context, t *Table) *rowCounts {
	s, ok := ctx.Session.(*Session)
	if !ok || s.counts == nil || s.counts.table != tableKey(t.info.DB, t.info.Name) {
		return nil
	}
	return s.counts
}

// countKind is how a statement counts the rows it affected.
type countKind int

const (
	notRecounted countKind = iota
	countReplace
)

// recountedKind is how n counts its rows, and its table, when n is a
// statement whose count recounted corrects.
func recountedKind(n sql.Node) (countKind, sql.Node) {
	switch n := n.(type) {
	case *plan.TriggerExecutor:
		return recountedKind(n.Left())
	case *plan.InsertInto:
		if n.IsReplace {
			return countReplace, n.Destination
		}
	}
	return notRecounted, nil
}

// statementBuilder is the analyzer's builder, which builds b's whole
// statements (and subqueries, as they run), never a part of one: the
// statements it recounts are counted just below the iterator it returns.
type statementBuilder struct{ b sql.NodeExecBuilder }

func (sb statementBuilder) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	kind, target := recountedKind(n)
	if !ok || kind == notRecounted {
		return sb.b.Build(ctx, n, row)
	}
	c := &rowCounts{}
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
	if r.kind == countReplace {
		res.RowsAffected += uint64(r.counts.deletes)
	}
	ctx.SetLastQueryInfoInt(sql.RowCount, int64(res.RowsAffected))
	return sql.Row{res}, nil
}
