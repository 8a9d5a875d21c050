package sqlext

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A WHERE of `col IN (1, 2, ..., n)` with many values, as ORMs write to
// read the rows of a list of keys, took time in n² to plan: the engine
// merges the list's n ranges into a lookup through a tree, then checks
// every pair of the result for overlaps (BenchmarkLongInList, 5,000
// keys: 915 ms). longInLists reads such a list of at least inListRows
// integer literals as `col IN (SELECT column_0 FROM (VALUES ROW(1), ...)
// AS sqlearn_in)`, which compares the same values (integer literals
// typed as the VALUES table types them, valuesTypeRule) and which the
// engine plans as a semi join, a lookup per key. Lists with anything but
// integer literals (text, expressions, placeholders, NULL), NOT IN and
// IN outside a WHERE are left as written.
const inListRows = 256

func longInLists(st ast.Statement) {
	inWhere := func(node ast.SQLNode) (bool, error) {
		if cmp, ok := node.(*ast.ComparisonExpr); ok && cmp.Operator == ast.InStr {
			if sq := valuesOfList(cmp.Right); sq != nil {
				cmp.Right = sq
			}
		}
		return true, nil
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case ast.Values:
			return false, nil // an INSERT's rows, which hold no WHERE
		case *ast.Where:
			if n != nil && n.Expr != nil {
				// Its subqueries' WHEREs included.
				_ = ast.Walk(inWhere, n.Expr)
			}
			return false, nil
		}
		return true, nil
	}, st)
}

// valuesOfList is the subquery that reads the values of list e when e is
// a list of at least inListRows integer literals, nil otherwise.
func valuesOfList(e ast.Expr) *ast.Subquery {
	list, ok := e.(ast.ValTuple)
	if !ok || len(list) < inListRows {
		return nil
	}
	var b strings.Builder
	b.WriteString("SELECT column_0 FROM (VALUES ")
	for i, v := range list {
		lit, ok := v.(*ast.SQLVal)
		if !ok || lit.Type != ast.IntVal {
			return nil
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("ROW(")
		b.Write(lit.Val)
		b.WriteByte(')')
	}
	b.WriteString(") AS sqlearn_in")
	st, err := ast.Parse(b.String())
	sel, ok := st.(*ast.Select)
	if err != nil || !ok {
		return nil
	}
	return &ast.Subquery{Select: sel}
}
