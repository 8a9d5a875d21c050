package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The engine keeps every condition an index read stands for above the
// read, as the store's indexes say they are not exact (PreciseMatch):
// a range of 100 rows by the primary key compared each row with the
// range's bounds again (BenchmarkRangeLookup; docs/benchmarks.md).
// Saying they are exact is not safe: the engine then drops the condition
// for good, and a lookup join it plans later in place of that read
// (an OR of two keys) read the table without it. impliedConditions
// instead drops, from a filter directly over a read of ranges of a stored
// table's index whose first column is an integer, each comparison of that
// column with a constant that every range of the read already meets: the
// store reads exactly the rows in the ranges on that column, converting
// keys that are not integers through the engine's comparison (rangeRows).
const impliedConditionsRule analyzer.RuleId = 9947

func init() { onEveryStatement(impliedConditionsRule, impliedConditions) }

func impliedConditions(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		read := f.Child
		if a, isAlias := read.(*plan.TableAlias); isAlias {
			read = a.Child
		}
		ita, ok := read.(*plan.IndexedTableAccess)
		if !ok || ita.Typ != plan.ItaTypeStatic {
			return n, transform.SameTree, nil
		}
		x, ok := ita.Index().(*index)
		first, hasCols := ita.Columns().Next(1)
		if !ok || !hasCols || len(x.cols) == 0 {
			return n, transform.SameTree, nil
		}
		lookup, err := ita.GetLookup(ctx, nil)
		ranges, isMySQL := lookup.Ranges.(sql.MySQLRangeCollection)
		typ := x.t.sch.Schema[x.cols[0]].Type
		if err != nil || !isMySQL || len(ranges) == 0 || !types.IsInteger(typ) {
			return n, transform.SameTree, nil
		}
		col := first + sql.ColumnId(x.cols[0])
		conds := expression.SplitConjunction(f.Expression)
		keep := conds[:0:0]
		for _, c := range conds {
			if !rangesMeet(ranges, c, col, typ) {
				keep = append(keep, c)
			}
		}
		switch {
		case len(keep) == len(conds):
			return n, transform.SameTree, nil
		case len(keep) == 0:
			return f.Child, transform.NewTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(keep...), f.Child), transform.NewTree, nil
	})
}

// rangesMeet reports whether every row in ranges, by their first column,
// meets c: c compares the column col, of type typ, with a constant, and
// each range's bounds on the column lie within those c sets.
func rangesMeet(ranges sql.MySQLRangeCollection, c sql.Expression, col sql.ColumnId, typ sql.Type) bool {
	lo, hi, ok := conditionBounds(c, col)
	if !ok {
		return false
	}
	for _, r := range ranges {
		if len(r) == 0 {
			return false
		}
		below, err := lo.Compare(r[0].LowerBound, typ)
		if err != nil || below > 0 {
			return false
		}
		above, err := r[0].UpperBound.Compare(hi, typ)
		if err != nil || above > 0 {
			return false
		}
	}
	return true
}

// conditionBounds are the bounds c sets on the column col when it
// compares the column with a constant that is not NULL (=, <, <=, >,
// >=); ok is false for any other condition.
func conditionBounds(c sql.Expression, col sql.ColumnId) (lo, hi sql.MySQLRangeCut, ok bool) {
	cmp, isCmp := c.(expression.Comparer)
	if !isCmp {
		return nil, nil, false
	}
	gf, isField := cmp.Left().(*expression.GetField)
	lit, isLit := cmp.Right().(*expression.Literal)
	flipped := false
	if !isField || !isLit {
		gf, isField = cmp.Right().(*expression.GetField)
		lit, isLit = cmp.Left().(*expression.Literal)
		flipped = true
	}
	if !isField || !isLit || gf.Id() != col || lit.Value() == nil {
		return nil, nil, false
	}
	v := lit.Value()
	var upper, inclusive bool // col < v, col <= v; else col > v, col >= v
	switch c.(type) {
	case *expression.Equals:
		return sql.Below{Key: v}, sql.Above{Key: v}, true
	case *expression.LessThan:
		upper = true
	case *expression.LessThanOrEqual:
		upper, inclusive = true, true
	case *expression.GreaterThan:
	case *expression.GreaterThanOrEqual:
		inclusive = true
	default:
		return nil, nil, false
	}
	if flipped { // v < col is col > v
		upper = !upper
	}
	switch {
	case upper && inclusive:
		return sql.AboveNull{}, sql.Above{Key: v}, true
	case upper:
		return sql.AboveNull{}, sql.Below{Key: v}, true
	case inclusive:
		return sql.Below{Key: v}, sql.AboveAll{}, true
	}
	return sql.Above{Key: v}, sql.AboveAll{}, true
}
