package sqlext

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// The engine holds a DATE as a time.Time, an ENUM as its index and a SET
// as its bit mask, and the functions that read an argument as text turn
// those into "2024-01-15 00:00:00", "1" and "5", where MySQL reads
// "2024-01-15", the ENUM's label and the SET's labels: CONCAT(d, '-'),
// CAST(d AS CHAR), e LIKE 'R%' and GROUP_CONCAT(e) all came out wrong.
// A TIME column's value they could not read at all: CONCAT(t) failed and
// CAST(t AS CHAR) was NULL. A DOUBLE they wrote in positional notation
// however large (100000000000000000000 for 1e20).
// textRule hands such an argument of those functions to them behind
// asText, which writes the value as its type writes it in a result.
// Comparisons, arithmetic and ordering are the types' own and are left
// alone. It runs for every statement (onEveryStatement), and also before
// the engine's own rules (analyzerFor), one of which turns e LIKE 'g%'
// into a range over e's own type, an ENUM's indexes.
const textRule analyzer.RuleId = 9995

// textFunctions read every argument as text.
var textFunctions = map[string]bool{
	"concat": true, "concat_ws": true, "upper": true, "ucase": true, "lower": true, "lcase": true,
	"length": true, "char_length": true, "character_length": true, "substring": true, "substr": true,
	"mid": true, "replace": true, "left": true, "right": true, "lpad": true, "rpad": true,
	"trim": true, "ltrim": true, "rtrim": true, "instr": true, "locate": true, "reverse": true,
	"repeat": true, "group_concat": true, "json_object": true, "json_array": true, "regexp_like": true,
	"md5": true, "sha1": true, "sha2": true, "insert": true,
	"field": true, "find_in_set": true, "strcmp": true,
}

// choiceFunctions return one of their arguments; MySQL gives the label of
// an ENUM or SET one (the result is a string), but a DATE stays a DATE.
var choiceFunctions = map[string]bool{
	"coalesce": true, "ifnull": true, "if": true, "nullif": true, "greatest": true, "least": true,
}

func textArguments(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	n, insSame, err := transform.Node(n, datesInsertedAsText)
	if err != nil {
		return nil, transform.SameTree, err
	}
	var defs map[sql.ColumnId]sql.Expression // the statement's, read when first needed
	out, same, err := transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		firstOnly, dates, floats := false, true, false
		switch x := e.(type) {
		case *expression.SetField:
			// UPDATE t SET s = CURDATE() stores the date as text.
			if types.IsText(x.Left().Type()) && types.IsDateType(x.Right().Type()) {
				return expression.NewSetField(x.Left(), &asText{Expression: x.Right()}), transform.NewTree, nil
			}
			return e, transform.SameTree, nil
		case *sql.ColumnDefaultValue:
			// So does a text column's DEFAULT (CURDATE()).
			if x != nil && x.OutType != nil && types.IsText(x.OutType) && types.IsDateType(x.Expr.Type()) {
				out, err := x.WithChildren(&asText{Expression: x.Expr})
				return out, transform.NewTree, err
			}
			return e, transform.SameTree, nil
		case *expression.ConvertUsing:
			return &convertedText{ConvertUsing: x}, transform.NewTree, nil // convertusing.go
		case *expression.Like:
			firstOnly = true // the pattern is text already
		case *expression.Convert:
			if !types.IsText(x.Type()) {
				return e, transform.SameTree, nil
			}
			floats = true
		case sql.FunctionExpression:
			switch {
			case textFunctions[x.FunctionName()]:
				// Only where every argument is text: a number stays a
				// number in JSON_OBJECT, and a count in LEFT or REPEAT.
				floats = x.FunctionName() == "concat" || x.FunctionName() == "concat_ws"
			case choiceFunctions[x.FunctionName()]:
				dates = false
			default:
				return e, transform.SameTree, nil
			}
		default:
			return e, transform.SameTree, nil
		}
		sorts := orderTerms(e)
		return replaceChildren(e, func(i int, c sql.Expression) sql.Expression {
			t := c.Type()
			if i < sorts {
				return nil
			}
			if (i == 0 || !firstOnly) && (types.IsEnum(t) || types.IsSet(t) || dates && (types.IsDateType(t) || isTimeType(t) || hasFraction(t)) || floats && types.IsFloat(t)) {
				text := &asText{Expression: c}
				if floats && t.Type() == sqltypes.Float64 {
					if defs == nil {
						defs = definitions(n)
					}
					if d := decimalsOf(c, defs, 0); d < notFixedDecimals {
						text.decimals, text.fixed = d, true
					}
				}
				return text
			}
			return nil
		})
	})
	if insSame == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// datesInsertedAsText: INSERT ... VALUES of a DATE into a text column
// stores the date as text, 2024-01-15, where the engine wrote any
// time.Time it stored in text as a DATETIME, 2024-01-15 00:00:00. (The
// rows of INSERT ... SELECT still are.)
func datesInsertedAsText(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	ins, ok := n.(*plan.InsertInto)
	if !ok || ins.Source == nil {
		return n, transform.SameTree, nil
	}
	text := insertedIntoText(ins)
	src, same, err := transform.Node(ins.Source, func(c sql.Node) (sql.Node, transform.TreeIdentity, error) {
		v, ok := c.(*plan.Values)
		if !ok {
			return c, transform.SameTree, nil
		}
		same := transform.SameTree
		tuples := make([][]sql.Expression, len(v.ExpressionTuples))
		for r, tuple := range v.ExpressionTuples {
			var changed bool
			if tuples[r], changed = datesAsText(tuple, text); changed {
				same = transform.NewTree
			}
		}
		if same == transform.SameTree {
			return c, same, nil
		}
		out := *v
		out.ExpressionTuples = tuples
		return &out, same, nil
	})
	if err != nil || same == transform.SameTree {
		return n, transform.SameTree, err
	}
	return ins.WithSource(src), transform.NewTree, nil
}

// datesAsText is a row of values with each DATE bound for a text column
// (text[j]) written as text, and whether there was one.
func datesAsText(row []sql.Expression, text []bool) ([]sql.Expression, bool) {
	out := row
	for j, e := range row {
		if j >= len(text) || !text[j] || !types.IsDateType(e.Type()) {
			continue
		}
		if &out[0] == &row[0] {
			out = append([]sql.Expression(nil), row...)
		}
		out[j] = &asText{Expression: e}
	}
	return out, &out[0] != &row[0]
}

// replaceChildren gives e the children that replace returns for each of
// its children, keeping each child for which it returns nil; e itself
// when it keeps them all.
func replaceChildren(e sql.Expression, replace func(i int, c sql.Expression) sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	children := e.Children()
	changed := false
	for i, c := range children {
		r := replace(i, c)
		if r == nil {
			continue
		}
		if !changed {
			children = append([]sql.Expression(nil), children...)
			changed = true
		}
		children[i] = r
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	out, err := e.WithChildren(children...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return out, transform.NewTree, nil
}

// withOneChild is WithChildren of an expression e of one child: the
// expression build makes over the one child given.
func withOneChild(e sql.Expression, children []sql.Expression, build func(sql.Expression) sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), 1)
	}
	return build(children[0]), nil
}

// asText is a value written as its type writes it in a result. A DOUBLE
// with a fixed number of decimals (decimalsOf) is written with that many,
// as MySQL writes one: CONCAT(ROUND(5e0, 2), ' EUR') is '5.00 EUR'.
type asText struct {
	sql.Expression
	decimals int  // of a DOUBLE whose decimals are fixed
	fixed    bool // decimals is set
}

var (
	_ sql.Expression         = (*asText)(nil)
	_ sql.CollationCoercible = (*asText)(nil)
)

func (a *asText) Type() sql.Type { return types.LongText }

func (a *asText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := a.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	switch f := v.(type) {
	case float64:
		if a.fixed && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return fixedDecimalsText(f, a.decimals), nil
		}
		return mysqlFloatText(f, 64), nil
	case float32:
		return mysqlFloatText(float64(f), 32), nil
	}
	return typedText(ctx, a.Expression.Type(), v)
}

func (a *asText) Children() []sql.Expression { return []sql.Expression{a.Expression} }

func (a *asText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 1)
	}
	out := *a
	out.Expression = children[0]
	return &out, nil
}

func (a *asText) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if tc, ok := a.Expression.Type().(sql.TypeWithCollation); ok {
		return tc.Collation(), 2
	}
	return ctx.GetCollation(), 4
}

func (a *asText) String() string      { return a.Expression.String() }
func (a *asText) DebugString() string { return sql.DebugString(a.Expression) }
