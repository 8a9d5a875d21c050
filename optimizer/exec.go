package optimizer

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sqlearn/sqlearn/matrix"
)

// frame is the executor's state for one run.
type frame struct {
	in   *interp
	memo map[*pnode]*matrix.Matrix // values of this segment execution
	time bool
	// parents counts the plan's edges into each node, for element-wise
	// fusion (fuse.go); nil turns fusion off for the frame.
	parents map[*pnode]int
}

func scalar(v float64) *matrix.Matrix {
	m, _ := matrix.NewDense(1, 1, []float64{v})
	return m
}

func isScalar(m *matrix.Matrix) bool { return m.Rows() == 1 && m.Cols() == 1 }

func scalarOf(m *matrix.Matrix) (float64, error) {
	if !isScalar(m) {
		return 0, fmt.Errorf("%w: got %dx%d", ErrNotScalar, m.Rows(), m.Cols())
	}
	return matrix.Get(m, 0, 0)
}

func fill(r, c int, v float64) (*matrix.Matrix, error) {
	if int64(r)*int64(c) > matrix.MaxElements() {
		return nil, fmt.Errorf("%w: %dx%d", matrix.ErrTooLarge, r, c)
	}
	data := make([]float64, r*c)
	for i := range data {
		data[i] = v
	}
	return matrix.NewDense(r, c, data)
}

func (f *frame) eval(n *pnode) (*matrix.Matrix, error) {
	if v, ok := f.memo[n]; ok {
		return v, nil
	}
	if n.op == opHoisted {
		if v, ok := f.in.hoisted[n]; ok {
			return v, nil
		}
	}
	if v, ok, err := f.fused(n); err != nil {
		return nil, posError(n.pos, err)
	} else if ok {
		if n.pure() {
			f.memo[n] = v
		}
		return v, nil
	}
	args := make([]*matrix.Matrix, len(n.args))
	var ops []operand
	if n.op == opChain || n.op == opMatMul {
		ops = make([]operand, len(n.args))
		for i, a := range n.args {
			o, err := f.operand(a)
			if err != nil {
				return nil, err
			}
			ops[i] = o
		}
	} else if n.op != opHoisted && n.op != opCall {
		for i, a := range n.args {
			v, err := f.eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
	}
	var start time.Time
	if f.time {
		start = time.Now()
	}
	v, err := f.apply(n, args, ops)
	if err != nil {
		return nil, posError(n.pos, err)
	}
	if f.time && n.op != opCall && n.op != opHoisted {
		n.calls++
		n.elapsed += time.Since(start)
	}
	if n.op == opHoisted {
		f.in.hoisted[n] = v
	} else if n.pure() {
		f.memo[n] = v
	}
	return v, nil
}

// sessionVar reads a session variable. A script cannot change one, so
// each is read (and decoded) once per run and stays the same value: a
// loop sees a constant it can recognise.
func (in *interp) sessionVar(name string) (*matrix.Matrix, bool) {
	if v, ok := in.session[name]; ok {
		return v, true
	}
	v, ok := in.env.Var(name)
	if !ok || v == nil {
		return nil, false
	}
	in.session[name] = v
	return v, true
}

// operand evaluates a factor of a product. The transpose of a dense
// matrix is not materialised: the product reads it through GEMM's
// transpose flag.
func (f *frame) operand(n *pnode) (operand, error) {
	if n.op == opT {
		if _, done := f.memo[n]; !done {
			v, err := f.eval(n.args[0])
			if err != nil {
				return operand{}, err
			}
			if !v.IsSparse() && !isScalar(v) {
				return operand{m: v, t: true, src: n.args[0]}, nil
			}
		}
	}
	v, err := f.eval(n)
	return operand{m: v}, err
}

// operand is a factor of a product: m, or its transpose when t is set
// (src is then the node m came from, to cache a transpose that has to be
// made after all).
type operand struct {
	m   *matrix.Matrix
	t   bool
	src *pnode
}

func (o operand) rows() int {
	if o.t {
		return o.m.Cols()
	}
	return o.m.Rows()
}

func (o operand) cols() int {
	if o.t {
		return o.m.Rows()
	}
	return o.m.Cols()
}

// mul multiplies two factors. Only a product of two dense matrices reads
// a transpose through the GEMM flags; with a sparse factor the transpose
// is made (and cached, as t() caches it).
func (in *interp) mul(a, b operand) (*matrix.Matrix, error) {
	if a.m.IsSparse() || b.m.IsSparse() {
		a, b = in.materialise(a), in.materialise(b)
	}
	return matrix.MulTOn(in.opts.productDevice(), a.m, a.t, b.m, b.t)
}

func (in *interp) materialise(o operand) operand {
	if !o.t {
		return o
	}
	return operand{m: in.transpose(o.src, o.m)}
}

func (f *frame) apply(n *pnode, a []*matrix.Matrix, ops []operand) (*matrix.Matrix, error) {
	switch n.op {
	case opVar:
		v, ok := f.in.vars[n.name]
		if !ok {
			return nil, fmt.Errorf("%w: %s", ErrUndefined, n.name)
		}
		return v, nil
	case opSession:
		if f.in.env == nil {
			return nil, fmt.Errorf("%w: session variable @%s", ErrNoEnv, n.name)
		}
		v, ok := f.in.sessionVar(n.name)
		if !ok {
			return nil, fmt.Errorf("%w: @%s", ErrUndefined, n.name)
		}
		return v, nil
	case opConst:
		return n.val, nil
	case opStr:
		return nil, fmt.Errorf("%w: a string is not a matrix", ErrArgument)
	case opHoisted:
		return f.eval(n.args[0])
	case opMatMul, opChain:
		if k := len(f.in.loopRuns); k > 0 && f.in.opts.Hybrid && routable(n, ops) {
			return f.in.iterate(f.in.loopRuns[k-1], n, ops)
		}
		if n.op == opMatMul {
			return f.in.mul(ops[0], ops[1])
		}
		return f.in.chain(ops)
	case opT:
		return f.in.transpose(n.args[0], a[0]), nil
	case opNeg:
		return matrix.Scale(a[0], -1), nil
	case opAdd, opSub, opEMul, opEDiv, opPow:
		return elementwise(n.op, a[0], a[1])
	case opCmp, opAnd, opOr:
		return logical(n.op, n.name, a[0], a[1])
	case opNot:
		x, err := scalarOf(a[0])
		if err != nil {
			return nil, err
		}
		return scalar(b2f(x == 0)), nil
	case opScale:
		s := n.coef
		for i, m := range a[1:] {
			x, err := scalarOf(m)
			if err != nil {
				return nil, err
			}
			if i < n.nNum {
				s *= x
			} else {
				s /= x
			}
		}
		if isScalar(a[0]) {
			x, _ := scalarOf(a[0])
			return scalar(x * s), nil
		}
		return matrix.Scale(a[0], s), nil
	case opCall:
		return f.call(n)
	}
	panic(fmt.Sprintf("optimizer: unknown operator %d", n.op))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// elementwise applies + - * / ^ with R's rule that a 1x1 operand stands
// for a matrix of its value.
func elementwise(op opKind, a, b *matrix.Matrix) (*matrix.Matrix, error) {
	if isScalar(a) && isScalar(b) {
		x, _ := scalarOf(a)
		y, _ := scalarOf(b)
		return scalar(scalarOp(op, x, y)), nil
	}
	if isScalar(b) {
		y, _ := scalarOf(b)
		switch op {
		case opEMul:
			return matrix.Scale(a, y), nil
		case opEDiv:
			return matrix.Scale(a, 1/y), nil
		case opPow:
			return matrix.Pow(a, y)
		case opAdd:
			return matrix.AddScalar(a, y)
		case opSub:
			return matrix.AddScalar(a, -y)
		}
		full, err := fill(a.Rows(), a.Cols(), y)
		if err != nil {
			return nil, err
		}
		b = full
	} else if isScalar(a) {
		x, _ := scalarOf(a)
		switch op {
		case opEMul:
			return matrix.Scale(b, x), nil
		case opAdd:
			return matrix.AddScalar(b, x)
		}
		full, err := fill(b.Rows(), b.Cols(), x)
		if err != nil {
			return nil, err
		}
		a = full
	}
	switch op {
	case opAdd:
		return matrix.Add(a, b)
	case opSub:
		return matrix.Sub(a, b)
	case opEMul:
		return matrix.EMul(a, b)
	case opEDiv:
		return matrix.EDiv(a, b)
	}
	return nil, fmt.Errorf("%w: ^ needs a 1x1 exponent, got %dx%d", ErrArgument, b.Rows(), b.Cols())
}

func scalarOp(op opKind, x, y float64) float64 {
	switch op {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opEMul:
		return x * y
	case opEDiv:
		return x / y
	}
	return math.Pow(x, y)
}

func logical(op opKind, cmp string, a, b *matrix.Matrix) (*matrix.Matrix, error) {
	x, err := scalarOf(a)
	if err != nil {
		return nil, err
	}
	y, err := scalarOf(b)
	if err != nil {
		return nil, err
	}
	switch op {
	case opAnd:
		return scalar(b2f(x != 0 && y != 0)), nil
	case opOr:
		return scalar(b2f(x != 0 || y != 0)), nil
	}
	var r bool
	switch cmp {
	case "==":
		r = x == y
	case "!=":
		r = x != y
	case "<":
		r = x < y
	case "<=":
		r = x <= y
	case ">":
		r = x > y
	case ">=":
		r = x >= y
	}
	return scalar(b2f(r)), nil
}

// chain multiplies factors in the order that needs the fewest flops for
// their actual shapes, or left to right when reordering is off.
func (in *interp) chain(ms []operand) (*matrix.Matrix, error) {
	if len(ms) == 1 {
		return in.materialise(ms[0]).m, nil
	}
	if !in.opts.ReorderChains || len(ms) <= 2 {
		acc := ms[0]
		for _, m := range ms[1:] {
			p, err := in.mul(acc, m)
			if err != nil {
				return nil, err
			}
			acc = operand{m: p}
		}
		return acc.m, nil
	}
	dims := make([]int, len(ms)+1)
	dims[0] = ms[0].rows()
	for i, m := range ms {
		if m.rows() != dims[i] {
			return nil, fmt.Errorf("%w: %%*%% of %dx%d by %dx%d", matrix.ErrShapeMismatch,
				ms[i-1].rows(), ms[i-1].cols(), m.rows(), m.cols())
		}
		dims[i+1] = m.cols()
	}
	split := chainOrder(dims)
	var mul func(i, j int) (operand, error)
	mul = func(i, j int) (operand, error) {
		if i == j {
			return ms[i], nil
		}
		k := split[i][j]
		l, err := mul(i, k)
		if err != nil {
			return operand{}, err
		}
		r, err := mul(k+1, j)
		if err != nil {
			return operand{}, err
		}
		p, err := in.mul(l, r)
		return operand{m: p}, err
	}
	p, err := mul(0, len(ms)-1)
	return p.m, err
}

// chainOrder is the textbook matrix-chain order by multiplication count;
// split[i][j] is where the product of factors i..j divides.
func chainOrder(dims []int) [][]int {
	n := len(dims) - 1
	cost := make([][]float64, n)
	split := make([][]int, n)
	for i := range n {
		cost[i] = make([]float64, n)
		split[i] = make([]int, n)
	}
	for length := 2; length <= n; length++ {
		for i := 0; i+length-1 < n; i++ {
			j := i + length - 1
			cost[i][j] = math.Inf(1)
			for k := i; k < j; k++ {
				c := cost[i][k] + cost[k+1][j] + float64(dims[i])*float64(dims[k+1])*float64(dims[j+1])
				if c < cost[i][j] {
					cost[i][j], split[i][j] = c, k
				}
			}
		}
	}
	return split
}

// transpose caches the transpose of a variable's value: loops read t(X) of
// an unchanged X every iteration, and values are immutable, so one copy per
// value is enough. numpy's X.T is a free view; this keeps the comparison fair.
func (in *interp) transpose(src *pnode, v *matrix.Matrix) *matrix.Matrix {
	if isScalar(v) {
		return v
	}
	var key string
	switch src.op {
	case opVar:
		key = "v:" + src.name
	case opSession:
		key = "s:" + src.name
	default:
		return matrix.T(v)
	}
	if c, ok := in.tcache[key]; ok && c.src == v {
		return c.t
	}
	t := matrix.T(v)
	in.tcache[key] = tcached{src: v, t: t}
	return t
}

type tcached struct{ src, t *matrix.Matrix }

// builtinArity gives the accepted argument counts of each builtin.
var builtinArity = map[string][2]int{
	"solve": {2, 2}, "inv": {1, 1}, "sum": {1, 1}, "rowSums": {1, 1}, "colSums": {1, 1},
	"sqrt": {1, 1}, "exp": {1, 1}, "log": {1, 1}, "abs": {1, 1}, "norm": {1, 2},
	"nrow": {1, 1}, "ncol": {1, 1}, "matrix": {3, 3}, "rand": {3, 4}, "t": {1, 1},
	"diag": {1, 1}, "trace": {1, 1}, "identity": {1, 1}, "query": {1, 1}, "save": {2, 2},
	"print": {1, 1 << 20}, "cholesky": {1, 1},
}

func (f *frame) call(n *pnode) (*matrix.Matrix, error) {
	// Strings are read straight from their nodes; everything else evaluates.
	strArg := func(i int) (string, error) {
		if n.args[i].op != opStr {
			return "", fmt.Errorf("%w: %s argument %d must be a string", ErrArgument, n.name, i+1)
		}
		return n.args[i].str, nil
	}
	if n.name == "sum" && len(n.args) == 1 {
		var start time.Time
		if f.time {
			start = time.Now()
		}
		if v, ok := f.fusedSum(n.args[0]); ok {
			if f.time {
				n.calls++
				n.elapsed += time.Since(start)
			}
			return scalar(v), nil
		}
	}
	var args []*matrix.Matrix
	for _, a := range n.args {
		if a.op == opStr {
			args = append(args, nil)
			continue
		}
		v, err := f.eval(a)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	for i, a := range args {
		if a == nil && n.name != "print" && n.name != "query" && n.name != "save" && !(n.name == "norm" && i == 1) {
			return nil, fmt.Errorf("%w: %s argument %d must be a matrix", ErrArgument, n.name, i+1)
		}
	}
	var start time.Time
	if f.time {
		start = time.Now()
		defer func() { n.calls++; n.elapsed += time.Since(start) }()
	}
	in := f.in
	switch n.name {
	case "query":
		sql, err := strArg(0)
		if err != nil {
			return nil, err
		}
		if in.env == nil {
			return nil, fmt.Errorf("%w: query", ErrNoEnv)
		}
		return in.env.Query(in.ctx, sql)
	case "save":
		table, err := strArg(1)
		if err != nil {
			return nil, err
		}
		if args[0] == nil {
			return nil, fmt.Errorf("%w: save needs a matrix", ErrArgument)
		}
		if in.mode != modeExplain {
			if in.env == nil {
				return nil, fmt.Errorf("%w: save", ErrNoEnv)
			}
			if err := in.env.Save(in.ctx, args[0], table); err != nil {
				return nil, err
			}
		}
		return args[0], nil
	case "print":
		parts := make([]string, len(args))
		for i, a := range args {
			if a == nil {
				parts[i] = n.args[i].str
			} else {
				parts[i] = formatValue(a)
			}
		}
		if in.mode != modeExplain && in.env != nil {
			in.env.Print(strings.Join(parts, " "))
		}
		return nil, nil
	case "norm":
		kind := "fro"
		if len(n.args) == 2 {
			s, err := strArg(1)
			if err != nil {
				return nil, err
			}
			kind = s
		}
		v, err := matrix.Norm(args[0], kind)
		return scalar(v), err
	}
	return builtin(n.name, args)
}

// builtin runs the pure builtins on evaluated arguments.
func builtin(name string, a []*matrix.Matrix) (*matrix.Matrix, error) {
	switch name {
	case "solve":
		return matrix.Solve(a[0], a[1])
	case "inv":
		return matrix.Inv(a[0])
	case "cholesky":
		return matrix.Cholesky(a[0])
	case "sum":
		return scalar(matrix.Sum(a[0])), nil
	case "rowSums":
		return matrix.RowSums(a[0]), nil
	case "colSums":
		return matrix.ColSums(a[0]), nil
	case "sqrt":
		return matrix.Sqrt(a[0]), nil
	case "exp":
		return matrix.Exp(a[0])
	case "log":
		return matrix.Log(a[0])
	case "abs":
		return matrix.Abs(a[0]), nil
	case "nrow":
		return scalar(float64(a[0].Rows())), nil
	case "ncol":
		return scalar(float64(a[0].Cols())), nil
	case "t":
		return matrix.T(a[0]), nil
	case "diag":
		return matrix.Diag(a[0])
	case "trace":
		v, err := matrix.Trace(a[0])
		return scalar(v), err
	case "identity":
		k, err := intArg(a[0])
		if err != nil {
			return nil, err
		}
		return matrix.Identity(k)
	case "matrix":
		v, err := scalarOf(a[0])
		if err != nil {
			return nil, err
		}
		r, err := intArg(a[1])
		if err != nil {
			return nil, err
		}
		c, err := intArg(a[2])
		if err != nil {
			return nil, err
		}
		if v == 0 {
			return matrix.Zeros(r, c)
		}
		return fill(r, c, v)
	case "rand":
		r, err := intArg(a[0])
		if err != nil {
			return nil, err
		}
		c, err := intArg(a[1])
		if err != nil {
			return nil, err
		}
		seed, err := intArg(a[2])
		if err != nil {
			return nil, err
		}
		density := 1.0
		if len(a) == 4 {
			if density, err = scalarOf(a[3]); err != nil {
				return nil, err
			}
		}
		return matrix.Rand(r, c, int64(seed), density)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknownFunction, name)
}

func intArg(m *matrix.Matrix) (int, error) {
	v, err := scalarOf(m)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
		return 0, fmt.Errorf("%w: %v is not an integer", ErrArgument, v)
	}
	return int(v), nil
}

// formatValue prints a 1x1 value as a number and anything larger as JSON
// rows, which is what print shows.
func formatValue(m *matrix.Matrix) string {
	if isScalar(m) {
		v, _ := matrix.Get(m, 0, 0)
		return fmt.Sprintf("%.10g", v)
	}
	return matrix.ToJSON(m)
}
