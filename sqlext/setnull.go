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
// NOT NULL column; it runs for every statement (onEveryStatement). A
// table with triggers is the exception, in strict mode: MySQL lets the
// column hold NULL until its BEFORE triggers have run, which may set it,
// and checks the row then (as the engine does), so that a later
// assignment's error (1406, data too long) comes first.
const setNullRule analyzer.RuleId = 9957

func setNulls(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ignore, triggered, looked := false, false, false
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
			ignore, triggered, looked = ignoresErrors(n), writesTriggeredTable(ctx, n), true
		}
		deferred := triggered
		column := &sql.Column{Name: gf.Name(), Type: gf.Type()}
		check := newCheckedStore(sf.Right(), gf.Name(), ignore, func(ctx *sql.Context, v any, col string, _ int64, ignore bool) (any, error) {
			if v != nil {
				return v, nil
			}
			if !ignore && strictMode(ctx) {
				if deferred {
					return nil, nil // checked after the triggers
				}
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

// writesTriggeredTable says whether the statement n updates, or inserts
// into, a table that may have triggers (mayTrigger).
func writesTriggeredTable(ctx *sql.Context, n sql.Node) bool {
	var t *Table
	transform.Inspect(n, func(node sql.Node) bool {
		switch x := node.(type) {
		case *plan.Update:
			t = writtenTable(x.Child)
		case *plan.InsertInto:
			t = writtenTable(x.Destination)
		default:
			return t == nil
		}
		return false
	})
	return t != nil && mayTrigger(ctx, t)
}
