package sqlext

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A procedure's loops evaluate their conditions and counters at every
// step: through the engine each is a statement planned anew (about 65 µs
// here, most of it the analyzer). The expressions such steps are made of,
// integer arithmetic, comparison and logic over the procedure's
// variables, are evaluated here instead, with MySQL's NULLs; anything
// else (text, decimals, functions, a result out of BIGINT's range) goes
// to the engine as before.

// quickExprs holds the expressions of procedure texts quickly evaluable
// in form (nil for one that is not), by text.
var quickExprs sync.Map

// quickExpr is the parsed expression of text when its form is one
// quickValue evaluates.
func quickExpr(text string) ast.Expr {
	if e, ok := quickExprs.Load(text); ok {
		x, _ := e.(ast.Expr) // nil for a text of another form
		return x
	}
	var e ast.Expr
	if st, err := ast.Parse("SELECT " + text); err == nil {
		if sel, ok := st.(*ast.Select); ok && len(sel.SelectExprs) == 1 && sel.From == nil {
			if ae, ok := sel.SelectExprs[0].(*ast.AliasedExpr); ok && quickForm(ae.Expr) {
				e = ae.Expr
			}
		}
	}
	quickExprs.Store(text, e)
	return e
}

// quickForm says whether e is made only of what quickValue evaluates.
func quickForm(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return quickForm(x.Expr)
	case *ast.ColName:
		return x.Qualifier.IsEmpty() && !strings.HasPrefix(x.Name.String(), "@")
	case *ast.SQLVal:
		return x.Type == ast.IntVal
	case *ast.NullVal, ast.BoolVal:
		return true
	case *ast.BinaryExpr:
		switch x.Operator {
		case ast.PlusStr, ast.MinusStr, ast.MultStr, ast.ModStr:
			return quickForm(x.Left) && quickForm(x.Right)
		}
	case *ast.ComparisonExpr:
		switch x.Operator {
		case ast.EqualStr, ast.NotEqualStr, ast.LessThanStr, ast.GreaterThanStr, ast.LessEqualStr, ast.GreaterEqualStr, ast.NullSafeEqualStr:
			return x.Escape == nil && quickForm(x.Left) && quickForm(x.Right)
		}
	case *ast.AndExpr:
		return quickForm(x.Left) && quickForm(x.Right)
	case *ast.OrExpr:
		return quickForm(x.Left) && quickForm(x.Right)
	case *ast.NotExpr:
		return quickForm(x.Expr)
	case *ast.UnaryExpr:
		return x.Operator == ast.UMinusStr && quickForm(x.Expr)
	case *ast.IsExpr:
		return (x.Operator == ast.IsNullStr || x.Operator == ast.IsNotNullStr) && quickForm(x.Expr)
	}
	return false
}

// quickValue evaluates e, of quickForm, with the variables of f: an
// int64 or nil (NULL). ok is false when a name is no variable, a
// variable holds other than an integer, or a result leaves BIGINT's
// range; the engine then evaluates e.
func quickValue(f *procFrame, e ast.Expr) (v any, ok bool) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return quickValue(f, x.Expr)
	case *ast.ColName:
		pv := f.variable(x.Name.String())
		if pv == nil {
			return nil, false
		}
		return asInt64(pv.val)
	case *ast.SQLVal:
		n, err := strconv.ParseInt(string(x.Val), 10, 64)
		return n, err == nil
	case *ast.NullVal:
		return nil, true
	case ast.BoolVal:
		return boolInt(bool(x)), true
	case *ast.BinaryExpr:
		a, b, ok := quickPair(f, x.Left, x.Right)
		if !ok || a == nil || b == nil {
			return nil, ok
		}
		return arith(x.Operator, a.(int64), b.(int64))
	case *ast.ComparisonExpr:
		a, b, ok := quickPair(f, x.Left, x.Right)
		if !ok {
			return nil, false
		}
		if x.Operator == ast.NullSafeEqualStr {
			return boolInt(a == b), true
		}
		if a == nil || b == nil {
			return nil, true
		}
		return boolInt(compareInts(x.Operator, a.(int64), b.(int64))), true
	case *ast.AndExpr, *ast.OrExpr:
		var l, r ast.Expr
		and := false
		if a, isAnd := x.(*ast.AndExpr); isAnd {
			l, r, and = a.Left, a.Right, true
		} else {
			o := x.(*ast.OrExpr)
			l, r = o.Left, o.Right
		}
		a, b, ok := quickPair(f, l, r)
		if !ok {
			return nil, false
		}
		return logic(and, a, b), true
	case *ast.NotExpr:
		a, ok := quickValue(f, x.Expr)
		if !ok || a == nil {
			return nil, ok
		}
		return boolInt(a.(int64) == 0), true
	case *ast.UnaryExpr:
		a, ok := quickValue(f, x.Expr)
		if !ok || a == nil {
			return nil, ok
		}
		if a.(int64) == math.MinInt64 {
			return nil, false
		}
		return -a.(int64), true
	case *ast.IsExpr:
		a, ok := quickValue(f, x.Expr)
		if !ok {
			return nil, false
		}
		return boolInt((a == nil) == (x.Operator == ast.IsNullStr)), true
	}
	return nil, false
}

func quickPair(f *procFrame, l, r ast.Expr) (a, b any, ok bool) {
	if a, ok = quickValue(f, l); !ok {
		return nil, nil, false
	}
	b, ok = quickValue(f, r)
	return a, b, ok
}

// asInt64 reads a variable's value as an integer: nil stays NULL; any
// other type, or an unsigned value past BIGINT, is not ok.
func asInt64(v any) (any, bool) {
	switch n := v.(type) {
	case nil:
		return nil, true
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case int:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint64:
		return int64(n), n <= math.MaxInt64
	}
	return nil, false
}

// arith is a op b over BIGINT; a result out of its range is not ok. A
// remainder by zero is NULL, as in MySQL.
func arith(op string, a, b int64) (any, bool) {
	switch op {
	case ast.PlusStr:
		s := a + b
		return s, (s > a) == (b > 0) || b == 0
	case ast.MinusStr:
		d := a - b
		return d, (d < a) == (b > 0) || b == 0
	case ast.MultStr:
		hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
		if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
			return nil, false
		}
		return a * b, true
	case ast.ModStr:
		if b == 0 {
			return nil, true
		}
		if b == -1 {
			return int64(0), true
		}
		return a % b, true
	}
	return nil, false
}

func compareInts(op string, a, b int64) bool {
	switch op {
	case ast.EqualStr:
		return a == b
	case ast.NotEqualStr:
		return a != b
	case ast.LessThanStr:
		return a < b
	case ast.GreaterThanStr:
		return a > b
	case ast.LessEqualStr:
		return a <= b
	}
	return a >= b // GreaterEqualStr
}

// logic is a AND b (and true) or a OR b over MySQL's three values.
func logic(and bool, a, b any) any {
	truth := func(v any) (known, t bool) {
		if v == nil {
			return false, false
		}
		return true, v.(int64) != 0
	}
	ka, ta := truth(a)
	kb, tb := truth(b)
	if and {
		switch {
		case (ka && !ta) || (kb && !tb):
			return int64(0)
		case ka && kb:
			return int64(1)
		}
		return nil
	}
	switch {
	case (ka && ta) || (kb && tb):
		return int64(1)
	case ka && kb:
		return int64(0)
	}
	return nil
}

// quickSets holds the SET statements of procedure texts that set only
// names to quickly evaluable expressions (nil for others), by text.
var quickSets sync.Map

// quickSet is the parsed SET of text when it sets only unqualified names
// to expressions of quickForm.
func quickSet(text string) *ast.Set {
	if s, ok := quickSets.Load(text); ok {
		x, _ := s.(*ast.Set)
		return x
	}
	var set *ast.Set
	if st, err := ast.Parse(text); err == nil {
		if s, ok := st.(*ast.Set); ok {
			set = s
			for _, e := range s.Exprs {
				if e.Scope != ast.SetScope_None || e.Name == nil || !e.Name.Qualifier.IsEmpty() ||
					strings.HasPrefix(e.Name.Name.String(), "@") || !quickForm(e.Expr) {
					set = nil
					break
				}
			}
		}
	}
	quickSets.Store(text, set)
	return set
}

// quickSet carries out s, assignment by assignment, while each sets a
// local variable to a value quickValue gives, and says how many it
// carried out; done when all were.
func (r *procRun) quickSet(f *procFrame, s *ast.Set) (n int, done bool) {
	for i, e := range s.Exprs {
		pv := f.variable(e.Name.Name.String())
		var v any
		ok := pv != nil
		if ok {
			v, ok = quickValue(f, e.Expr)
		}
		if !ok || r.set(pv, v) != nil {
			return i, false // the engine reports the error, if any
		}
	}
	r.da = nil
	return len(s.Exprs), true
}
