package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// MySQL stores NULL assigned to a NOT NULL column by UPDATE or ON
// DUPLICATE KEY UPDATE as the column's implicit default (0, ”), with
// warning 1048, under IGNORE or outside strict mode, and refuses it with
// 1048 in strict mode; it does so as it assigns, so UPDATE IGNORE t SET a
// = NULL, a = a + 1 stores 1. The engine checked an UPDATE's row only
// once every assignment was made (a + 1 of NULL is NULL, stored as 0),
// skipped the row under IGNORE, and did not check ON DUPLICATE KEY
// UPDATE's at all. setNullRule puts that check on every assignment to a
// NOT NULL column; it runs for every statement (onEveryStatement).
const setNullRule analyzer.RuleId = 9957

func setNulls(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ignore, looked := false, false
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sf, ok := e.(*expression.SetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		gf, ok := sf.Left().(*expression.GetField)
		if _, done := sf.Right().(*notNullStore); !ok || gf.IsNullable() || done {
			return e, transform.SameTree, nil
		}
		if !looked {
			ignore, looked = ignoresErrors(n), true
		}
		column := &sql.Column{Name: gf.Name(), Type: gf.Type()}
		check := newCheckedStore(sf.Right(), gf.Name(), ignore, func(ctx *sql.Context, v any, col string, _ int64, ignore bool) (any, error) {
			if v != nil {
				return v, nil
			}
			if !ignore && strictMode(ctx) {
				return nil, mysql.NewSQLError(mysql.ERBadNullError, "23000", "Column '%s' cannot be null", col)
			}
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERBadNullError, Message: fmt.Sprintf("Column '%s' cannot be null", col)})
			return implicitDefault(column, false)
		})
		return expression.NewSetField(sf.Left(), &notNullStore{check}), transform.NewTree, nil
	})
}

// notNullStore is a value assigned to a NOT NULL column, checked by
// setNulls.
type notNullStore struct{ *checkedStore }

func (s *notNullStore) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := s.checkedStore.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &notNullStore{c.(*checkedStore)}, nil
}
