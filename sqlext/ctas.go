package sqlext

import (
	"math"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// CREATE TABLE ... AS SELECT takes its columns from the query as MySQL
// does. The engine fixed them when it read the statement: an aggregate
// other than COUNT (MAX, MIN, SUM) made a NOT NULL column, so a group
// whose values were all NULL failed the statement with 1048, and a SUM
// or AVG of exact numbers made a DOUBLE column, which stored the exact
// result (exactSumRule) rounded. Literals made the narrowest column of
// their value (1 AS flag a TINYINT, which a later 1000 overflowed), text
// a LONGTEXT, and NULL AS note no column at all (1105). ctasColumnsRule
// gives each such column the query's final type and lets it hold NULL,
// and a literal's or an expression's column the type MySQL gives it
// (columnTypeOf). It runs for every statement (onEveryStatement), after
// exactSumRule.
const ctasColumnsRule analyzer.RuleId = 9965

func ctasColumns(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	transform.Inspect(n, func(n sql.Node) bool {
		// The engine plans the statement as a copy from the query into a
		// table created from the query's columns.
		tc, ok := n.(*plan.TableCopier)
		if !ok {
			return true
		}
		ct, ok := tc.Destination.(*plan.CreateTable)
		if !ok || tc.Source == nil {
			return false
		}
		out := tc.Source.Schema()
		target := ct.PkSchema().Schema
		if len(out) != len(target) {
			return false
		}
		mayBeNull := aggregateOutputs(tc.Source)
		recursive := readsRecursiveCTE(tc.Source)
		exprs := resultExprs(tc.Source)
		for i, c := range target {
			nc := *c
			switch t := out[i].Type; {
			case (types.IsFloat(nc.Type) || types.IsDecimal(nc.Type)) && types.IsDecimal(t):
				// A DECIMAL as the query now types it (the engine
				// planned the table first): SUM and AVG (exactSumRule), a
				// CASE of numbers (caseAsDecimal).
				nc.Type = t
			case recursive && !t.Equals(nc.Type) && t.Promote().Equals(nc.Type):
				// The type the engine widened a recursive CTE's
				// column to, which now has its anchor's
				// (recursiveTypeRule).
				nc.Type = t
			}
			if i < len(exprs) {
				// A literal's or an expression's column as MySQL makes
				// it: 1 AS n an INT, 'web' AS source a VARCHAR(3), a
				// string function's column a VARCHAR as long as its
				// longest value, up to MySQL's limit, NULL a BINARY(0).
				t := columnTypeOf(ctx, exprs[i], nc.Type)
				if st, ok := t.(sql.StringType); ok && st.Type() == sqltypes.VarChar && !t.Equals(nc.Type) {
					t = ctasStringType(st, st.MaxCharacterLength())
				}
				nc.Type = t
			}
			nc.Nullable = nc.Nullable || out[i].Nullable || mayBeNull[i]
			if nc.Type != c.Type || nc.Nullable != c.Nullable {
				// The node's own column list, shared with nothing else.
				target[i] = &nc
			}
		}
		return false
	})
	return n, transform.SameTree, nil
}

// columnTypeOf is the type MySQL gives the column a table makes of a
// query's result column e, of type t (CREATE TABLE ... AS SELECT, the
// working table of a recursive CTE): a column's own type where e reads
// one, else the type of its expression, where an integer is at least an
// INT (MySQL makes no narrower column of an expression, and an integer
// literal an INT or a BIGINT by its value), text a VARCHAR as long as a
// text literal or a string function's longest value ('abc' AS s is a
// VARCHAR(3)), and NULL a BINARY(0).
func columnTypeOf(ctx *sql.Context, e sql.Expression, t sql.Type) sql.Type {
	e = unwrapAlias(e)
	switch x := e.(type) {
	case *expression.GetField, *unionColumn:
		return t
	case *expression.Literal:
		switch v := x.Value().(type) {
		case string:
			if !types.IsText(t) {
				return t
			}
			coll, _ := x.CollationCoercibility(ctx)
			return literalString(t, int64(utf8.RuneCountInString(v)), coll)
		case []byte:
			if !types.IsBinaryType(t) || types.IsJSON(t) {
				return t
			}
			return literalString(t, int64(len(v)), sql.Collation_binary)
		case int8, int16, int32, int64, uint8, uint16, uint32, uint64:
			n, inRange, err := types.Int64.Convert(ctx, v)
			if err != nil || inRange != sql.InRange {
				return types.Uint64
			}
			if i := n.(int64); i >= math.MinInt32 && i <= math.MaxInt32 {
				return types.Int32
			}
			return types.Int64
		}
	}
	switch {
	case t == types.Null:
		return types.MustCreateBinary(sqltypes.Binary, 0)
	case types.IsInteger(t):
		if bits, unsigned, ok := integerWidth(t); ok && bits < 32 {
			if unsigned {
				return types.Uint32
			}
			return types.Int32
		}
	case types.IsText(t):
		if st, _, ok := stringType(ctx, e); ok {
			return st
		}
	}
	return t
}

// literalString is the column MySQL makes of a text or binary literal of
// n characters in collation coll, type t as the engine typed it: a
// VARCHAR(n) (a VARBINARY for a binary literal), a CHAR(0) for an empty
// one.
func literalString(t sql.Type, n int64, coll sql.CollationID) sql.Type {
	base := sqltypes.VarChar
	switch {
	case n == 0 && coll == sql.Collation_binary:
		base = sqltypes.Binary
	case n == 0:
		base = sqltypes.Char
	case coll == sql.Collation_binary:
		base = sqltypes.VarBinary
	}
	if st, err := types.CreateString(base, n, coll); err == nil {
		return st
	}
	return t
}

// readsRecursiveCTE says whether q reads a recursive common table
// expression.
func readsRecursiveCTE(q sql.Node) bool {
	found := false
	transform.Inspect(q, func(n sql.Node) bool {
		_, ok := n.(*plan.RecursiveCte)
		found = found || ok
		return !found
	})
	return found
}

// aggregateOutputs says which columns of a query's result hold an
// aggregate that may be NULL (all but COUNT), directly or through the
// projection above its GROUP BY, its window or a derived table.
func aggregateOutputs(q sql.Node) []bool {
	ids := nullableAggregateIds(q) // aggregatenulls.go
	top := resultExprs(q)
	out := make([]bool, len(q.Schema()))
	for i, e := range top {
		if i >= len(out) {
			break
		}
		if a, ok := e.(*expression.Alias); ok {
			e = a.Child
		}
		if gf, ok := e.(*expression.GetField); ok {
			out[i] = ids[gf.Id()]
			continue
		}
		_, out[i] = nullableAggregate(e)
	}
	return out
}

// resultExprs are the expressions of a query's result columns: its top
// projection's or grouping's.
func resultExprs(q sql.Node) []sql.Expression {
	var top []sql.Expression
	transform.Inspect(q, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.GroupBy:
			top = n.SelectedExprs
		case *plan.Project:
			top = n.Projections
		}
		return top == nil
	})
	return top
}

// nullableAggregate is e's id when e is (or aliases) an aggregate other
// than COUNT.
func nullableAggregate(e sql.Expression) (sql.ColumnId, bool) {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	agg, ok := e.(sql.Aggregation)
	if !ok {
		return 0, false
	}
	switch agg.(type) {
	case *aggregation.Count, *aggregation.CountDistinct:
		return 0, false
	}
	return agg.Id(), true
}
