package sqlext

import (
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A set operation ordered by position (SELECT 1 UNION SELECT 2 ORDER BY 1
// DESC) was not ordered when the column named was a bare literal in the
// first SELECT: the engine's planner orders by the first SELECT's
// expression for the column, which for a literal is that constant, and
// turns only an aliased expression into a reference to the set
// operation's column. unionOrdinalsAliased aliases each bare literal
// column of the first SELECT of a set operation with the name the column
// has in MySQL, so that a position names the column. A string's column
// is named by the string, where the engine, whose set operations' columns
// this package wraps (markUnionColumns), named it with its quotes ('b').
func unionOrdinalsAliased(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		so, ok := node.(*ast.SetOp)
		if !ok {
			return true, nil
		}
		first := firstSelect(so)
		if first == nil {
			return true, nil
		}
		for _, se := range first.SelectExprs {
			ae, ok := se.(*ast.AliasedExpr)
			if !ok || !ae.As.IsEmpty() {
				continue
			}
			switch lit := ae.Expr.(type) {
			case *ast.SQLVal:
				name := ae.InputExpression
				switch {
				case lit.Type == ast.StrVal:
					name = string(lit.Val)
				case name == "":
					name = ast.String(lit)
				}
				ae.As = ast.NewColIdent(name)
			case *ast.NullVal, ast.BoolVal:
				name := ae.InputExpression
				if name == "" {
					name = ast.String(lit)
				}
				ae.As = ast.NewColIdent(name)
			}
		}
		return true, nil
	}, st)
}

// setOperation reports whether text may hold a set operation, which
// only a statement that says UNION, INTERSECT or EXCEPT does.
func setOperation(text string) bool {
	return containsFold(text, "union") || containsFold(text, "intersect") || containsFold(text, "except")
}

// firstSelect is the SELECT whose columns name a set operation's.
func firstSelect(s ast.SelectStatement) *ast.Select {
	for {
		switch x := s.(type) {
		case *ast.SetOp:
			s = x.Left
		case *ast.ParenSelect:
			s = x.Select
		case *ast.Select:
			return x
		default:
			return nil
		}
	}
}
