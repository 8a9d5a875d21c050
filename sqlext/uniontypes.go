package sqlext

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// MySQL types each column of a UNION (INTERSECT, EXCEPT) once, from the
// types of that column in all its SELECTs: an INT with a VARCHAR is a
// VARCHAR, with a DECIMAL a DECIMAL wide enough for both, with a DOUBLE a
// DOUBLE. The engine's planner types a chain of set operations pairwise,
// putting a converting projection over the chain below at each level
// where the types differ; the schema of such a projection asks the chain
// below for its schema once per column it passes through unchanged, so a
// chain of n SELECTs of mixed types took time exponential in n to plan
// (ODBC's SQLGetTypeInfo sends some fifty), and its types were not
// MySQL's (an INT with a DOUBLE became text, a DECIMAL lost its scale).
//
// So the parser wraps each column of each SELECT of a set operation in
// unionColumnFunc, which the planner sees as of one type in every SELECT
// (it converts nothing), and unionTypeRule then gives each column the
// type MySQL gives it, computed once for the whole chain, and converts
// each SELECT's values to it. The rule runs before the engine's rules, and
// again after the rules that retype SUM, AVG and arithmetic, whose types
// the union's depend on (analyzer.go says in which order).
//
// Not rewritten, so typed by the engine as before: set operations with a
// star that expandUnionStars cannot write out or a window function in one
// of their SELECTs, and the body of a recursive common table expression.
const (
	unionTypeRule   analyzer.RuleId = 9977
	unionRetypeRule analyzer.RuleId = 9978
	unionColumnFunc                 = "sqlearn_union_column"
	maxVarcharChars                 = 16383 // 65535 bytes of utf8mb4
)

// qFlagSetOperation marks a statement that holds a set operation, whose
// SELECTs the analyzer plans apart as statements of their own (a flag of
// this package's, above the engine's).
const qFlagSetOperation = 200

// markUnionColumns wraps the columns of the SELECTs of st's set
// operations in unionColumnFunc.
func markUnionColumns(st ast.Statement) {
	done := map[*ast.SetOp]bool{}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *ast.With:
			if n != nil && n.Recursive {
				for _, cte := range n.Ctes {
					if sq, ok := cte.AliasedTableExpr.Expr.(*ast.Subquery); ok {
						if so, ok := sq.Select.(*ast.SetOp); ok {
							chainOf(so, done)
						}
					}
				}
			}
		case *ast.SetOp:
			if done[n] {
				return true, nil
			}
			leaves := chainOf(n, done)
			for _, l := range leaves {
				if !markable(l) {
					return true, nil
				}
			}
			for _, l := range leaves {
				for _, se := range l.SelectExprs {
					ae := se.(*ast.AliasedExpr)
					if col, ok := ae.Expr.(*ast.ColName); ok && ae.As.IsEmpty() {
						ae.As = ast.NewColIdent(col.Name.String())
					}
					ae.Expr = &ast.FuncExpr{Name: ast.NewColIdent(unionColumnFunc), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: ae.Expr}}}
				}
			}
		}
		return true, nil
	}, st)
}

// chainOf is the SELECTs of the chain of set operations so, whose
// operations it marks done.
func chainOf(so *ast.SetOp, done map[*ast.SetOp]bool) []*ast.Select {
	done[so] = true
	var leaves []*ast.Select
	for _, side := range []ast.SelectStatement{so.Left, so.Right} {
		if p, ok := side.(*ast.ParenSelect); ok {
			side = p.Select
		}
		switch s := side.(type) {
		case *ast.SetOp:
			leaves = append(leaves, chainOf(s, done)...)
		case *ast.Select:
			leaves = append(leaves, s)
		default:
			return nil
		}
	}
	return leaves
}

// markable reports whether each column of sel can be wrapped: none is a
// star, and none holds a window function, which the planner takes only
// at the top of a column.
func markable(sel *ast.Select) bool {
	for _, se := range sel.SelectExprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return false
		}
		if f, ok := ae.Expr.(*ast.FuncExpr); ok && f.Name.EqualString(unionColumnFunc) {
			return false // already wrapped
		}
		window := false
		_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
			switch n := node.(type) {
			case *ast.FuncExpr:
				window = window || n.Over != nil
			case *ast.Subquery:
				return false, nil
			}
			return !window, nil
		}, ae.Expr)
		if window {
			return false
		}
	}
	return true
}

// unionColumnFunction builds unionColumn.
var unionColumnFunction = sql.Function1{Name: unionColumnFunc, Fn: func(e sql.Expression) sql.Expression {
	return &unionColumn{UnaryExpression: expression.UnaryExpression{Child: e}}
}}

// unionColumn is column col of SELECT leaf of a chain of set operations,
// converted to the type of the chain's column. Until unionTypeRule has
// typed it, it answers LONGTEXT, as every other SELECT's does.
type unionColumn struct {
	expression.UnaryExpression
	chain     *unionChain
	leaf, col int
}

// unionChain is what is known of the types of a chain of set operations.
// Each of its unionColumns, and each copy of them the analyzer makes,
// answers the type it holds: the analyzer types some parts of a chain
// apart (each side of a set operation), and the sides must agree.
type unionChain struct {
	mu     sync.Mutex
	leaves [][]sql.Type // the type of each column of each SELECT
	types  []sql.Type   // the chain's
}

// update records the types of the columns of some of the chain's
// SELECTs, by the SELECT's place in the chain, and types the chain's
// columns again.
func (c *unionChain) update(ctx *sql.Context, leaves map[int][]sql.Type) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for leaf, cols := range leaves {
		c.leaves[leaf] = cols
	}
	for i := range c.types {
		ts := make([]sql.Type, 0, len(c.leaves))
		for _, lc := range c.leaves {
			if lc != nil {
				ts = append(ts, lc[i])
			}
		}
		c.types[i] = mysqlUnionType(ctx, ts)
	}
}

func (c *unionChain) typeOf(col int) sql.Type {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.types[col]
}

var (
	_ sql.Expression         = (*unionColumn)(nil)
	_ sql.FunctionExpression = (*unionColumn)(nil)
	_ sql.CollationCoercible = (*unionColumn)(nil)
)

func (u *unionColumn) FunctionName() string { return unionColumnFunc }
func (u *unionColumn) Description() string {
	return "a column of a set operation, converted to the operation's type"
}
func (u *unionColumn) String() string      { return u.Child.String() }
func (u *unionColumn) DebugString() string { return sql.DebugString(u.Child) }

func (u *unionColumn) Type() sql.Type {
	if u.chain == nil {
		return types.LongText
	}
	return u.chain.typeOf(u.col)
}

func (u *unionColumn) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(u, len(children), 1)
	}
	out := *u
	out.Child = children[0]
	return &out, nil
}

func (u *unionColumn) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if st, ok := u.Type().(sql.StringType); ok && !u.Type().Equals(u.Child.Type()) {
		return st.Collation(), 2
	}
	return sql.GetCoercibility(ctx, u.Child)
}

func (u *unionColumn) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := u.Child.Eval(ctx, row)
	if err != nil || v == nil || u.chain == nil {
		return v, err
	}
	src, dst := u.Child.Type(), u.Type()
	switch {
	case src.Equals(dst):
		return v, nil
	case types.IsDecimal(dst):
		d, err := decimalOf(ctx, v)
		if err != nil {
			return nil, err
		}
		return d.Round(int32(dst.(sql.DecimalType).Scale())), nil
	case dst == types.Float64:
		return doubleOf(ctx, v)
	case dst == types.Float32:
		f, err := doubleOf(ctx, v)
		return float32(f), err
	case types.IsText(dst):
		return valueText(ctx, v, src)
	case types.IsBinaryType(dst) && !types.IsJSON(dst):
		s, err := valueText(ctx, v, src)
		return []byte(s), err
	}
	out, _, err := dst.Convert(ctx, v)
	return out, err
}

// valueText is v, of type t, as MySQL writes it as text.
func valueText(ctx *sql.Context, v any, t sql.Type) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	}
	switch {
	case t == types.Float64 || t == types.Float32:
		f, err := float64Of(v)
		bits := 64
		if t == types.Float32 {
			bits = 32
		}
		return mysqlFloatText(f, bits), err
	case types.IsDecimal(t):
		d, err := decimalOf(ctx, v)
		return d.StringFixed(int32(t.(sql.DecimalType).Scale())), err
	}
	sv, err := t.SQL(ctx, nil, v)
	if err != nil {
		return "", err
	}
	return sv.ToString(), nil
}

// unionTypes types the columns of the set operations of n (unionColumn)
// and the references to them.
func unionTypes(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if transform.InspectUp(n, func(n sql.Node) bool {
		_, ok := n.(*plan.SetOp)
		return ok
	}) {
		qFlags.Set(qFlagSetOperation)
	}
	typed := map[sql.ColumnId]sql.Type{}
	out, err := typeSetOps(ctx, n, typed)
	if err != nil || out == nil {
		return n, transform.SameTree, err
	}
	out, _, err = retypeReferencesWithin(out, typed)
	if err != nil {
		return n, transform.SameTree, err
	}
	// A derived table over a union reads its columns through references
	// typed when the query was planned.
	out, _, err = derivedTypes(ctx, a, out, scope, sel, qFlags)
	return out, transform.NewTree, err
}

// typeSetOps is n with the chains of set operations in it typed, or nil
// when it has none; typed gets the type of each of their columns by id.
func typeSetOps(ctx *sql.Context, n sql.Node, typed map[sql.ColumnId]sql.Type) (sql.Node, error) {
	if so, ok := n.(*plan.SetOp); ok {
		return typeChain(ctx, so, typed)
	}
	children := n.Children()
	var changed []sql.Node
	for i, c := range children {
		out, err := typeSetOps(ctx, c, typed)
		if err != nil {
			return nil, err
		}
		if out == nil {
			continue
		}
		if changed == nil {
			changed = append([]sql.Node(nil), children...)
		}
		changed[i] = out
	}
	if changed == nil {
		return nil, nil
	}
	return n.WithChildren(changed...)
}

// typeChain types the chain of set operations so, or is nil when one of
// its SELECTs is not the parser's rewrite. A chain typed before (all its
// columns share one unionChain) keeps its nodes, which answer the new
// types.
func typeChain(ctx *sql.Context, so *plan.SetOp, typed map[sql.ColumnId]sql.Type) (sql.Node, error) {
	var leaves []sql.Node
	var inner []*plan.SetOp // the operations below so
	var collect func(n sql.Node)
	collect = func(n sql.Node) {
		if s, ok := n.(*plan.SetOp); ok {
			if s != so {
				inner = append(inner, s)
			}
			collect(s.Left())
			collect(s.Right())
			return
		}
		leaves = append(leaves, n)
	}
	collect(so)
	changed := false
	// Unions nested in the SELECTs first.
	for i, l := range leaves {
		out, err := typeSetOps(ctx, l, typed)
		if err != nil {
			return nil, err
		}
		if out != nil {
			leaves[i], changed = out, true
		}
	}
	marks := make([][]*unionColumn, len(leaves))
	var chain *unionChain
	fresh := false
	for i, l := range leaves {
		exprs := selectExprs(l)
		if exprs == nil || i > 0 && len(exprs) != len(marks[0]) {
			return nil, nil
		}
		for c, e := range exprs {
			u, ok := unwrapAlias(e).(*unionColumn)
			if !ok {
				return nil, nil
			}
			if i == 0 && c == 0 {
				chain = u.chain
			}
			fresh = fresh || u.chain == nil || u.chain != chain || u.col != c
			marks[i] = append(marks[i], u)
		}
	}
	if fresh {
		chain = &unionChain{leaves: make([][]sql.Type, len(leaves)), types: make([]sql.Type, len(marks[0]))}
	}
	seen := make(map[int][]sql.Type, len(marks))
	for i, ms := range marks {
		cols := make([]sql.Type, len(ms))
		for c, u := range ms {
			cols[c] = u.Child.Type()
		}
		leaf := i
		if !fresh {
			leaf = ms[0].leaf
		}
		seen[leaf] = cols
	}
	chain.update(ctx, seen)
	// The operation's columns are the first SELECT's, in order.
	if ids := so.Columns(); ids.Len() == len(marks[0]) {
		i := 0
		ids.ForEach(func(id sql.ColumnId) {
			typed[id] = chain.typeOf(i)
			i++
		})
	}
	for i, l := range leaves {
		out, err := retypeSelect(l, chain, i, fresh, typed)
		if err != nil {
			return nil, err
		}
		leaves[i] = out
	}
	if !fresh && !changed {
		return so, nil
	}
	if fresh && associative(so, inner) {
		return balanced(so, inner, leaves)
	}
	next := 0
	var rebuild func(n sql.Node) (sql.Node, error)
	rebuild = func(n sql.Node) (sql.Node, error) {
		s, ok := n.(*plan.SetOp)
		if !ok {
			next++
			return leaves[next-1], nil
		}
		l, err := rebuild(s.Left())
		if err != nil {
			return nil, err
		}
		r, err := rebuild(s.Right())
		if err != nil {
			return nil, err
		}
		return s.WithChildren(l, r)
	}
	return rebuild(so)
}

// associative reports whether a chain of set operations, so over inner,
// may be grouped otherwise: all are UNION ALL, or all UNION DISTINCT,
// and only the top one orders or limits its rows.
func associative(so *plan.SetOp, inner []*plan.SetOp) bool {
	if so.SetOpType != plan.UnionType {
		return false
	}
	for _, s := range inner {
		if s.SetOpType != so.SetOpType || s.Distinct != so.Distinct || s.Limit != nil || s.Offset != nil || len(s.SortFields) > 0 {
			return false
		}
	}
	return true
}

// balanced is the chain so of SELECTs leaves as a balanced tree of the
// same operations, so at its top. The planner builds a chain as a list,
// each operation over the one before, and the engine's analysis works
// out the schema of an operation from its first side and plans each side
// of each operation apart, which made a list of n SELECTs take time
// cubic in n (a union of 150 rows took 16 seconds); a tree of depth log
// n does not. The rows come in the same order.
func balanced(so *plan.SetOp, inner []*plan.SetOp, leaves []sql.Node) (sql.Node, error) {
	ops := append([]*plan.SetOp{so}, inner...) // so first, at the top
	var build func(leaves []sql.Node) (sql.Node, error)
	build = func(leaves []sql.Node) (sql.Node, error) {
		if len(leaves) == 1 {
			return leaves[0], nil
		}
		op := ops[0]
		ops = ops[1:]
		l, err := build(leaves[:len(leaves)/2])
		if err != nil {
			return nil, err
		}
		r, err := build(leaves[len(leaves)/2:])
		if err != nil {
			return nil, err
		}
		return op.WithChildren(l, r)
	}
	return build(leaves)
}

// selectExprs is the list of columns of a SELECT's plan: its projection,
// below the nodes that order, limit or filter it, or nil.
func selectExprs(n sql.Node) []sql.Expression {
	for {
		switch x := n.(type) {
		case *plan.Project:
			return x.Projections
		case *plan.Window:
			return x.SelectExprs
		case *plan.SetOp, *plan.SubqueryAlias:
			return nil
		}
		if len(n.Children()) != 1 {
			return nil
		}
		n = n.Children()[0]
	}
}

// retypeSelect is the SELECT n, SELECT leaf of chain, with its
// unionColumns made chain's when fresh says they are not yet; typed gets
// the types of its aliases by id.
func retypeSelect(n sql.Node, chain *unionChain, leaf int, fresh bool, typed map[sql.ColumnId]sql.Type) (sql.Node, error) {
	retype := func(exprs []sql.Expression) []sql.Expression {
		out := make([]sql.Expression, len(exprs))
		for i, e := range exprs {
			out[i] = e
			u, ok := unwrapAlias(e).(*unionColumn)
			if !ok {
				continue
			}
			a, isAlias := e.(*expression.Alias)
			if isAlias {
				typed[a.Id()] = chain.typeOf(i)
			}
			if !fresh {
				continue
			}
			var nu sql.Expression = &unionColumn{UnaryExpression: u.UnaryExpression, chain: chain, leaf: leaf, col: i}
			if isAlias {
				nu, _ = a.WithChildren(nu)
			}
			out[i] = nu
		}
		return out
	}
	switch x := n.(type) {
	case *plan.Project:
		return x.WithExpressions(retype(x.Projections)...)
	case *plan.Window:
		return x.WithExpressions(retype(x.SelectExprs)...)
	}
	child, err := retypeSelect(n.Children()[0], chain, leaf, fresh, typed)
	if err != nil {
		return nil, err
	}
	return n.WithChildren(child)
}

func unwrapAlias(e sql.Expression) sql.Expression {
	if a, ok := e.(*expression.Alias); ok {
		return a.Child
	}
	return e
}

// mysqlUnionType is the type MySQL gives a column of a set operation
// whose SELECTs give it the types ts.
func mysqlUnionType(ctx *sql.Context, ts []sql.Type) sql.Type {
	var seen []sql.Type
	for _, t := range ts {
		if t != types.Null {
			seen = append(seen, t)
		}
	}
	if len(seen) == 0 {
		return types.Null
	}
	same := true
	var ints, decimals, floats, doubles, temporals, jsons int
	var narrowInts = true // all integers of 16 bits or fewer
	var signed, unsigned sql.Type
	whole, scale := 0, 0
	for _, t := range seen {
		same = same && t.Equals(seen[0])
		switch {
		case types.IsInteger(t):
			ints++
			narrowInts = narrowInts && integerDigits(t) <= 5
			if types.IsUnsigned(t) {
				unsigned = widerInteger(unsigned, t)
			} else {
				signed = widerInteger(signed, t)
			}
			whole = max(whole, integerDigits(t))
		case types.IsDecimal(t):
			decimals++
			w, s := digitsOf(t)
			whole, scale = max(whole, w), max(scale, s)
		case t == types.Float32:
			floats++
		case t == types.Float64:
			doubles++
		case types.IsTime(t) || isTimeType(t):
			temporals++
		case types.IsJSON(t):
			jsons++
		}
	}
	n := len(seen)
	switch {
	case same:
		return seen[0]
	case jsons == n:
		return types.JSON
	case floats+doubles+ints+decimals == n && floats+doubles > 0:
		if doubles == 0 && decimals == 0 && narrowInts {
			return types.Float32
		}
		return types.Float64
	case ints+decimals == n && (decimals > 0 || signed != nil && unsigned == types.Uint64):
		return columnDecimal(whole+scale, scale)
	case ints == n:
		return unionInteger(signed, unsigned)
	case temporals == n:
		return unionTemporal(seen)
	}
	return unionText(ctx, seen)
}

// widerInteger is the wider of two integer types (a may be nil).
func widerInteger(a, b sql.Type) sql.Type {
	if a == nil || integerDigits(b) > integerDigits(a) {
		return b
	}
	return a
}

// unionInteger is the integer type that holds the values of a signed and
// an unsigned integer type (either may be nil): a signed one wider than
// the unsigned one when both are given.
func unionInteger(signed, unsigned sql.Type) sql.Type {
	switch {
	case unsigned == nil:
		return signed
	case signed == nil:
		return unsigned
	}
	promoted := map[sql.Type]sql.Type{types.Uint8: types.Int16, types.Uint16: types.Int32, types.Uint24: types.Int32, types.Uint32: types.Int64}[unsigned]
	if promoted == nil {
		promoted = types.Int64
	}
	return widerInteger(signed, promoted)
}

// columnDecimal is DECIMAL(prec, scale) within DECIMAL's limits, written
// with its scale's digits as a column's values are.
func columnDecimal(prec, scale int) sql.Type {
	t := decimalType(prec, scale).(sql.DecimalType)
	return types.MustCreateColumnDecimalType(t.Precision(), t.Scale())
}

// unionTemporal is the type of a column of dates and times: the type
// they share, or a DATETIME with the most fractional digits of them.
func unionTemporal(ts []sql.Type) sql.Type {
	base, fsp, engineTime := ts[0].Type(), 0, false
	for _, t := range ts {
		if t.Type() != base {
			base = sqltypes.Datetime
		}
		fsp = max(fsp, fractionDigits(t))
		engineTime = engineTime || types.IsTimespan(t)
	}
	switch base {
	case sqltypes.Date:
		return types.Date
	case sqltypes.Time:
		if engineTime {
			return types.Time // digits not known
		}
		return timeType{fsp: fsp}
	case sqltypes.Timestamp:
		return types.MustCreateDatetimeType(sqltypes.Timestamp, fsp)
	}
	return types.MustCreateDatetimeType(sqltypes.Datetime, fsp)
}

// unionText is the text type that holds every type of ts written as text:
// a VARCHAR as long as the longest (TEXT when longer than a VARCHAR can
// be), in the collation of the first text type, binary when one of them
// is.
func unionText(ctx *sql.Context, ts []sql.Type) sql.Type {
	var length int64
	binary := false
	collation := sql.Collation_Default
	found := false
	for _, t := range ts {
		if st, ok := t.(sql.StringType); ok {
			length = max(length, st.MaxCharacterLength())
			if !found {
				collation, found = st.Collation(), true
			}
			binary = binary || types.IsBinaryType(t)
			continue
		}
		length = max(length, int64(t.MaxTextResponseByteLength(ctx)))
		binary = binary || types.IsBinaryType(t)
	}
	switch {
	case binary && length <= maxVarcharChars*4:
		return types.MustCreateBinary(sqltypes.VarBinary, length)
	case binary:
		return types.LongBlob
	case length <= maxVarcharChars:
		return types.MustCreateString(sqltypes.VarChar, length, collation)
	}
	return types.CreateLongText(collation)
}
