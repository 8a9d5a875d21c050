package sqlext

import (
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// A DECIMAL column's values reach the engine with the digits they have
// (10.5 for a DECIMAL(10,2) 10.50), so the scale the document should
// write is the argument's type's: jsonDecimalArgsRule hands each DECIMAL
// argument of the functions that build documents to them at its type's
// scale. Dates and times are handed over as the text MySQL writes for
// them in a document: a DATE as 2024-01-15, a DATETIME or TIMESTAMP as
// 2024-01-15 10:20:30.000000 and a TIME as 10:20:30.000000, always with
// six digits of fraction (the engine wrote 2024-01-15T10:20:30Z). The
// same holds for CAST(x AS JSON). It runs for every statement
// (onEveryStatement).
const jsonDecimalArgsRule analyzer.RuleId = 9973

// jsonBuilders are the functions that put their arguments in a document,
// by their names in lower case (the engine names JSON_ARRAYAGG JsonArray).
var jsonBuilders = map[string]bool{"json_object": true, "json_array": true, "jsonarray": true, "json_objectagg": true}

func jsonDecimalArgs(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if c, ok := e.(*expression.Convert); ok && c.Type() == types.JSON {
			return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
				return jsonTemporalArg(c, true)
			})
		}
		f, ok := e.(sql.FunctionExpression)
		if !ok || !jsonBuilders[strings.ToLower(f.FunctionName())] {
			return e, transform.SameTree, nil
		}
		return replaceChildren(e, func(_ int, c sql.Expression) sql.Expression {
			if _, done := c.(*atScale); done {
				return nil
			}
			if t := jsonTemporalArg(c, false); t != nil {
				return t
			}
			d, ok := c.Type().(sql.DecimalType)
			if !ok || d.Scale() == 0 {
				return nil
			}
			return &atScale{Expression: c, scale: int32(d.Scale())}
		})
	})
}

// jsonTemporalArg is c as a document's text when c is a date or time,
// nil otherwise; as a document of that text when document is set.
func jsonTemporalArg(c sql.Expression, document bool) sql.Expression {
	if _, done := c.(*jsonTemporal); done {
		return nil
	}
	if a, ok := c.(*asText); ok {
		c = a.Expression // the text a result writes (textcontext.go)
	}
	switch t := c.Type().Type(); t {
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time:
		return &jsonTemporal{Expression: c, date: t == sqltypes.Date, document: document}
	}
	return nil
}

// jsonTemporal is a date or time written as MySQL writes it in a JSON
// document.
type jsonTemporal struct {
	sql.Expression
	date, document bool
}

func (j *jsonTemporal) Type() sql.Type {
	if j.document {
		return types.JSON
	}
	return types.LongText
}

func (j *jsonTemporal) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := j.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	// The value may come as text (a DATETIME(3) as its three digits), so
	// it is read by the type it is written from.
	var text string
	if j.Expression.Type().Type() == sqltypes.Time {
		d, _, err := types.Time.Convert(ctx, v)
		span, ok := d.(types.Timespan)
		if err != nil || !ok {
			return v, err
		}
		if text = span.String(); !strings.Contains(text, ".") {
			text += ".000000"
		}
	} else {
		d, _, err := types.DatetimeMaxPrecision.Convert(ctx, v)
		t, ok := d.(time.Time)
		if err != nil || !ok {
			return v, err
		}
		if j.date {
			text = t.Format("2006-01-02")
		} else {
			text = t.Format("2006-01-02 15:04:05.000000")
		}
	}
	if j.document {
		return types.JSONDocument{Val: text}, nil
	}
	return text, nil
}

func (j *jsonTemporal) Children() []sql.Expression { return []sql.Expression{j.Expression} }

func (j *jsonTemporal) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(j, len(children), 1)
	}
	return &jsonTemporal{Expression: children[0], date: j.date, document: j.document}, nil
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
