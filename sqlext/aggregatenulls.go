package sqlext

import (
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// MySQL describes a column of MIN, MAX, SUM or GROUP_CONCAT (any
// aggregate but COUNT) as one that may be NULL: over no rows it is NULL,
// whatever its argument. The engine described them NOT NULL, so a client
// that reads the column flags (JDBC's isNullable, an ORM mapping a result
// to a type) took them for values never missing. aggregateNullsRule marks
// the query's result columns that read such an aggregate, or an
// expression of one that the engine holds NULL when it is (MAX(a) + 1),
// as nullable, by rewriting the reads of the aggregate in the query's
// last projection. There it also describes COALESCE and IFNULL as MySQL
// does, NOT NULL when an argument is (COALESCE(MAX(a), 0)), where the
// engine looked at their first argument alone. It runs for every
// statement (onEveryStatement).
const aggregateNullsRule analyzer.RuleId = 9953

func aggregateNulls(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !scope.IsEmpty() {
		return n, transform.SameTree, nil
	}
	return nullableResult(n)
}

// nullableResult is n with the reads of nullable aggregates in its result
// projection marked nullable: the first projection under the nodes that
// pass a query's rows on as they are.
func nullableResult(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.Limit, *plan.Offset, *plan.Sort, *plan.TopN, *plan.Distinct, *plan.OrderedDistinct, *plan.Having, *plan.Filter:
		children := x.Children()
		if len(children) != 1 {
			return n, transform.SameTree, nil
		}
		child, same, err := nullableResult(children[0])
		if err != nil || same == transform.SameTree {
			return n, transform.SameTree, err
		}
		out, err := n.WithChildren(child)
		return out, transform.NewTree, err
	case *plan.Project:
		ids := nullableAggregateIds(x.Child)
		at := nullableAggregatesAt(x.Child)
		exprs := make([]sql.Expression, len(x.Projections))
		same := transform.SameTree
		for i, e := range x.Projections {
			ne, s, err := transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				if e.IsNullable() && firstNonNull[functionName(e)] &&
					slices.ContainsFunc(e.Children(), func(c sql.Expression) bool { return !c.IsNullable() }) {
					return &notNull{Expression: e}, transform.NewTree, nil
				}
				gf, ok := e.(*expression.GetField)
				if !ok || gf.IsNullable() || !ids[gf.Id()] && !(gf.Index() >= 0 && gf.Index() < len(at) && at[gf.Index()]) {
					return e, transform.SameTree, nil
				}
				nullable := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), gf.Type(), gf.Database(), gf.Table(), gf.Name(), true)
				return nullable.WithId(gf.Id()).(sql.Expression), transform.NewTree, nil
			})
			if err != nil {
				return nil, transform.SameTree, err
			}
			exprs[i] = ne
			if s == transform.NewTree {
				same = transform.NewTree
			}
		}
		if same == transform.SameTree {
			return n, same, nil
		}
		out, err := x.WithExpressions(exprs...)
		return out, transform.NewTree, err
	}
	return n, transform.SameTree, nil
}

// firstNonNull are the functions whose result is NULL only when every
// argument is: the engine describes them by their first argument alone.
var firstNonNull = map[string]bool{"coalesce": true, "ifnull": true}

// notNull is an expression described as NOT NULL, which the engine
// describes otherwise.
type notNull struct{ sql.Expression }

func (n *notNull) IsNullable() bool           { return false }
func (n *notNull) Children() []sql.Expression { return []sql.Expression{n.Expression} }
func (n *notNull) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return withOneChild(n, children, func(e sql.Expression) sql.Expression { return &notNull{Expression: e} })
}

func (n *notNull) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, n.Expression)
}

// nullableAggregateIds are the column ids by which a projection above n
// reads an aggregate of n's grouping or window that may be NULL
// (nullableAggregate), or a column of a derived table or view that is
// one (aggregateOutputs).
func nullableAggregateIds(n sql.Node) map[sql.ColumnId]bool {
	ids := map[sql.ColumnId]bool{}
	add := func(exprs []sql.Expression) {
		for _, e := range exprs {
			if id, ok := nullableAggregate(e); ok {
				ids[id] = true
				if a, ok := e.(*expression.Alias); ok {
					ids[a.Id()] = true
				}
			}
		}
	}
	transform.Inspect(n, func(n sql.Node) bool {
		switch x := n.(type) {
		case *plan.GroupBy:
			add(x.SelectedExprs)
		case *plan.Window:
			add(x.SelectExprs)
		case *plan.SubqueryAlias:
			// A derived table or a view: its columns by their ids,
			// one for each column of its query's result, in order.
			outs := aggregateOutputs(x.Child)
			i := 0
			x.Columns().ForEach(func(id sql.ColumnId) {
				if i < len(outs) && outs[i] && x.Columns().Len() == len(outs) {
					ids[id] = true
				}
				i++
			})
			return false
		}
		return true
	})
	return ids
}

// nullableAggregatesAt says of each column of n, when n is a grouping or
// a window under nodes that pass its rows on as they are, whether it is
// an aggregate that may be NULL: a projection reads it by that position
// also where a rule rewrote the aggregate under another id.
func nullableAggregatesAt(n sql.Node) []bool {
	for {
		switch x := n.(type) {
		case *plan.Sort, *plan.Having, *plan.Filter, *plan.Limit, *plan.TopN:
			n = x.Children()[0]
			continue
		case *plan.GroupBy:
			return aggregatesMayBeNull(x.SelectedExprs)
		case *plan.Window:
			return aggregatesMayBeNull(x.SelectExprs)
		}
		return nil
	}
}

func aggregatesMayBeNull(exprs []sql.Expression) []bool {
	out := make([]bool, len(exprs))
	for i, e := range exprs {
		_, out[i] = nullableAggregate(e)
	}
	return out
}
