package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// forwardChecks lets an ALTER TABLE add a CHECK that reads a column the
// same statement adds (ADD COLUMN qty INT, ADD CONSTRAINT c CHECK (qty >
// 0)), as MySQL does. The engine builds each clause against the table as
// it is, so such a CHECK was refused (1054): the column was not there
// yet. A CHECK clause whose new columns all come from one earlier ADD
// COLUMN clause is moved into that clause, as a check of the column
// (ADD COLUMN qty INT CHECK (qty > 0)), which the engine builds with the
// new column in scope; the statement stays whole (alterWhole).
func (p *Provider) forwardChecks(ctx *sql.Context, alt *ast.AlterTable) {
	if len(alt.Statements) < 2 {
		return
	}
	db := alt.Table.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	info, err := p.store.Table(db, alt.Table.Name.String())
	if err != nil {
		return
	}
	added := map[string]int{} // a new column's clause, by its place in out
	out := make([]*ast.DDL, 0, len(alt.Statements))
	for _, d := range alt.Statements {
		if check, ok := addedCheck(d); ok {
			if k := checkHome(check, info.Schema, added); k >= 0 && out[k].ConstraintAction == "" {
				out[k].ConstraintAction = ast.AddStr
				out[k].TableSpec.Constraints = append(out[k].TableSpec.Constraints, d.TableSpec.Constraints[0])
				continue
			}
		}
		if strings.EqualFold(d.ColumnAction, ast.AddStr) && d.TableSpec != nil && len(d.TableSpec.Columns) == 1 {
			added[strings.ToLower(d.TableSpec.Columns[0].Name.String())] = len(out)
		}
		out = append(out, d)
	}
	alt.Statements = out
}

// addedCheck is the CHECK an ADD CONSTRAINT clause adds.
func addedCheck(d *ast.DDL) (*ast.CheckConstraintDefinition, bool) {
	if d.ColumnAction != "" || !strings.EqualFold(d.ConstraintAction, ast.AddStr) || d.TableSpec == nil || len(d.TableSpec.Constraints) != 1 {
		return nil, false
	}
	c, ok := d.TableSpec.Constraints[0].Details.(*ast.CheckConstraintDefinition)
	return c, ok
}

// checkHome is the clause, among those added, that adds every column the
// check reads that the table lacks; -1 when there is none, or the check
// needs no new column.
func checkHome(check *ast.CheckConstraintDefinition, sch interface{ ColumnIndex(string) int }, added map[string]int) int {
	home := -1
	fits := true
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		c, ok := n.(*ast.ColName)
		if !ok || !fits {
			return fits, nil
		}
		name := c.Name.String()
		if sch.ColumnIndex(name) >= 0 {
			return true, nil
		}
		k, ok := added[strings.ToLower(name)]
		if !ok || home >= 0 && home != k {
			fits = false
		}
		home = k
		return fits, nil
	}, check.Expr)
	if !fits {
		return -1
	}
	return home
}
