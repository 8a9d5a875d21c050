package sqlext

import (
	"io"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// Each run of a correlated subquery, the engine copies its plan to put
// the outer row before every row source (plan.PrependRowInPlan), and
// works out the plan's schema again, names of subqueries included, only
// to learn how many columns it has. Over 20,000 runs of a subquery that
// reads a few rows by an index, that was a fifth of the subquery's time
// (a CPU profile: transform.Node 11 %, Project.Schema 9 %).
//
// subqueryRun runs a memoized subquery's misses from a plan copied once,
// whose prepend nodes take each run's outer row, when the plan is made
// only of nodes that keep nothing between runs (runReusable); the
// engine's own run otherwise, and when another run of the same plan is
// under way.
type subqueryRun struct {
	b     sql.NodeExecBuilder
	width int // the subquery's columns

	mu       sync.Mutex
	built    bool
	plan     sql.Node // nil when the plan cannot be reused
	prepends []*plan.PrependNode
}

// eval is the subquery's value for the outer row.
func (m *memoSubquery) eval(ctx *sql.Context, row sql.Row) (any, error) {
	r := m.run
	if r == nil || r.b == nil || !r.mu.TryLock() {
		return m.Subquery.Eval(ctx, row)
	}
	defer r.mu.Unlock()
	if !r.built {
		r.built = true
		r.plan, r.prepends = reusableRun(m.Query)
	}
	if r.plan == nil {
		return m.Subquery.Eval(ctx, row)
	}
	for _, p := range r.prepends {
		p.Row = row
	}
	iter, err := r.b.Build(ctx, r.plan, row)
	if err != nil {
		return nil, err
	}
	var first any
	n := 0
	for {
		out, err := iter.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			iter.Close(ctx)
			return nil, err
		}
		if n++; n > 1 {
			iter.Close(ctx)
			return nil, sql.ErrExpectedSingleRow.New()
		}
		if r.width > 1 {
			first = append([]any{}, out[len(row):]...)
		} else {
			first = out[len(row)]
		}
	}
	return first, iter.Close(ctx)
}

// reusableRun is q with the outer row's prepend nodes in place, to be
// given each run's row, and those nodes; nil when q has a node that may
// keep something from one run to the next.
func reusableRun(q sql.Node) (sql.Node, []*plan.PrependNode) {
	ok := true
	transform.Inspect(q, func(n sql.Node) bool {
		switch n.(type) {
		case nil, *plan.Project, *plan.GroupBy, *plan.Filter, *plan.Limit, *plan.Sort, *plan.TopN,
			*plan.Having, *plan.TableAlias, *plan.ResolvedTable, *plan.IndexedTableAccess:
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return nil, nil
	}
	prepared, _, err := transform.Node(q, plan.PrependRowInPlan(sql.Row{}, false))
	if err != nil {
		return nil, nil
	}
	var prepends []*plan.PrependNode
	transform.Inspect(prepared, func(n sql.Node) bool {
		if p, ok := n.(*plan.PrependNode); ok {
			prepends = append(prepends, p)
		}
		return true
	})
	return prepared, prepends
}
