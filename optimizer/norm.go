package optimizer

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// The normal form. Every matrix expression becomes a sum of terms; a term
// is a constant times 1x1 factors (multiplied or divided) times a flat
// chain of leaves, each leaf possibly transposed. Transposes sit only on
// leaves, products are flat, products are distributed over sums and
// scalars are pulled out: exactly the shape the block-wise search needs.

type leafKind uint8

const (
	lkVar     leafKind = iota + 1 // script variable, one version of it
	lkSession                     // @name
	lkOpaque                      // anything that is not linear: exp(), solve(), element-wise products, ...
	lkSum                         // a sum kept whole because distributing it would multiply the terms too far
	lkConst                       // a non-scalar literal value
)

type leaf struct {
	kind       leafKind
	name       string // variable, session variable or operator
	ident      string // structural identity: equal idents are equal values
	opk        opKind // lkOpaque: the operator (opCall for builtins)
	args       []*sum // lkOpaque: operands (nil where strs holds a string); lkSum: the sum
	strs       []string
	val        *matrix.Matrix
	invariant  bool // value cannot change during the loop being planned
	sym        bool // known symmetric, so t(leaf) is leaf
	rows, cols int
	density    float64
	sparse     bool
	hash       uint64
	pos        lang.Pos
}

type factor struct {
	l *leaf
	t bool
}

func (f factor) rows() int {
	if f.t {
		return f.l.cols
	}
	return f.l.rows
}

func (f factor) cols() int {
	if f.t {
		return f.l.rows
	}
	return f.l.cols
}

// flip is the factor's transpose, keeping symmetric leaves unflagged.
func (f factor) flip() factor {
	if f.l.sym {
		return f
	}
	return factor{f.l, !f.t}
}

func (f factor) key() string {
	if f.t {
		return "t(" + f.l.ident + ")"
	}
	return f.l.ident
}

type term struct {
	coef     float64
	num, den []*sum // 1x1 factors
	chain    []factor
	blk      int // index of the chain's block, -1 when the chain is shorter than 2
}

type sum struct {
	terms      []term
	rows, cols int
}

// errUnplannable marks code the optimiser leaves as written: an unknown
// shape, a shape error the run should report with its own message, or an
// operation it does not model.
var errUnplannable = errors.New("optimizer: not plannable")

func unplannable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUnplannable, fmt.Sprintf(format, args...))
}

func constSum(v float64) *sum { return &sum{terms: []term{{coef: v, blk: -1}}, rows: 1, cols: 1} }

func leafSum(l *leaf) *sum {
	return &sum{terms: []term{{coef: 1, chain: []factor{{l: l}}, blk: -1}}, rows: l.rows, cols: l.cols}
}

// constOf returns the value of a sum that is a plain number.
func constOf(s *sum) (float64, bool) {
	if len(s.terms) == 1 && len(s.terms[0].chain) == 0 && len(s.terms[0].num) == 0 && len(s.terms[0].den) == 0 {
		return s.terms[0].coef, true
	}
	return 0, false
}

func (s *sum) key() string {
	var b strings.Builder
	for i, t := range s.terms {
		if i > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(strconv.FormatFloat(t.coef, 'g', -1, 64))
		for _, n := range t.num {
			b.WriteString("*[" + n.key() + "]")
		}
		for _, d := range t.den {
			b.WriteString("/[" + d.key() + "]")
		}
		for _, f := range t.chain {
			b.WriteString(" " + f.key())
		}
	}
	return b.String()
}

func (s *sum) invariant() bool {
	for _, t := range s.terms {
		for _, f := range t.chain {
			if !f.l.invariant {
				return false
			}
		}
		for _, x := range append(append([]*sum(nil), t.num...), t.den...) {
			if !x.invariant() {
				return false
			}
		}
	}
	return true
}

func negate(s *sum) *sum {
	out := &sum{rows: s.rows, cols: s.cols, terms: make([]term, len(s.terms))}
	for i, t := range s.terms {
		t.coef = -t.coef
		out.terms[i] = t
	}
	return out
}

func transposeSum(s *sum) *sum {
	out := &sum{rows: s.cols, cols: s.rows, terms: make([]term, len(s.terms))}
	for i, t := range s.terms {
		c := make([]factor, len(t.chain))
		for j, f := range t.chain {
			c[len(c)-1-j] = f.flip()
		}
		t.chain = c
		out.terms[i] = t
	}
	return out
}

// scaleSum multiplies (or with inv divides) every term by the 1x1 sum k.
func scaleSum(s, k *sum, inv bool) *sum {
	out := &sum{rows: s.rows, cols: s.cols, terms: make([]term, len(s.terms))}
	v, isConst := constOf(k)
	for i, t := range s.terms {
		switch {
		case isConst && inv:
			t.coef /= v
		case isConst:
			t.coef *= v
		case inv:
			t.den = append(append([]*sum(nil), t.den...), k)
		default:
			t.num = append(append([]*sum(nil), t.num...), k)
		}
		out.terms[i] = t
	}
	return out
}

// maxTerms bounds distribution: beyond it a sum stays whole as a leaf.
const maxTerms = 16

type normalizer struct {
	in       *interp
	loop     bool            // planning a loop body
	assigned map[string]bool // variables assigned in the unit
	symVars  map[string]bool // loop-assigned variables proven symmetric
	env      map[string]*leaf
	shapes   map[string]leaf // shape of every variable known so far
	leaves   map[string]*leaf
	seg      int
	version  map[string]int
	tolerant bool
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func (nz *normalizer) intern(l *leaf) *leaf {
	if old, ok := nz.leaves[l.ident]; ok {
		return old
	}
	if l.rows == 1 && l.cols == 1 {
		l.sym = true
	}
	l.hash = hashString(l.ident)
	nz.leaves[l.ident] = l
	return l
}

// varLeaf returns the leaf for the current version of a script variable.
func (nz *normalizer) varLeaf(name string, at lang.Pos) (*leaf, error) {
	if l, ok := nz.env[name]; ok {
		return l, nil
	}
	sh, ok := nz.shapes[name]
	if !ok {
		return nil, unplannable("%s has no known shape", name)
	}
	l := &leaf{kind: lkVar, name: name, rows: sh.rows, cols: sh.cols, density: sh.density, sparse: sh.sparse, pos: at}
	if nz.assigned[name] {
		l.ident = fmt.Sprintf("%s@%d.0", name, nz.seg)
		l.sym = nz.symVars[name]
	} else {
		l.ident = name
		l.invariant = nz.loop
		l.sym = sh.sym
	}
	l = nz.intern(l)
	nz.env[name] = l
	return l, nil
}

// assign records a new version of name holding s.
func (nz *normalizer) assign(name string, s *sum, at lang.Pos) {
	nz.version[name]++
	l := &leaf{kind: lkVar, name: name, rows: s.rows, cols: s.cols, density: 1, pos: at,
		ident: fmt.Sprintf("%s@%d.%d", name, nz.seg, nz.version[name])}
	if nz.loop {
		l.sym = nz.symVars[name]
	} else {
		l.sym = symmetricSum(s)
	}
	l.density, l.sparse = sumDensity(s)
	l = nz.intern(l)
	nz.env[name] = l
	nz.shapes[name] = leaf{rows: l.rows, cols: l.cols, density: l.density, sparse: l.sparse, sym: l.sym}
}

// sumDensity guesses the density and layout of a sum's value: products
// with a dense factor and sums with a dense term are dense.
func sumDensity(s *sum) (float64, bool) {
	d, sparse := 0.0, true
	for _, t := range s.terms {
		td, tsp := 1.0, false
		if len(t.chain) > 0 {
			td, tsp = t.chain[0].l.density, t.chain[0].l.sparse
			for _, f := range t.chain[1:] {
				td = mulDensity(f.rows(), td, f.l.density)
				tsp = tsp && f.l.sparse
			}
		}
		d = math.Min(1, d+td)
		sparse = sparse && tsp
	}
	return d, sparse
}

// symmetricSum reports whether the terms of s are closed under
// transposition, so that the sum equals its own transpose.
func symmetricSum(s *sum) bool {
	if s.rows != s.cols {
		return false
	}
	count := map[string]int{}
	for _, t := range s.terms {
		count[(&sum{terms: []term{t}}).key()]++
	}
	for _, t := range transposeSum(s).terms {
		k := (&sum{terms: []term{t}}).key()
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

func (nz *normalizer) norm(e lang.Expr) (*sum, error) {
	switch e := e.(type) {
	case *lang.Num:
		return constSum(e.Value), nil
	case *lang.Str:
		return nil, unplannable("string used as a value")
	case *lang.Ident:
		if e.Session {
			if nz.in.env == nil {
				return nil, unplannable("no environment for @%s", e.Name)
			}
			v, ok := nz.in.sessionVar(e.Name)
			if !ok || v == nil {
				return nil, unplannable("@%s is not bound", e.Name)
			}
			sh := shapeOf(v)
			return leafSum(nz.intern(&leaf{kind: lkSession, name: e.Name, ident: "@" + e.Name, invariant: nz.loop,
				rows: sh.rows, cols: sh.cols, density: sh.density, sparse: sh.sparse, sym: sh.sym, pos: e.At})), nil
		}
		l, err := nz.varLeaf(e.Name, e.At)
		if err != nil {
			return nil, err
		}
		return leafSum(l), nil
	case *lang.Unary:
		x, err := nz.norm(e.X)
		if err != nil {
			return nil, err
		}
		if e.Op == "-" {
			return negate(x), nil
		}
		return nz.opaque(opNot, "!", []*sum{x}, nil, 1, 1, e.At)
	case *lang.Binary:
		return nz.binary(e)
	case *lang.Call:
		return nz.call(e)
	}
	return nil, unplannable("unknown expression")
}

func (nz *normalizer) binary(e *lang.Binary) (*sum, error) {
	l, err := nz.norm(e.L)
	if err != nil {
		return nil, err
	}
	r, err := nz.norm(e.R)
	if err != nil {
		return nil, err
	}
	lScalar, rScalar := l.rows == 1 && l.cols == 1, r.rows == 1 && r.cols == 1
	switch e.Op {
	case "%*%":
		return nz.product(l, r)
	case "+", "-":
		if l.rows == r.rows && l.cols == r.cols {
			if e.Op == "-" {
				r = negate(r)
			}
			return &sum{terms: append(append([]term(nil), l.terms...), r.terms...), rows: l.rows, cols: l.cols}, nil
		}
	case "*":
		if rScalar {
			return scaleSum(l, r, false), nil
		}
		if lScalar {
			return scaleSum(r, l, false), nil
		}
	case "/":
		if rScalar {
			return scaleSum(l, r, true), nil
		}
	}
	op := binaryOps[e.Op]
	if op == opCmp || op == opAnd || op == opOr {
		if !lScalar || !rScalar {
			return nil, unplannable("%s of non-scalars", e.Op)
		}
		return nz.opaque(op, e.Op, []*sum{l, r}, nil, 1, 1, e.At)
	}
	rows, cols := l.rows, l.cols
	switch {
	case lScalar:
		rows, cols = r.rows, r.cols
	case rScalar:
	case l.rows != r.rows || l.cols != r.cols:
		return nil, unplannable("shape mismatch in %s", e.Op)
	}
	if op == opPow && !rScalar {
		return nil, unplannable("matrix exponent")
	}
	return nz.opaque(op, e.Op, []*sum{l, r}, nil, rows, cols, e.At)
}

// product distributes a %*% b over both sums' terms.
func (nz *normalizer) product(a, b *sum) (*sum, error) {
	if a.cols != b.rows {
		return nil, unplannable("%%*%% of %dx%d by %dx%d", a.rows, a.cols, b.rows, b.cols)
	}
	if len(a.terms)*len(b.terms) > maxTerms {
		if len(a.terms) >= len(b.terms) {
			a = leafSum(nz.sumLeaf(a))
		} else {
			b = leafSum(nz.sumLeaf(b))
		}
		if len(a.terms)*len(b.terms) > maxTerms {
			a, b = leafSum(nz.sumLeaf(a)), leafSum(nz.sumLeaf(b))
		}
	}
	out := &sum{rows: a.rows, cols: b.cols}
	for _, x := range a.terms {
		for _, y := range b.terms {
			out.terms = append(out.terms, term{
				coef:  x.coef * y.coef,
				num:   append(append([]*sum(nil), x.num...), y.num...),
				den:   append(append([]*sum(nil), x.den...), y.den...),
				chain: append(append([]factor(nil), x.chain...), y.chain...),
				blk:   -1,
			})
		}
	}
	return out, nil
}

func (nz *normalizer) sumLeaf(s *sum) *leaf {
	d, sp := sumDensity(s)
	return nz.intern(&leaf{kind: lkSum, ident: "(" + s.key() + ")", args: []*sum{s}, invariant: s.invariant(),
		rows: s.rows, cols: s.cols, density: d, sparse: sp, sym: symmetricSum(s)})
}

func (nz *normalizer) opaque(op opKind, name string, args []*sum, strs []string, rows, cols int, at lang.Pos) (*sum, error) {
	var b strings.Builder
	b.WriteString(name + "(")
	inv := true
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a == nil {
			b.WriteString(strconv.Quote(strs[i]))
			continue
		}
		b.WriteString(a.key())
		inv = inv && a.invariant()
	}
	b.WriteString(")")
	l := &leaf{kind: lkOpaque, name: name, opk: op, ident: b.String(), args: args, strs: strs,
		invariant: inv && nz.loop, rows: rows, cols: cols, density: 1, pos: at}
	return leafSum(nz.intern(l)), nil
}

func (nz *normalizer) call(e *lang.Call) (*sum, error) {
	ar, ok := builtinArity[e.Name]
	if !ok || len(e.Args) < ar[0] || len(e.Args) > ar[1] {
		return nil, unplannable("call of %s", e.Name)
	}
	switch e.Name {
	case "query", "save", "print":
		return nil, unplannable("%s inside an expression", e.Name)
	}
	args := make([]*sum, len(e.Args))
	strs := make([]string, len(e.Args))
	for i, a := range e.Args {
		if s, ok := a.(*lang.Str); ok {
			strs[i] = s.Value
			continue
		}
		s, err := nz.norm(a)
		if err != nil {
			return nil, err
		}
		args[i] = s
	}
	for i, a := range args {
		if a == nil && !(e.Name == "norm" && i == 1) {
			return nil, unplannable("string argument to %s", e.Name)
		}
	}
	a0 := args[0]
	rows, cols := 1, 1
	switch e.Name {
	case "t":
		return transposeSum(a0), nil
	case "nrow":
		return constSum(float64(a0.rows)), nil
	case "ncol":
		return constSum(float64(a0.cols)), nil
	case "solve":
		if a0.rows != a0.cols || a0.rows != args[1].rows {
			return nil, unplannable("solve shapes")
		}
		rows, cols = a0.cols, args[1].cols
	case "inv", "cholesky":
		if a0.rows != a0.cols {
			return nil, unplannable("%s of a non-square matrix", e.Name)
		}
		rows, cols = a0.rows, a0.cols
	case "sum", "norm", "trace":
	case "rowSums":
		rows = a0.rows
	case "colSums":
		cols = a0.cols
	case "sqrt", "exp", "log", "abs":
		rows, cols = a0.rows, a0.cols
	case "diag":
		switch {
		case a0.rows == a0.cols:
			rows = a0.rows
		case a0.rows == 1 || a0.cols == 1:
			rows, cols = a0.rows*a0.cols, a0.rows*a0.cols
		default:
			return nil, unplannable("diag shape")
		}
	case "matrix", "rand", "identity":
		dims := sizeArgs(e.Name, args)
		r, ok1 := constOf(dims[0])
		c, ok2 := constOf(dims[1])
		if !ok1 || !ok2 || r < 0 || c < 0 || r != math.Trunc(r) || c != math.Trunc(c) {
			return nil, unplannable("%s with sizes known only at run time", e.Name)
		}
		rows, cols = int(r), int(c)
	}
	return nz.opaque(opCall, e.Name, args, strs, rows, cols, e.At)
}

// sizeArgs picks the row and column arguments of matrix(v, r, c),
// rand(r, c, seed) and identity(n).
func sizeArgs[T any](name string, args []T) []T {
	switch name {
	case "matrix":
		return args[1:3]
	case "rand":
		return args[0:2]
	}
	return []T{args[0], args[0]}
}

// shapeOf describes a bound value for planning. Symmetry is checked only
// on small square matrices, where the check is cheap beside the plan.
func shapeOf(v *matrix.Matrix) leaf {
	sh := leaf{rows: v.Rows(), cols: v.Cols(), density: 1, sparse: v.IsSparse()}
	if sh.sparse && sh.rows > 0 && sh.cols > 0 {
		sh.density = float64(v.NNZ()) / (float64(sh.rows) * float64(sh.cols))
	}
	if sh.rows == sh.cols && sh.rows <= 512 {
		sh.sym = isSymmetric(v)
	}
	return sh
}

func isSymmetric(v *matrix.Matrix) bool {
	rows, err := v.ToRows()
	if err != nil {
		return false
	}
	for i := range rows {
		for j := range i {
			if rows[i][j] != rows[j][i] {
				return false
			}
		}
	}
	return true
}
