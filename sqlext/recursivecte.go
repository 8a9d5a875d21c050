package sqlext

import (
	"errors"
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/iters"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// A recursive common table expression runs its recursive part until a
// run adds no row, at most @@cte_max_recursion_depth runs (1000 by
// default), and past that fails with MySQL's 3636. The engine stopped
// after 10,001 runs whatever the variable said, so that a series of more
// rows (WITH RECURSIVE n AS (SELECT 1 UNION ALL SELECT i + 1 ...)) could
// not be made at all, and named no error code.

const erCTEMaxRecursionDepth = 3636

// MySQL types the columns of a recursive CTE by its anchor (the SELECT
// that does not read the CTE) alone, and stores each row of the recursive
// part into them as an INSERT stores into a table's columns: in strict
// mode a text too long for its column is 1406, a number beyond it 1264,
// and outside it they are cut, with a warning. The engine widened every
// column instead (a DATE to DATETIME(6), an INT to BIGINT, a VARCHAR to
// LONGTEXT), so a series of dates came out as datetimes with microseconds,
// and a CREATE TABLE ... AS of it took those types. recursiveTypeRule
// gives the CTE's columns, and the references to them inside its
// recursive part, the anchor's types (anchorTypes); the rules that carry
// a derived table's types to the query over it (derivedTypes) do the
// rest, and recursiveRows stores each row into those types. The rule runs
// before the engine's rules and again after the ones that retype the
// anchor's expressions (analyzer.go).
const (
	recursiveTypeRule   analyzer.RuleId = 9950
	recursiveRetypeRule analyzer.RuleId = 9951
)

func recursiveTypes(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	typed := map[sql.ColumnId]sql.Type{}
	transform.Inspect(n, func(n sql.Node) bool {
		rc, ok := n.(*plan.RecursiveCte)
		if !ok {
			return true
		}
		sch := rc.Schema()
		want := anchorTypes(ctx, rc.Left())
		if len(want) != len(sch) || rc.Columns().Len() != len(sch) {
			return true
		}
		for i, c := range sch {
			if want[i] != nil && !want[i].Equals(c.Type) {
				// The CTE's schema is also its working table's (the
				// planner shares the one slice), so both change.
				nc := *c
				nc.Type = want[i]
				sch[i] = &nc
			}
		}
		typeColumns(typed, rc.Columns(), sch)
		return true
	})
	if len(typed) == 0 {
		return n, transform.SameTree, nil
	}
	// The recursive part reads the working table through references the
	// planner typed with the widened types.
	return retypeReferencesWithin(n, typed)
}

// anchorTypes are the types MySQL gives the columns of a recursive CTE
// whose anchor is q: those of the table it would make of the anchor's
// rows (columnTypeOf), but for a NULL, which keeps the type the engine
// gave it (a nil type).
func anchorTypes(ctx *sql.Context, q sql.Node) []sql.Type {
	exprs := resultExprs(q)
	sch := q.Schema()
	if len(exprs) != len(sch) {
		return nil
	}
	out := make([]sql.Type, len(sch))
	for i, c := range sch {
		if c.Type != types.Null {
			out[i] = columnTypeOf(ctx, exprs[i], c.Type)
		}
	}
	return out
}

// recursiveRows are the rows of a recursive CTE: its anchor's, then each
// run's of the recursive part over the rows the run before added.
type recursiveRows struct {
	b   sql.NodeExecBuilder
	n   *plan.RecursiveCte
	row sql.Row
	// most is the number of runs of the recursive part allowed.
	most int64

	iter  sql.RowIter // the anchor's or the current run's
	runs  int64
	rows  int64     // stored so far, anchor's included
	added []sql.Row // by the current run
	// seen holds the rows met so far, for UNION DISTINCT.
	seen sql.KeyValueCache
}

func recursiveCTE(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.RecursiveCte, row sql.Row) (sql.RowIter, error) {
	most := int64(1000)
	if v, err := ctx.GetSessionVariable(ctx, "cte_max_recursion_depth"); err == nil {
		if i, _, err := types.Int64.Convert(ctx, v); err == nil {
			most = i.(int64)
		}
	}
	var iter sql.RowIter = &recursiveRows{b: b, n: n, row: row, most: most}
	u := n.Union()
	switch {
	case u.Limit != nil:
		limit, err := iters.GetInt64Value(ctx, u.Limit)
		if err != nil {
			return nil, err
		}
		if len(u.SortFields) > 0 {
			return iters.NewTopRowsIter(u.SortFields, limit, false, iter, len(u.Schema())), nil
		}
		return &iters.LimitIter{Limit: limit, ChildIter: iter}, nil
	case len(u.SortFields) > 0:
		return iters.NewSortIter(u.SortFields, iter), nil
	}
	return iter, nil
}

func (r *recursiveRows) Next(ctx *sql.Context) (sql.Row, error) {
	if r.iter == nil {
		if r.n.Union().Distinct {
			r.seen = sql.NewMapCache()
		}
		iter, err := r.b.Build(ctx, r.n.Left(), r.row)
		if err != nil {
			return nil, err
		}
		r.iter = iter
	}
	for {
		row, err := r.iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			if len(r.added) == 0 {
				return nil, io.EOF
			}
			if err := r.nextRun(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		r.rows++
		if row, err = r.stored(ctx, row); err != nil {
			return nil, err
		}
		if r.seen != nil {
			key, err := sql.HashOf(ctx, row)
			if err != nil {
				return nil, err
			}
			if v, _ := r.seen.Get(key); v != nil {
				continue
			}
			if err := r.seen.Put(key, struct{}{}); err != nil {
				return nil, err
			}
		}
		r.added = append(r.added, row)
		return row, nil
	}
}

// stored is row as the CTE's columns hold it: each value converted to
// its column's type, as an INSERT into a table of those columns converts
// it (see recursiveTypeRule).
func (r *recursiveRows) stored(ctx *sql.Context, row sql.Row) (sql.Row, error) {
	sch := r.n.Schema()
	if len(row) != len(sch) {
		return row, nil
	}
	var out sql.Row
	for i, col := range sch {
		v := row[i]
		if v == nil || col.Type == types.Null {
			continue
		}
		conv, inRange, err := col.Type.Convert(ctx, v)
		if err != nil || inRange != sql.InRange {
			// Too long or out of range: the error or the value cut
			// to the column, as in an INSERT.
			if types.IsInteger(col.Type) || types.IsDecimal(col.Type) {
				v, err = storedInRange(ctx, col.Type, v, col.Name, r.rows, false)
			} else if bad := columnValueError(ctx, col, v, r.rows); bad != nil {
				if strictMode(ctx) {
					return nil, bad
				}
				v, err = lenientValue(ctx, col, v, r.rows, bad, false, false)
			}
			if err != nil {
				return nil, err
			}
			if conv, _, err = col.Type.Convert(ctx, v); err != nil {
				return nil, err
			}
		}
		if out == nil {
			out = make(sql.Row, len(row))
			copy(out, row)
		}
		out[i] = conv
	}
	if out == nil {
		return row, nil
	}
	return out, nil
}

// nextRun starts a run of the recursive part over the rows the last one
// added.
func (r *recursiveRows) nextRun(ctx *sql.Context) error {
	r.runs++
	if r.runs > r.most {
		return mysql.NewSQLError(erCTEMaxRecursionDepth, "HY000", "Recursive query aborted after %d iterations. Try increasing @@cte_max_recursion_depth to a larger value.", r.runs)
	}
	if r.n.Working != nil {
		r.n.Working.Buf, r.added = r.added, nil
	} else {
		r.added = r.added[:0]
	}
	if err := r.iter.Close(ctx); err != nil {
		return err
	}
	iter, err := r.b.Build(ctx, r.n.Right(), r.row)
	if err != nil {
		r.iter = sql.RowsToRowIter()
		return err
	}
	r.iter = iter
	return nil
}

func (r *recursiveRows) Close(ctx *sql.Context) error {
	if r.n.Working != nil {
		r.n.Working.Buf = nil
	}
	r.added = nil
	if r.iter != nil {
		return r.iter.Close(ctx)
	}
	return nil
}
