package sqlext

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// A DECIMAL put in a JSON document (JSON_OBJECT('amount', amount)) keeps
// its scale in MySQL: {"amount": 10.50}. The engine keeps the DECIMAL in
// the document but writes it without its trailing zeros, {"amount":
// 10.5}, and 20.00 as 20. doubleDecimalsRule gives each JSON column of a
// statement's result the type decimalJSON (a typedAs, which keeps the
// column's name), which writes a document that holds a DECIMAL with each
// DECIMAL's digits and every other value as the engine writes it
// (appendEngineJSON follows its format); a document without one, or with
// a value appendEngineJSON does not know, is left to the engine. Only DECIMALs from SQL values are concerned: numbers read
// from JSON text are DOUBLEs to the engine.
type decimalJSON struct{ types.JsonType }

func (t decimalJSON) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if doc, ok := v.(types.JSONDocument); ok && holdsDecimal(doc.Val) {
		if b, ok := appendEngineJSON(dest[:0:0], doc.Val); ok {
			return sqltypes.MakeTrusted(sqltypes.TypeJSON, b), nil
		}
	}
	return types.JSON.SQL(ctx, dest, v)
}

// holdsDecimal reports whether a document's value holds a DECIMAL.
func holdsDecimal(v any) bool {
	switch x := v.(type) {
	case decimal.Decimal:
		return true
	case []any:
		for _, e := range x {
			if holdsDecimal(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if holdsDecimal(e) {
				return true
			}
		}
	}
	return false
}

// appendEngineJSON appends v written as the engine writes a JSON value
// (types.JsonToMySqlString: ", " and ": " between items, object keys by
// length and then bytes and written as they are, strings with seven
// characters escaped, a whole DOUBLE as an integer), but a DECIMAL with
// its scale. ok is false for a value of another kind.
func appendEngineJSON(b []byte, v any) ([]byte, bool) {
	ok := true
	switch x := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, x)
	case string:
		b = appendEngineJSONString(b, x)
	case decimal.Decimal:
		if x.Exponent() < 0 {
			b = append(b, x.StringFixed(-x.Exponent())...)
		} else {
			b = append(b, x.String()...)
		}
	case float64:
		if x == float64(int64(x)) {
			b = strconv.AppendInt(b, int64(x), 10)
		} else {
			b = strconv.AppendFloat(b, x, 'f', -1, 64)
		}
	case int64:
		b = strconv.AppendInt(b, x, 10)
	case int32:
		b = strconv.AppendInt(b, int64(x), 10)
	case int:
		b = strconv.AppendInt(b, int64(x), 10)
	case uint64:
		b = strconv.AppendUint(b, x, 10)
	case time.Time:
		b = append(append(append(b, '"'), x.Format(time.RFC3339)...), '"')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			if b, ok = appendEngineJSON(b, e); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range jsonKeyOrder(x) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(append(append(b, '"'), k...), `": `...)
			if b, ok = appendEngineJSON(b, x[k]); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	default:
		return b, false
	}
	return b, true
}

// jsonKeyOrder is an object's keys in the order MySQL writes them:
// shorter first, then by bytes.
func jsonKeyOrder(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return keys
}

// appendEngineJSONString appends s quoted, with backspace, form feed,
// newline, carriage return, tab, quote and backslash escaped.
func appendEngineJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

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
