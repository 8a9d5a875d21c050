package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// expandUnionStars writes out the stars of the SELECTs of st's set
// operations as the columns they stand for, so that markUnionColumns can
// type those operations as MySQL does (an INT with a DOUBLE is a DOUBLE,
// where the engine's pairwise typing made it text). A star is written out
// only where its columns are known from the statement alone: every table
// its SELECT reads is a stored table or one of the session's temporary
// tables, read by name, joined without USING or NATURAL. Any other SELECT
// keeps its star, and its set operation the engine's typing.
func (p *Provider) expandUnionStars(ctx *sql.Context, st ast.Statement) {
	done := map[*ast.SetOp]bool{}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		so, ok := node.(*ast.SetOp)
		if !ok || done[so] {
			return true, nil
		}
		for _, sel := range chainOf(so, done) {
			p.expandStarsIf(ctx, sel, false)
		}
		return true, nil
	}, st)
}

// starTable is a table a SELECT reads: how the SELECT names it, and its
// columns.
type starTable struct {
	ref  ast.TableName // the alias, or the name as written
	cols []string
}

// expandStarsIf writes out sel's stars, leaving out invisible columns
// (invisible.go), or leaves sel as it is; with onlyInvisible, it leaves
// it unless a table it reads has invisible columns.
func (p *Provider) expandStarsIf(ctx *sql.Context, sel *ast.Select, onlyInvisible bool) {
	hasStar := false
	for _, se := range sel.SelectExprs {
		_, star := se.(*ast.StarExpr)
		hasStar = hasStar || star
	}
	if !hasStar || sel.With != nil {
		return
	}
	var tables []starTable
	anyHidden := false
	var walk func(te ast.TableExpr) bool
	walk = func(te ast.TableExpr) bool {
		switch t := te.(type) {
		case *ast.AliasedTableExpr:
			name, ok := t.Expr.(ast.TableName)
			if !ok || t.AsOf != nil {
				return false
			}
			cols, hidden, ok := p.starColumns(ctx, name)
			if !ok {
				return false
			}
			anyHidden = anyHidden || hidden
			ref := name
			if !t.As.IsEmpty() {
				ref = ast.TableName{Name: t.As}
			}
			tables = append(tables, starTable{ref: ref, cols: cols})
			return true
		case *ast.JoinTableExpr:
			if len(t.Condition.Using) > 0 || strings.HasPrefix(t.Join, "natural") {
				return false
			}
			return walk(t.LeftExpr) && walk(t.RightExpr)
		case *ast.ParenTableExpr:
			for _, e := range t.Exprs {
				if !walk(e) {
					return false
				}
			}
			return true
		}
		return false
	}
	for _, te := range sel.From {
		if !walk(te) {
			return
		}
	}
	if len(tables) == 0 || onlyInvisible && !anyHidden {
		return
	}
	var out ast.SelectExprs
	for _, se := range sel.SelectExprs {
		star, ok := se.(*ast.StarExpr)
		if !ok {
			out = append(out, se)
			continue
		}
		matched := false
		for _, t := range tables {
			if !star.TableName.IsEmpty() && !sameTableRef(star.TableName, t.ref) {
				continue
			}
			matched = true
			for _, c := range t.cols {
				out = append(out, &ast.AliasedExpr{Expr: &ast.ColName{Name: ast.NewColIdent(c), Qualifier: t.ref}})
			}
		}
		if !matched {
			return // the engine reports the unknown table
		}
	}
	sel.SelectExprs = out
}

// sameTableRef reports whether a star's qualifier names the table a
// SELECT refers to as ref.
func sameTableRef(q, ref ast.TableName) bool {
	if !strings.EqualFold(q.Name.String(), ref.Name.String()) {
		return false
	}
	return q.DbQualifier.IsEmpty() || ref.DbQualifier.IsEmpty() ||
		strings.EqualFold(q.DbQualifier.String(), ref.DbQualifier.String())
}

// starColumns lists the columns SELECT * reads from the table name
// stands for, when it is a stored table or a temporary one, and whether
// it has invisible columns, which it leaves out.
func (p *Provider) starColumns(ctx *sql.Context, name ast.TableName) (cols []string, hidden, ok bool) {
	db := name.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	if db == "" {
		return nil, false, false
	}
	table := name.Name.String()
	if hidden, ok := temporary(ctx, db, table); ok {
		table = hidden
	}
	info, err := p.store.Table(db, table)
	if err != nil {
		return nil, false, false // a view, a system table, or none
	}
	cols = make([]string, 0, len(info.Schema.Columns))
	for _, c := range info.Schema.Columns {
		if metaInvisible(c.Meta) {
			hidden = true
			continue
		}
		cols = append(cols, c.Name)
	}
	return cols, hidden, true
}
