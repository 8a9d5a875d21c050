package sqlext

import (
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// A multiple-table UPDATE updates each row of each table it sets columns
// of once, by the first row of the join that row is part of. The engine
// tells a table's rows apart by their values, so it refuses the
// statement when such a table has no primary key ("keyless tables
// unsupported for UPDATE JOIN"): of equal rows it would update one.
//
// Rows of a table without a primary key differ by their hidden row ids
// only, which the join does not carry; but equal rows match the same
// rows of the join, and so are updated alike. joinUpdateIter, which
// passes the engine the join's rows to update in place of the engine's
// own iterator, passes a row of such a table once for each row equal to
// it (editor.copies), and the table's editor updates another of them
// each time (editor.identityOf). It reads the whole join before the
// first row is updated, which the count of equal rows needs.
//
// For the engine to bind the statement, the parser renames each table
// without a primary key in a multiple-table UPDATE (markJoinTables):
// Database.GetTableInsensitive resolves the new name to the table as a
// joinTable, whose underlying table shows the engine's check a primary
// key. The planner sees the table's own schema.

// joinTableMark starts the name a multiple-table UPDATE's statement
// gives a table without a primary key; no table name holds it.
const joinTableMark = "\x00join:"

// markJoinTables renames the tables without a primary key of the
// multiple-table UPDATE st, or of those in the body of the routine,
// trigger or event st creates.
func (p *Provider) markJoinTables(ctx *sql.Context, st ast.Statement) {
	switch st := st.(type) {
	case *ast.Update:
		if multipleTables(st.TableExprs) {
			p.markKeyless(ctx, st.TableExprs)
		}
	case *ast.Explain:
		p.markJoinTables(ctx, st.Statement)
	case *ast.DDL:
		if body := ddlBody(st); body != nil {
			_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
				if up, ok := node.(*ast.Update); ok {
					p.markJoinTables(ctx, up)
				}
				return true, nil
			}, body)
		}
	}
}

// markKeyless renames the tables without a primary key that exprs name.
func (p *Provider) markKeyless(ctx *sql.Context, exprs ast.TableExprs) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		at, ok := node.(*ast.AliasedTableExpr)
		if !ok {
			return true, nil
		}
		if name, ok := at.Expr.(ast.TableName); ok && p.keylessTable(ctx, name) {
			name.Name = ast.NewTableIdent(joinTableMark + name.Name.String())
			at.Expr = name
		}
		return false, nil
	}, exprs)
}

// keylessTable says whether name is a table without a primary key, in
// the current database when it names none. It asks storage directly:
// the statement's reads have not begun.
func (p *Provider) keylessTable(ctx *sql.Context, name ast.TableName) bool {
	db := name.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	stored, ok := p.store.Database(db)
	if !ok || strings.HasPrefix(name.Name.String(), joinTableMark) {
		return false
	}
	info := (&Database{p: p, name: stored}).tableInfo(ctx, name.Name.String())
	return info != nil && len(info.Schema.PK) == 0
}

// ddlBody is the body of the routine, trigger or event ddl creates, or nil.
func ddlBody(ddl *ast.DDL) ast.Statement {
	switch {
	case ddl.ProcedureSpec != nil:
		return ddl.ProcedureSpec.Body
	case ddl.TriggerSpec != nil:
		return ddl.TriggerSpec.Body
	case ddl.EventSpec != nil:
		return ddl.EventSpec.Body
	}
	return nil
}

func multipleTables(exprs ast.TableExprs) bool {
	if len(exprs) != 1 {
		return len(exprs) > 1
	}
	_, join := exprs[0].(*ast.JoinTableExpr)
	return join
}

// joinTable is a table without a primary key that a multiple-table
// UPDATE names. The engine's check of the tables an UPDATE sets columns
// of reads the underlying table's schema.
type joinTable struct{ *Table }

var _ sql.TableWrapper = joinTable{}

func (j joinTable) Underlying() sql.Table { return keyedTable(j) }

// keyedTable is t with its columns marked as its primary key.
type keyedTable struct{ *Table }

var _ sql.TableWrapper = keyedTable{}

func (k keyedTable) Underlying() sql.Table { return k.Table }

func (k keyedTable) Schema() sql.Schema {
	sch := make(sql.Schema, len(k.sch.Schema))
	for i, c := range k.sch.Schema {
		cc := *c
		cc.PrimaryKey = true
		sch[i] = &cc
	}
	return sch
}

// joinUpdate builds the rows a multiple-table UPDATE updates
// (joinUpdateIter) when every table it updates is ours.
func (o *execOverrides) joinUpdate(ctx *sql.Context, n *plan.UpdateJoin, row sql.Row) (sql.RowIter, error) {
	src, ok := n.Child.(*plan.UpdateSource)
	if !ok {
		return nil, nil
	}
	sch := src.Child.Schema()
	var targets []*joinTarget
	for name, u := range n.Updaters {
		if t, ok := u.(*triggeredUpdater); ok {
			u = t.RowUpdater
		}
		e, ok := u.(*editor)
		start := slices.IndexFunc(sch, func(c *sql.Column) bool { return strings.EqualFold(c.Source, name) })
		if !ok || start < 0 || start+len(e.t.sch.Schema) > len(sch) {
			return nil, nil
		}
		targets = append(targets, &joinTarget{e: e, start: start, end: start + len(e.t.sch.Schema), seen: map[string]bool{}, before: e.updates})
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].start < targets[j].start })
	iter, err := o.b.Build(ctx, src, row)
	if err != nil {
		return nil, err
	}
	var counts *rowCounts
	if s, ok := ctx.Session.(*Session); ok {
		counts = s.counts
	}
	return &joinUpdateIter{src: iter, sch: sch, join: src.Child, targets: targets, counts: counts}, nil
}

// joinTarget is a table a multiple-table UPDATE sets columns of.
type joinTarget struct {
	e *editor
	// start and end are the table's columns in the join's rows.
	start, end int
	// seen holds the rows of the table (storage.EncodeKey) met so far.
	seen map[string]bool
	// before is how many rows e had updated when the statement began.
	before int
}

// joinUpdateIter passes a multiple-table UPDATE's rows on, each old row
// of the join followed by the new one, as the engine's iterator does,
// changing each table's row in the first of them it is part of only. It
// writes itself the rows changed only to text their collation holds
// equal, which the engine would leave.
type joinUpdateIter struct {
	src     sql.RowIter
	sch     sql.Schema
	join    sql.Node
	targets []*joinTarget
	counts  *rowCounts
	read    bool
	rows    []sql.Row
	matched int
}

func (it *joinUpdateIter) Next(ctx *sql.Context) (sql.Row, error) {
	if !it.read {
		it.read = true
		if err := it.readAll(ctx); err != nil {
			return nil, err
		}
	}
	if len(it.rows) == 0 {
		it.count()
		return nil, io.EOF
	}
	r := it.rows[0]
	it.rows = it.rows[1:]
	return r, nil
}

func (it *joinUpdateIter) Close(ctx *sql.Context) error { return it.src.Close(ctx) }

// count gives the statement the rows matched and changed, once all are
// written.
func (it *joinUpdateIter) count() {
	if it.counts == nil {
		return
	}
	it.counts.own, it.counts.matched, it.counts.changed = true, it.matched, 0
	for _, t := range it.targets {
		it.counts.changed += t.e.updates - t.before
	}
}

// readAll reads the join and keeps the rows to pass on.
func (it *joinUpdateIter) readAll(ctx *sql.Context) error {
	var quiet []quietWrite
	for {
		r, err := it.src.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		n := len(r) / 2
		old, now := r[:n], slices.Clone(r[n:])
		for _, t := range it.targets {
			o, w := old[t.start:t.end], now[t.start:t.end]
			first, copies, err := it.first(ctx, t, old, o)
			if err != nil {
				return err
			}
			if !first {
				copy(w, o)
				continue
			}
			it.matched += copies
			q, err := quietChange(ctx, o, w, t.e.t.sch.Schema)
			if err != nil {
				return err
			}
			if q {
				quiet = append(quiet, quietWrite{t.e, slices.Clone(o), slices.Clone(w), copies})
				copy(w, o)
				continue
			}
			// The other rows equal to this one, each changed by a row
			// of its own.
			for range copies - 1 {
				other := slices.Clone(old)
				copy(other[t.start:t.end], w)
				it.rows = append(it.rows, append(slices.Clone(old), other...))
			}
		}
		if same, err := old.Equals(ctx, now, it.sch); err != nil {
			return err
		} else if !same {
			it.rows = append(it.rows, append(slices.Clone(old), now...))
		}
	}
	for _, q := range quiet {
		for range q.copies {
			if err := q.e.Update(ctx, q.old, q.now); err != nil {
				return err
			}
		}
	}
	return nil
}

// quietWrite is a row of a table changed only to text its collation
// holds equal, which stands for copies equal rows.
type quietWrite struct {
	e        *editor
	old, now sql.Row
	copies   int
}

// first says whether part, t's row in the join's row r, is one the
// statement has not met before and is to update, and how many rows of t
// it stands for.
func (it *joinUpdateIter) first(ctx *sql.Context, t *joinTarget, r, part sql.Row) (bool, int, error) {
	if made, err := it.madeUp(ctx, r, part); err != nil || made {
		return false, 0, err
	}
	sr, err := t.e.t.asRead(part)
	if err != nil {
		return false, 0, err
	}
	key := storage.EncodeKey(sr)
	if t.seen[key] {
		return false, 0, nil
	}
	t.seen[key] = true
	if !t.e.t.keyless() {
		return true, 1, nil
	}
	n, err := t.e.copies(sr)
	return true, n, err
}

// madeUp says whether part, a table's row in the join's row r, is one an
// outer join made up (all NULL) for a row of the other side that matched
// none, as the engine tells: the join's condition does not hold for r
// (which the engine does not ask of an indexed join).
func (it *joinUpdateIter) madeUp(ctx *sql.Context, r, part sql.Row) (bool, error) {
	jn := outerJoin(it.join)
	if jn == nil {
		return false, nil
	}
	holds, err := jn.JoinCond().Eval(ctx, r)
	if err != nil {
		return false, err
	}
	if b, ok := holds.(bool); ok && b && !indexedJoin(jn) {
		return false, nil
	}
	return !slices.ContainsFunc(part, func(v any) bool { return v != nil }), nil
}

// outerJoin is the left outer join at the top of n, under the nodes
// that pass its rows on, or nil.
func outerJoin(n sql.Node) *plan.JoinNode {
	for {
		switch x := n.(type) {
		case *plan.JoinNode:
			if x.JoinType().IsLeftOuter() {
				return x
			}
			return nil
		case *plan.TopN, *plan.Filter, *plan.Project, *plan.Limit, *plan.Offset, *plan.Sort, *plan.Distinct, *plan.Having, *plan.Window:
			n = x.Children()[0]
		default:
			return nil
		}
	}
}

// indexedJoin says whether jn looks up its left side's rows by an index.
func indexedJoin(n sql.Node) bool {
	for {
		switch x := n.(type) {
		case *plan.Filter:
			n = x.Child
		case *plan.TableAlias:
			n = x.Child
		case *plan.JoinNode:
			n = x.Left()
		case *plan.IndexedTableAccess:
			return true
		default:
			return false
		}
	}
}
