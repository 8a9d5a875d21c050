package sqlext

import (
	"io"
	"sort"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The engine's sort evaluates its ORDER BY expressions again at every
// comparison of two rows. MySQL computes each row's sort key once, and
// the difference shows with a key whose value changes by the call:
// ORDER BY RAND() compared values drawn afresh for every comparison, and
// ORDER BY RAND(42), whose sequence advanced at each comparison, did not
// order the rows as MySQL does (rand.go). keyedSort computes the keys of
// such a sort once per row, in the order the rows arrive, and orders the
// rows by them, stably, as the engine orders them otherwise: NULLs where
// the field says, and each key compared by its expression's type.
//
// It takes a Sort or TopN (ORDER BY ... LIMIT) whose fields call such a
// function (changesByCall); other sorts stay the engine's.

// changesByCall says whether a field of fields has a value that may
// change from one evaluation to the next on the same row.
func changesByCall(fields sql.SortFields) bool {
	for _, f := range fields {
		if transform.InspectExpr(f.Column, func(e sql.Expression) bool {
			nd, ok := e.(sql.NonDeterministicExpression)
			return ok && nd.IsNonDeterministic()
		}) {
			return true
		}
	}
	return false
}

// keyedSort reads every row of child, keys each once by fields, and
// passes on the first limit rows in key order (all when limit < 0).
func keyedSort(ctx *sql.Context, b sql.NodeExecBuilder, child sql.Node, fields sql.SortFields, limit int64, row sql.Row) (sql.RowIter, error) {
	iter, err := b.Build(ctx, child, row)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	var keys [][]any
	for {
		r, err := iter.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			iter.Close(ctx)
			return nil, err
		}
		k := make([]any, len(fields))
		for i, f := range fields {
			if k[i], err = f.Column.Eval(ctx, r); err != nil {
				iter.Close(ctx)
				return nil, sql.ErrUnableSort.Wrap(err)
			}
		}
		rows, keys = append(rows, r), append(keys, k)
	}
	if err := iter.Close(ctx); err != nil {
		return nil, err
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	var cmpErr error
	sort.SliceStable(order, func(x, y int) bool {
		less, err := keyLess(ctx, fields, keys[order[x]], keys[order[y]])
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return less
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	if limit >= 0 && int64(len(order)) > limit {
		order = order[:limit]
	}
	out := make([]sql.Row, len(order))
	for i, j := range order {
		out[i] = rows[j]
	}
	return sql.RowsToRowIter(out...), nil
}

// keyLess compares two rows' keys as the engine's sorter compares the
// rows.
func keyLess(ctx *sql.Context, fields sql.SortFields, a, b []any) (bool, error) {
	for i, f := range fields {
		av, bv := a[i], b[i]
		if f.Order == sql.Descending {
			av, bv = bv, av
		}
		switch {
		case av == nil && bv == nil:
			continue
		case av == nil:
			return f.NullOrdering == sql.NullsFirst, nil
		case bv == nil:
			return f.NullOrdering != sql.NullsFirst, nil
		}
		cmp, err := f.Column.Type().Compare(ctx, av, bv)
		if err != nil {
			return false, err
		}
		if cmp != 0 {
			return cmp < 0, nil
		}
	}
	return false, nil
}

// sortByKeys is the keyed sort of a Sort or TopN that needs one, or nil.
func sortByKeys(ctx *sql.Context, b sql.NodeExecBuilder, n sql.Node, row sql.Row) (sql.RowIter, error) {
	switch n := n.(type) {
	case *plan.Sort:
		if changesByCall(n.SortFields) {
			return keyedSort(ctx, b, n.Child, n.SortFields, -1, row)
		}
	case *plan.TopN:
		if !n.CalcFoundRows && changesByCall(n.Fields) {
			v, err := n.Limit.Eval(ctx, row)
			if err != nil {
				return nil, err
			}
			limit, err := int64Of(v)
			if err != nil {
				return nil, err
			}
			return keyedSort(ctx, b, n.Child, n.Fields, limit, row)
		}
	}
	return nil, nil
}
