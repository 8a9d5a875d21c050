package sqlext

import (
	"math/big"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// MySQL sums integers and DECIMALs exactly, as a DECIMAL: SUM of a
// DECIMAL(p,s) or of an integer of p digits is a DECIMAL(p+22,s), and
// AVG a DECIMAL(p+4,s+4) (div_precision_increment's 4 more decimals), so
// that AVG of an INT shows 20.0000 and SUM of a DECIMAL(10,2) 15.50. The
// engine's planner types every SUM and AVG as a DOUBLE whatever its
// argument (planbuilder's buildAggregateFunc gives the column that
// refers to the aggregate the type DOUBLE, not the aggregate's own
// type), and its SUM adds integers as DOUBLEs, inexact past 2^53. The
// engine's registry cannot take an aggregate of our own, and the type
// is fixed on the references above the aggregate when the query is
// planned, so exactSumRule corrects the plan afterwards: it swaps each
// such SUM and AVG of a GROUP BY for exactAggregate, and gives the
// references to it the aggregate's type (retyped). It runs before
// rangeRule, which fixes the type of arithmetic over the aggregate.
//
// A query that reads the aggregate through a derived table or a view
// sees it through columns of that table, typed DOUBLE by the planner
// too, which derivedTypeRule retypes.
//
// It runs for every statement (onEveryStatement), after the engine's
// rules, as the plan is final (analyzer.go says in which order).
const exactSumRule analyzer.RuleId = 9998

func exactSums(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	n, same, err := transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		gb, ok := node.(*plan.GroupBy)
		if !ok {
			return node, transform.SameTree, nil
		}
		return transform.NodeExprs(gb, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			if agg, ok := e.(*exactAggregate); ok { // a plan analysed twice
				typed[agg.Id()] = agg.typ
				return e, transform.SameTree, nil
			}
			agg := newExactAggregate(e)
			if agg == nil {
				return e, transform.SameTree, nil
			}
			typed[agg.Id()] = agg.typ
			return agg, transform.NewTree, nil
		})
	})
	if err != nil {
		return n, same, err
	}
	return retypeSwapped(n, same, typed)
}

// retypeSwapped is n, where the aggregates of typed were swapped (a new
// tree when swapped says so), with the references to them retyped.
func retypeSwapped(n sql.Node, swapped transform.TreeIdentity, typed map[sql.ColumnId]sql.Type) (sql.Node, transform.TreeIdentity, error) {
	if len(typed) == 0 {
		return n, swapped, nil
	}
	out, same, err := retypeReferences(n, typed)
	if swapped == transform.NewTree {
		same = transform.NewTree
	}
	return out, same, err
}

// retypeReferences gives each reference in n's expressions to a column
// of typed the type typed has for it.
func retypeReferences(n sql.Node, typed map[sql.ColumnId]sql.Type) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprs(n, retyping(typed, true))
}

// retypeReferencesWithin is retypeReferences inside opaque nodes too (a
// recursive CTE's parts, the sides of a set operation), quoted names
// included.
func retypeReferencesWithin(n sql.Node, typed map[sql.ColumnId]sql.Type) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprsWithOpaque(n, retyping(typed, false))
}

// retyping gives each reference to a column of typed that column's type,
// but for references by quoted name where skipQuoted is set.
func retyping(typed map[sql.ColumnId]sql.Type, skipQuoted bool) transform.ExprFunc {
	return func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok || skipQuoted && gf.IsQuotedIdentifier() {
			return e, transform.SameTree, nil
		}
		t, ok := typed[gf.Id()]
		if !ok || t.Equals(gf.Type()) {
			return e, transform.SameTree, nil
		}
		return retyped(gf, t), transform.NewTree, nil
	}
}

// retyped is a reference to a column, which the planner typed when it
// planned the query, with the type t the column has now: a GetField
// still, which the engine's later rules recognise (they renumber them).
func retyped(gf *expression.GetField, t sql.Type) sql.Expression {
	out := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), t, gf.Database(), gf.Table(), gf.Name(), gf.IsNullable())
	return out.WithId(gf.Id()).(sql.Expression)
}

// exactAggregate is the engine's SUM or AVG of an integer or DECIMAL
// argument computed exactly and typed as MySQL types it.
type exactAggregate struct {
	sql.Aggregation // the engine's, for everything but the arithmetic
	typ             sql.Type
	avg             bool
}

var (
	_ sql.Aggregation        = (*exactAggregate)(nil)
	_ sql.CollationCoercible = (*exactAggregate)(nil)
)

// newExactAggregate is e made exact, or nil when e is not the engine's
// SUM or AVG of an integer or a DECIMAL (a window function included,
// which the engine computes apart).
func newExactAggregate(e sql.Expression) *exactAggregate {
	agg, avg := sumOrAvg(e)
	if agg == nil || agg.Window() != nil {
		return nil
	}
	typ, ok := exactType(agg.Children()[0].Type(), avg)
	if !ok {
		return nil
	}
	return &exactAggregate{Aggregation: agg, typ: typ, avg: avg}
}

// sumOrAvg is e when it is the engine's SUM or AVG, and whether AVG, or
// nil.
func sumOrAvg(e sql.Expression) (sql.Aggregation, bool) {
	switch a := e.(type) {
	case *aggregation.Sum:
		return a, false
	case *aggregation.Avg:
		return a, true
	}
	return nil, false
}

// exactType is the DECIMAL MySQL gives SUM or AVG of an argument of type
// t, or false for an argument that is neither an integer nor a DECIMAL.
func exactType(t sql.Type, avg bool) (sql.Type, bool) {
	var prec, scale int
	switch {
	case types.IsDecimal(t):
		dt := t.(sql.DecimalType)
		prec, scale = int(dt.Precision()), int(dt.Scale())
	case types.IsInteger(t):
		prec = integerDigits(t)
	default:
		return nil, false
	}
	if avg {
		prec, scale = prec+4, scale+4
	} else {
		prec += 22
	}
	typ, err := types.CreateDecimalType(uint8(min(prec, types.DecimalTypeMaxPrecision)), uint8(min(scale, types.DecimalTypeMaxScale)))
	return typ, err == nil
}

// integerDigits is the precision MySQL gives an integer type: the digits
// of its largest value, MEDIUMINT's counted as 8 either way.
func integerDigits(t sql.Type) int {
	switch t {
	case types.Int8, types.Uint8, types.Boolean:
		return 3
	case types.Int16, types.Uint16:
		return 5
	case types.Int24, types.Uint24:
		return 8
	case types.Int32, types.Uint32:
		return 10
	case types.Uint64:
		return 20
	}
	return 19
}

func (a *exactAggregate) Type() sql.Type   { return a.typ }
func (a *exactAggregate) IsNullable() bool { return true }

func (a *exactAggregate) NewBuffer() (sql.AggregationBuffer, error) {
	// Each group's buffer reads its own copy of the argument: that of
	// SUM(DISTINCT x) holds the values it has seen, which one group must
	// not hide from the next.
	arg, err := transform.Clone(a.Children()[0])
	if err != nil {
		return nil, err
	}
	return &exactBuffer{arg: arg, scale: int32(a.typ.(sql.DecimalType).Scale()), avg: a.avg}, nil
}

func (a *exactAggregate) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := a.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if agg := newExactAggregate(e); agg != nil {
		return agg, nil
	}
	return e, nil
}

func (a *exactAggregate) WithId(id sql.ColumnId) sql.IdExpression {
	e := a.Aggregation.WithId(id).(sql.Expression)
	if agg := newExactAggregate(e); agg != nil {
		return agg
	}
	return e.(sql.IdExpression)
}

func (a *exactAggregate) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// exactBuffer sums its argument's values as decimals.
type exactBuffer struct {
	arg   sql.Expression
	scale int32
	avg   bool
	sum   decimal.Decimal
	n     int64
}

func (b *exactBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.arg.Eval(ctx, row)
	if err != nil || v == nil {
		return err
	}
	d, err := decimalOf(ctx, v)
	if err != nil {
		return err
	}
	b.sum = b.sum.Add(d)
	b.n++
	return nil
}

func (b *exactBuffer) Eval(*sql.Context) (any, error) {
	switch {
	case b.n == 0:
		return nil, nil
	case b.avg:
		return b.sum.DivRound(decimal.NewFromInt(b.n), b.scale), nil
	}
	// A stored 12.50 may come back as 12.5; the sum shows its type's scale.
	return b.sum.Round(b.scale), nil
}

func (b *exactBuffer) Dispose() { expression.Dispose(b.arg) }

// decimalOf is an integer or DECIMAL value as a decimal.
func decimalOf(ctx *sql.Context, v any) (decimal.Decimal, error) {
	switch x := v.(type) {
	case decimal.Decimal:
		return x, nil
	case uint64:
		return decimal.NewFromBigInt(new(big.Int).SetUint64(x), 0), nil
	}
	if w, ok := wideOf(v); ok && !w.neg {
		return decimal.NewFromBigInt(new(big.Int).SetUint64(w.mag), 0), nil
	} else if ok {
		return decimal.NewFromBigInt(new(big.Int).Neg(new(big.Int).SetUint64(w.mag)), 0), nil
	}
	d, _, err := types.InternalDecimalType.Convert(ctx, v)
	if err != nil {
		return decimal.Decimal{}, err
	}
	return d.(decimal.Decimal), nil
}
