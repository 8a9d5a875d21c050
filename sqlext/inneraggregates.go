package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A subquery's aggregate belongs to the subquery when its columns are
// the subquery's own: SELECT SUM(x) / (SELECT SUM(x) FROM t) FROM t
// divides each group's sum by the whole table's, BI's "share of the
// total". The engine's planner looks an aggregate up by its text in the
// enclosing queries too, and took the subquery's SUM(t.x) for the outer
// query's, so the subquery lost its grouping and returned a row per row
// of t (error 1242). innerAggregates hands such an aggregate its
// arguments through innerArgFunc, which changes nothing but the text the
// planner compares: it does so for an aggregate whose text an enclosing
// SELECT's aggregate has, in a subquery that reads a table by the name
// that SELECT reads one by (only then are both texts alike, and the
// subquery's columns its own, the nearer).

// innerArgFunc is the function an inner aggregate's arguments go through.
const innerArgFunc = "sqlearn_inner"

// selectScope is what innerAggregates knows of an enclosing SELECT.
type selectScope struct {
	aggregates map[string]bool // by unqualifiedText
	tables     map[string]bool // names and aliases its FROM reads, lower case
}

func innerAggregates(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if sel, ok := node.(*ast.Select); ok {
			scopeAggregates(sel, nil)
			return false, nil // scopeAggregates goes into its subqueries
		}
		return true, nil
	}, st)
}

// scopeAggregates separates the aggregates of sel, whose enclosing
// SELECTs are outer (innermost last), from theirs, and goes on into the
// subqueries sel holds.
func scopeAggregates(sel *ast.Select, outer []*selectScope) {
	scope := &selectScope{aggregates: map[string]bool{}, tables: fromTables(sel.From)}
	var aggs []*ast.FuncExpr
	var nested []ast.SelectStatement
	visit := func(node ast.SQLNode) (bool, error) {
		switch x := node.(type) {
		case *ast.Subquery:
			nested = append(nested, x.Select)
			return false, nil
		case *ast.FuncExpr:
			if x.Over == nil && x.IsAggregate() {
				aggs = append(aggs, x)
				scope.aggregates[unqualifiedText(x)] = true
			}
		}
		return true, nil
	}
	for _, n := range []ast.SQLNode{sel.SelectExprs, sel.Where, sel.GroupBy, sel.Having, sel.OrderBy} {
		if n != nil {
			_ = ast.Walk(visit, n)
		}
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if d, ok := node.(*ast.Subquery); ok {
			nested = append(nested, d.Select)
			return false, nil
		}
		return true, nil
	}, sel.From)
	for _, f := range aggs {
		if sharesAggregate(f, scope, outer) {
			for _, arg := range f.Exprs {
				if ae, ok := arg.(*ast.AliasedExpr); ok {
					ae.Expr = &ast.FuncExpr{Name: ast.NewColIdent(innerArgFunc), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: ae.Expr}}}
				}
			}
		}
	}
	inner := append(append([]*selectScope(nil), outer...), scope)
	for _, n := range nested {
		_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
			if s, ok := node.(*ast.Select); ok {
				scopeAggregates(s, inner)
				return false, nil
			}
			return true, nil
		}, n)
	}
}

// sharesAggregate reports whether an enclosing SELECT has f's text and
// reads a table by a name scope's FROM reads one by.
func sharesAggregate(f *ast.FuncExpr, scope *selectScope, outer []*selectScope) bool {
	key := unqualifiedText(f)
	for _, o := range outer {
		if !o.aggregates[key] {
			continue
		}
		for t := range scope.tables {
			if o.tables[t] {
				return true
			}
		}
	}
	return false
}

// fromTables is the names and aliases of the tables from reads, lower
// case, derived tables' aliases included.
func fromTables(from ast.TableExprs) map[string]bool {
	names := map[string]bool{}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch x := node.(type) {
		case *ast.AliasedTableExpr:
			if !x.As.IsEmpty() {
				names[strings.ToLower(x.As.String())] = true
			}
			if tn, ok := x.Expr.(ast.TableName); ok {
				names[strings.ToLower(tn.Name.String())] = true
			}
		case *ast.Subquery:
			return false, nil
		}
		return true, nil
	}, from)
	return names
}

// innerArgFunction is the identity, under its own name.
var innerArgFunction = sql.Function1{Name: innerArgFunc, Fn: func(e sql.Expression) sql.Expression { return &innerArg{Expression: e} }}

// innerArg is an inner aggregate's argument, as it is.
type innerArg struct {
	sql.Expression
}

var _ sql.CollationCoercible = (*innerArg)(nil)

func (a *innerArg) String() string             { return innerArgFunc + "(" + a.Expression.String() + ")" }
func (a *innerArg) Children() []sql.Expression { return []sql.Expression{a.Expression} }

func (a *innerArg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 1)
	}
	return &innerArg{Expression: children[0]}, nil
}

func (a *innerArg) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, a.Expression)
}
