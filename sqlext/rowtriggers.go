package sqlext

import (
	"fmt"
	"io"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// REPLACE and INSERT ... ON DUPLICATE KEY UPDATE write a row by more
// than one event, and MySQL runs the triggers of each event it takes,
// row by row:
//
//	REPLACE:  BEFORE INSERT; for each row in the way, BEFORE DELETE,
//	          the delete, AFTER DELETE; the insert, AFTER INSERT.
//	upsert:   BEFORE INSERT; then the insert and AFTER INSERT, or, on a
//	          duplicate key, BEFORE UPDATE (which may change NEW), the
//	          update, AFTER UPDATE.
//
// The engine binds one event per statement, INSERT, so it ran no DELETE
// or UPDATE trigger, and its AFTER INSERT trigger, which reads the row
// the statement passes on, read the replaced row (REPLACE passes on the
// old row and the new) or ran for rows the upsert updated.
//
// Just after the engine binds triggers, rowTriggers takes the place of
// such a statement's target: it binds the table's DELETE or UPDATE
// triggers as the engine binds them for a DELETE or an UPDATE, takes the
// engine's AFTER INSERT triggers from above the statement, and runs each
// from the editor at the write it follows. BEFORE INSERT triggers stay
// as the engine runs them, on the rows the statement reads.

const rowTriggerRule analyzer.RuleId = 9984

// applyTriggers is the engine's rule that binds a statement's triggers.
var applyTriggers = engineRule("applyTriggers")

func engineRule(name string) analyzer.RuleFunc {
	return analyzer.OnceAfterAll[engineRuleAt(name)].Apply
}

// engineRuleID is the id of the engine's rule named name in its last
// batch.
func engineRuleID(name string) analyzer.RuleId { return analyzer.OnceAfterAll[engineRuleAt(name)].Id }

// engineRuleAt is the position of the engine's rule named name in its
// last batch.
func engineRuleAt(name string) int {
	for i, r := range analyzer.OnceAfterAll {
		if r.Id.String() == name {
			return i
		}
	}
	panic("sqlext: the engine has no rule " + name)
}

// firing is one bound trigger: its body, and when it runs.
type firing struct {
	event plan.TriggerEvent
	time  plan.TriggerTime
	def   sql.TriggerDefinition
	logic sql.Node
}

// rowTriggers is an INSERT's target, dest, whose editors run the
// triggers of the writes the statement makes beyond its inserts.
type rowTriggers struct {
	dest    sql.Node
	firings []firing
	// b builds the triggers' bodies; set for each run (build).
	b sql.NodeExecBuilder
}

var (
	_ sql.Node            = (*rowTriggers)(nil)
	_ sql.InsertableTable = (*rowTriggers)(nil)
	_ sql.TableWrapper    = (*rowTriggers)(nil)
)

// bindRowTriggers runs just after the engine binds triggers: it takes
// the stray ones out (dropStrayTriggers), gives each REPLACE and upsert
// that writes a table with triggers a rowTriggers target, and binds the
// triggers of multiple-table UPDATEs and DELETEs (jointriggers.go).
func bindRowTriggers(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.DmlIsSet() {
		return n, transform.SameTree, nil
	}
	same := transform.SameTree
	// The engine flags a statement it bound a trigger to; it plans a
	// trigger's body with no flags.
	if qFlags == nil || qFlags.IsSet(sql.QFlagTrigger) {
		var err error
		if n, same, err = dropStrayTriggers(n); err != nil {
			return nil, transform.SameTree, err
		}
	}
	bound, sameBound, err := transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n := n.(type) {
		case *plan.InsertInto:
			if !n.IsReplace && len(n.OnDupExprs) == 0 {
				return n, transform.SameTree, nil
			}
			if _, done := n.Destination.(*rowTriggers); done {
				return n, transform.SameTree, nil
			}
			rt := destinationTable(n.Destination)
			if rt == nil || !hasTriggers(ctx, rt) {
				return n, transform.SameTree, nil
			}
			d := &rowTriggers{dest: n.Destination}
			var err error
			if n.IsReplace {
				err = d.bind(ctx, a, deleteOf(rt), scope, sel, qFlags)
			} else {
				err = d.bind(ctx, a, updateOf(rt), scope, sel, qFlags)
			}
			if err != nil {
				return nil, transform.SameTree, err
			}
			nn, err := n.WithChildren(d)
			return nn, transform.NewTree, err
		case *deleteTriggers:
			if n.bound {
				return n, transform.SameTree, nil
			}
			nn, err := n.bind(ctx, a, scope, sel, qFlags)
			return nn, transform.NewTree, err
		case *plan.Update:
			if joinOf(n) == nil {
				return n, transform.SameTree, nil
			}
			up, err := withoutJoinTriggers(n)
			if err != nil {
				return nil, transform.SameTree, err
			}
			nn, err := bindJoinTriggers(ctx, a, up, scope, sel, qFlags)
			return nn, transform.NewTree, err
		case *plan.TriggerExecutor:
			if n.TriggerEvent == plan.UpdateTrigger && updatesJoin(n.Left()) {
				// The engine's AFTER UPDATE trigger over a multiple-table
				// UPDATE, bound above.
				return n.Left(), transform.NewTree, nil
			}
			// The engine's AFTER INSERT trigger over a statement whose
			// target is bound above: the editor runs it instead.
			ins, ok := n.Left().(*plan.InsertInto)
			if !ok || n.TriggerEvent != plan.InsertTrigger || n.TriggerTime != plan.AfterTrigger {
				return n, transform.SameTree, nil
			}
			d, ok := ins.Destination.(*rowTriggers)
			if !ok {
				return n, transform.SameTree, nil
			}
			nd := *d
			nd.firings = append(append([]firing(nil), d.firings...), firingOf(n))
			nn, err := ins.WithChildren(&nd)
			return nn, transform.NewTree, err
		}
		return n, transform.SameTree, nil
	})
	return bound, same && sameBound, err
}

// dropStrayTriggers takes out of n's trigger bodies the triggers that n
// itself runs.
func dropStrayTriggers(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	own := map[string]bool{}
	var outside func(n sql.Node)
	outside = func(n sql.Node) {
		switch x := n.(type) {
		case *plan.TriggerExecutor:
			own[triggerKey(x)] = true
			outside(x.Left())
			return
		case *plan.InsertInto:
			outside(x.Source)
		}
		for _, c := range n.Children() {
			outside(c)
		}
	}
	outside(n)
	if len(own) == 0 {
		return n, transform.SameTree, nil
	}
	var walk func(n sql.Node, inBody bool) (sql.Node, bool, error)
	walk = func(n sql.Node, inBody bool) (sql.Node, bool, error) {
		changed := false
		if ins, ok := n.(*plan.InsertInto); ok && ins.Source != nil {
			src, c, err := walk(ins.Source, inBody)
			if err != nil {
				return nil, false, err
			}
			if c {
				n, changed = ins.WithSource(src), true
			}
		}
		children := n.Children()
		var nc []sql.Node
		for i, c := range children {
			body := inBody
			if _, ok := n.(*plan.TriggerExecutor); ok && i == 1 {
				body = true // the trigger's body
			}
			w, cc, err := walk(c, body)
			if err != nil {
				return nil, false, err
			}
			if cc {
				if nc == nil {
					nc = slices.Clone(children)
				}
				nc[i] = w
			}
		}
		if nc != nil {
			nn, err := n.WithChildren(nc...)
			if err != nil {
				return nil, false, err
			}
			n, changed = nn, true
		}
		if te, ok := n.(*plan.TriggerExecutor); ok && inBody && own[triggerKey(te)] {
			return te.Left(), true, nil
		}
		return n, changed, nil
	}
	out, changed, err := walk(n, false)
	if err != nil || !changed {
		return n, transform.SameTree, err
	}
	return out, transform.NewTree, nil
}

func triggerKey(te *plan.TriggerExecutor) string {
	return te.TriggerDefinition.Name + "\x00" + te.TriggerDefinition.CreateStatement
}

// destinationTable is the table a write's target node writes.
func destinationTable(dest sql.Node) *plan.ResolvedTable {
	var rt *plan.ResolvedTable
	transform.Inspect(dest, func(n sql.Node) bool {
		switch t := n.(type) {
		case *plan.ResolvedTable:
			rt = t
		case *plan.IndexedTableAccess:
			// A leaf: its table is no child.
			rt, _ = t.TableNode.(*plan.ResolvedTable)
		}
		return rt == nil
	})
	return rt
}

// hasTriggers says whether the database of rt holds triggers (of any
// table: the engine's binding sorts them out).
func hasTriggers(ctx *sql.Context, rt *plan.ResolvedTable) bool {
	s, ok := ctx.Session.(*Session)
	if !ok || rt.Database() == nil {
		return false
	}
	has, err := s.p.hasTriggers(rt.Database().Name())
	return err != nil || has
}

// hasTriggers says whether database db holds triggers.
func (p *Provider) hasTriggers(db string) (bool, error) {
	triggers, err := p.store.Meta(db, triggerPrefix)
	return len(triggers) > 0, err
}

// bind binds the triggers the engine binds for stmt, a DELETE or UPDATE
// of the target's table, in the order the engine runs them.
func (d *rowTriggers) bind(ctx *sql.Context, a *analyzer.Analyzer, stmt sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) error {
	bound, _, err := applyTriggers(ctx, a, stmt, scope, sel, qFlags)
	if err == nil {
		bound, _, err = dropStrayTriggers(bound)
	}
	if err != nil {
		return err
	}
	// The engine wraps each trigger around what it bound before: the
	// innermost runs first.
	var before, after []firing
	var walk func(n sql.Node)
	walk = func(n sql.Node) {
		te, ok := n.(*plan.TriggerExecutor)
		if !ok {
			for _, c := range n.Children() {
				walk(c)
			}
			return
		}
		walk(te.Left())
		if te.TriggerTime == plan.BeforeTrigger {
			before = append(before, firingOf(te))
		} else {
			after = append(after, firingOf(te))
		}
	}
	walk(bound)
	d.firings = append(append(d.firings, before...), after...)
	return nil
}

func firingOf(te *plan.TriggerExecutor) firing {
	return firing{event: te.TriggerEvent, time: te.TriggerTime, def: te.TriggerDefinition, logic: te.Right()}
}

// build is the target of one run, with b to build its triggers.
func (d *rowTriggers) build(b sql.NodeExecBuilder) *rowTriggers {
	nd := *d
	nd.b = b
	return &nd
}

// fire runs the triggers of event and time on row, the row their
// bodies read (OLD, NEW, or OLD then NEW), and returns the row as the
// last of them left it (a BEFORE trigger may set NEW's columns).
func (d *rowTriggers) fire(ctx *sql.Context, event plan.TriggerEvent, time plan.TriggerTime, row sql.Row) (sql.Row, error) {
	for _, f := range d.firings {
		if f.event != event || f.time != time {
			continue
		}
		if d.b == nil {
			return nil, fmt.Errorf("trigger %s is not bound to a run", f.def.Name)
		}
		te := plan.NewTriggerExecutor(&givenRow{row: row}, f.logic, f.event, f.time, f.def)
		iter, err := d.b.Build(ctx, te, nil)
		if err != nil {
			return nil, err
		}
		out, err := lastRow(ctx, iter)
		if err != nil {
			return nil, err
		}
		if len(out) == len(row) {
			row = out
		}
	}
	return row, nil
}

func lastRow(ctx *sql.Context, iter sql.RowIter) (last sql.Row, err error) {
	defer func() {
		if cerr := iter.Close(ctx); err == nil {
			err = cerr
		}
	}()
	for {
		r, err := iter.Next(ctx)
		if err == io.EOF {
			return last, nil
		}
		if err != nil {
			return nil, err
		}
		last = r
	}
}

// The node: dest, with the triggers' bodies as children, as the engine
// keeps a trigger's body, so that later rules reach them.

func (d *rowTriggers) Resolved() bool { return allResolved(d.Children()) }

func allResolved(nodes []sql.Node) bool {
	for _, n := range nodes {
		if !n.Resolved() {
			return false
		}
	}
	return true
}

func (d *rowTriggers) String() string     { return d.dest.String() }
func (d *rowTriggers) Schema() sql.Schema { return d.dest.Schema() }
func (d *rowTriggers) IsReadOnly() bool   { return false }

func (d *rowTriggers) Children() []sql.Node { return withBodies(d.dest, d.firings) }

func (d *rowTriggers) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1+len(d.firings) {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 1+len(d.firings))
	}
	nd := *d
	nd.dest, nd.firings = children[0], newBodies(d.firings, children[1:])
	return &nd, nil
}

// withBodies is head, then the bodies of firings: the children of a node
// that runs triggers.
func withBodies(head sql.Node, firings []firing) []sql.Node {
	children := make([]sql.Node, 0, 1+len(firings))
	children = append(children, head)
	for _, f := range firings {
		children = append(children, f.logic)
	}
	return children
}

// newBodies is firings with the bodies given.
func newBodies(firings []firing, bodies []sql.Node) []firing {
	out := make([]firing, len(firings))
	for i, f := range firings {
		f.logic = bodies[i]
		out[i] = f
	}
	return out
}

// The table: dest's, with editors that run the triggers.

func (d *rowTriggers) insertable() sql.InsertableTable {
	t, err := plan.GetInsertable(d.dest)
	if err != nil {
		panic(fmt.Sprintf("sqlext: trigger target %s takes no inserts", d.dest))
	}
	return t
}

func (d *rowTriggers) Underlying() sql.Table      { return d.insertable() }
func (d *rowTriggers) Name() string               { return d.insertable().Name() }
func (d *rowTriggers) Collation() sql.CollationID { return d.insertable().Collation() }

func (d *rowTriggers) Partitions(ctx *sql.Context) (sql.PartitionIter, error) {
	return d.insertable().Partitions(ctx)
}

func (d *rowTriggers) PartitionRows(ctx *sql.Context, p sql.Partition) (sql.RowIter, error) {
	return d.insertable().PartitionRows(ctx, p)
}

func (d *rowTriggers) Inserter(ctx *sql.Context) sql.RowInserter {
	return &triggeredInserter{RowInserter: d.insertable().Inserter(ctx), d: d}
}

func (d *rowTriggers) Replacer(ctx *sql.Context) sql.RowReplacer {
	return &triggeredReplacer{RowReplacer: d.insertable().(sql.ReplaceableTable).Replacer(ctx), d: d}
}

func (d *rowTriggers) Updater(ctx *sql.Context) sql.RowUpdater {
	return &triggeredUpdater{RowUpdater: d.insertable().(sql.UpdatableTable).Updater(ctx), d: d}
}

// triggeredInserter runs AFTER INSERT triggers on the rows it inserts.
type triggeredInserter struct {
	sql.RowInserter
	d *rowTriggers
}

func (e *triggeredInserter) Insert(ctx *sql.Context, row sql.Row) error {
	return e.d.afterInsert(ctx, row, e.RowInserter.Insert(ctx, row))
}

// afterInsert runs the AFTER INSERT triggers on row, unless inserting
// it failed with err.
func (d *rowTriggers) afterInsert(ctx *sql.Context, row sql.Row, err error) error {
	if err != nil {
		return err
	}
	_, err = d.fire(ctx, plan.InsertTrigger, plan.AfterTrigger, row)
	return err
}

// triggeredReplacer runs DELETE triggers around the rows it deletes
// and AFTER INSERT triggers on the rows it inserts.
type triggeredReplacer struct {
	sql.RowReplacer
	d *rowTriggers
}

func (e *triggeredReplacer) Insert(ctx *sql.Context, row sql.Row) error {
	return e.d.afterInsert(ctx, row, e.RowReplacer.Insert(ctx, row))
}

func (e *triggeredReplacer) Delete(ctx *sql.Context, row sql.Row) error {
	if _, err := e.d.fire(ctx, plan.DeleteTrigger, plan.BeforeTrigger, row); err != nil {
		return err
	}
	if err := e.RowReplacer.Delete(ctx, row); err != nil {
		return err
	}
	_, err := e.d.fire(ctx, plan.DeleteTrigger, plan.AfterTrigger, row)
	return err
}

// triggeredUpdater runs UPDATE triggers around the rows an upsert
// updates; a BEFORE UPDATE trigger's NEW is the row written.
type triggeredUpdater struct {
	sql.RowUpdater
	d *rowTriggers
}

func (e *triggeredUpdater) Update(ctx *sql.Context, old, new sql.Row) error {
	both, err := e.d.fire(ctx, plan.UpdateTrigger, plan.BeforeTrigger, append(old.Copy(), new...))
	if err != nil {
		return err
	}
	written := both[len(old):]
	if err := e.recount(ctx, old, new, written); err != nil {
		return err
	}
	new = written
	if err := e.RowUpdater.Update(ctx, old, new); err != nil {
		return err
	}
	_, err = e.d.fire(ctx, plan.UpdateTrigger, plan.AfterTrigger, append(old.Copy(), new...))
	return err
}

// recount corrects an upsert's count of the row the engine took as
// changed to new (or not) and its BEFORE UPDATE triggers made written:
// the engine counts a row changed by a trigger alone as left as it was.
func (e *triggeredUpdater) recount(ctx *sql.Context, old, new, written sql.Row) error {
	ed, ok := e.RowUpdater.(*editor)
	if !ok || ed.counts == nil {
		return nil
	}
	sch := ed.t.sch.Schema
	engine, err := old.Equals(ctx, new, sch)
	if err != nil {
		return err
	}
	stored, err := old.Equals(ctx, written, sch)
	if err != nil {
		return err
	}
	switch {
	case engine && !stored:
		ed.counts.quiet++
	case !engine && stored:
		ed.counts.same++
	}
	return nil
}

// givenRow is a node whose one row is row: the row a trigger runs on.
type givenRow struct{ row sql.Row }

var _ sql.ExecSourceRel = (*givenRow)(nil)

func (g *givenRow) Resolved() bool       { return true }
func (g *givenRow) String() string       { return "given row" }
func (g *givenRow) Schema() sql.Schema   { return nil }
func (g *givenRow) IsReadOnly() bool     { return true }
func (g *givenRow) Children() []sql.Node { return nil }

func (g *givenRow) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(g, len(children), 0)
	}
	return g, nil
}

func (g *givenRow) RowIter(*sql.Context, sql.Row) (sql.RowIter, error) {
	return sql.RowsToRowIter(g.row), nil
}

// beforeTrigger builds a BEFORE trigger the engine binds, whose body
// runs as its rows are read, with the changes the body makes marked as
// the trigger's (triggerWrites).
func (o *execOverrides) beforeTrigger(ctx *sql.Context, n *plan.TriggerExecutor, row sql.Row) (sql.RowIter, error) {
	return o.once(n, func() (sql.RowIter, error) {
		iter, err := o.b.Build(ctx, n, row)
		if err != nil || iter == nil {
			return iter, err
		}
		return &triggerWriting{RowIter: iter}, nil
	})
}

// triggerWriting is a BEFORE trigger's rows, read with the changes its
// body makes marked as the trigger's.
type triggerWriting struct{ sql.RowIter }

func (t *triggerWriting) Next(ctx *sql.Context) (sql.Row, error) {
	return triggerWrites(ctx, func() (sql.Row, error) { return t.RowIter.Next(ctx) })
}
