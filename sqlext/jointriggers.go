package sqlext

import (
	"maps"
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
	update  *plan.Update
	tables  []string // of each firing
	firings []firing
}

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
		rt := joinedTable(src.Child, name)
		if rt == nil || !hasTriggers(ctx, rt) {
			continue
		}
		d := &rowTriggers{}
		if err := d.bind(ctx, a, plan.NewUpdate(rt, false, nil), scope, sel, qFlags); err != nil {
			return nil, err
		}
		for _, f := range d.firings {
			j.tables = append(j.tables, name)
			j.firings = append(j.firings, f)
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
	sets := map[string]*rowTriggers{}
	for i, f := range j.firings {
		name := j.tables[i]
		d := sets[name]
		if d == nil {
			d = &rowTriggers{b: b}
			sets[name] = d
			updaters[name] = &triggeredUpdater{RowUpdater: updaters[name], d: d}
		}
		d.firings = append(d.firings, f)
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
