package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A GROUP BY column named without its table, which two tables of the FROM
// clause hold and no column of the select list is named, is MySQL's 1052
// ("Column 'a' in group statement is ambiguous"). The engine grouped by
// the first table's column. groupByAmbiguity checks each SELECT of a
// statement whose FROM clause is made of stored tables and derived tables
// whose columns it can name; it leaves any other alone.

// groupByAmbiguity is error 1052 for the first ambiguous GROUP BY column
// of st, or nil.
func (p *Provider) groupByAmbiguity(ctx *sql.Context, st ast.Statement) error {
	var found error
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		sel, ok := n.(*ast.Select)
		if !ok || len(sel.GroupBy) == 0 || found != nil {
			return found == nil, nil
		}
		for _, g := range sel.GroupBy {
			c, ok := g.(*ast.ColName)
			if !ok || !c.Qualifier.IsEmpty() || selectsName(sel, c.Name.String()) {
				continue
			}
			holders, known := p.tablesHolding(ctx, sel.From, c.Name.String())
			if known && holders > 1 {
				found = mysql.NewSQLError(mysql.ERNonUniq, "23000", "Column '%s' in group statement is ambiguous", c.Name.String())
				return false, nil
			}
		}
		return true, nil
	}, st)
	return found
}

// selectsName says whether a column of sel's select list is named name,
// by its alias or as a column; or may be, through a table's star (t.*).
func selectsName(sel *ast.Select, name string) bool {
	for _, e := range sel.SelectExprs {
		if star, ok := e.(*ast.StarExpr); ok && !star.TableName.IsEmpty() {
			return true
		}
		ae, ok := e.(*ast.AliasedExpr)
		if !ok {
			continue
		}
		if !ae.As.IsEmpty() {
			if strings.EqualFold(ae.As.String(), name) {
				return true
			}
			continue
		}
		if c, ok := ae.Expr.(*ast.ColName); ok && strings.EqualFold(c.Name.String(), name) {
			return true
		}
	}
	return false
}

// tablesHolding counts the tables of from that hold a column named name,
// counting once a column that USING or a natural join merges; known is
// false when from has a table whose columns it cannot tell.
func (p *Provider) tablesHolding(ctx *sql.Context, from ast.TableExprs, name string) (n int, known bool) {
	for _, te := range from {
		k, ok := p.tableExprHolding(ctx, te, name)
		if !ok {
			return 0, false
		}
		n += k
	}
	return n, true
}

func (p *Provider) tableExprHolding(ctx *sql.Context, te ast.TableExpr, name string) (int, bool) {
	switch t := te.(type) {
	case *ast.ParenTableExpr:
		return p.tablesHolding(ctx, t.Exprs, name)
	case *ast.JoinTableExpr:
		l, lok := p.tableExprHolding(ctx, t.LeftExpr, name)
		r, rok := p.tableExprHolding(ctx, t.RightExpr, name)
		if !lok || !rok {
			return 0, false
		}
		merged := strings.HasPrefix(strings.ToLower(t.Join), "natural")
		for _, u := range t.Condition.Using {
			merged = merged || strings.EqualFold(u.String(), name)
		}
		if merged && l > 0 && r > 0 {
			return 1, true
		}
		return l + r, true
	case *ast.AliasedTableExpr:
		switch x := t.Expr.(type) {
		case ast.TableName:
			return p.storedTableHolding(ctx, x, name)
		case *ast.Subquery:
			return derivedHolding(x, name)
		}
	}
	return 0, false
}

// storedTableHolding says whether the stored table named t holds a
// column named name; known is false for any other table (a view, a
// temporary table, a common table expression, a system table).
func (p *Provider) storedTableHolding(ctx *sql.Context, t ast.TableName, name string) (int, bool) {
	db := t.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	if db == "" {
		return 0, false
	}
	if _, temp := temporary(ctx, db, t.Name.String()); temp {
		return 0, false
	}
	info, err := p.store.Table(db, t.Name.String())
	if err != nil {
		return 0, false
	}
	for _, c := range info.Schema.Columns {
		if strings.EqualFold(c.Name, name) {
			return 1, true
		}
	}
	return 0, true
}

// derivedHolding says whether the derived table s names a column name:
// its column list, or its select list of columns and aliases.
func derivedHolding(s *ast.Subquery, name string) (int, bool) {
	if len(s.Columns) > 0 {
		for _, c := range s.Columns {
			if strings.EqualFold(c.String(), name) {
				return 1, true
			}
		}
		return 0, true
	}
	sel, ok := s.Select.(*ast.Select)
	if !ok {
		return 0, false
	}
	for _, e := range sel.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok {
			return 0, false // a star
		}
		if !ae.As.IsEmpty() {
			if strings.EqualFold(ae.As.String(), name) {
				return 1, true
			}
			continue
		}
		c, ok := ae.Expr.(*ast.ColName)
		if !ok {
			return 0, false // named by its text
		}
		if strings.EqualFold(c.Name.String(), name) {
			return 1, true
		}
	}
	return 0, true
}
