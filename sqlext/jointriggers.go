package sqlext

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// A multiple-table UPDATE runs, for each row it changes, the UPDATE
// triggers of that row's table, with OLD and NEW that table's row. The
// engine bound the triggers of one table only (two-table updates ran at
// most one table's), and bound them to the join's whole row: OLD.id was
// the id of whichever table the join named first, and a BEFORE trigger's
// SET NEW.x could set the other table's x.
//
// The rule that binds REPLACE's triggers (bindRowTriggers) takes the
// engine's out of such an UPDATE, binds each updated table's own as for
// an UPDATE of that table alone, and puts them in a joinTriggers over
// the statement. A run gives each table's editor a triggeredUpdater,
// which runs them around each row it updates.

// joinTriggers is a multiple-table UPDATE with the triggers of the
// tables it updates, by the name the statement gives each.
type joinTriggers struct {
	update *plan.Update
	tableFirings[string]
}

// tableFirings are the triggers of the tables a statement writes: of the
// table keys[i], firings[i].
type tableFirings[K comparable] struct {
	keys    []K
	firings []firing
}

// bindTable adds the triggers the engine binds for stmt(rt), a DELETE or
// UPDATE of rt alone, as those of the table key.
func (t *tableFirings[K]) bindTable(ctx *sql.Context, a *analyzer.Analyzer, key K, rt *plan.ResolvedTable, stmt func(*plan.ResolvedTable) sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) error {
	if rt == nil || !hasTriggers(ctx, rt) {
		return nil
	}
	set := &rowTriggers{}
	if err := set.bind(ctx, a, stmt(rt), scope, sel, qFlags); err != nil {
		return err
	}
	for _, f := range set.firings {
		t.keys = append(t.keys, key)
		t.firings = append(t.firings, f)
	}
	return nil
}

// byTable is the triggers of each table, to be built by b.
func (t *tableFirings[K]) byTable(b sql.NodeExecBuilder) map[K]*rowTriggers {
	sets := map[K]*rowTriggers{}
	for i, f := range t.firings {
		set := sets[t.keys[i]]
		if set == nil {
			set = &rowTriggers{b: b}
			sets[t.keys[i]] = set
		}
		set.firings = append(set.firings, f)
	}
	return sets
}

func updateOf(rt *plan.ResolvedTable) sql.Node { return plan.NewUpdate(rt, false, nil) }
func deleteOf(rt *plan.ResolvedTable) sql.Node { return plan.NewDeleteFrom(rt, nil) }

var _ sql.Node = (*joinTriggers)(nil)

// bindJoinTriggers is up, a multiple-table UPDATE (with the engine's
// triggers taken out), with its tables' triggers bound.
func bindJoinTriggers(ctx *sql.Context, a *analyzer.Analyzer, up *plan.Update, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, error) {
	uj := joinOf(up)
	src, ok := uj.Child.(*plan.UpdateSource)
	if !ok {
		return up, nil
	}
	j := &joinTriggers{update: up}
	for name := range uj.Updaters {
		if err := j.bindTable(ctx, a, name, joinedTable(src.Child, name), updateOf, scope, sel, qFlags); err != nil {
			return nil, err
		}
	}
	if len(j.firings) == 0 {
		return up, nil
	}
	return j, nil
}

// joinOf is the UpdateJoin of a multiple-table UPDATE, under the
// engine's BEFORE triggers, or nil.
func joinOf(up *plan.Update) *plan.UpdateJoin {
	n := up.Child
	for {
		switch x := n.(type) {
		case *plan.TriggerExecutor:
			n = x.Left()
		case *plan.UpdateJoin:
			return x
		default:
			return nil
		}
	}
}

// withoutJoinTriggers is up without the engine's BEFORE UPDATE triggers
// over its join.
func withoutJoinTriggers(up *plan.Update) (*plan.Update, error) {
	uj := joinOf(up)
	if uj == nil || up.Child == uj {
		return up, nil
	}
	n, err := up.WithChildren(uj)
	if err != nil {
		return nil, err
	}
	return n.(*plan.Update), nil
}

// joinedTable is the table a multiple-table UPDATE names name (by its
// alias, where it has one) in its join.
func joinedTable(join sql.Node, name string) *plan.ResolvedTable {
	var rt *plan.ResolvedTable
	transform.Inspect(join, func(n sql.Node) bool {
		if rt != nil {
			return false
		}
		switch x := n.(type) {
		case *plan.TableAlias:
			if strings.EqualFold(x.Name(), name) {
				rt = destinationTable(x.Child)
			}
			return false
		case *plan.ResolvedTable, *plan.IndexedTableAccess:
			if strings.EqualFold(x.(sql.Nameable).Name(), name) {
				rt = destinationTable(x)
			}
		}
		return true
	})
	return rt
}

// run is the statement to build for one run, its editors running the
// triggers built by b.
func (j *joinTriggers) run(b sql.NodeExecBuilder) (sql.Node, error) {
	uj := joinOf(j.update)
	updaters := maps.Clone(uj.Updaters)
	for name, set := range j.byTable(b) {
		updaters[name] = &triggeredUpdater{RowUpdater: updaters[name], d: set}
	}
	nuj, err := uj.WithChildren(uj.Child)
	if err != nil {
		return nil, err
	}
	nuj.(*plan.UpdateJoin).Updaters = updaters
	return j.update.WithChildren(nuj)
}

func (j *joinTriggers) Resolved() bool { return allResolved(j.Children()) }

func (j *joinTriggers) String() string     { return j.update.String() }
func (j *joinTriggers) Schema() sql.Schema { return j.update.Schema() }
func (j *joinTriggers) IsReadOnly() bool   { return false }

func (j *joinTriggers) Children() []sql.Node { return withBodies(j.update, j.firings) }

func (j *joinTriggers) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1+len(j.firings) {
		return nil, sql.ErrInvalidChildrenNumber.New(j, len(children), 1+len(j.firings))
	}
	up, ok := children[0].(*plan.Update)
	if !ok {
		return nil, sql.ErrInvalidChildType.New(j, children[0], up)
	}
	nj := *j
	nj.update, nj.firings = up, newBodies(j.firings, children[1:])
	return &nj, nil
}

// updatesJoin says whether n is a multiple-table UPDATE.
func updatesJoin(n sql.Node) bool {
	switch x := n.(type) {
	case *joinTriggers:
		return true
	case *plan.Update:
		return joinOf(x) != nil
	}
	return false
}

// A DELETE that names the tables it deletes from (DELETE t FROM t JOIN
// s ..., DELETE t, s FROM ..., DELETE x FROM t AS x) runs the DELETE
// triggers of each row it deletes. The engine refused such a statement
// outright when one of those tables had a trigger ("delete from with
// explicit target tables does not support triggers"). Before the engine
// binds triggers, the statement goes into a deleteTriggers that shows it
// no children, so the engine binds none; once it has, the triggers of
// each table are bound as for a DELETE of that table alone, and a run
// gives the statement targets (deleteTarget) whose deleters run them.

const hideDeleteTargetsRule analyzer.RuleId = 9983

// deleteTriggers is a DELETE of named tables, with the triggers of the
// tables, keyed by their targets' places.
type deleteTriggers struct {
	del   *plan.DeleteFrom
	bound bool
	tableFirings[int]
}

var _ sql.Node = (*deleteTriggers)(nil)

// hideDeleteTargets puts each DELETE of named tables one of which has
// triggers in a deleteTriggers, out of the engine's sight.
func hideDeleteTargets(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !qFlags.DmlIsSet() {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		del, ok := n.(*plan.DeleteFrom)
		if !ok || !del.HasExplicitTargets() {
			return n, transform.SameTree, nil
		}
		for _, t := range del.GetDeleteTargets() {
			if rt := destinationTable(t); rt != nil && hasTriggers(ctx, rt) {
				return &deleteTriggers{del: del}, transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// bind binds the triggers of the tables of d's targets.
func (d *deleteTriggers) bind(ctx *sql.Context, a *analyzer.Analyzer, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, error) {
	nd := &deleteTriggers{del: d.del, bound: true}
	for i, t := range d.del.GetDeleteTargets() {
		if err := nd.bindTable(ctx, a, i, destinationTable(t), deleteOf, scope, sel, qFlags); err != nil {
			return nil, err
		}
	}
	if len(nd.firings) == 0 {
		return d.del, nil
	}
	return nd, nil
}

// run is the statement to build for one run, its targets' deleters
// running the triggers built by b.
func (d *deleteTriggers) run(b sql.NodeExecBuilder) *plan.DeleteFrom {
	targets := slices.Clone(d.del.GetDeleteTargets())
	for i, set := range d.byTable(b) {
		targets[i] = &deleteTarget{target: targets[i], d: set}
	}
	return d.del.WithExplicitTargets(targets)
}

func (d *deleteTriggers) Resolved() bool     { return d.del.Resolved() && allResolved(d.Children()) }
func (d *deleteTriggers) String() string     { return d.del.String() }
func (d *deleteTriggers) Schema() sql.Schema { return d.del.Schema() }
func (d *deleteTriggers) IsReadOnly() bool   { return false }

func (d *deleteTriggers) Children() []sql.Node {
	if !d.bound {
		return nil
	}
	return withBodies(d.del, d.firings)
}

func (d *deleteTriggers) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != len(d.Children()) {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), len(d.Children()))
	}
	if !d.bound {
		return d, nil
	}
	del, ok := children[0].(*plan.DeleteFrom)
	if !ok {
		return nil, sql.ErrInvalidChildType.New(d, children[0], del)
	}
	nd := *d
	// The engine's DeleteFrom.WithChildren drops the targets.
	nd.del, nd.firings = del.WithExplicitTargets(d.del.GetDeleteTargets()), newBodies(d.firings, children[1:])
	return &nd, nil
}

// deleteTarget is a table a DELETE names, whose deleter runs the
// table's DELETE triggers around each row it deletes, once a row.
type deleteTarget struct {
	target sql.Node
	d      *rowTriggers
}

var (
	_ sql.Node           = (*deleteTarget)(nil)
	_ sql.DeletableTable = (*deleteTarget)(nil)
)

func (t *deleteTarget) deletable() sql.DeletableTable {
	d, err := plan.GetDeletable(t.target)
	if err != nil {
		panic(fmt.Sprintf("sqlext: delete target %s takes no deletes", t.target))
	}
	return d
}

func (t *deleteTarget) Resolved() bool             { return t.target.Resolved() }
func (t *deleteTarget) String() string             { return t.target.String() }
func (t *deleteTarget) Schema() sql.Schema         { return t.target.Schema() }
func (t *deleteTarget) IsReadOnly() bool           { return false }
func (t *deleteTarget) Children() []sql.Node       { return []sql.Node{t.target} }
func (t *deleteTarget) Name() string               { return t.deletable().Name() }
func (t *deleteTarget) Collation() sql.CollationID { return t.deletable().Collation() }

func (t *deleteTarget) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(children), 1)
	}
	return &deleteTarget{target: children[0], d: t.d}, nil
}

func (t *deleteTarget) Partitions(ctx *sql.Context) (sql.PartitionIter, error) {
	return t.deletable().Partitions(ctx)
}

func (t *deleteTarget) PartitionRows(ctx *sql.Context, p sql.Partition) (sql.RowIter, error) {
	return t.deletable().PartitionRows(ctx, p)
}

func (t *deleteTarget) Deleter(ctx *sql.Context) sql.RowDeleter {
	return &triggeredDeleter{RowDeleter: t.deletable().Deleter(ctx), d: t.d, done: map[string]bool{}}
}

// triggeredDeleter runs DELETE triggers around the rows it deletes. A
// join passes a row once for each row of the other tables it matches,
// and a row an outer join made up as all NULL: the triggers run once
// for each row deleted.
type triggeredDeleter struct {
	sql.RowDeleter
	d    *rowTriggers
	done map[string]bool
}

func (e *triggeredDeleter) Delete(ctx *sql.Context, row sql.Row) error {
	if !slices.ContainsFunc(row, func(v any) bool { return v != nil }) {
		return e.RowDeleter.Delete(ctx, row)
	}
	key := rowText(row)
	if e.done[key] {
		return e.RowDeleter.Delete(ctx, row)
	}
	e.done[key] = true
	if _, err := e.d.fire(ctx, plan.DeleteTrigger, plan.BeforeTrigger, row); err != nil {
		return err
	}
	if err := e.RowDeleter.Delete(ctx, row); err != nil {
		return err
	}
	_, err := e.d.fire(ctx, plan.DeleteTrigger, plan.AfterTrigger, row)
	return err
}

// rowText tells rows apart by their values (not by the pointers some
// values, such as DECIMALs, hold).
func rowText(row sql.Row) string {
	var b strings.Builder
	for _, v := range row {
		fmt.Fprintf(&b, "%T:%v\x00", v, v)
	}
	return b.String()
}
