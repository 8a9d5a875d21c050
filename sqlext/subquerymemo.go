package sqlext

import (
	"encoding/binary"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/storage"
)

// The engine runs a correlated scalar subquery again for every row of the
// query around it, and keeps the answer of an uncorrelated one only. So
//
//	SELECT v + (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k) FROM t1
//
// ran its subquery once per row of t1, though it has as many answers as
// t1 has values of k: over 20,000 rows and 50 keys, 20,000 scans of t2
// where 50 give every answer (docs/benchmarks.md, "Correlated
// subqueries"). memoSubqueries gives each such subquery a memo of its
// answers by the values of the outer columns it reads, as MariaDB's
// subquery cache does.
//
// An answer is kept only while it cannot change. The memo is the
// statement's (the process id the server gives each statement), and it
// is emptied when a table the subquery reads is written, by a commit or
// by the session's own transaction: a trigger or a stored function that
// writes between two rows, a procedure that runs the same plan again
// after a write. A subquery whose answer may differ with nothing of
// that changing is run as before: one that reads a variable, calls a
// stored function or a function such as RAND(), or reads a table that
// is not stored here (information_schema, the ML tables).
//
// The rule runs last of all (lastRules), so that no later rule
// meets the wrapper where it expects the engine's own subquery.
const subqueryMemoRule analyzer.RuleId = 9949

// memoSubqueries wraps each correlated scalar subquery of n that can keep
// its answers (memoizable) in a memoSubquery.
func memoSubqueries(_ *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qFlags != nil && !qFlags.IsSet(sql.QFlagScalarSubquery) {
		return n, transform.SameTree, nil
	}
	// The engine numbers the columns of the whole statement again after
	// planning a subquery's body, which it does right only within its
	// own subqueries: the plan is wrapped once it is whole.
	if !numbersColumns(scope, sel) {
		return n, transform.SameTree, nil
	}
	return memoInNode(n, a.ExecBuilder)
}

// assignExecIndexesRule is the engine's rule that numbers the columns of
// a plan, which it leaves out of the passes over subqueries' bodies.
var assignExecIndexesRule = engineRuleID("assignExecIndexes")

// numbersColumns says whether the analyzer's pass over a plan is the one
// that numbers its columns: the pass over a whole statement. The engine
// plans the body of a subquery or a derived table in a pass of its own
// (with a scope, or a selector that leaves that rule out), then numbers
// the columns of the whole statement, by their ids: a rule that puts a
// column reference in such a body before then has it numbered wrong.
func numbersColumns(scope *plan.Scope, sel analyzer.RuleSelector) bool {
	return scope.IsEmpty() && (sel == nil || sel(assignExecIndexesRule))
}

// memoInNode wraps the subqueries of every expression of n's tree.
func memoInNode(n sql.Node, b sql.NodeExecBuilder) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ex, ok := n.(sql.Expressioner)
		if !ok {
			return n, transform.SameTree, nil
		}
		exprs := ex.Expressions()
		var out []sql.Expression
		for i, e := range exprs {
			w, changed := memoInExpr(e, true, b)
			if !changed {
				continue
			}
			if out == nil {
				out = append([]sql.Expression(nil), exprs...)
			}
			out[i] = w
		}
		if out == nil {
			return n, transform.SameTree, nil
		}
		wrapped, err := ex.WithExpressions(out...)
		if err != nil {
			// A node that will not take the wrappers runs as before.
			return n, transform.SameTree, nil
		}
		return wrapped, transform.NewTree, nil
	})
}

// memoInExpr wraps the subqueries of e and of the subqueries within it;
// wrap says whether e itself may be replaced by a wrapper, which a parent
// that reads its child as the engine's subquery (IN, EXISTS, NOT IN's
// guard) forbids.
func memoInExpr(e sql.Expression, wrap bool, b sql.NodeExecBuilder) (sql.Expression, bool) {
	if sq, ok := e.(*plan.Subquery); ok {
		changed := false
		if q, same, err := memoInNode(sq.Query, b); err == nil && !same {
			sq, changed = sq.WithQuery(q), true
		}
		if wrap {
			if m := newMemoSubquery(sq, b); m != nil {
				return m, true
			}
		}
		return sq, changed
	}
	children := e.Children()
	if len(children) == 0 {
		return e, false
	}
	// IN, EXISTS and NOT IN's guard read their subquery as the engine's.
	wrapChildren := true
	switch e.(type) {
	case *plan.InSubquery, *plan.ExistsSubquery, *notInGuard:
		wrapChildren = false
	}
	var out []sql.Expression
	for i, c := range children {
		w, changed := memoInExpr(c, wrapChildren, b)
		if !changed {
			continue
		}
		if out == nil {
			out = append([]sql.Expression(nil), children...)
		}
		out[i] = w
	}
	if out == nil {
		return e, false
	}
	w, err := e.WithChildren(out...)
	if err != nil {
		return e, false
	}
	return w, true
}

// memoSubquery is a correlated scalar subquery that keeps its answers by
// the values of the outer columns it reads.
type memoSubquery struct {
	*plan.Subquery
	// outer are the positions, in the row the subquery is evaluated
	// with, of the outer columns it reads.
	outer []int
	// tables are the stored tables the subquery reads.
	tables []memoTable
	// run runs the subquery for the memo's misses.
	run *subqueryRun

	mu     sync.Mutex
	pid    uint64
	stamps []memoStamp
	// epoch is dataEpoch when the stamps were last found current.
	epoch uint64
	memo  map[string]any
	key   []byte
	// misses and hits count the statement's lookups; off says the memo
	// was given up for the statement (memoGiveUp).
	misses, hits int
	off          bool
}

// dataEpoch counts the writes of the process: commands applied to the
// store, rows a transaction writes or takes back. A memo that finds it
// unchanged since it last checked its tables' stamps knows them
// unchanged without reading them.
var dataEpoch atomic.Uint64

// memoGiveUp: after memoTrial lookups of a statement of which fewer than
// one in memoMinHits found an answer, the memo is given up for the
// statement: keys that rarely repeat (a subquery correlated on a key of
// the outer table) cost a lookup and a store each for nothing.
const (
	memoTrial   = 1024
	memoMinHits = 8
)

// memoTable names a table a memoized subquery reads.
type memoTable struct {
	p        *Provider
	db, name string
}

// memoStamp is what a table's state was when the memo's answers were
// taken: its committed writes and the session's own.
type memoStamp struct {
	mark    storage.WriteMark
	pending *txTable
	writes  uint64
}

// memoLimit bounds the answers a memo keeps: a subquery correlated on a
// key of the outer table has as many answers as rows, and keeps none
// worth keeping beyond it.
const memoLimit = 1 << 16

// memoHits counts the answers taken from memos, for tests
// (Server.SubqueryMemoHits).
var memoHits atomic.Int64

var (
	_ sql.Expression                 = (*memoSubquery)(nil)
	_ sql.ExpressionWithNodes        = (*memoSubquery)(nil)
	_ sql.NonDeterministicExpression = (*memoSubquery)(nil)
)

// newMemoSubquery wraps sq, or returns nil when its answers may change
// with more than the outer columns it reads (see the package comment
// above memoSubqueries) or those columns cannot be found.
func newMemoSubquery(sq *plan.Subquery, b sql.NodeExecBuilder) *memoSubquery {
	correlated := sq.Correlated()
	if correlated.Empty() || sq.Volatile() || !sq.Resolved() {
		return nil
	}
	m := &memoSubquery{Subquery: sq, run: &subqueryRun{b: b, width: len(sq.Query.Schema())}}
	found := sql.ColSet{}
	positions := map[int]bool{}
	ok := true
	var visitNode func(n sql.Node)
	visitExpr := func(e sql.Expression) {
		transform.InspectExpr(e, func(e sql.Expression) bool {
			switch x := e.(type) {
			case *expression.GetField:
				if correlated.Contains(x.Id()) {
					found.Add(x.Id())
					positions[x.Index()] = true
				}
			case *expression.UserVar, *expression.SystemVar, *expression.ProcedureParam:
				ok = false
			case *plan.Subquery:
				if x.Volatile() {
					ok = false
				}
				visitNode(x.Query)
				return !ok
			case sql.NonDeterministicExpression:
				if x.IsNonDeterministic() {
					ok = false
				}
			}
			if ewn, isNodes := e.(sql.ExpressionWithNodes); isNodes {
				if _, isSubquery := e.(*plan.Subquery); !isSubquery {
					for _, c := range ewn.NodeChildren() {
						visitNode(c)
					}
				}
			}
			return !ok
		})
	}
	visitNode = func(n sql.Node) {
		transform.Inspect(n, func(n sql.Node) bool {
			if !ok || n == nil {
				return false
			}
			switch x := n.(type) {
			case sql.TableNode:
				if !m.readsTable(x.UnderlyingTable()) {
					ok = false
				}
			case *plan.TableCountLookup:
				if !m.readsTable(x.Table()) {
					ok = false
				}
			}
			if ex, isExprs := n.(sql.Expressioner); isExprs {
				for _, e := range ex.Expressions() {
					visitExpr(e)
				}
			}
			return ok
		})
	}
	visitNode(sq.Query)
	if !ok || !correlated.SubsetOf(found) {
		return nil
	}
	for p := range positions {
		if p < 0 {
			return nil
		}
		m.outer = append(m.outer, p)
	}
	return m
}

// readsTable notes a table the subquery reads, and says whether the memo
// can tell when it changes: a table of this store, or the dual table.
func (m *memoSubquery) readsTable(t sql.Table) bool {
	if plan.IsDualTable(t) {
		return true
	}
	st := storedTable(t)
	if st == nil {
		return false
	}
	for _, have := range m.tables {
		if have.db == st.info.DB && have.name == st.info.Name && have.p == st.p {
			return true
		}
	}
	m.tables = append(m.tables, memoTable{p: st.p, db: st.info.DB, name: st.info.Name})
	return true
}

// Eval answers from the memo when it holds the answer for the row's
// outer values, else runs the subquery and keeps its answer.
func (m *memoSubquery) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	m.mu.Lock()
	if m.off && m.pid == ctx.Pid() {
		m.mu.Unlock()
		return m.eval(ctx, row)
	}
	key, ok := m.keyOf(row)
	if !ok {
		m.mu.Unlock()
		return m.eval(ctx, row)
	}
	m.validate(ctx)
	if v, hit := m.memo[string(key)]; hit {
		m.hits++
		m.mu.Unlock()
		memoHits.Add(1)
		return v, nil
	}
	if m.misses++; m.misses >= memoTrial && m.hits*memoMinHits < m.misses {
		m.off = true
		clear(m.memo)
	}
	m.mu.Unlock()
	v, err := m.eval(ctx, row)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// The subquery's own reads leave the tables as they were, so the
	// answer belongs to the state validate found unless it moved on.
	if !m.off && m.current(ctx) && len(m.memo) < memoLimit {
		if k, ok := m.keyOf(row); ok {
			m.memo[string(k)] = v
		}
	}
	return v, nil
}

// keyOf encodes the row's outer values into m.key.
func (m *memoSubquery) keyOf(row sql.Row) ([]byte, bool) {
	m.key = m.key[:0]
	for _, p := range m.outer {
		if p >= len(row) {
			return nil, false
		}
		var ok bool
		if m.key, ok = appendMemoKey(m.key, row[p]); !ok {
			return nil, false
		}
	}
	return m.key, true
}

// validate empties the memo unless its answers were taken in this
// statement from the tables as they are now.
func (m *memoSubquery) validate(ctx *sql.Context) {
	if m.memo != nil && m.current(ctx) {
		return
	}
	if m.pid != ctx.Pid() {
		m.pid, m.misses, m.hits, m.off = ctx.Pid(), 0, 0, false
	}
	m.epoch = dataEpoch.Load()
	m.stamps = m.stampsNow(ctx, m.stamps[:0])
	clear(m.memo)
	if m.memo == nil {
		m.memo = map[string]any{}
	}
}

// current says whether the memo's answers still hold.
func (m *memoSubquery) current(ctx *sql.Context) bool {
	if m.pid != ctx.Pid() {
		return false
	}
	epoch := dataEpoch.Load()
	if epoch == m.epoch {
		return true
	}
	tx := txFrom(ctx)
	for i, t := range m.tables {
		s := m.stamps[i]
		if t.p.store.Writes(t.db, t.name) != s.mark {
			return false
		}
		pending := tx.table(t.db, t.name)
		if pending != s.pending || (pending != nil && pending.writes.Load() != s.writes) {
			return false
		}
	}
	m.epoch = epoch
	return true
}

func (m *memoSubquery) stampsNow(ctx *sql.Context, into []memoStamp) []memoStamp {
	tx := txFrom(ctx)
	for _, t := range m.tables {
		s := memoStamp{mark: t.p.store.Writes(t.db, t.name), pending: tx.table(t.db, t.name)}
		if s.pending != nil {
			s.writes = s.pending.writes.Load()
		}
		into = append(into, s)
	}
	return into
}

// WithChildren, WithNodeChildren and WithQuery give the engine's own
// subquery: a plan changed after this rule has no memo.
func (m *memoSubquery) WithNodeChildren(children ...sql.Node) (sql.ExpressionWithNodes, error) {
	return m.Subquery.WithNodeChildren(children...)
}

// IsNonDeterministic is the subquery's: the memo changes nothing of what
// the subquery answers.
func (m *memoSubquery) IsNonDeterministic() bool { return m.Subquery.IsNonDeterministic() }

// appendMemoKey appends v to a memo key, tagged with its kind so that
// values of different types never share a key; false for a value of a
// type it does not know.
func appendMemoKey(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, 0), true
	case int8:
		return binary.AppendVarint(append(b, 1), int64(x)), true
	case int16:
		return binary.AppendVarint(append(b, 1), int64(x)), true
	case int32:
		return binary.AppendVarint(append(b, 1), int64(x)), true
	case int64:
		return binary.AppendVarint(append(b, 1), x), true
	case int:
		return binary.AppendVarint(append(b, 1), int64(x)), true
	case uint8:
		return binary.AppendUvarint(append(b, 2), uint64(x)), true
	case uint16:
		return binary.AppendUvarint(append(b, 2), uint64(x)), true
	case uint32:
		return binary.AppendUvarint(append(b, 2), uint64(x)), true
	case uint64:
		return binary.AppendUvarint(append(b, 2), x), true
	case float32:
		return binary.LittleEndian.AppendUint64(append(b, 3), math.Float64bits(float64(x))), true
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, 3), math.Float64bits(x)), true
	case string:
		b = binary.AppendUvarint(append(b, 4), uint64(len(x)))
		return append(b, x...), true
	case []byte:
		b = binary.AppendUvarint(append(b, 5), uint64(len(x)))
		return append(b, x...), true
	case decimal.Decimal:
		s := x.String()
		b = binary.AppendUvarint(append(b, 6), uint64(len(s)))
		return append(b, s...), true
	case time.Time:
		b = binary.AppendVarint(append(b, 7), x.Unix())
		b = binary.AppendVarint(b, int64(x.Nanosecond()))
		name := x.Location().String()
		b = binary.AppendUvarint(b, uint64(len(name)))
		return append(b, name...), true
	case bool:
		if x {
			return append(b, 8, 1), true
		}
		return append(b, 8, 0), true
	}
	return b, false
}
