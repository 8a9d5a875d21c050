package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine plans a SELECT whose list names a scalar subquery, as in
// SELECT id, (SELECT ...) AS m FROM t, as two projections, the first of
// which computes the list (a sort or a limit may come between them), and
// the second held the first's expressions themselves, not references to
// the columns it computed. Each such expression ran twice
// per row: the subquery, which doubled the query's time
// (BenchmarkAliasedSubquery, docs/benchmarks.md), and RAND(N),
// whose sequence moved on twice per row. projectOnce gives the second
// projection references to the first's columns in their place, which the
// nodes between pass on unchanged.
//
// It runs after every other rule but the memo of subqueries
// (lastRules), and only in the pass that numbers the columns of the
// whole plan (numbersColumns), so that none numbers them again after
// it.
const projectOnceRule analyzer.RuleId = 9985

func projectOnce(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if (qFlags != nil && !qFlags.SubqueryIsSet()) || !numbersColumns(scope, sel) {
		return n, transform.SameTree, nil
	}
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		outer, ok := n.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		inner := projectUnder(outer.Child)
		if inner == nil {
			return n, transform.SameTree, nil
		}
		var exprs []sql.Expression
		for i, e := range outer.Projections {
			j := sharedProjection(inner.Projections, e)
			if j < 0 {
				continue
			}
			if exprs == nil {
				exprs = append([]sql.Expression(nil), outer.Projections...)
			}
			exprs[i] = columnOf(inner, j, e)
		}
		if exprs == nil {
			return n, transform.SameTree, nil
		}
		return plan.NewProject(exprs, outer.Child), transform.NewTree, nil
	})
}

// projectUnder is the projection whose rows n passes on unchanged, in
// their order or not, or nil.
func projectUnder(n sql.Node) *plan.Project {
	for {
		switch x := n.(type) {
		case *plan.Project:
			return x
		case *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset, *plan.Filter, *plan.Having, *plan.Distinct, *plan.OrderedDistinct:
			n = x.Children()[0]
		default:
			return nil
		}
	}
}

// sharedProjection is the position in projections of e, the same
// expression or alias (sameAlias), when e is worth computing once: it holds a subquery or a call whose
// value changes by the call; -1 otherwise.
func sharedProjection(projections []sql.Expression, e sql.Expression) int {
	if !transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *plan.Subquery:
			return true
		case sql.NonDeterministicExpression:
			return x.IsNonDeterministic()
		}
		return false
	}) {
		return -1
	}
	for j, p := range projections {
		if p == e || sameAlias(p, e) {
			return j
		}
	}
	return -1
}

// sameAlias says whether a and b are one column of the list: aliases of
// one id, or of no id, one name and one expression.
func sameAlias(a, b sql.Expression) bool {
	x, ok := a.(*expression.Alias)
	y, ok2 := b.(*expression.Alias)
	if !ok || !ok2 {
		return false
	}
	if x.Id() != 0 || y.Id() != 0 {
		return x.Id() == y.Id()
	}
	return x.Name() == y.Name() && x.Child.String() == y.Child.String()
}

// columnOf reads column j of the projection inner in place of e, under
// e's name.
func columnOf(inner *plan.Project, j int, e sql.Expression) sql.Expression {
	col := inner.Schema()[j]
	gf := expression.NewGetFieldWithTable(j, 0, col.Type, col.DatabaseSource, col.Source, col.Name, col.Nullable)
	if a, ok := e.(*expression.Alias); ok {
		if w, err := a.WithChildren(gf); err == nil {
			return w
		}
	}
	return gf
}
