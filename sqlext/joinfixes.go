package sqlext

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The engine's join planner gave wrong rows in five cases, each mended
// here around the engine's own rules (found by bench/querydiff.sh):
//
//   - A semi join (EXISTS, IN (SELECT ...)) may be planned as an inner
//     join with the subquery's rows made distinct; when that inner join
//     became a merge or lookup join, the planner dropped the DISTINCT,
//     and a row with two matches came out twice (semiJoinsKept).
//   - A hash join hashed text as its bytes, so under a case-insensitive
//     collation 'ab' found no 'AB' (hashKeysByCollation).
//   - NOT EXISTS (SELECT ... WHERE inner = outer) becomes an anti join
//     that drops an outer row when the condition is NULL for some inner
//     row, as NOT IN must, where NOT EXISTS asks only for a row on which
//     it is true (notExistsNullFree).
//   - x NOT IN (SELECT y ...) becomes an anti join too, which some of its
//     plans (a lookup, a hash, a left join keeping the unmatched rows)
//     answer without looking at NULLs: a NULL x, or a NULL among the y,
//     makes NOT IN NULL for every x it does not find (guardNotIn).
//   - LIKE 'a\_c' without wildcards was taken as = 'a\_c', escape and
//     all (explicitEscapes).

func init() {
	for i, r := range analyzer.OnceAfterDefault {
		switch r.Id.String() {
		case "optimizeJoins":
			analyzer.OnceAfterDefault[i].Apply = beforeJoinPlanning(r.Apply)
		case "unnestExistsSubqueries":
			analyzer.OnceAfterDefault[i].Apply = rewritingFirst(r.Apply, withSubqueries, filterExprs(notExistsNullFree))
		}
	}
	for i, r := range analyzer.DefaultRules {
		if r.Id.String() == "unnestInSubqueries" {
			analyzer.DefaultRules[i].Apply = rewritingFirst(r.Apply, withSubqueries, guardNotIn)
		}
	}
	for i, r := range analyzer.OnceBeforeDefault {
		if r.Id.String() == "simplifyFilters" {
			analyzer.OnceBeforeDefault[i].Apply = perRowKept(rewritingFirst(r.Apply, resolved, filterExprs(explicitEscapes)))
		}
	}
	onEveryStatement(hashKeyRule, hashKeysByCollation)
}

// rewritingFirst is the engine's rule with rewrite applied to the node
// first, to each node of the tree, when applies says so of the
// statement. A rewrite that fails leaves the node to the rule as it was.
func rewritingFirst(rule analyzer.RuleFunc, applies func(sql.Node, *sql.QueryFlags) bool, rewrite transform.NodeFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if applies(n, qFlags) {
			if out, same, err := transform.NodeWithOpaque(n, rewrite); err == nil && !same {
				n = out
			}
		}
		return rule(ctx, a, n, scope, sel, qFlags)
	}
}

func withSubqueries(_ sql.Node, qFlags *sql.QueryFlags) bool { return qFlags.SubqueryIsSet() }
func resolved(n sql.Node, _ *sql.QueryFlags) bool            { return n.Resolved() }

// filterExprs is a rewrite of each Filter node's condition by fn, applied
// to each expression of it.
func filterExprs(fn transform.ExprFunc) transform.NodeFunc {
	return func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		e, same, err := transform.Expr(f.Expression, fn)
		if err != nil || same {
			return n, transform.SameTree, err
		}
		out, err := f.WithExpressions(e)
		return out, transform.NewTree, err
	}
}

const hashKeyRule analyzer.RuleId = 9958

// beforeJoinPlanning readies each join condition for the planner: rows
// compared member by member (rowcompare.go), and semi joins kept semi
// joins where an inner join would lose rows (semiJoinsKept).
func beforeJoinPlanning(plan_ analyzer.RuleFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if split, same, err := transform.NodeExprs(n, memberwise); err == nil && !same {
			n = split
		}
		if kept, same, err := transform.Node(n, semiJoinsKept(ctx)); err == nil && !same {
			n = kept
		}
		return plan_(ctx, a, n, scope, sel, qFlags)
	}
}

// semiJoinsKept adds to the condition of each semi join whose right
// side is read by an index on a column it is joined by a conjunct
// (semiOnly) the planner does not know, which keeps it from planning the
// semi join as an inner join over the distinct rows of its right side:
// a lookup into that side, or a merge join with it, dropped the DISTINCT.
// The planner still joins by the condition's equalities (a semi lookup,
// hash or merge join), and evaluates the conjunct, always true, with the
// rest. A right side without such an index can be neither looked up nor
// merged, and is left to the inner join, which can then look up the left
// side by the right side's distinct values.
func semiJoinsKept(ctx *sql.Context) transform.NodeFunc {
	return func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || !j.Op.IsSemi() || j.Filter == nil || !indexedByJoin(ctx, j) {
			return n, transform.SameTree, nil
		}
		for _, c := range expression.SplitConjunction(j.Filter) {
			if _, done := c.(semiOnly); done {
				return n, transform.SameTree, nil
			}
		}
		out, err := j.WithExpressions(expression.NewAnd(j.Filter, semiOnly{}))
		return out, transform.NewTree, err
	}
}

// indexedByJoin reports whether a table of j's right side has an index
// whose first column an equality of j's condition reads.
func indexedByJoin(ctx *sql.Context, j *plan.JoinNode) bool {
	joined := map[string]bool{} // table.column, lower case
	for _, c := range expression.SplitConjunction(j.Filter) {
		if eq, ok := c.(expression.Equality); ok && eq.RepresentsEquality() {
			for _, side := range []sql.Expression{eq.Left(), eq.Right()} {
				if gf, ok := side.(*expression.GetField); ok {
					joined[strings.ToLower(gf.Table()+"."+gf.Name())] = true
				}
			}
		}
	}
	found := false
	transform.Inspect(j.Right(), func(n sql.Node) bool {
		var name string
		var table sql.Table
		switch x := n.(type) {
		case *plan.TableAlias:
			rt, ok := x.Child.(*plan.ResolvedTable)
			if !ok {
				return true
			}
			name, table = x.Name(), rt.Table
		case *plan.ResolvedTable:
			name, table = x.Name(), x.Table
		case *plan.IndexedTableAccess:
			name, table = x.Name(), x.TableNode.UnderlyingTable()
		default:
			return !found
		}
		ia, ok := table.(sql.IndexAddressable)
		if !ok {
			return false
		}
		indexes, err := ia.GetIndexes(ctx)
		if err != nil {
			return false
		}
		for _, idx := range indexes {
			cols := idx.Expressions()
			if len(cols) == 0 {
				continue
			}
			col := cols[0][strings.LastIndex(cols[0], ".")+1:]
			if joined[strings.ToLower(name+"."+col)] {
				found = true
			}
		}
		return false
	})
	return found
}

// semiOnly is TRUE, in a form the planner does not take apart.
type semiOnly struct{}

var _ sql.Expression = semiOnly{}

func (semiOnly) Resolved() bool             { return true }
func (semiOnly) String() string             { return "true" }
func (semiOnly) Type() sql.Type             { return types.Boolean }
func (semiOnly) IsNullable() bool           { return false }
func (semiOnly) Children() []sql.Expression { return nil }
func (semiOnly) Eval(*sql.Context, sql.Row) (any, error) {
	return true, nil
}
func (s semiOnly) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

// hashKeysByCollation hashes the text keys of each hash join by their
// collation's weights where that collation folds case or accents.
func hashKeysByCollation(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		h, ok := node.(*plan.HashLookup)
		if !ok {
			return node, transform.SameTree, nil
		}
		right, left, changed := collatedKeys(h.RightEntryKey, h.LeftProbeKey)
		if !changed {
			return node, transform.SameTree, nil
		}
		out, err := h.WithExpressions(right, left)
		return out, transform.NewTree, err
	})
}

// collatedKeys is the pair of hash keys r and l (single expressions or
// tuples of them, pairwise) with each pair of text keys under the same
// folding collation given as its collation key, and whether any was.
func collatedKeys(r, l sql.Expression) (sql.Expression, sql.Expression, bool) {
	rt, rok := r.(expression.Tuple)
	lt, lok := l.(expression.Tuple)
	if rok != lok {
		return r, l, false
	}
	if !rok {
		coll, ok := sharedFolding(r, l)
		if !ok {
			return r, l, false
		}
		return &collationKey{arg: r, coll: coll}, &collationKey{arg: l, coll: coll}, true
	}
	if len(rt) != len(lt) {
		return r, l, false
	}
	rs, ls := append(expression.Tuple(nil), rt...), append(expression.Tuple(nil), lt...)
	changed := false
	for i := range rs {
		if coll, ok := sharedFolding(rs[i], ls[i]); ok {
			rs[i], ls[i] = &collationKey{arg: rs[i], coll: coll}, &collationKey{arg: ls[i], coll: coll}
			changed = true
		}
	}
	return rs, ls, changed
}

// sharedFolding is the folding collation both keys are compared under:
// both text of that one collation. Keys of other kinds, or of two
// different collations, are left as the engine hashes them.
func sharedFolding(a, b sql.Expression) (sql.CollationID, bool) {
	if _, done := a.(*collationKey); done {
		return 0, false
	}
	ca, oka := foldingCollation(a.Type())
	cb, okb := foldingCollation(b.Type())
	return ca, oka && okb && ca == cb
}

// notExistsNullFree rewrites the conditions a NOT EXISTS subquery's rows
// are matched to the outer row by, before the engine turns the subquery
// into an anti join, so that none of them can be NULL (nullFreeMatch).
// Each is true for the same rows as before.
func notExistsNullFree(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	not, ok := e.(*expression.Not)
	if !ok {
		return e, transform.SameTree, nil
	}
	ex, ok := not.Child.(*plan.ExistsSubquery)
	if !ok || ex.Query.Correlated().Empty() {
		return e, transform.SameTree, nil
	}
	outer := ex.Query.Correlated()
	q, same, err := transform.Node(ex.Query.Query, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		inner, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		conds := expression.SplitConjunction(inner.Expression)
		changed := false
		for i, c := range conds {
			if nc, ok := nullFreeMatch(c, outer); ok {
				conds[i], changed = nc, true
			}
		}
		if !changed {
			return n, transform.SameTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(conds...), inner.Child), transform.NewTree, nil
	})
	if err != nil || same {
		return e, transform.SameTree, err
	}
	return expression.NewNot(plan.NewExistsSubquery(ex.Query.WithQuery(q))), transform.NewTree, nil
}

// nullFreeMatch is condition c of a subquery whose outer columns are
// outer, made never NULL where it reads them, and whether it was: inner
// = outer gains inner IS NOT NULL and outer IS NOT NULL (for a side that
// may be NULL), which keeps the equality the planner joins by, and any
// other condition on the outer row becomes c IS TRUE.
func nullFreeMatch(c sql.Expression, outer sql.ColSet) (sql.Expression, bool) {
	if !readsColumns(c, outer) {
		return c, false
	}
	if eq, ok := c.(*expression.Equals); ok {
		l, r := eq.Left(), eq.Right()
		if lo, ro := readsColumns(l, outer), readsColumns(r, outer); lo != ro {
			out := []sql.Expression{c}
			for _, side := range []sql.Expression{l, r} {
				if side.IsNullable() {
					out = append(out, expression.NewNot(expression.NewIsNull(side)))
				}
			}
			return expression.JoinAnd(out...), len(out) > 1
		}
	}
	if _, ok := c.(*expression.IsTrue); ok {
		return c, false
	}
	return expression.NewIsTrue(c), true
}

// readsColumns reports whether e reads a column of cols.
func readsColumns(e sql.Expression, cols sql.ColSet) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		gf, ok := e.(*expression.GetField)
		return ok && cols.Contains(gf.Id())
	})
}

// explicitEscapes gives each LIKE of a filter whose pattern is a literal
// with a backslash its escape character explicitly, before the engine's
// simplifyFilters, which would take such a pattern for the text it
// matches (or its prefix) but reads no escapes; with an ESCAPE clause it
// leaves the LIKE alone, and the LIKE matches as before.
func explicitEscapes(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *plan.Subquery:
		q, same, err := transform.NodeWithOpaque(x.Query, filterExprs(explicitEscapes))
		if err != nil || same {
			return e, transform.SameTree, err
		}
		return x.WithQuery(q), transform.NewTree, nil
	case *expression.Like:
		lit, ok := x.RightChild.(*expression.Literal)
		if !ok || x.Escape != nil {
			return e, transform.SameTree, nil
		}
		if s, ok := lit.Value().(string); !ok || !strings.Contains(s, `\`) {
			return e, transform.SameTree, nil
		}
		return expression.NewLike(x.LeftChild, x.RightChild, expression.NewLiteral(`\`, lit.Type())), transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// guardNotIn adds to each filter x NOT IN (SELECT y ...) that the
// engine may turn into an anti join, where x or y may be NULL, the
// condition under which the anti join's answer is NOT IN's: no y at all,
// or x not NULL and no y NULL (notInGuard). Otherwise NOT IN is false or
// NULL, which a filter alike drops.
func guardNotIn(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	f, ok := n.(*plan.Filter)
	if !ok {
		return n, transform.SameTree, nil
	}
	conds := expression.SplitConjunction(f.Expression)
	var guards []sql.Expression
	for _, c := range conds {
		if _, done := c.(*notInGuard); done {
			return n, transform.SameTree, nil
		}
		not, ok := c.(*expression.Not)
		if !ok {
			continue
		}
		in, ok := not.Child.(*plan.InSubquery)
		if !ok {
			continue
		}
		sq, ok := in.RightChild.(*plan.Subquery)
		if !ok || !sq.CanCacheResults() || sq.Query == nil {
			continue
		}
		sch := sq.Query.Schema()
		if len(sch) != 1 || !in.LeftChild.IsNullable() && (!sch[0].Nullable || notNullRead(sq.Query)) {
			continue
		}
		guards = append(guards, &notInGuard{left: in.LeftChild, sq: sq, nulls: &nullScan{}})
	}
	if len(guards) == 0 {
		return n, transform.SameTree, nil
	}
	out, err := f.WithExpressions(expression.JoinAnd(append(guards, conds...)...))
	return out, transform.NewTree, err
}

// notNullRead reports whether q, a subquery of one column, reads a column
// its own WHERE says IS NOT NULL.
func notNullRead(q sql.Node) bool {
	p, ok := q.(*plan.Project)
	if !ok || len(p.Projections) != 1 {
		return false
	}
	gf, ok := p.Projections[0].(*expression.GetField)
	if !ok {
		return false
	}
	f, ok := p.Child.(*plan.Filter)
	if !ok {
		return false
	}
	for _, c := range expression.SplitConjunction(f.Expression) {
		if not, ok := c.(*expression.Not); ok {
			if isNull, ok := not.Child.(*expression.IsNull); ok {
				if g, ok := isNull.Child.(*expression.GetField); ok && g.Id() == gf.Id() {
					return true
				}
			}
		}
	}
	return false
}

// notInGuard is true when x NOT IN (subquery) is answered by whether the
// subquery has x: when it has no rows, or x is not NULL and none of its
// rows is NULL. The subquery's rows are read once (it cannot read the
// outer row) and kept by it; whether they hold a NULL is kept here.
type notInGuard struct {
	left  sql.Expression
	sq    *plan.Subquery
	nulls *nullScan
}

// nullScan remembers whether a list of values held a NULL, by the list.
type nullScan struct {
	mu      sync.Mutex
	data    *any
	n       int
	hasNull bool
}

func (s *nullScan) in(vals []any) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if data := unsafe.SliceData(vals); data != s.data || len(vals) != s.n {
		s.data, s.n = data, len(vals)
		s.hasNull = slices.Contains(vals, nil)
	}
	return s.hasNull
}

var _ sql.Expression = (*notInGuard)(nil)

func (g *notInGuard) Resolved() bool   { return g.left.Resolved() && g.sq.Resolved() }
func (g *notInGuard) IsNullable() bool { return false }
func (g *notInGuard) Type() sql.Type   { return types.Boolean }
func (g *notInGuard) String() string {
	return "(" + g.left.String() + " NOT IN " + g.sq.String() + " IS NOT NULL)"
}
func (g *notInGuard) Children() []sql.Expression { return []sql.Expression{g.left, g.sq} }

func (g *notInGuard) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(g, len(children), 2)
	}
	sq, ok := children[1].(*plan.Subquery)
	if !ok {
		return nil, sql.ErrInvalidChildType.New(g, 1, (*plan.Subquery)(nil))
	}
	return &notInGuard{left: children[0], sq: sq, nulls: &nullScan{}}, nil
}

func (g *notInGuard) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	vals, err := g.sq.EvalMultiple(ctx, row)
	if err != nil {
		return nil, err
	}
	if len(vals) == 0 {
		return true, nil
	}
	v, err := g.left.Eval(ctx, row)
	if err != nil || v == nil {
		return false, err
	}
	return !g.nulls.in(vals), nil
}
