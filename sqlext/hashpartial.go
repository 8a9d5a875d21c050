package sqlext

import (
	"io"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A semi or anti join the planner leaves as a nested loop (EXISTS, NOT
// EXISTS, IN) read the whole inner side again for each outer row, until
// a match: NOT EXISTS (SELECT 1 FROM l WHERE l.id = o.k), the usual
// "rows with no match", took seconds for 500 outer rows over 20,000
// (BenchmarkNotExists; docs/benchmarks.md). The planner offers a
// hash join only when every condition is an equality, and the anti join
// of NOT EXISTS carries IS NOT NULL conditions as well (notExistsNullFree).
// hashPartialJoins hashes the inner side once by the columns the join's
// equalities compare (integers, or text of one collation) when it reads
// its own tables alone; the join still tests its whole condition on the
// rows of the outer row's key, so it answers as before. The hash is
// built whole on the first outer row (hashedRows), where the engine's
// built it only when one outer row read every inner row.
const hashPartialRule analyzer.RuleId = 9948

func init() {
	beforeEngineRule("assignExecIndexes", hashPartialRule, hashPartialJoins)
}

func hashPartialJoins(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		var op plan.JoinType
		switch j.Op {
		case plan.JoinTypeAnti:
			op = plan.JoinTypeAntiHash
		case plan.JoinTypeSemi:
			op = plan.JoinTypeSemiHash
		case plan.JoinTypeSemiLookup, plan.JoinTypeLeftOuterLookup:
			op = plan.JoinTypeSemiHash
			if j.Op == plan.JoinTypeLeftOuterLookup {
				op = plan.JoinTypeLeftOuterHash
			}
			if out, same, err := lookupsHashed(ctx, j, op); err != nil || same == transform.NewTree {
				return out, same, err
			}
			// A lookup by constants reads the same rows for every outer
			// row: hashed by the join's equalities as below.
		default:
			return n, transform.SameTree, nil
		}
		right := tableIDsOf(j.Right())
		if !scansItself(j.Right(), right) {
			return n, transform.SameTree, nil
		}
		leftKeys, rightKeys := equalityKeys(j.Filter, tableIDsOf(j.Left()), right)
		if len(leftKeys) == 0 {
			return n, transform.SameTree, nil
		}
		hashed := *j
		hashed.Op = op
		lookup := plan.NewHashLookup(j.Right(), expression.Tuple(rightKeys), expression.Tuple(leftKeys), op)
		out, err := hashed.WithChildren(j.Left(), lookup)
		return out, transform.NewTree, err
	})
}

// A semi join (EXISTS, IN) or a left join that keeps the unmatched rows
// (NOT IN) by an index lookup builds the lookup for every outer row,
// which costs many times reading one row of a scan: over 100,000 outer
// rows and 200,000 inner ones, `a.id IN (SELECT aid FROM b WHERE v < 3)`
// took 6.5 times MariaDB's time, and 1.9 times once b was hashed
// (bench/joins.sh; docs/benchmarks.md). Such a join reads the inner
// table once into a hash by the index's columns instead (lookupsHashed),
// when the outer side is a whole stored table of at least an eighth as
// many rows as the inner one, which holds at most hashedRowsMax rows;
// the equalities the lookup stood for join the join's condition, so a
// NULL key still finds no row.
const (
	lookupsPerScannedRow = 8
	hashedRowsMax        = 1_000_000
)

func lookupsHashed(ctx *sql.Context, j *plan.JoinNode, op plan.JoinType) (sql.Node, transform.TreeIdentity, error) {
	outer, ok := wholeTableRows(ctx, j.Left())
	if !ok {
		return j, transform.SameTree, nil
	}
	var ita *plan.IndexedTableAccess
	transform.Inspect(j.Right(), func(n sql.Node) bool {
		if x, isITA := n.(*plan.IndexedTableAccess); isITA && x.Typ == plan.ItaTypeLookup {
			ita = x
		}
		return ita == nil
	})
	if ita == nil {
		return j, transform.SameTree, nil
	}
	x, isOurs := ita.Index().(*index)
	inner, counted := tableRows(ctx, ita.TableNode)
	keys := ita.Expressions()
	if !isOurs || !counted || inner > hashedRowsMax || outer*lookupsPerScannedRow < inner || len(keys) == 0 || len(keys) > len(x.cols) || slices.Contains(ita.NullMask(), true) {
		return j, transform.SameTree, nil
	}
	first, ok := ita.Columns().Next(1)
	if !ok {
		return j, transform.SameTree, nil
	}
	name := ""
	transform.Inspect(j.Right(), func(n sql.Node) bool {
		if a, isAlias := n.(*plan.TableAlias); isAlias && a.Child == sql.Node(ita) {
			name = a.Name()
		}
		return true
	})
	sch := ita.Schema()
	rightKeys := make([]sql.Expression, len(keys))
	conds := []sql.Expression{j.Filter}
	left := tableIDsOf(j.Left())
	for i, k := range keys {
		// A key of the outer row (not a constant of the subquery's own
		// condition), on a column the inner side gives the join.
		if !readsSome(k, left) || !readsOnly(k, left) || !givesColumn(j.Right(), first+sql.ColumnId(x.cols[i])) {
			return j, transform.SameTree, nil
		}
		c := sch[x.cols[i]]
		table := c.Source
		if name != "" {
			table = name
		}
		gf := expression.NewGetFieldWithTable(int(first)+x.cols[i], int(ita.Id()), c.Type, c.DatabaseSource, table, c.Name, c.Nullable)
		if !hashesAlike(k.Type(), gf.Type()) {
			return j, transform.SameTree, nil
		}
		rightKeys[i] = gf
		conds = append(conds, expression.NewEquals(gf, k))
	}
	right, _, err := transform.Node(j.Right(), func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if n == sql.Node(ita) {
			return ita.TableNode, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	if !scansItself(right, tableIDsOf(right)) {
		return j, transform.SameTree, nil
	}
	hashed := *j
	hashed.Op = op
	hashed.Filter = expression.JoinAnd(conds...)
	out, err := hashed.WithChildren(j.Left(), plan.NewHashLookup(right, expression.Tuple(rightKeys), expression.Tuple(keys), op))
	return out, transform.NewTree, err
}

// givesColumn reports whether the rows of n hold the column id.
func givesColumn(n sql.Node, id sql.ColumnId) bool {
	switch n := n.(type) {
	case *plan.Project:
		for _, e := range n.Projections {
			if gf, ok := e.(*expression.GetField); ok && gf.Id() == id {
				return true
			}
		}
		return false
	case *plan.Filter:
		return givesColumn(n.Child, id)
	case *plan.TableAlias:
		return givesColumn(n.Child, id)
	case plan.TableIdNode:
		return n.Columns().Contains(id)
	}
	return false
}

// wholeTableRows is how many rows n reads when it reads a whole stored
// table, alone or under an alias; ok is false otherwise.
func wholeTableRows(ctx *sql.Context, n sql.Node) (uint64, bool) {
	if a, ok := n.(*plan.TableAlias); ok {
		n = a.Child
	}
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return 0, false
	}
	return tableRows(ctx, rt)
}

// tableRows is the number of rows of the stored table n reads.
func tableRows(ctx *sql.Context, n sql.Node) (uint64, bool) {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return 0, false
	}
	t, ok := rt.UnderlyingTable().(*Table)
	if !ok {
		return 0, false
	}
	rows, _, err := t.RowCount(ctx)
	return rows, err == nil
}

// tableIDsOf are the tables n reads.
func tableIDsOf(n sql.Node) map[sql.TableId]bool {
	ids := map[sql.TableId]bool{}
	transform.Inspect(n, func(n sql.Node) bool {
		if t, ok := n.(plan.TableIdNode); ok {
			ids[t.Id()] = true
		}
		return true
	})
	return ids
}

// scansItself reports whether n reads its tables (own) and nothing else:
// scans, filters, projections and lookups by constants of them that read
// no other row and run no subquery, so that its rows are the same for
// every outer row.
func scansItself(n sql.Node, own map[sql.TableId]bool) bool {
	ok := true
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case nil: // after a node's children
		case *plan.Filter, *plan.Project, *plan.TableAlias, *plan.ResolvedTable:
		case *plan.IndexedTableAccess:
			// A range, or a lookup by keys that read only own (the
			// expressions, checked below).
		default:
			ok = false
		}
		if ex, isEx := n.(sql.Expressioner); ok && isEx {
			for _, e := range ex.Expressions() {
				ok = ok && readsOnly(e, own)
			}
		}
		return ok
	})
	return ok
}

// readsOnly reports whether e reads columns of the tables ids alone, and
// no subquery.
func readsOnly(e sql.Expression, ids map[sql.TableId]bool) bool {
	return !transform.InspectExpr(e, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *expression.GetField:
			return !ids[e.TableId()]
		case *plan.Subquery, *expression.BindVar, *expression.ProcedureParam:
			return true
		}
		return false
	})
}

// equalityKeys are the pairs of expressions the conjunction cond equates,
// one over the tables left and the other over right, that a hash keeps
// apart: integers of one signedness, or text of one collation.
func equalityKeys(cond sql.Expression, left, right map[sql.TableId]bool) (leftKeys, rightKeys []sql.Expression) {
	for _, c := range expression.SplitConjunction(cond) {
		eq, ok := c.(*expression.Equals)
		if !ok {
			continue
		}
		l, r := eq.Left(), eq.Right()
		if readsSome(l, right) {
			l, r = r, l
		}
		if !readsSome(l, left) || !readsOnly(l, left) || !readsSome(r, right) || !readsOnly(r, right) || !hashesAlike(l.Type(), r.Type()) {
			continue
		}
		leftKeys, rightKeys = append(leftKeys, l), append(rightKeys, r)
	}
	return leftKeys, rightKeys
}

// readsSome reports whether e reads a column of one of the tables ids.
func readsSome(e sql.Expression, ids map[sql.TableId]bool) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		gf, ok := e.(*expression.GetField)
		return ok && ids[gf.TableId()]
	})
}

// hashesAlike reports whether values of types a and b that are equal
// have the same hash key: the key is the value converted to the outer
// side's type, integers compare as numbers, and text is hashed under its
// collation (hashKeysByCollation).
func hashesAlike(a, b sql.Type) bool {
	switch {
	case types.IsInteger(a) && types.IsInteger(b):
		return types.IsUnsigned(a) == types.IsUnsigned(b) && (a.Equals(b) || a.Equals(types.Int64) || a.Equals(types.Uint64))
	case types.IsText(a) && types.IsText(b):
		sa, oka := a.(sql.StringType)
		sb, okb := b.(sql.StringType)
		return oka && okb && sa.Collation() == sb.Collation()
	}
	return false
}

// hashedRows builds a hash lookup's table whole the first time a join
// reads it, and leaves the lookups to the engine (nil): the engine's
// built the table only as a join read every row of the inner side for
// one outer row, and until then read the inner side again for each, so
// a semi or anti join that stopped at each outer row's first match
// never built it.
func hashedRows(ctx *sql.Context, b sql.NodeExecBuilder, n *plan.HashLookup, row sql.Row) (sql.RowIter, error) {
	n.Mutex.Lock()
	built := n.Lookup != nil
	n.Mutex.Unlock()
	if built {
		return nil, nil
	}
	iter, err := b.Build(ctx, n.Child, row)
	if err != nil {
		return nil, err
	}
	defer iter.Close(ctx)
	lookup := map[any][]sql.Row{}
	for {
		r, err := iter.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		key, err := n.GetHashKey(ctx, n.RightEntryKey, r)
		if err != nil {
			return nil, err
		}
		lookup[key] = append(lookup[key], r)
	}
	n.Mutex.Lock()
	n.Lookup = &lookup
	n.Mutex.Unlock()
	return b.Build(ctx, n, row)
}
