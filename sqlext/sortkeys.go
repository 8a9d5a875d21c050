package sqlext

import (
	"io"
	"sort"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
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
// function (changesByCall), and a Sort by text under a utf8mb4 collation
// (collatedFields), which it compares as the engine does but reads the
// weights of ASCII characters from a table (asciiWeights), where the
// engine looked each character up in a map at every comparison: the
// ORDER BY c of sysbench's oltp_read_only spent a twelfth of the
// server's time there. Other sorts stay the engine's.

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

// collatedText compares text under a collation of utf8mb4 as the
// engine's StringType.Compare does: weight by weight of the characters,
// the shorter first where one is the other's start.
type collatedText struct {
	ascii  *[utf8.RuneSelf]int32
	sorter sql.CollationSorter
}

// compare is -1, 0 or 1 as a sorts before, with or after b; ok is false
// for text that is not well-formed UTF-8, which the engine's comparison
// refuses with its own error.
func (c *collatedText) compare(a, b string) (cmp int, ok bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		wa, na := c.weightAt(a, i)
		wb, nb := c.weightAt(b, j)
		if na == 0 || nb == 0 {
			return 0, false
		}
		if wa != wb {
			if wa < wb {
				return -1, true
			}
			return 1, true
		}
		i, j = i+na, j+nb
	}
	switch la, lb := len(a)-i, len(b)-j; {
	case la < lb:
		return -1, true
	case la > lb:
		return 1, true
	}
	return 0, true
}

// weightAt is the weight of the character at s[i] and its length in
// bytes, 0 when it is not well-formed UTF-8.
func (c *collatedText) weightAt(s string, i int) (int32, int) {
	if x := s[i]; x < utf8.RuneSelf {
		return c.ascii[x], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0, 0
	}
	return c.sorter(r), n
}

// collatedFields gives each field of fields that sorts text under a
// collation of utf8mb4 other than binary its comparer, nil for the
// others; all nil when no field does.
func collatedFields(fields sql.SortFields) []*collatedText {
	var out []*collatedText
	for i, f := range fields {
		st, ok := f.Column.Type().(sql.StringType)
		if !ok || !types.IsText(st) {
			continue
		}
		coll := st.Collation()
		if coll == sql.Collation_binary || coll.CharacterSet() != sql.CharacterSet_utf8mb4 {
			continue
		}
		if out == nil {
			out = make([]*collatedText, len(fields))
		}
		out[i] = &collatedText{ascii: asciiWeights(coll), sorter: coll.Sorter()}
	}
	return out
}

// keyedSort reads every row of child, keys each once by fields, and
// passes on the first limit rows in key order (all when limit < 0);
// texts are collatedFields(fields).
func keyedSort(ctx *sql.Context, b sql.NodeExecBuilder, child sql.Node, fields sql.SortFields, texts []*collatedText, limit int64, row sql.Row) (sql.RowIter, error) {
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
		less, err := keyLess(ctx, fields, texts, keys[order[x]], keys[order[y]])
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
// rows; texts are collatedFields(fields), or nil.
func keyLess(ctx *sql.Context, fields sql.SortFields, texts []*collatedText, a, b []any) (bool, error) {
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
		cmp, ok := 0, false
		if texts != nil && texts[i] != nil {
			as, aText := av.(string)
			bs, bText := bv.(string)
			if aText && bText {
				cmp, ok = texts[i].compare(as, bs)
			}
		}
		if !ok {
			var err error
			if cmp, err = f.Column.Type().Compare(ctx, av, bv); err != nil {
				return false, err
			}
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
		if texts := collatedFields(n.SortFields); texts != nil || changesByCall(n.SortFields) {
			return keyedSort(ctx, b, n.Child, n.SortFields, texts, -1, row)
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
			return keyedSort(ctx, b, n.Child, n.Fields, collatedFields(n.Fields), limit, row)
		}
	}
	return nil, nil
}
