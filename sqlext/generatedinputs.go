package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// An INSERT computes a generated column, and an expression default, from
// the other columns of the row being inserted. MySQL computes it from
// their values as stored, converted to their columns' types; the engine
// computes it from the values as given, before they are converted. So
// with p DOUBLE, INSERT ... (p) VALUES ('3.250') made CONCAT(p) '3.250'
// instead of '3.25', and JSON_OBJECT('a', p) {"a": "3.250"}, a string,
// instead of {"a": 3.25}; a DECIMAL literal 2.5 became a JSON string too.
// generatedInputRule makes the numeric columns such an expression reads
// convert their values to their own types first. (UPDATE already computes
// from converted values.) Temporal columns are left as given: converted,
// a DATE is a time.Time, which the text functions inside the expression
// would write as a DATETIME, as the rule that makes them write a DATE
// (textcontext.go) does not reach there.
//
// The engine builds an INSERT's source as a projection onto the table's
// columns that evaluates each default or generated expression over the
// projected row (rewriteInsertValues), so the rule rewrites the column
// reads inside those expressions. It runs for every statement (onEveryStatement),
// INSERTs of literal rows included.
const generatedInputRule analyzer.RuleId = 9970

func generatedInputs(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewriteInsertValues(n, func(_ *sql.Column, e sql.Expression) (sql.Expression, bool, error) {
		return typedDefault(e)
	})
}

// rewriteInsertValues gives each INSERT in n the values rewrite returns
// for its columns, keeping each for which it returns false. An INSERT's
// source is, once planned, a projection onto the table's columns in
// order (plan.InsertInto over the plan.Project that the engine's
// wrapRowSource builds); an INSERT of another shape is left as it is.
func rewriteInsertValues(n sql.Node, rewrite func(col *sql.Column, e sql.Expression) (sql.Expression, bool, error)) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := node.(*plan.InsertInto)
		if !ok || ins.Destination == nil {
			return node, transform.SameTree, nil
		}
		p, withProject := insertProjection(ins.Source)
		schema := ins.Destination.Schema()
		if p == nil || len(schema) != len(p.Projections) {
			return node, transform.SameTree, nil
		}
		var exprs []sql.Expression
		for i, e := range p.Projections {
			ne, changed, err := rewrite(schema[i], e)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if !changed {
				continue
			}
			if exprs == nil {
				exprs = append([]sql.Expression(nil), p.Projections...)
			}
			exprs[i] = ne
		}
		if exprs == nil {
			return node, transform.SameTree, nil
		}
		np, err := p.WithExpressions(exprs...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		src, err := withProject(np)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return ins.WithSource(src), transform.NewTree, nil
	})
}

// insertProjection is the projection of an INSERT's source that gives
// the rows its BEFORE INSERT triggers read (the engine runs them over
// it), or nil, and the source with another projection in its place.
func insertProjection(source sql.Node) (*plan.Project, func(sql.Node) (sql.Node, error)) {
	n, rebuild := underTriggers(source)
	p, ok := n.(*plan.Project)
	if !ok {
		return nil, nil
	}
	return p, rebuild
}

// underTriggers is an INSERT's source under its BEFORE INSERT triggers,
// and the source with another node in its place.
func underTriggers(source sql.Node) (sql.Node, func(sql.Node) (sql.Node, error)) {
	var triggers []*plan.TriggerExecutor
	n := source
	for {
		te, ok := n.(*plan.TriggerExecutor)
		if !ok {
			break
		}
		triggers = append(triggers, te)
		n = te.Left()
	}
	return n, func(in sql.Node) (sql.Node, error) {
		out := in
		for i := len(triggers) - 1; i >= 0; i-- {
			var err error
			if out, err = triggers[i].WithChildren(out, triggers[i].Right()); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// typedDefault rewrites the column reads of a projected default or
// generated expression (a non-literal sql.ColumnDefaultValue, possibly in
// an expression.Wrapper) to read converted values. Its shape is kept:
// the engine evaluates exactly those expressions after the others, over
// the projected row.
func typedDefault(e sql.Expression) (sql.Expression, bool, error) {
	w, wrapped := e.(*expression.Wrapper)
	if wrapped {
		e = w.Unwrap()
	}
	d, ok := e.(*sql.ColumnDefaultValue)
	if !ok || d.IsLiteral() || d.Expr == nil {
		return nil, false, nil
	}
	if transform.InspectExpr(d.Expr, func(x sql.Expression) bool { _, done := x.(*columnValue); return done }) {
		return nil, false, nil // rewritten when the statement was planned before
	}
	inner, same, err := transform.Expr(d.Expr, func(x sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if f, ok := x.(*expression.GetField); ok && types.IsNumber(f.Type()) {
			return &columnValue{f}, transform.NewTree, nil
		}
		return x, transform.SameTree, nil
	})
	if err != nil || same == transform.SameTree {
		return nil, false, err
	}
	nd := *d
	nd.Expr = inner
	if wrapped {
		return expression.WrapExpression(&nd), true, nil
	}
	return &nd, true, nil
}

// columnValue reads a column of the row being inserted as it will be
// stored: converted to the column's type. A value that does not convert
// is read as given; the INSERT itself reports it when it stores the row.
type columnValue struct {
	field *expression.GetField
}

var _ sql.Expression = (*columnValue)(nil)

func (c *columnValue) Resolved() bool             { return c.field.Resolved() }
func (c *columnValue) IsNullable() bool           { return c.field.IsNullable() }
func (c *columnValue) Type() sql.Type             { return c.field.Type() }
func (c *columnValue) String() string             { return c.field.String() }
func (c *columnValue) Children() []sql.Expression { return []sql.Expression{c.field} }

func (c *columnValue) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	f, ok := children[0].(*expression.GetField)
	if !ok {
		return nil, fmt.Errorf("column value over %T", children[0])
	}
	return &columnValue{f}, nil
}

func (c *columnValue) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.field.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	conv, inRange, err := c.field.Type().Convert(ctx, v)
	if err != nil || !inRange {
		return v, nil
	}
	return conv, nil
}
