package sqlext

import (
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/iters"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The engine's SELECT DISTINCT and COUNT(DISTINCT ...) tell values apart
// by their text, whatever their collation, so under a case-insensitive
// one 'abc' and 'ABC' were two values where MySQL (and the engine's own
// GROUP BY) sees one. With utf8mb4_0900_ai_ci the default, that is most
// text: collatedDistinct keeps the first row of each set of rows equal
// under their columns' collations, and countDistinctRule has COUNT
// (DISTINCT) count each value's collation key (its weight string).

// foldingCollation is the collation of a text type whose comparison
// does not reduce to comparing bytes, or false for any other type.
func foldingCollation(t sql.Type) (sql.CollationID, bool) {
	st, ok := t.(sql.StringType)
	if !ok || !types.IsText(t) {
		return 0, false
	}
	c := st.Collation()
	if c == sql.Collation_binary || c == sql.Collation_Unspecified || strings.HasSuffix(c.Name(), "_bin") {
		return 0, false
	}
	return c, true
}

// foldingCollations is the folding collation of each column of sch (0
// where it has none), and whether any has one.
func foldingCollations(sch sql.Schema) ([]sql.CollationID, bool) {
	colls := make([]sql.CollationID, len(sch))
	folding := false
	for i, c := range sch {
		if coll, ok := foldingCollation(c.Type); ok {
			colls[i], folding = coll, true
		}
	}
	return colls, folding
}

// collatedDistinct builds a DISTINCT whose rows have a text column of a
// folding collation, with b building its child; nil for any other,
// which the engine builds.
func collatedDistinct(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.Distinct, row sql.Row) (sql.RowIter, error) {
	colls, folding := foldingCollations(n.Schema())
	if !folding {
		return nil, nil
	}
	child, err := b.Build(ctx, n.Child, row)
	if err != nil {
		return nil, err
	}
	return &distinctByCollation{child: child, colls: colls, seen: map[uint64]struct{}{}}, nil
}

// collatedSetOp builds a UNION, INTERSECT or EXCEPT [DISTINCT] whose
// rows have a text column of a folding collation, as collatedDistinct a
// DISTINCT: the engine's told rows apart by their text. A UNION is built
// as UNION ALL and keeps the first of each set of rows equal under the
// collations; an INTERSECT (EXCEPT) keeps the first of each such set of
// its left rows that has (has no) equal among its right rows; INTERSECT
// ALL (EXCEPT ALL) keeps each left row paired with (left over after) an
// equal right row, each right row pairing once. Then it orders, skips and
// limits as the operation says. nil for UNION ALL and for rows without
// such a column, which the engine builds.
func collatedSetOp(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.SetOp, row sql.Row) (sql.RowIter, error) {
	intersectOrExcept := n.SetOpType == plan.IntersectType || n.SetOpType == plan.ExceptType
	if !n.Distinct && !intersectOrExcept {
		return nil, nil
	}
	colls, folding := foldingCollations(n.Schema())
	if !folding {
		return nil, nil
	}
	var iter sql.RowIter
	switch {
	case n.SetOpType == plan.UnionType:
		all := *n
		all.Distinct, all.Limit, all.Offset, all.SortFields = false, nil, nil, nil
		child, err := b.Build(ctx, &all, row)
		if err != nil {
			return nil, err
		}
		iter = &distinctByCollation{child: child, colls: colls, seen: map[uint64]struct{}{}}
	case intersectOrExcept:
		right, err := b.Build(ctx, n.Right(), row)
		if err != nil {
			return nil, err
		}
		counts, err := collationHashes(ctx, right, colls)
		if err != nil {
			return nil, err
		}
		left, err := b.Build(ctx, n.Left(), row)
		if err != nil {
			return nil, err
		}
		intersect := n.SetOpType == plan.IntersectType
		if !n.Distinct {
			// ALL: each right row pairs with one equal left row.
			iter = &multisetByCollation{child: left, colls: colls, counts: counts, intersect: intersect}
			break
		}
		iter = &distinctByCollation{child: left, colls: colls, seen: map[uint64]struct{}{},
			keep: func(h uint64) bool { return (counts[h] > 0) == intersect }}
	default:
		return nil, nil
	}
	var offset, limit int64 = 0, -1
	var err error
	if n.Offset != nil {
		if offset, err = iters.GetInt64Value(ctx, n.Offset); err != nil {
			return nil, err
		}
	}
	if n.Limit != nil {
		if limit, err = iters.GetInt64Value(ctx, n.Limit); err != nil {
			return nil, err
		}
	}
	if len(n.SortFields) > 0 {
		iter = iters.NewSortIter(n.SortFields, iter)
	}
	if offset > 0 || limit >= 0 {
		iter = &rowWindow{child: iter, skip: offset, left: limit}
	}
	return iter, nil
}

// collationHashes reads every row of it, closes it, and returns how many
// rows have each hash (collationHash).
func collationHashes(ctx *sql.Context, it sql.RowIter, colls []sql.CollationID) (map[uint64]int, error) {
	out := map[uint64]int{}
	for {
		r, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			it.Close(ctx)
			return nil, err
		}
		h, err := collationHash(ctx, r, colls)
		if err != nil {
			it.Close(ctx)
			return nil, err
		}
		out[h]++
	}
	return out, it.Close(ctx)
}

// multisetByCollation is INTERSECT ALL (intersect) or EXCEPT ALL of its
// child's rows and the rows counted in counts, by their hashes under the
// columns' collations: a left row is kept while a right row equal to it
// is left to pair with (INTERSECT ALL), or once every such right row is
// used up (EXCEPT ALL).
type multisetByCollation struct {
	child     sql.RowIter
	colls     []sql.CollationID
	counts    map[uint64]int
	intersect bool
}

func (m *multisetByCollation) Next(ctx *sql.Context) (sql.Row, error) {
	for {
		r, err := m.child.Next(ctx)
		if err != nil {
			return nil, err
		}
		h, err := collationHash(ctx, r, m.colls)
		if err != nil {
			return nil, err
		}
		paired := m.counts[h] > 0
		if paired {
			m.counts[h]--
		}
		if paired == m.intersect {
			return r, nil
		}
	}
}

func (m *multisetByCollation) Close(ctx *sql.Context) error { return m.child.Close(ctx) }

// rowWindow passes on at most left rows (all of them when negative) after
// skipping skip.
type rowWindow struct {
	child      sql.RowIter
	skip, left int64
}

func (w *rowWindow) Next(ctx *sql.Context) (sql.Row, error) {
	for ; w.skip > 0; w.skip-- {
		if _, err := w.child.Next(ctx); err != nil {
			return nil, err
		}
	}
	if w.left == 0 {
		return nil, io.EOF
	}
	r, err := w.child.Next(ctx)
	if err == nil && w.left > 0 {
		w.left--
	}
	return r, err
}

func (w *rowWindow) Close(ctx *sql.Context) error { return w.child.Close(ctx) }

// distinctByCollation passes on the first row of each set of rows that
// are equal under colls (0 where a column is compared as it is). Like
// the engine's DISTINCT it knows rows by a 64-bit hash.
type distinctByCollation struct {
	child sql.RowIter
	colls []sql.CollationID
	seen  map[uint64]struct{}
	// keep, when set, passes on only the rows whose hash it accepts.
	keep func(h uint64) bool
}

func (d *distinctByCollation) Next(ctx *sql.Context) (sql.Row, error) {
	for {
		r, err := d.child.Next(ctx)
		if err != nil {
			return nil, err
		}
		h, err := collationHash(ctx, r, d.colls)
		if err != nil {
			return nil, err
		}
		if _, dup := d.seen[h]; dup {
			continue
		}
		d.seen[h] = struct{}{}
		if d.keep != nil && !d.keep(h) {
			continue
		}
		return r, nil
	}
}

func (d *distinctByCollation) Close(ctx *sql.Context) error {
	d.seen = nil
	return d.child.Close(ctx)
}

// collationHash hashes a row as the engine's DISTINCT does, each text
// value of a folding collation by its weight string.
func collationHash(ctx *sql.Context, r sql.Row, colls []sql.CollationID) (uint64, error) {
	h := xxhash.New()
	for i, v := range r {
		if i > 0 {
			h.Write([]byte{0})
		}
		v, err := sql.UnwrapAny(ctx, v)
		if err != nil {
			return 0, err
		}
		if s, ok := v.(string); ok && i < len(colls) && colls[i] != 0 {
			h.Write([]byte{1})
			if err := writeWeights(h, colls[i], s); err != nil {
				return 0, err
			}
			continue
		}
		fmt.Fprintf(h, "%v,", v)
	}
	return h.Sum64(), nil
}

// countDistinctRule is the rule that has COUNT(DISTINCT ...) count the
// collation keys of its text arguments of folding collations, and
// GROUP_CONCAT(DISTINCT ...) skip values equal to one taken under them
// (and GROUP_CONCAT of several values concatenate all of them). It runs for
// every statement (onEveryStatement), on the final plan.
const countDistinctRule analyzer.RuleId = 9956

func init() {
	onEveryStatement(countDistinctRule, countDistinctByCollation)
}

func countDistinctByCollation(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if _, ok := node.(sql.Expressioner); !ok {
			return node, transform.SameTree, nil
		}
		return transform.NodeExprs(node, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				if gc, ok := e.(*aggregation.GroupConcat); ok {
					return collatedGroupConcatOf(gc)
				}
				cd, ok := e.(*aggregation.CountDistinct)
				if !ok {
					return e, transform.SameTree, nil
				}
				args := append([]sql.Expression(nil), cd.Children()...)
				changed := false
				for i, a := range args {
					if _, done := a.(*collationKey); done {
						continue
					}
					if c, ok := foldingCollation(a.Type()); ok {
						args[i] = &collationKey{arg: a, coll: c}
						changed = true
					}
				}
				if !changed {
					return e, transform.SameTree, nil
				}
				// Its WithChildren drops the aggregate's id, which the
				// references to it above the GROUP BY name.
				out := *cd
				out.ChildExpressions = args
				return &out, transform.NewTree, nil
			})
		})
	})
}

// collationKey is a text value's weight string under its collation, in
// hex: values equal under the collation have the same key.
type collationKey struct {
	arg  sql.Expression
	coll sql.CollationID
}

var (
	_ sql.Expression         = (*collationKey)(nil)
	_ sql.CollationCoercible = (*collationKey)(nil)
)

func (k *collationKey) Resolved() bool             { return k.arg.Resolved() }
func (k *collationKey) String() string             { return k.arg.String() }
func (k *collationKey) Type() sql.Type             { return types.LongText }
func (k *collationKey) IsNullable() bool           { return k.arg.IsNullable() }
func (k *collationKey) Children() []sql.Expression { return []sql.Expression{k.arg} }

func (k *collationKey) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (k *collationKey) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(k, len(children), 1)
	}
	return &collationKey{arg: children[0], coll: k.coll}, nil
}

func (k *collationKey) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := k.arg.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	v, err = sql.UnwrapAny(ctx, v)
	if err != nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	// In hex: COUNT(DISTINCT) reads its arguments as text.
	var b strings.Builder
	if err := writeWeights(hex.NewEncoder(&b), k.coll, s); err != nil {
		return nil, err
	}
	return b.String(), nil
}

// distinctGroupConcat is GROUP_CONCAT(DISTINCT ...) of several values, or
// of one value of text under a folding collation: a row whose values equal
// those of a row taken before, each under its collation, is skipped, so
// 'apple' and 'Apple' give one, as in MySQL, which keeps the first met,
// and (1, 23) and (12, 3) give two. The engine compared the bytes of the
// values' concatenation. The rows taken go to the engine's GROUP_CONCAT
// without DISTINCT, which orders, separates and limits them.
type distinctGroupConcat struct {
	*aggregation.GroupConcat                  // of the CONCAT of args, without DISTINCT
	sorts                    int              // its ORDER BY terms, the first of its children
	args                     []sql.Expression // the values concatenated
	colls                    []sql.CollationID
}

var _ sql.Aggregation = (*distinctGroupConcat)(nil)

// groupConcatParts is what the engine keeps unexported in a GROUP_CONCAT:
// its DISTINCT, ORDER BY (with the terms from its children), separator
// and length limit.
type groupConcatParts struct {
	distinct  bool
	sorts     sql.SortFields
	separator string
	maxLen    int
}

// orderTerms is how many of e's children are ORDER BY terms, which
// GROUP_CONCAT's come first among: they order by their own types, and a
// rule that reads the other children as text leaves them alone (a
// DECIMAL ordered as text put 10.50 before 5.25).
func orderTerms(e sql.Expression) int {
	if gc, ok := e.(*aggregation.GroupConcat); ok {
		if parts, ok := partsOf(gc); ok {
			return len(parts.sorts)
		}
	}
	return 0
}

func partsOf(gc *aggregation.GroupConcat) (groupConcatParts, bool) {
	f := reflect.ValueOf(gc).Elem()
	distinct, sf, sep, maxLen := f.FieldByName("distinct"), f.FieldByName("sf"), f.FieldByName("separator"), f.FieldByName("maxLen")
	if distinct.Kind() != reflect.String || sf.Kind() != reflect.Slice || sep.Kind() != reflect.String || maxLen.Kind() != reflect.Int {
		return groupConcatParts{}, false
	}
	children := gc.Children()
	sorts := make(sql.SortFields, sf.Len())
	for i := range sorts {
		order, nulls := sf.Index(i).FieldByName("Order"), sf.Index(i).FieldByName("NullOrdering")
		if order.Kind() != reflect.Uint8 || nulls.Kind() != reflect.Uint8 {
			return groupConcatParts{}, false
		}
		expr2, _ := children[i].(sql.Expression2)
		sorts[i] = sql.SortField{Column: children[i], Column2: expr2,
			Order: sql.SortOrder(order.Uint()), NullOrdering: sql.NullOrdering(nulls.Uint())}
	}
	return groupConcatParts{distinct: distinct.String() != "", sorts: sorts, separator: sep.String(), maxLen: int(maxLen.Int())}, true
}

// collatedGroupConcatOf is gc with its values joined into one CONCAT when
// it has several (the engine's buffer concatenated only the first:
// GROUP_CONCAT(s, '-', id) gave s alone), and as a distinctGroupConcat
// when DISTINCT needs one.
func collatedGroupConcatOf(gc *aggregation.GroupConcat) (sql.Expression, transform.TreeIdentity, error) {
	parts, ok := partsOf(gc)
	if !ok {
		return gc, transform.SameTree, nil
	}
	children := gc.Children()
	args := children[len(parts.sorts):]
	colls := make([]sql.CollationID, len(args))
	folding := false
	for i, a := range args {
		if c, ok := foldingCollation(a.Type()); ok {
			colls[i], folding = c, true
		}
	}
	if len(args) == 1 && !(parts.distinct && folding) {
		return gc, transform.SameTree, nil
	}
	// As in MySQL, a row with a NULL value is skipped: so is the CONCAT
	// of one.
	value := args[0]
	if len(args) > 1 {
		concat, err := function.NewConcat(args...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		value = concat
	}
	distinct := ""
	if parts.distinct && len(args) == 1 && !folding {
		distinct = "distinct"
	}
	inner := aggregation.NewGroupConcat(distinct, parts.sorts, parts.separator, []sql.Expression{value}, parts.maxLen).
		WithId(gc.Id()).(*aggregation.GroupConcat)
	if !parts.distinct {
		return inner, transform.NewTree, nil
	}
	return &distinctGroupConcat{GroupConcat: inner, sorts: len(parts.sorts), args: args, colls: colls}, transform.NewTree, nil
}

// Children are the ORDER BY terms and the values, as the engine's
// GROUP_CONCAT has them.
func (g *distinctGroupConcat) Children() []sql.Expression {
	return append(slices.Clone(g.GroupConcat.Children()[:g.sorts]), g.args...)
}

// WithChildren and WithId keep the aggregate's id, which references to
// it above the GROUP BY name.
func (g *distinctGroupConcat) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != g.sorts+len(g.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(g, len(children), g.sorts+len(g.args))
	}
	value := children[g.sorts]
	if len(g.args) > 1 {
		concat, err := function.NewConcat(children[g.sorts:]...)
		if err != nil {
			return nil, err
		}
		value = concat
	}
	e, err := g.GroupConcat.WithChildren(append(slices.Clone(children[:g.sorts]), value)...)
	if err != nil {
		return nil, err
	}
	return &distinctGroupConcat{GroupConcat: e.(*aggregation.GroupConcat).WithId(g.Id()).(*aggregation.GroupConcat),
		sorts: g.sorts, args: slices.Clone(children[g.sorts:]), colls: g.colls}, nil
}

func (g *distinctGroupConcat) WithId(id sql.ColumnId) sql.IdExpression {
	c := *g
	c.GroupConcat = g.GroupConcat.WithId(id).(*aggregation.GroupConcat)
	return &c
}

func (g *distinctGroupConcat) String() string {
	return strings.Replace(g.GroupConcat.String(), "group_concat(", "group_concat(distinct ", 1)
}

func (g *distinctGroupConcat) NewBuffer() (sql.AggregationBuffer, error) {
	inner, err := g.GroupConcat.NewBuffer()
	if err != nil {
		return nil, err
	}
	return &distinctGroupConcatBuffer{inner: inner, g: g, seen: map[uint64]struct{}{}}, nil
}

// distinctGroupConcatBuffer passes the engine's buffer each row whose
// values are not equal, under their collations, to a row's before it.
type distinctGroupConcatBuffer struct {
	inner sql.AggregationBuffer
	g     *distinctGroupConcat
	seen  map[uint64]struct{}
}

func (b *distinctGroupConcatBuffer) Update(ctx *sql.Context, row sql.Row) error {
	vals := make(sql.Row, len(b.g.args))
	for i, a := range b.g.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return err
		}
		if v == nil {
			// The engine skips a row with a NULL value.
			return nil
		}
		vals[i] = v
	}
	h, err := collationHash(ctx, vals, b.g.colls)
	if err != nil {
		return err
	}
	if _, dup := b.seen[h]; dup {
		return nil
	}
	b.seen[h] = struct{}{}
	return b.inner.Update(ctx, row)
}

func (b *distinctGroupConcatBuffer) Eval(ctx *sql.Context) (any, error) { return b.inner.Eval(ctx) }
func (b *distinctGroupConcatBuffer) Dispose()                           { b.inner.Dispose() }
