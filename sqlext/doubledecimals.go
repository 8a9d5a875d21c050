package sqlext

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// MySQL gives every result a number of decimals, and a DOUBLE computed
// from operands with a fixed number of them has one too: the larger of
// the operands' for +, -, * and %, 4 more for / (div_precision_increment),
// none for FLOOR and CEIL, n for ROUND(x, n). A DOUBLE column, a float
// literal and text read as a number have no fixed decimals, and neither
// has a result of one of them. The text protocol writes a DOUBLE with
// fixed decimals with exactly that many: (2.5 % FLOOR('3')) / 3 is
// 0.83333, FLOOR('3') / 7 is 0.4286, where the engine wrote every digit
// (0.8333333333333334). doubleDecimalsRule gives each DOUBLE column of a
// statement's result whose decimals are fixed a type that writes them so
// (fixedDoubleType); the binary protocol sends the value's bits, as MySQL
// does. Decimals it cannot work out count as not fixed, which leaves the
// value as it was.
//
// It runs for every statement (onEveryStatement), last, as it reads the
// operations the other rules leave, and only for a statement's own
// result: a derived table's or a subquery's columns keep the engine's
// DOUBLE, which the types of the expressions over them depend on, and so
// do the columns of a statement with a set operation.
const doubleDecimalsRule analyzer.RuleId = 9976

// notFixedDecimals is MySQL's NOT_FIXED_DEC: decimals not fixed.
const notFixedDecimals = 31

func doubleDecimals(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// A derived table's query is planned with a deeper scope, a
	// subquery's with its outer query's, and a SELECT of a set operation
	// as a statement, which its type must not set apart from the others.
	if !scope.IsEmpty() || scope.RecursionDepth() > 0 || qFlags.IsSet(qFlagSetOperation) {
		return n, transform.SameTree, nil
	}
	out, err := withFixedDecimals(ctx, n, n)
	if err != nil || out == nil {
		return n, transform.SameTree, err
	}
	return out, transform.NewTree, nil
}

// withFixedDecimals is n, the statement root or a node below it that
// orders, limits or filters the result, with the result's DOUBLE columns
// of fixed decimals made fixedDoubles, or nil when it has none.
func withFixedDecimals(ctx *sql.Context, root, n sql.Node) (sql.Node, error) {
	switch x := n.(type) {
	case *plan.Project:
		exprs := fixedDecimals(ctx, root, x.Projections, x.Projections)
		if exprs == nil {
			return nil, nil
		}
		return x.WithExpressions(exprs...)
	case *plan.GroupBy:
		// Its aggregates must stay at its top: the columns become
		// references in a projection over it.
		refs := make([]sql.Expression, len(x.SelectedExprs))
		for i, c := range x.Schema() {
			refs[i] = expression.NewGetFieldWithTable(i, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable)
		}
		exprs := fixedDecimals(ctx, root, x.SelectedExprs, refs)
		if exprs == nil {
			return nil, nil
		}
		return plan.NewProject(exprs, x), nil
	case *plan.Sort, *plan.Limit, *plan.Offset, *plan.TopN, *plan.Distinct, *plan.OrderedDistinct, *plan.Having, *plan.Filter:
		child, err := withFixedDecimals(ctx, root, x.Children()[0])
		if err != nil || child == nil {
			return nil, err
		}
		return x.WithChildren(child)
	case *plan.ResolvedTable, *plan.IndexedTableAccess, *plan.TableAlias, *plan.JoinNode, *plan.SubqueryAlias:
		// SELECT * of tables: a projection of their columns, for those
		// that are documents, which need a type of their own.
		sch := n.Schema()
		if !slices.ContainsFunc(sch, func(c *sql.Column) bool { return types.IsJSON(c.Type) }) {
			return nil, nil
		}
		refs := make([]sql.Expression, len(sch))
		for i, c := range sch {
			refs[i] = expression.NewGetFieldWithTable(i, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable)
		}
		exprs := fixedDecimals(ctx, root, refs, refs)
		if exprs == nil {
			return nil, nil
		}
		return plan.NewProject(exprs, n), nil
	}
	return nil, nil
}

// fixedDecimals is cols, the columns of a result, with those that are a
// DOUBLE of fixed decimals given a fixedDoubleType, those of the engine's
// TIME a resultTimeType and TIMESTAMP(n) a resultTimestampType, or nil
// when there are none;
// exprs are the columns' expressions, which may differ from cols.
func fixedDecimals(ctx *sql.Context, root sql.Node, exprs, cols []sql.Expression) []sql.Expression {
	var defs map[sql.ColumnId]sql.Expression
	var out []sql.Expression
	for i, e := range exprs {
		inner := unwrapAlias(e)
		switch inner.(type) {
		case *unionColumn: // a SELECT of a set operation, typed with the others
			return nil
		case *typedAs:
			continue
		}
		if types.IsJSON(inner.Type()) {
			// Documents written as MySQL writes them (jsonexact.go).
			if out == nil {
				out = append([]sql.Expression(nil), cols...)
			}
			out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression { return &typedAs{Expression: c, typ: jsonResult{}} })
			continue
		}
		if digits, ok := nowDigits(inner); ok {
			// NOW(n) and its synonyms: the engine typed them DATETIME(6).
			if out == nil {
				out = append([]sql.Expression(nil), cols...)
			}
			out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression { return &typedAs{Expression: c, typ: datetimeOf(digits)} })
			continue
		}
		if dt, ok := inner.Type().(sql.DatetimeType); ok && types.IsTimestampType(dt) {
			if out == nil {
				out = append([]sql.Expression(nil), cols...)
			}
			out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression {
				return &typedAs{Expression: c, typ: resultTimestampType{DatetimeType: dt}}
			})
			continue
		}
		if types.IsTimespan(inner.Type()) {
			if out == nil {
				out = append([]sql.Expression(nil), cols...)
			}
			out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression { return &typedAs{Expression: c, typ: resultTimeType{}} })
			continue
		}
		if st, _, ok := stringType(ctx, inner); ok {
			// A string function's VARCHAR (stringlengths.go).
			if out == nil {
				out = append([]sql.Expression(nil), cols...)
			}
			out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression { return &typedAs{Expression: c, typ: st} })
			continue
		}
		if inner.Type() != types.Float64 {
			continue
		}
		if defs == nil {
			defs = definitions(root)
		}
		d := decimalsOf(inner, defs, 0)
		if d >= notFixedDecimals {
			continue
		}
		if out == nil {
			out = append([]sql.Expression(nil), cols...)
		}
		out[i] = withColumn(cols[i], func(c sql.Expression) sql.Expression {
			return &typedAs{Expression: c, typ: fixedDoubleType{NumberType: types.Float64, decimals: d}}
		})
	}
	return out
}

// withColumn is a result column with its expression, under its alias if
// it has one, wrapped by wrap.
func withColumn(col sql.Expression, wrap func(sql.Expression) sql.Expression) sql.Expression {
	wrapped := wrap(unwrapAlias(col))
	if a, ok := col.(*expression.Alias); ok {
		wrapped, _ = a.WithChildren(wrapped)
	}
	return wrapped
}

// definitions maps the ids of the columns defined in n's own query
// (aliases, aggregates) to their expressions. A derived table's columns
// are left out: the query over it sees them as DOUBLEs, as the engine
// typed them.
func definitions(n sql.Node) map[sql.ColumnId]sql.Expression {
	defs := map[sql.ColumnId]sql.Expression{}
	transform.Inspect(n, func(node sql.Node) bool {
		switch node.(type) {
		case *plan.SubqueryAlias, *plan.SetOp:
			return false
		}
		if ex, ok := node.(sql.Expressioner); ok {
			for _, e := range ex.Expressions() {
				sql.Inspect(e, func(e sql.Expression) bool {
					if _, ok := e.(*expression.GetField); ok {
						return true
					}
					if ide, ok := e.(sql.IdExpression); ok && ide.Id() != 0 {
						defs[ide.Id()] = e
					}
					return true
				})
			}
		}
		return true
	})
	return defs
}

// decimalsOf is the number of decimals MySQL gives e, notFixedDecimals
// when it has none or they cannot be worked out; defs holds the
// expressions of the columns e may refer to.
func decimalsOf(e sql.Expression, defs map[sql.ColumnId]sql.Expression, depth int) int {
	if depth > 64 {
		return notFixedDecimals
	}
	of := func(c sql.Expression) int { return decimalsOf(c, defs, depth+1) }
	widest := func(cs ...sql.Expression) int {
		d := 0
		for _, c := range cs {
			d = max(d, of(c))
		}
		return min(d, notFixedDecimals)
	}
	t := e.Type()
	switch x := e.(type) {
	case *expression.Alias:
		return of(x.Child)
	case *expression.GetField:
		if def, ok := defs[x.Id()]; ok && def != e {
			return of(def)
		}
	case *typedAs:
		if t, ok := x.typ.(fixedDoubleType); ok {
			return t.decimals
		}
		return notFixedDecimals
	case *floatChecked:
		return of(x.Expression)
	case *choice:
		return of(x.Expression)
	case *expression.UnaryMinus:
		return of(x.Child)
	case *expression.Arithmetic:
		if types.IsFloat(t) {
			switch x.Operator() {
			case "+", "-", "*", "%":
				return widest(x.Left(), x.Right())
			}
		}
	case *expression.Div:
		if types.IsFloat(t) {
			return min(widest(x.Left(), x.Right())+divPrecisionIncrement, notFixedDecimals)
		}
	case *modulo:
		if types.IsFloat(t) {
			return widest(x.Left(), x.Right())
		}
	case *expression.Mod:
		if types.IsFloat(t) {
			return widest(x.Left(), x.Right())
		}
	case *expression.Case:
		var cs []sql.Expression
		for _, b := range x.Branches {
			cs = append(cs, b.Value)
		}
		if x.Else != nil {
			cs = append(cs, x.Else)
		}
		return widest(cs...)
	case sql.FunctionExpression:
		args := e.Children()
		switch strings.ToLower(x.FunctionName()) {
		case "floor", "ceil", "ceiling":
			return 0
		case "pi": // MySQL's PI() has 6 decimals: 3.141593
			return 6
		case "abs", "sum", "min", "max":
			if len(args) == 1 {
				return of(args[0])
			}
		case "avg":
			if len(args) == 1 {
				return min(of(args[0])+divPrecisionIncrement, notFixedDecimals)
			}
		case "round", "truncate":
			if len(args) == 1 {
				return 0
			}
			if lit, ok := args[1].(*expression.Literal); ok && len(args) == 2 {
				if n, err := int64Of(lit.Value()); err == nil {
					return int(min(max(n, 0), 30))
				}
			}
		case "ifnull", "coalesce", "greatest", "least":
			return widest(args...)
		case "if":
			if len(args) == 3 {
				return widest(args[1], args[2])
			}
		}
		return notFixedDecimals
	}
	switch {
	case types.IsDecimal(t):
		return int(t.(sql.DecimalType).Scale())
	case types.IsInteger(t), t == types.Null:
		return 0
	}
	return notFixedDecimals
}

// typedAs is an expression whose values are given another type: a
// result's DOUBLE a fixed number of decimals (fixedDoubleType), a
// result's TIME of the engine the length of a TIME of no fractional
// digits (resultTimeType), a TIME(n) that date arithmetic hands the
// engine its own TIME (newDateOffset), the sides of a comparison of TIMEs
// a TIME (timesCompared), a string function's result its VARCHAR
// (stringType).
type typedAs struct {
	sql.Expression
	typ sql.Type
}

var (
	_ sql.Expression         = (*typedAs)(nil)
	_ sql.CollationCoercible = (*typedAs)(nil)
	_ sql.Nameable           = (*typedAs)(nil)
	_ sql.Tableable          = (*typedAs)(nil)
)

func (f *typedAs) Type() sql.Type             { return f.typ }
func (f *typedAs) Children() []sql.Expression { return []sql.Expression{f.Expression} }
func (f *typedAs) String() string             { return f.Expression.String() }
func (f *typedAs) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	if st, ok := f.typ.(sql.StringType); ok {
		return st.Collation(), 2 // a string function's VARCHAR
	}
	return sql.Collation_binary, 5
}

// Name is the name of the column it stands for, so that a column
// reference keeps its name.
func (f *typedAs) Name() string {
	if n, ok := f.Expression.(sql.Nameable); ok {
		return n.Name()
	}
	return f.Expression.String()
}

// Table is the table of the column it stands for.
func (f *typedAs) Table() string {
	if t, ok := f.Expression.(sql.Tableable); ok {
		return t.Table()
	}
	return ""
}

func (f *typedAs) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 1)
	}
	return &typedAs{Expression: children[0], typ: f.typ}, nil
}

// fixedDoubleType is DOUBLE written as text with a fixed number of
// decimals.
type fixedDoubleType struct {
	sql.NumberType
	decimals int
}

func (t fixedDoubleType) SQL(ctx *sql.Context, dest []byte, v any) (sqltypes.Value, error) {
	if s, ok := ctx.Session.(*Session); v == nil || ok && s.binaryResults {
		return t.NumberType.SQL(ctx, dest, v)
	}
	f, err := float64Of(v)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return t.NumberType.SQL(ctx, dest, v)
	}
	return sqltypes.MakeTrusted(sqltypes.Float64, append(dest, fixedDecimalsText(f+0, t.decimals)...)), nil
}

// fixedDecimalsText is f written with exactly decimals digits after the
// point, as MySQL writes it: rounded from the value itself, but with no
// more significant digits than the shortest text that reads back as f
// (1e20/7 to 4 decimals is 14285714285714287000.0000).
func fixedDecimalsText(f float64, decimals int) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	frac := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		frac = len(s) - i - 1
	}
	switch {
	case frac > decimals:
		return strconv.FormatFloat(f, 'f', decimals, 64)
	case frac == 0 && decimals > 0:
		s += "."
	}
	return s + strings.Repeat("0", decimals-frac)
}

// nowDigits is the n of NOW(n) (also CURRENT_TIMESTAMP, LOCALTIME,
// LOCALTIMESTAMP and SYSDATE) when e is one with a constant n below six,
// whose values the engine cuts to n digits but types DATETIME(6).
func nowDigits(e sql.Expression) (int, bool) {
	now, ok := e.(*function.Now)
	if !ok || len(now.Children()) != 1 {
		return 0, false
	}
	n := constantDigits(now.Children())
	return n, n < maxTimeDigits
}
