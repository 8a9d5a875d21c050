package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// MySQL compares rows member by member: (a, b) = (x, y) is a = x AND
// b = y, (a, b) < (x, y) is a < x OR (a = x AND b < y), and (a, b) IN
// ((x, y), ...) the equalities OR-ed, so a NULL member makes the answer
// NULL unless another member decides it. The engine compared the rows
// whole: (3, NULL) = (3, NULL) was 1, (1, NULL) <> (1, 2) failed ("value
// not nil"), and a semi join on (a, b) IN (SELECT x, y ...) matched rows
// whose b and y were both NULL. rowComparisonRule writes such
// comparisons member by member; it runs before the engine's rules for
// every statement, and again on each join's condition just before the
// joins are planned (beforeJoinPlanning), as the engine writes the
// condition of a semi join from an IN subquery itself.
const rowComparisonRule analyzer.RuleId = 9968

func rowComparisons(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, memberwise)
}

// memberwise is e, a comparison of two rows of as many members, written
// member by member, or e itself.
func memberwise(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch c := e.(type) {
	case *expression.Equals:
		if l, r, ok := rows(c.Left(), c.Right()); ok {
			return rowsEqual(l, r), transform.NewTree, nil
		}
	case *expression.LessThan:
		if l, r, ok := rows(c.Left(), c.Right()); ok {
			return rowsOrdered(l, r, lessThan, lessThan), transform.NewTree, nil
		}
	case *expression.LessThanOrEqual:
		if l, r, ok := rows(c.Left(), c.Right()); ok {
			return rowsOrdered(l, r, lessThan, func(a, b sql.Expression) sql.Expression { return expression.NewLessThanOrEqual(a, b) }), transform.NewTree, nil
		}
	case *expression.GreaterThan:
		if l, r, ok := rows(c.Left(), c.Right()); ok {
			return rowsOrdered(l, r, greaterThan, greaterThan), transform.NewTree, nil
		}
	case *expression.GreaterThanOrEqual:
		if l, r, ok := rows(c.Left(), c.Right()); ok {
			return rowsOrdered(l, r, greaterThan, func(a, b sql.Expression) sql.Expression { return expression.NewGreaterThanOrEqual(a, b) }), transform.NewTree, nil
		}
	case *expression.InTuple:
		left, ok := c.Left().(expression.Tuple)
		list, lok := c.Right().(expression.Tuple)
		if !ok || !lok || len(left) < 2 {
			return e, transform.SameTree, nil
		}
		eqs := make([]sql.Expression, len(list))
		for i, m := range list {
			r, ok := m.(expression.Tuple)
			if !ok || len(r) != len(left) {
				return e, transform.SameTree, nil
			}
			eqs[i] = rowsEqual(left, r)
		}
		return expression.JoinOr(eqs...), transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// rows is l and r as rows of as many members, two or more, and whether
// they are.
func rows(l, r sql.Expression) (expression.Tuple, expression.Tuple, bool) {
	lt, lok := l.(expression.Tuple)
	rt, rok := r.(expression.Tuple)
	return lt, rt, lok && rok && len(lt) == len(rt) && len(lt) > 1
}

func rowsEqual(l, r expression.Tuple) sql.Expression {
	eqs := make([]sql.Expression, len(l))
	for i := range l {
		eqs[i] = expression.NewEquals(l[i], r[i])
	}
	return expression.JoinAnd(eqs...)
}

func lessThan(a, b sql.Expression) sql.Expression    { return expression.NewLessThan(a, b) }
func greaterThan(a, b sql.Expression) sql.Expression { return expression.NewGreaterThan(a, b) }

// rowsOrdered is l compared with r by their first member that differs:
// strictly (strict) in a member before the last, or equal there and the
// rest in order, the last member compared by last.
func rowsOrdered(l, r expression.Tuple, strict, last func(a, b sql.Expression) sql.Expression) sql.Expression {
	n := len(l) - 1
	out := last(l[n], r[n])
	for i := n - 1; i >= 0; i-- {
		out = expression.NewOr(strict(l[i], r[i]), expression.NewAnd(expression.NewEquals(l[i], r[i]), out))
	}
	return out
}
