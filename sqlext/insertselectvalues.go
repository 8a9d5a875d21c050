package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// In INSERT ... SELECT ... ON DUPLICATE KEY UPDATE, VALUES(col) is the
// value the SELECT gave col, the upsert from a staging table that ETL
// writes (INSERT INTO t SELECT * FROM staging ON DUPLICATE KEY UPDATE
// v = VALUES(v)). The engine's planner looks VALUES(col) up among the
// columns of a table it names __new_ins, which only INSERT ... VALUES
// has, and refused every such statement ("expected ON DUPLICATE KEY ...
// VALUES() to reference a column"). The parser reads the SELECT as a
// derived table of that name whose columns are named as the columns they
// fill, which changes neither the rows nor their order.
//
// Left as it was: an ON DUPLICATE KEY UPDATE that reads a column of
// another table (s.v) or a column its own table does not have (a column
// of the SELECT's), which the derived table would hide, or a subquery.

// valuesOfInsertSelect names the SELECT of ins as VALUES() reads it.
func (p *Provider) valuesOfInsertSelect(ctx *sql.Context, ins *ast.Insert) {
	sel, ok := ins.Rows.(ast.SelectStatement)
	if !ok || len(ins.OnDup) == 0 {
		return
	}
	sch, ok := p.insertedSchema(ctx, ins)
	if !ok {
		return
	}
	own := map[string]bool{}
	for _, c := range sch {
		own[strings.ToLower(c.Name)] = true
	}
	dest := ins.Table.Name.String()
	values, hidden := false, false
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *ast.ValuesFuncExpr:
			values = true
			hidden = hidden || !n.Name.Qualifier.IsEmpty() || !own[n.Name.Name.Lowered()]
			return false, nil
		case *ast.ColName:
			q := n.Qualifier.Name.String()
			hidden = hidden || q != "" && !strings.EqualFold(q, dest) || !own[n.Name.Lowered()]
		case *ast.Subquery:
			hidden = true
			return false, nil
		}
		return true, nil
	}, ins.OnDup)
	if !values || hidden {
		return
	}
	cols := ins.Columns
	if len(cols) == 0 {
		for _, c := range sch {
			cols = append(cols, ast.NewColIdent(c.Name))
		}
	}
	ins.Rows = &ast.Select{
		SelectExprs: ast.SelectExprs{&ast.StarExpr{}},
		From: ast.TableExprs{&ast.AliasedTableExpr{
			Expr: &ast.Subquery{Select: sel, Columns: cols},
			As:   ast.NewTableIdent(planbuilder.OnDupValuesPrefix),
			// The tables of the SELECT keep their own checks.
			Auth: ast.AuthInformation{AuthType: ast.AuthType_IGNORE},
		}},
	}
}
