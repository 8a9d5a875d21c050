package sqlext

import (
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// erWindowInvalidUse is MySQL's ER_WINDOW_INVALID_WINDOW_FUNC_USE.
const erWindowInvalidUse = 3593

// misplacedWindow refuses a window function where MySQL computes none:
// in WHERE, GROUP BY, HAVING or a join's ON (they are evaluated before
// windows are), and as an argument of an aggregate or of another window
// function. MySQL answers 3593 naming the function; the engine answered
// 1140 with its message's blanks unfilled, or failed with an internal
// error. A subquery is a query of its own and is not looked into. Only
// a statement whose text says OVER has a window function (the caller's
// check).
func misplacedWindow(st ast.Statement) error {
	var found string
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if found != "" {
			return false, nil
		}
		switch n := node.(type) {
		case *ast.Select:
			for _, clause := range []ast.SQLNode{n.Where, n.Having, n.GroupBy} {
				if found = windowIn(clause); found != "" {
					return false, nil
				}
			}
		case *ast.JoinTableExpr:
			found = windowIn(n.Condition.On)
		case *ast.FuncExpr:
			if n.Over != nil || n.IsAggregate() {
				found = windowIn(n.Exprs)
			}
		case *ast.GroupConcatExpr:
			found = windowIn(n.Exprs)
		}
		return found == "", nil
	}, st)
	if found == "" {
		return nil
	}
	return mysql.NewSQLError(erWindowInvalidUse, "HY000", "You cannot use the window function '%s' in this context.'", found)
}

// windowIn is the name of the first window function in n outside its
// subqueries, or "".
func windowIn(n ast.SQLNode) string {
	if n == nil {
		return ""
	}
	var name string
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch x := node.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if x.Over != nil {
				name = x.Name.Lowered()
			}
		}
		return name == "", nil
	}, n)
	return name
}
