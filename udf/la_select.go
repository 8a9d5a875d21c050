package udf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer"
	"github.com/sqlearn/sqlearn/sqlext"
)

// laSelectRule is the analyzer rule that shares matrix work across a
// SELECT's expressions.
const laSelectRule analyzer.RuleId = 10100

// SelectStats counts what the SELECT rule did at run time, for tests and
// for anyone asking why a query was or was not faster.
type SelectStats struct {
	Programs  int64 // LA programs run for a row
	Fallbacks int64 // rows evaluated as written (NULL, bad shape, bad input)
	Reused    int64 // evaluations answered from a row's memo
	Planned   int64 // units the optimizer planned for those programs
}

var selectStats struct{ programs, fallbacks, reused, planned atomic.Int64 }

// LASelectStats reports the SELECT rule's counters since the process began.
func LASelectStats() SelectStats {
	return SelectStats{selectStats.programs.Load(), selectStats.fallbacks.Load(), selectStats.reused.Load(), selectStats.planned.Load()}
}

func (l *lib) laRules() []sqlext.AnalyzerRule {
	return []sqlext.AnalyzerRule{{ID: laSelectRule, Apply: shareMatrixWork}}
}

// shareMatrixWork rewrites each projection list, unless the session has
// turned redundancy elimination off. Two rewrites, both invisible in
// results: the MAT_MUL/MAT_T/MAT_ADD/MAT_SUB/MAT_SCALE trees of a list
// become one LA program that the optimiser plans (common and transposed
// sub-chains computed once, chains in their cheapest order), and any other
// MAT_* call written more than once is computed once per row.
func shareMatrixWork(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !eliminationOn(ctx) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		p, ok := n.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		exprs, changed := programProjections(p.Projections)
		exprs, dup := memoProjections(exprs)
		if !changed && !dup {
			return n, transform.SameTree, nil
		}
		np, err := p.WithExpressions(exprs...)
		if err != nil {
			return n, transform.SameTree, err
		}
		return np, transform.NewTree, nil
	})
}

// rebuild replaces, top-down, the subtrees f picks, descending only
// through aliases and our own functions: under IF, CASE and the like an
// expression may legitimately not be evaluated, and computing it anyway
// could raise an error the query as written does not.
func rebuild(e sql.Expression, f func(*expr) (sql.Expression, bool)) sql.Expression {
	out, _ := rebuilt(e, f)
	return out
}

// rebuilt is rebuild reporting whether anything changed. Changes are
// tracked rather than found by comparing expressions: an expression may be
// a comparable struct holding a map (a JSON literal), which == panics on.
func rebuilt(e sql.Expression, f func(*expr) (sql.Expression, bool)) (sql.Expression, bool) {
	switch x := e.(type) {
	case *expression.Alias:
		c, changed := rebuilt(x.Child, f)
		if !changed {
			return e, false
		}
		// A copy keeps the alias's column id, which WithChildren drops.
		na := *x
		na.Child = c
		return &na, true
	case *expr:
		if r, ok := f(x); ok {
			return r, true
		}
		args := make([]sql.Expression, len(x.args))
		changed := false
		for i, a := range x.args {
			var c bool
			args[i], c = rebuilt(a, f)
			changed = changed || c
		}
		if !changed {
			return e, false
		}
		return &expr{s: x.s, args: args}, true
	}
	return e, false
}

// keyLeaves returns the column, variable and literal leaves of e, which
// with the functions above them being deterministic decide its value; false
// if e holds anything else.
func keyLeaves(e sql.Expression) ([]sql.Expression, bool) {
	var out []sql.Expression
	ok := true
	transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *expression.GetField, *expression.UserVar, *expression.Literal:
			out = append(out, e)
		case *expr:
			ok = ok && !x.s.volatile
		default:
			ok = false
		}
		return !ok
	})
	return out, ok
}

// Operators of the algebra the SELECT rule hands to the optimiser.
type laOp uint8

const (
	laLeaf laOp = iota
	laMul
	laT
	laAdd
	laSub
	laScale
)

var laOps = map[string]laOp{"MAT_MUL": laMul, "MAT_T": laT, "MAT_ADD": laAdd, "MAT_SUB": laSub, "MAT_SCALE": laScale}

// laNode is one operator of an algebra tree; leaves index the program's
// inputs.
type laNode struct {
	op   laOp
	kids []*laNode
	leaf int
}

// laProgram is the LA program made of one projection list's algebra trees,
// shared by the expressions that read its outputs.
type laProgram struct {
	script  string
	outputs []*laNode
	scalar  []bool // inputs that MAT_SCALE reads as numbers
	memo    rowMemo

	// prepared keeps the program's plans from row to row: rows of one
	// shape are planned once.
	prepareOnce sync.Once
	prepared    *optimizer.Prepared
	prepareErr  error
}

// programProjections turns the algebra trees of a projection list into
// outputs of one program, when there are at least two multiplications to
// plan (one alone has nothing to share and no order to choose).
func programProjections(exprs []sql.Expression) ([]sql.Expression, bool) {
	prog := &laProgram{}
	var leaves []sql.Expression
	index := map[string]int{}
	muls := 0
	var convert func(e sql.Expression, scalar bool) (*laNode, bool)
	convert = func(e sql.Expression, scalar bool) (*laNode, bool) {
		if x, ok := e.(*expr); ok && !scalar {
			if op, ok := laOps[x.s.name]; ok {
				n := &laNode{op: op}
				for i, a := range x.args {
					k, ok := convert(a, op == laScale && i == 1)
					if !ok {
						return nil, false
					}
					n.kids = append(n.kids, k)
				}
				if op == laMul {
					muls++
				}
				return n, true
			}
		}
		if _, ok := keyLeaves(e); !ok {
			return nil, false
		}
		key := e.String()
		if scalar {
			key = "scalar " + key
		}
		i, seen := index[key]
		if !seen {
			i = len(leaves)
			index[key] = i
			leaves = append(leaves, e)
			prog.scalar = append(prog.scalar, scalar)
		}
		return &laNode{op: laLeaf, leaf: i}, true
	}
	var roots []*expr
	pick := func(x *expr) (sql.Expression, bool) {
		if _, ok := laOps[x.s.name]; !ok {
			return nil, false
		}
		before, nl, np := muls, len(leaves), len(prog.scalar)
		n, ok := convert(x, false)
		if !ok {
			// Leave the tree as written; forget what it added.
			muls, leaves, prog.scalar = before, leaves[:nl], prog.scalar[:np]
			for k, i := range index {
				if i >= nl {
					delete(index, k)
				}
			}
			return nil, false
		}
		prog.outputs = append(prog.outputs, n)
		roots = append(roots, x)
		return x, true
	}
	for _, e := range exprs {
		rebuild(e, pick)
	}
	if muls < 2 {
		return exprs, false
	}
	var b strings.Builder
	for k, n := range prog.outputs {
		fmt.Fprintf(&b, "e%d = %s\n", k, n.text())
	}
	prog.script = b.String()
	out := make([]sql.Expression, len(exprs))
	for i, e := range exprs {
		out[i] = rebuild(e, func(x *expr) (sql.Expression, bool) {
			for k, r := range roots {
				if r == x {
					return newLAOutput(prog, k, leaves, x), true
				}
			}
			return nil, false
		})
	}
	return out, true
}

// text is the node in LA syntax, fully parenthesised so that the program
// computes what the SQL says before the optimiser re-associates it.
func (n *laNode) text() string {
	switch n.op {
	case laMul:
		return "(" + n.kids[0].text() + " %*% " + n.kids[1].text() + ")"
	case laT:
		return "t(" + n.kids[0].text() + ")"
	case laAdd:
		return "(" + n.kids[0].text() + " + " + n.kids[1].text() + ")"
	case laSub:
		return "(" + n.kids[0].text() + " - " + n.kids[1].text() + ")"
	case laScale:
		return "(" + n.kids[0].text() + " * " + n.kids[1].text() + ")"
	}
	return "@L" + strconv.Itoa(n.leaf)
}

// fits checks the tree's shapes the way the MAT_* functions would, so the
// program runs only where the SQL as written would succeed.
func (n *laNode) fits(in []*matrix.Matrix) (rows, cols int, ok bool) {
	if n.op == laLeaf {
		return in[n.leaf].Rows(), in[n.leaf].Cols(), true
	}
	ar, ac, ok := n.kids[0].fits(in)
	if !ok {
		return 0, 0, false
	}
	switch n.op {
	case laT:
		return ac, ar, true
	case laScale:
		return ar, ac, true
	}
	br, bc, ok := n.kids[1].fits(in)
	if !ok {
		return 0, 0, false
	}
	if n.op == laMul {
		return ar, bc, ac == br
	}
	return ar, ac, ar == br && ac == bc
}

// laResult is a row's program outcome: every output's value, or fallback
// when the row must be evaluated as written.
type laResult struct {
	outs     []any
	fallback bool
}

// eval runs the program on input values, or reports that the row must be
// evaluated as written: a NULL input (whose NULL propagates per
// expression), a value that is not a matrix, a shape the SQL would reject.
// The SQL as written then raises its own error, if any.
func (p *laProgram) eval(ctx *sql.Context, vals []any) (*laResult, error) {
	env := optimizer.Inputs{}
	in := make([]*matrix.Matrix, len(vals))
	for i, v := range vals {
		if v == nil {
			return &laResult{fallback: true}, nil
		}
		if _, num := numeric(v); p.scalar[i] != num {
			return &laResult{fallback: true}, nil
		}
		m, err := matrixValue(ctx, v)
		if err != nil {
			return &laResult{fallback: true}, nil
		}
		in[i] = m
		env["L"+strconv.Itoa(i)] = m
	}
	for _, o := range p.outputs {
		if _, _, ok := o.fits(in); !ok {
			return &laResult{fallback: true}, nil
		}
	}
	p.prepareOnce.Do(func() { p.prepared, p.prepareErr = optimizer.Prepare(p.script) })
	if p.prepareErr != nil {
		ctx.GetLogger().Warnf("LA program for a SELECT does not parse, evaluating as written: %v", p.prepareErr)
		return &laResult{fallback: true}, nil
	}
	// The session's options, for its @@ml_device above all; the rule ran
	// only because elimination is on.
	opts, err := laOptions(ctx)
	if err != nil {
		return nil, err
	}
	opts.RedundancyElimination = true
	res, err := p.prepared.Run(ctx, env, opts)
	selectStats.planned.Add(int64(res.Stats.Units))
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		ctx.GetLogger().Warnf("LA program for a SELECT failed, evaluating as written: %v", err)
		return &laResult{fallback: true}, nil
	}
	selectStats.programs.Add(1)
	r := &laResult{outs: make([]any, len(p.outputs))}
	for k := range p.outputs {
		m := res.Vars["e"+strconv.Itoa(k)]
		if m == nil {
			return &laResult{fallback: true}, nil
		}
		r.outs[k] = matrix.Encode(m)
	}
	return r, nil
}

// laOutput stands for one algebra tree of a projection list: the value of
// output k of the shared program. Its children are the program's inputs
// and the tree as written (for rows the program does not take), so that
// the analyzer's index fixing reaches every column reference.
type laOutput struct {
	prog   *laProgram
	k      int
	leaves []sql.Expression
	keys   []sql.Expression
	orig   sql.Expression
}

var _ sql.Expression = (*laOutput)(nil)

func newLAOutput(p *laProgram, k int, leaves []sql.Expression, orig sql.Expression) *laOutput {
	o := &laOutput{prog: p, k: k, leaves: leaves, orig: orig}
	for _, l := range leaves {
		ks, _ := keyLeaves(l)
		o.keys = append(o.keys, ks...)
	}
	return o
}

func (o *laOutput) Resolved() bool   { return o.orig.Resolved() }
func (o *laOutput) String() string   { return o.orig.String() }
func (o *laOutput) Type() sql.Type   { return o.orig.Type() }
func (o *laOutput) IsNullable() bool { return true }
func (o *laOutput) Children() []sql.Expression {
	return append(append([]sql.Expression(nil), o.leaves...), o.orig)
}

func (o *laOutput) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(o.leaves)+1 {
		return nil, sql.ErrInvalidChildrenNumber.New(o, len(children), len(o.leaves)+1)
	}
	n := len(o.leaves)
	return newLAOutput(o.prog, o.k, children[:n:n], children[n]), nil
}

// Eval answers from the row's memo when another output of the program has
// already run it for the same inputs. The memo is keyed by input values,
// not by row identity, so it is right in whichever goroutine the engine
// evaluates the projection.
func (o *laOutput) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	key, err := evalAll(ctx, o.keys, row)
	if err != nil {
		return nil, err
	}
	v, err := o.prog.memo.do(key, func() (any, error) {
		vals, err := evalAll(ctx, o.leaves, row)
		if err != nil {
			return nil, err
		}
		return o.prog.eval(ctx, vals)
	})
	if err != nil {
		return nil, err
	}
	r := v.(*laResult)
	if r.fallback {
		selectStats.fallbacks.Add(1)
		return o.orig.Eval(ctx, row)
	}
	return r.outs[o.k], nil
}

func evalAll(ctx *sql.Context, es []sql.Expression, row sql.Row) ([]any, error) {
	out := make([]any, len(es))
	for i, e := range es {
		v, err := e.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// rowMemo keeps the last computed value with the inputs it was computed
// from. A projection evaluates its expressions one row at a time, so one
// entry catches every repeat within a row.
type rowMemo struct {
	mu struct {
		sync.Mutex
		key   []any
		val   any
		valid bool
	}
}

// do returns the value for key, computing it (under the lock, so that two
// evaluators of one row do not both pay for it) when the key is new.
func (m *rowMemo) do(key []any, compute func() (any, error)) (any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mu.valid && sameValues(m.mu.key, key) {
		selectStats.reused.Add(1)
		return m.mu.val, nil
	}
	m.mu.valid = false
	v, err := compute()
	if err != nil {
		return nil, err
	}
	m.mu.key, m.mu.val, m.mu.valid = key, v, true
	return v, nil
}

// sameValues compares SQL values. BLOBs compare by content; when they are
// the same slice, as a user variable read twice is, that costs nothing.
func sameValues(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case nil:
			if b[i] != nil {
				return false
			}
		case []byte:
			y, ok := b[i].([]byte)
			if !ok || !bytes.Equal(x, y) {
				return false
			}
		default:
			// DeepEqual, not ==: a value such as a JSON document is a
			// comparable struct holding a map, which == would panic on.
			if b[i] == nil || !reflect.DeepEqual(x, b[i]) {
				return false
			}
		}
	}
	return true
}

// memoProjections shares the other MAT_* calls a projection list writes
// more than once (MAT_INV(@A) in two columns, say): every occurrence reads
// one memo, so the call runs once per row.
func memoProjections(exprs []sql.Expression) ([]sql.Expression, bool) {
	count := map[string]int{}
	var visit func(e sql.Expression)
	visit = func(e sql.Expression) {
		switch x := e.(type) {
		case *expression.Alias:
			visit(x.Child)
		case *expr:
			if _, ok := keyLeaves(x); ok && len(x.args) > 0 {
				count[x.String()]++
			}
			for _, a := range x.args {
				visit(a)
			}
		}
	}
	for _, e := range exprs {
		visit(e)
	}
	memos := map[string]*rowMemo{}
	changed := false
	out := make([]sql.Expression, len(exprs))
	for i, e := range exprs {
		out[i] = rebuild(e, func(x *expr) (sql.Expression, bool) {
			s := x.String()
			if count[s] < 2 {
				return nil, false
			}
			m := memos[s]
			if m == nil {
				m = &rowMemo{}
				memos[s] = m
			}
			changed = true
			return newMemoExpr(m, x), true
		})
	}
	return out, changed
}

// memoExpr is one occurrence of a repeated call; all occurrences share the
// memo, keyed by the values of the call's columns, variables and literals.
type memoExpr struct {
	memo  *rowMemo
	child sql.Expression
	keys  []sql.Expression
}

var _ sql.Expression = (*memoExpr)(nil)

func newMemoExpr(m *rowMemo, child sql.Expression) *memoExpr {
	keys, _ := keyLeaves(child)
	return &memoExpr{memo: m, child: child, keys: keys}
}

func (m *memoExpr) Resolved() bool             { return m.child.Resolved() }
func (m *memoExpr) String() string             { return m.child.String() }
func (m *memoExpr) Type() sql.Type             { return m.child.Type() }
func (m *memoExpr) IsNullable() bool           { return m.child.IsNullable() }
func (m *memoExpr) Children() []sql.Expression { return []sql.Expression{m.child} }

func (m *memoExpr) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), 1)
	}
	return newMemoExpr(m.memo, children[0]), nil
}

func (m *memoExpr) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	key, err := evalAll(ctx, m.keys, row)
	if err != nil {
		return nil, err
	}
	return m.memo.do(key, func() (any, error) { return m.child.Eval(ctx, row) })
}
