package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// MySQL compares text IN a list member by member, each pair by the
// comparison rules of its own types: 'abc' IN ('x', 0) compares 'abc'
// with 0 as numbers, and is 1. The engine compared every member as text
// when the list mixed text and numbers, and answered 0. mixedInRule
// writes such an IN as the equalities it stands for, OR-ed, which have
// IN's answer, NULLs included (NOT IN is their negation). It runs before
// the engine's rules for every statement, ahead of the one that hashes
// lists of constants and of numericTextRule, which reads the text of
// such equalities as MySQL does ('1abc' = 1).
const mixedInRule analyzer.RuleId = 9967

func mixedInLists(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		in, ok := e.(*expression.InTuple)
		if !ok || !types.IsText(in.Left().Type()) {
			return e, transform.SameTree, nil
		}
		list, ok := in.Right().(expression.Tuple)
		if !ok || !mixesTextAndNumbers(list) {
			return e, transform.SameTree, nil
		}
		eqs := make([]sql.Expression, len(list))
		for i, m := range list {
			eqs[i] = expression.NewEquals(in.Left(), m)
		}
		return expression.JoinOr(eqs...), transform.NewTree, nil
	})
}

// mixesTextAndNumbers reports whether list holds both a text member and
// a numeric one.
func mixesTextAndNumbers(list expression.Tuple) bool {
	text, number := false, false
	for _, m := range list {
		t := m.Type()
		text = text || types.IsText(t)
		number = number || types.IsNumber(t)
	}
	return text && number
}
