package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// A write that reads the rows it writes must read them as they were
// before it began, as MySQL does (it reads them whole first, into a
// temporary table where it must). A scan of a table skips the rows the
// transaction has changed, so a statement that changed rows while it
// read lost them from its own reading:
//   - DELETE t, n FROM t JOIN n ON t.a = n.a deleted the first row of n
//     matching t's rows, and a table read again for each row of the
//     other side (the inner side of a join) no longer held it or the
//     rows of t: the second row of n was kept;
//   - INSERT INTO t SELECT id + 1, a FROM t ON DUPLICATE KEY UPDATE ...
//     (and REPLACE ... SELECT from its own table) updated row 2 from row
//     1 and then no longer read row 2, so its row 3 was never inserted;
//   - INSERT INTO t SELECT k, 1 + (SELECT MAX(x) FROM t AS b WHERE b.k =
//     a.k) FROM a read, in its subquery's later runs, the rows it had
//     inserted: 11, 12, 13 where MySQL inserts 11, 11, 11.
//
// readFirst reads its child's rows whole before it passes on the first.
// It goes under the DELETE of named tables (readingFirst) and under an
// INSERT's BEFORE INSERT triggers when its rows come from its own table
// (insertReadingFirst), so that the triggers still run a row at a time,
// as the rows are written: for an upsert or REPLACE that reads the table
// at all, for a plain INSERT that reads it more than once or in a
// subquery.
type readFirst struct{ child sql.Node }

var _ sql.Node = (*readFirst)(nil)

// readingFirst is del, a DELETE of named tables, reading its join whole
// before it deletes; nil when del does already, or is another DELETE.
func readingFirst(del *plan.DeleteFrom) *plan.DeleteFrom {
	if _, done := del.Child.(*readFirst); done {
		return nil
	}
	if !del.HasExplicitTargets() {
		return deleteReadingFirst(del)
	}
	nd := *del
	nd.Child = &readFirst{child: del.Child}
	return &nd
}

// deleteReadingFirst is del, a DELETE of one table whose WHERE reads the
// table in a subquery, reading its rows whole before it deletes, under
// its BEFORE DELETE triggers; nil for another DELETE or one that does
// already. The subquery ran again for each row and no longer saw the
// rows deleted before it: DELETE FROM t WHERE x <= (SELECT MIN(x) FROM t
// AS b WHERE b.k = t.k) deleted every row of each k, one after another.
func deleteReadingFirst(del *plan.DeleteFrom) *plan.DeleteFrom {
	d, err := plan.GetDeletable(del.Child)
	if err != nil {
		return nil
	}
	t := storedTable(d)
	if t == nil {
		return nil
	}
	src, withSource := underTriggers(del.Child)
	if _, done := src.(*readFirst); done {
		return nil
	}
	if _, inSubquery := readCount(src, t); !inSubquery {
		return nil
	}
	out, err := withSource(&readFirst{child: src})
	if err != nil {
		return nil
	}
	nd := *del
	nd.Child = out
	return &nd
}

// insertReadingFirst is ins, a REPLACE or upsert that reads the table it
// writes, reading its rows whole first; nil for another INSERT or one
// that does already.
func insertReadingFirst(ins *plan.InsertInto) (*plan.InsertInto, error) {
	src, withSource := underTriggers(ins.Source)
	plain := !ins.IsReplace && len(ins.OnDupExprs) == 0
	if _, literal := src.(*plan.Values); plain && literal {
		return nil, nil
	}
	dest := writtenTable(ins.Destination)
	if dest == nil {
		return nil, nil
	}
	// A plain INSERT ... SELECT that scans its table once reads it as it
	// was: a scan reads the rows of the moment it starts. A subquery runs
	// again for each row, and the inner side of a join is read again for
	// each outer row, each time with the rows inserted so far, which
	// MySQL's SELECT never sees. An upsert or REPLACE that reads the table
	// at all reads it first.
	n, inSubquery := readCount(src, dest)
	if !inSubquery && (n == 0 || plain && n < 2) {
		return nil, nil
	}
	// Under the projection that gives the rows their columns' values,
	// whose checks name the row being written (1406 at row 3) and come
	// in turn with the writes' own errors (1062).
	p, projected := src.(*plan.Project)
	under := src
	if projected {
		under = p.Child
	}
	if _, done := under.(*readFirst); done {
		return nil, nil
	}
	var out sql.Node = &readFirst{child: under}
	if projected {
		var err error
		if out, err = p.WithChildren(out); err != nil {
			return nil, err
		}
	}
	out, err := withSource(out)
	if err != nil {
		return nil, err
	}
	return ins.WithSource(out), nil
}

// readCount counts the places n's plan reads table t, and says whether a
// subquery of its expressions reads it.
func readCount(n sql.Node, t *Table) (count int, inSubquery bool) {
	var visit func(n sql.Node, nested bool)
	visit = func(n sql.Node, nested bool) {
		transform.Inspect(n, func(n sql.Node) bool {
			var table sql.Table
			switch x := n.(type) {
			case *plan.ResolvedTable:
				table = x.Table
			case *plan.IndexedTableAccess:
				table = x.Table
			}
			if st := storedTable(table); st != nil && strings.EqualFold(st.info.DB, t.info.DB) && strings.EqualFold(st.info.Name, t.info.Name) {
				if nested {
					inSubquery = true
				} else {
					count++
				}
			}
			if ex, ok := n.(sql.Expressioner); ok {
				for _, e := range ex.Expressions() {
					transform.InspectExpr(e, func(e sql.Expression) bool {
						if ewn, ok := e.(sql.ExpressionWithNodes); ok {
							for _, c := range ewn.NodeChildren() {
								visit(c, true)
							}
						}
						return false
					})
				}
			}
			return true
		})
	}
	visit(n, false)
	return count, inSubquery
}

func (r *readFirst) rows(ctx *sql.Context, b sql.NodeExecBuilder, row sql.Row) (sql.RowIter, error) {
	iter, err := b.Build(ctx, r.child, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(rows...), nil
}

func (r *readFirst) Resolved() bool       { return r.child.Resolved() }
func (r *readFirst) String() string       { return r.child.String() }
func (r *readFirst) Schema() sql.Schema   { return r.child.Schema() }
func (r *readFirst) IsReadOnly() bool     { return true }
func (r *readFirst) Children() []sql.Node { return []sql.Node{r.child} }

func (r *readFirst) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 1)
	}
	return &readFirst{child: children[0]}, nil
}
