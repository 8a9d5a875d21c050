package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine takes the table an UPDATE writes, whose triggers it binds,
// to be the last table its search of the statement's plan meets. An
// UPDATE that reads another table (`UPDATE t ... WHERE id IN (SELECT id
// FROM s)`, `UPDATE t JOIN s ...`) is planned as a join, which often
// meets the other table last: the engine then looked for triggers of
// that table, and t's triggers silently did not run. Before the engine
// binds triggers, such an UPDATE of one table gets a triggerTarget that
// puts its table last; once they are bound it is taken out again.

const (
	updateTriggerTargetRule analyzer.RuleId = 9986
	dropTriggerTargetRule   analyzer.RuleId = 9985
)

// triggerTarget is child, with target (a node of the table the UPDATE
// writes) met last by the engine's search for that table.
type triggerTarget struct {
	target, child sql.Node
}

var _ sql.Node = (*triggerTarget)(nil)

func (t *triggerTarget) Resolved() bool       { return t.child.Resolved() }
func (t *triggerTarget) String() string       { return t.child.String() }
func (t *triggerTarget) Schema() sql.Schema   { return t.child.Schema() }
func (t *triggerTarget) IsReadOnly() bool     { return t.child.IsReadOnly() }
func (t *triggerTarget) Children() []sql.Node { return []sql.Node{t.child, t.target} }

func (t *triggerTarget) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(children), 2)
	}
	return &triggerTarget{child: children[0], target: children[1]}, nil
}

// nameUpdateTarget puts a triggerTarget under the UpdateSource of an
// UPDATE of one table planned as a join, when another table comes last.
func nameUpdateTarget(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	up, ok := n.(*plan.Update)
	if !ok || scope != nil {
		return n, transform.SameTree, nil
	}
	uj, ok := up.Child.(*plan.UpdateJoin)
	if !ok || len(uj.Updaters) != 1 {
		return n, transform.SameTree, nil
	}
	src, ok := uj.Child.(*plan.UpdateSource)
	if !ok {
		return n, transform.SameTree, nil
	}
	var name string
	for name = range uj.Updaters {
	}
	var last, target sql.Node
	transform.Inspect(src.Child, func(n sql.Node) bool {
		switch x := n.(type) {
		case *plan.ResolvedTable, *plan.IndexedTableAccess:
			last = n
			if target == nil && strings.EqualFold(x.(sql.Nameable).Name(), name) {
				target = n
			}
			return false
		}
		return true
	})
	if target == nil || target == last {
		return n, transform.SameTree, nil
	}
	nsrc, err := src.WithChildren(&triggerTarget{target: target, child: src.Child})
	if err != nil {
		return nil, transform.SameTree, err
	}
	nuj, err := uj.WithChildren(nsrc)
	if err != nil {
		return nil, transform.SameTree, err
	}
	nup, err := up.WithChildren(nuj)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return nup, transform.NewTree, nil
}

// dropTriggerTargets takes the triggerTargets out once triggers are bound.
func dropTriggerTargets(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if t, ok := n.(*triggerTarget); ok {
			return t.child, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}
