package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/shopspring/decimal"
)

// A DECIMAL column's values reach the engine with the digits they have
// (10.5 for a DECIMAL(10,2) 10.50), so the scale the document should
// write is the argument's type's: jsonDecimalArgsRule hands each DECIMAL
// argument of the functions that build documents to them at its type's
// scale. It runs for every statement (onEveryStatement).
const jsonDecimalArgsRule analyzer.RuleId = 9973

// jsonBuilders are the functions that put their arguments in a document,
// by their names in lower case (the engine names JSON_ARRAYAGG JsonArray).
var jsonBuilders = map[string]bool{"json_object": true, "json_array": true, "jsonarray": true, "json_objectagg": true}

func jsonDecimalArgs(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		f, ok := e.(sql.FunctionExpression)
		if !ok || !jsonBuilders[strings.ToLower(f.FunctionName())] {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
			if _, done := c.(*atScale); done {
				return nil
			}
			d, ok := c.Type().(sql.DecimalType)
			if !ok || d.Scale() == 0 {
				return nil
			}
			return &atScale{Expression: c, scale: int32(d.Scale())}
		})
	})
}

// atScale is a DECIMAL value with its type's number of decimals.
type atScale struct {
	sql.Expression
	scale int32
}

func (a *atScale) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := a.Expression.Eval(ctx, row)
	if d, ok := v.(decimal.Decimal); ok && err == nil && d.Exponent() > -a.scale {
		return d.Round(a.scale), nil
	}
	return v, err
}

func (a *atScale) Children() []sql.Expression { return []sql.Expression{a.Expression} }

func (a *atScale) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 1)
	}
	return &atScale{Expression: children[0], scale: a.scale}, nil
}
