package sqlext

import (
	"errors"
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/iters"
	"github.com/dolthub/go-mysql-server/sql/plan"
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
