package sqlext

import (
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine's simplifyFilters evaluates once, while planning, every part
// of a WHERE that reads no column, and keeps the value: RAND() < 0.5
// became a constant, so SELECT ... WHERE RAND() < 0.5, MySQL's way of
// sampling about half the rows, gave all rows or none, and a UUID()
// compared in a WHERE was one value for every row. MySQL evaluates such
// a function again for every row (RAND(), UUID(), UUID_SHORT(),
// RANDOM_BYTES(), SYSDATE(), SLEEP()); functions whose value is fixed
// for the statement, such as NOW(), stay folded, so that a range on
// them still uses an index.
//
// perRowKept hides each call of such a function in the statement's
// filters behind a placeholder the rule leaves alone (a bind variable),
// runs the rule, and puts the calls back.

// perRowFunctions are the functions MySQL evaluates at each call.
var perRowFunctions = map[string]bool{
	"rand": true, "uuid": true, "uuid_short": true, "random_bytes": true, "sysdate": true, "sleep": true,
}

// perRowPrefix names the placeholders.
const perRowPrefix = "sqlearn_per_row_"

// perRowKept is rule with the per-row function calls of n's filters kept
// from it.
func perRowKept(rule analyzer.RuleFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		var hidden []sql.Expression
		hide := func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			if !perRowCall(e) {
				return e, transform.SameTree, nil
			}
			hidden = append(hidden, e)
			return &expression.BindVar{Name: perRowPrefix + strconv.Itoa(len(hidden)-1), Typ: e.Type()}, transform.NewTree, nil
		}
		masked, _, err := transform.NodeWithOpaque(n, filterExprs(hide))
		if err != nil || len(hidden) == 0 {
			return rule(ctx, a, n, scope, sel, qFlags)
		}
		out, _, err := rule(ctx, a, masked, scope, sel, qFlags)
		if err != nil {
			return n, transform.SameTree, err
		}
		restored, _, err := transform.NodeExprsWithOpaque(out, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			bv, ok := e.(*expression.BindVar)
			if !ok || !strings.HasPrefix(bv.Name, perRowPrefix) {
				return e, transform.SameTree, nil
			}
			i, err := strconv.Atoi(strings.TrimPrefix(bv.Name, perRowPrefix))
			if err != nil || i >= len(hidden) {
				return e, transform.SameTree, nil
			}
			return hidden[i], transform.NewTree, nil
		})
		if err != nil {
			return n, transform.SameTree, err
		}
		return restored, transform.NewTree, nil
	}
}

// perRowCall says whether e calls a function MySQL evaluates at each
// call: RAND() with no seed, UUID(), and the others of perRowFunctions.
func perRowCall(e sql.Expression) bool {
	f, ok := e.(sql.FunctionExpression)
	if !ok || !perRowFunctions[strings.ToLower(f.FunctionName())] {
		return false
	}
	if nd, ok := e.(sql.NonDeterministicExpression); ok && !nd.IsNonDeterministic() {
		return false // RAND(seed)
	}
	return true
}

// The engine keeps the value of a scalar subquery that reads nothing of
// the outer row, and marks no such subquery as one to run again when it
// calls a function of perRowFunctions or a stored function: SELECT
// (SELECT RAND()) FROM t gave one value for every row, where MySQL runs
// the subquery for each row. volatileSubqueries marks such a subquery so
// that it runs for each row; a subquery reading only functions fixed
// for the statement, such as NOW(), keeps its value.
const volatileSubqueryRule analyzer.RuleId = 9986

func init() { onEveryStatement(volatileSubqueryRule, volatileSubqueries) }

func volatileSubqueries(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qFlags != nil && !qFlags.SubqueryIsSet() {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprsWithOpaque(n, markVolatile)
}

// markVolatile marks e, and the subqueries within its subqueries'
// bodies, volatile when they call a function whose value changes by the
// call.
func markVolatile(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	sq, ok := e.(*plan.Subquery)
	if !ok {
		return e, transform.SameTree, nil
	}
	same := transform.SameTree
	if q, s, err := transform.NodeExprsWithOpaque(sq.Query, markVolatile); err == nil && !s {
		sq, same = sq.WithQuery(q), transform.NewTree
	}
	if sq.Volatile() || !callsPerRow(sq.Query) {
		return sq, same, nil
	}
	return sq.WithVolatile(), transform.NewTree, nil
}

// callsPerRow says whether n's expressions call a function whose value
// changes by the call (perRowCall), or a stored function, whose body
// may read or write anything.
func callsPerRow(n sql.Node) bool {
	found := false
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *storedFuncCall:
			found = true
		case *plan.Subquery:
			found = found || x.Volatile()
		default:
			found = found || perRowCall(e)
		}
		return !found
	})
	return found
}
