package sqlext

import (
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// MySQL stores a number given for a DATE, DATETIME or TIMESTAMP column as
// the date it spells (numberAsDate: 20240116 is 2024-01-16, 240116 too,
// 20240116103005 has a time of day), in INSERT ... VALUES, INSERT ...
// SELECT, UPDATE and ON DUPLICATE KEY UPDATE alike. The engine refused
// every such number with error 1292. temporalStoreRule hands a value
// bound for a temporal column to the engine as the date when it is a
// number that spells one, and as it is otherwise (the engine then reports
// what it cannot store). It runs for every statement (onEveryStatement),
// as the engine plans INSERTs of literal rows and single-table UPDATEs
// with a short list of rules. A value bound for a TIME column is checked
// against TIME's range here too (storedTime).
const temporalStoreRule analyzer.RuleId = 9971

func temporalStores(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ignore, looked := false, false
	return wrapStoredValues(n, func(col string, t sql.Type, e sql.Expression) sql.Expression {
		if isTimeType(t) {
			if !looked {
				ignore, looked = ignoresErrors(n), true
			}
			return newCheckedStore(e, col, ignore, storedTime)
		}
		if !types.IsTime(t) {
			return nil
		}
		// The column is temporal, and not TIME or YEAR, which read
		// numbers their own way. Whether a value is a number is seen as
		// it is stored: an INSERT's projection types the values it reads
		// by their columns, not by what they hold.
		return &numberStoredAsDate{Expression: e, col: t}
	})
}

// wrapStoredValues gives each value n stores in a column (an INSERT's
// VALUES or query, an UPDATE's SET, ON DUPLICATE KEY UPDATE's) the
// expression wrap returns for it and its column, keeping those it
// returns nil for. A column's default and the automatic value, which the
// engine types and evaluates apart, are kept, and so is a value wrapped
// already.
func wrapStoredValues(n sql.Node, wrap func(col string, t sql.Type, e sql.Expression) sql.Expression) (sql.Node, transform.TreeIdentity, error) {
	wrapped := func(col string, t sql.Type, e sql.Expression) sql.Expression {
		inner := e
		if w, ok := e.(*expression.Wrapper); ok {
			inner = w.Unwrap()
		}
		switch inner.(type) {
		case *sql.ColumnDefaultValue, *expression.AutoIncrement, storeWrapper:
			return nil
		}
		return wrap(col, t, e)
	}
	n, same, err := rewriteInsertValues(n, func(col *sql.Column, e sql.Expression) (sql.Expression, bool, error) {
		w := wrapped(col.Name, col.Type, e)
		return w, w != nil, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	// UPDATE's SET and INSERT's ON DUPLICATE KEY UPDATE assign through
	// SetField.
	out, esame, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		sf, ok := e.(*expression.SetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		name := sf.Left().String()
		if gf, ok := sf.Left().(*expression.GetField); ok {
			name = gf.Name()
		}
		w := wrapped(name, sf.Left().Type(), sf.Right())
		if w == nil {
			return e, transform.SameTree, nil
		}
		return expression.NewSetField(sf.Left(), w), transform.NewTree, nil
	})
	if esame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// storeWrapper is an expression wrapStoredValues put in place, which it
// leaves as it is when a statement is planned again.
type storeWrapper interface{ storeWrapper() }

func (*numberStoredAsDate) storeWrapper() {}
func (*checkedStore) storeWrapper()       {}

// checkedStore is a value bound for column col that check sees before
// it is stored, with the row it is evaluated for (the statement's rows
// so far, the row MySQL's messages name) and whether the statement
// ignores errors (INSERT or UPDATE IGNORE).
type checkedStore struct {
	sql.Expression
	col    string
	ignore bool
	rows   *atomic.Int64
	check  func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error)
}

func newCheckedStore(e sql.Expression, col string, ignore bool, check func(ctx *sql.Context, v any, col string, row int64, ignore bool) (any, error)) *checkedStore {
	return &checkedStore{Expression: e, col: col, ignore: ignore, rows: new(atomic.Int64), check: check}
}

func (c *checkedStore) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.Expression.Eval(ctx, row)
	n := c.rows.Add(1)
	if err != nil {
		return nil, err
	}
	return c.check(ctx, v, c.col, n, c.ignore)
}

func (c *checkedStore) Children() []sql.Expression { return []sql.Expression{c.Expression} }

func (c *checkedStore) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	d := *c
	d.Expression = children[0]
	return &d, nil
}

// numberStoredAsDate is a value bound for a temporal column col: the date
// a number spells, or the value as it is. Text in the plain layout of a
// DATE or DATETIME is read here too (plainDate), which is quicker than
// the engine's parse and gives the same time.
type numberStoredAsDate struct {
	sql.Expression
	col sql.Type
}

func (n *numberStoredAsDate) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := n.Expression.Eval(ctx, row)
	if s, ok := v.(string); ok && err == nil {
		if t, ok := plainDate(n.col, s); ok {
			return t, nil
		}
	}
	if err != nil || !isNumber(v) {
		return v, err
	}
	if x, ok := v.(int64); ok && x == 0 {
		return v, nil // the zero date, which the engine reads itself
	}
	if t, ok := numberAsDate(ctx, v); ok {
		return t, nil
	}
	return v, nil
}

func (n *numberStoredAsDate) Children() []sql.Expression { return []sql.Expression{n.Expression} }

func (n *numberStoredAsDate) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	return &numberStoredAsDate{Expression: children[0], col: n.col}, nil
}
