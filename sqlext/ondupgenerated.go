package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// INSERT ... ON DUPLICATE KEY UPDATE changed the existing row's columns
// but not its stored generated columns: with k AS (p * 2) STORED, setting
// p to 5 left k at its old value. (An UPDATE recomputes them; virtual
// columns are computed when read.) onDupGeneratedRule appends to the
// statement's assignments one per stored generated column, computing it
// over the row as the assignments before it left it, which is where the
// engine applies them in order. The expression is the one the statement's
// own INSERT projection computes the column with, which reads the row's
// columns at the positions the assignments see them.
const onDupGeneratedRule analyzer.RuleId = 9972

func onDupGenerated(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(node sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := node.(*plan.InsertInto)
		if !ok || len(ins.OnDupExprs) == 0 || ins.Destination == nil {
			return node, transform.SameTree, nil
		}
		p, _ := insertProjection(ins.Source)
		schema := ins.Destination.Schema()
		if p == nil || len(p.Projections) != len(schema) {
			return node, transform.SameTree, nil
		}
		assigned := map[int]bool{}
		for _, e := range ins.OnDupExprs {
			if sf, ok := e.(*expression.SetField); ok {
				if gf, ok := sf.LeftChild.(*expression.GetField); ok {
					if gf.Index() < len(schema) && schema[gf.Index()].Generated != nil {
						assigned[gf.Index()] = true // already recomputed
					}
				}
			}
		}
		var extra []sql.Expression
		for i, col := range schema {
			if col.Generated == nil || col.Virtual || assigned[i] {
				continue
			}
			gen := p.Projections[i]
			if w, ok := gen.(*expression.Wrapper); ok {
				gen = w.Unwrap()
			}
			if _, ok := gen.(*sql.ColumnDefaultValue); !ok {
				continue
			}
			extra = append(extra, expression.NewSetField(expression.NewGetFieldWithTable(i, 0, col.Type, col.DatabaseSource, col.Source, col.Name, col.Nullable), gen))
		}
		if len(extra) == 0 {
			return node, transform.SameTree, nil
		}
		out := *ins
		out.OnDupExprs = append(append([]sql.Expression(nil), ins.OnDupExprs...), extra...)
		return &out, transform.NewTree, nil
	})
}
