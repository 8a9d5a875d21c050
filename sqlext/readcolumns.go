package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// readColumnsRule tells each table of a query which of its columns the
// query reads, so that its scans and index lookups box only those and a
// lookup whose index holds all of them reads no row at all
// (storage.LookupColumns):
// a join or semi join on keys, such as a.id = b.aid, then reads b's index
// on aid alone. The engine's own pruning (sql.ProjectedTable) stops at
// the first join the planner has placed, which is where it would count.
//
// The rule is conservative. It looks only at queries whose every node is
// one it knows; a table's rows must reach a projection (Project,
// GroupBy, Window) through nodes that pass rows on whole (filters,
// joins, sorts, limits) for any column to be left out, since a node such
// as DISTINCT or UNION compares whole rows; and a column counts as read
// when any expression of the query, subqueries included, names it under
// the table's name (or under no table name).
const readColumnsRule analyzer.RuleId = 9969

func init() { onEveryStatement(readColumnsRule, readColumns) }

func readColumns(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	w := columnWalk{read: map[string]map[string]bool{}, whole: map[*Table]bool{}, known: true}
	w.node(n, false, "")
	if len(w.uses) == 0 {
		return n, transform.SameTree, nil
	}
	for _, u := range w.uses {
		if !w.known || !u.projected {
			w.whole[u.t] = true
		}
	}
	need := map[*Table][]bool{}
	for _, u := range w.uses {
		if w.whole[u.t] {
			u.t.read = nil
			continue
		}
		cols := need[u.t]
		if cols == nil {
			cols = make([]bool, len(u.t.sch.Schema))
			need[u.t] = cols
		}
		for i, c := range u.t.sch.Schema {
			name := strings.ToLower(c.Name)
			cols[i] = cols[i] || w.read[u.name][name] || w.read[""][name]
		}
		u.t.read = cols
	}
	return n, transform.SameTree, nil
}

// tableUse is one place a query reads a table: the name the query knows
// it by and whether its rows reach a projection.
type tableUse struct {
	t         *Table
	name      string
	projected bool
}

type columnWalk struct {
	read  map[string]map[string]bool // table name (lower case) -> columns named
	uses  []tableUse
	whole map[*Table]bool
	// known is false once a node the walk does not know is met: the
	// query's tables are then read whole.
	known bool
}

func (w *columnWalk) node(n sql.Node, projected bool, alias string) {
	if n == nil {
		return
	}
	if ex, ok := n.(sql.Expressioner); ok {
		for _, e := range ex.Expressions() {
			w.expr(e)
		}
	}
	switch n := n.(type) {
	case *plan.ResolvedTable:
		w.table(n.Table, projected, alias, n.Name())
		return
	case *plan.IndexedTableAccess:
		w.table(n.Table, projected, alias, n.Name())
		w.table(n.TableNode.UnderlyingTable(), projected, alias, n.Name())
		return
	case *plan.TableAlias:
		w.node(n.Child, projected, n.Name())
		return
	case *plan.Project, *plan.GroupBy, *plan.Window:
		projected = true
	case *plan.Filter, *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset, *plan.JoinNode,
		*plan.HashLookup, *plan.CachedResults, *plan.StripRowNode, *plan.Having,
		*plan.Max1Row:
	case *plan.Distinct, *plan.OrderedDistinct, *plan.SetOp, *plan.SubqueryAlias:
		projected = false
	default:
		w.known = false
		return
	}
	for _, c := range n.Children() {
		w.node(c, projected, "")
	}
}

func (w *columnWalk) table(t sql.Table, projected bool, alias, name string) {
	for {
		if _, ok := t.(*plan.VirtualColumnTable); ok {
			// Generated columns are computed from others the query
			// need not name.
			w.known = false
			return
		}
		wrapped, ok := t.(sql.TableWrapper)
		if !ok {
			break
		}
		t = wrapped.Underlying()
	}
	if t, ok := t.(*Table); ok {
		if alias != "" {
			name = alias
		}
		w.uses = append(w.uses, tableUse{t: t, name: strings.ToLower(name), projected: projected})
	}
}

func (w *columnWalk) expr(e sql.Expression) {
	transform.InspectExpr(e, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *expression.GetField:
			table := strings.ToLower(e.Table())
			if w.read[table] == nil {
				w.read[table] = map[string]bool{}
			}
			w.read[table][strings.ToLower(e.Name())] = true
		case *plan.Subquery:
			w.node(e.Query, false, "")
		}
		return false
	})
}
