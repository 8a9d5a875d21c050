package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// SELECT DISTINCT i IS NULL FROM t ORDER BY 1 (or ORDER BY i IS NULL)
// sorts the distinct rows by a selected expression. The engine plans the
// sort above the DISTINCT with the expression itself, which reads the
// table's columns from rows that hold only the selected ones: "unable to
// find field with index 2 in row of 1 columns". distinctOrderRule makes
// such a sort read the selected column instead, as MySQL does.
//
// It runs for every statement (onEveryStatement), after the engine has
// numbered the columns each expression reads.
const distinctOrderRule analyzer.RuleId = 9981

func distinctOrders(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		var child sql.Node
		first := 0 // the first sort field among the node's expressions
		switch s := node.(type) {
		case *plan.Sort:
			child = s.Child
		case *plan.TopN:
			child, first = s.Child, 1 // after the limit
		default:
			return node, transform.SameTree, nil
		}
		d, ok := child.(*plan.Distinct)
		if !ok {
			return node, transform.SameTree, nil
		}
		p, ok := d.Child.(*plan.Project)
		if !ok {
			return node, transform.SameTree, nil
		}
		selected := map[string]int{}
		for i, e := range p.Projections {
			selected[e.String()] = i
		}
		exprs := node.(sql.Expressioner).Expressions()
		changed := false
		for i, e := range exprs[first:] {
			if _, ok := e.(*expression.GetField); ok {
				continue
			}
			at, ok := selected[e.String()]
			if !ok {
				continue
			}
			exprs[first+i] = expression.NewGetField(at, e.Type(), e.String(), e.IsNullable())
			changed = true
		}
		if !changed {
			return node, transform.SameTree, nil
		}
		out, err := node.(sql.Expressioner).WithExpressions(exprs...)
		return out, transform.NewTree, err
	})
}
