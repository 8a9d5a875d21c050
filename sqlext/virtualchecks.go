package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/go-mysql-server/sql/transform"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The engine's planner reads a table with VIRTUAL generated columns
// through a wrapper of its own (plan.VirtualColumnTable), which hides
// what the table is: it took its CHECK constraints, its indexes and its
// primary key from the wrapper, and so found none. INSERT, REPLACE and
// UPDATE of such a table checked no CHECK constraint (a row breaking one
// was stored), and SHOW CREATE TABLE and SHOW INDEX left out its keys and
// checks, so a dump of it lost them. virtualTableChecks gives such
// writes their table's checks; showCreateTable and showIndexes read the
// table below the wrapper.
const virtualTableChecksRule analyzer.RuleId = 9940

func init() { beforeEveryStatement(virtualTableChecksRule, virtualTableChecks) }

func virtualTableChecks(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !wrapsVirtualTable(n) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch w := n.(type) {
		case *plan.InsertInto:
			checks, err := wrappedChecks(ctx, a, w.Destination, w.Checks())
			if checks == nil || err != nil {
				return n, transform.SameTree, err
			}
			return w.WithChecks(checks), transform.NewTree, nil
		case *plan.Update:
			if w.IsJoin {
				return n, transform.SameTree, nil
			}
			checks, err := wrappedChecks(ctx, a, w.Child, w.Checks())
			if checks == nil || err != nil {
				return n, transform.SameTree, err
			}
			return w.WithChecks(checks), transform.NewTree, nil
		case *plan.ShowCreateTable:
			return showWrapped(ctx, a, w)
		case *plan.ShowIndexes:
			t, _ := wrappedTable(w.Child)
			if t == nil || len(w.IndexesToShow) > 0 {
				return n, transform.SameTree, nil
			}
			indexes, err := shownIndexes(ctx, t)
			if err != nil {
				return nil, transform.SameTree, err
			}
			nw := *w
			nw.IndexesToShow = indexes
			return &nw, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}

// showWrapped gives SHOW CREATE TABLE of a table read through a
// VirtualColumnTable the table's keys, primary key and checks, as the
// engine's planner gives another table's.
func showWrapped(ctx *sql.Context, a *analyzer.Analyzer, n *plan.ShowCreateTable) (sql.Node, transform.TreeIdentity, error) {
	t, rt := wrappedTable(n.Child)
	if t == nil || n.IsView {
		return n, transform.SameTree, nil
	}
	indexes, err := shownIndexes(ctx, t)
	if err != nil {
		return nil, transform.SameTree, err
	}
	checks, err := checksOf(ctx, a, t, rt.Table.Schema())
	if err != nil {
		return nil, transform.SameTree, err
	}
	for _, c := range checks {
		// Columns written as SHOW CREATE TABLE writes them.
		c.Expr, _, _ = transform.Expr(c.Expr, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			if gf, ok := e.(*expression.GetField); ok {
				return expression.NewUnresolvedColumn(fmt.Sprintf("`%s`", gf.Name())), transform.NewTree, nil
			}
			return e, transform.SameTree, nil
		})
	}
	nn := n.WithChecks(checks).(*plan.ShowCreateTable)
	cp := *nn
	cp.Indexes = indexes
	cp.PrimaryKeySchema = t.PrimaryKeySchema()
	return &cp, transform.NewTree, nil
}

// shownIndexes are the indexes of t that SHOW statements list.
func shownIndexes(ctx *sql.Context, t *Table) ([]sql.Index, error) {
	all, err := t.GetIndexes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]sql.Index, 0, len(all))
	for _, x := range all {
		if !x.IsGenerated() {
			out = append(out, x)
		}
	}
	return out, nil
}

// wrappedTable is the stored table under the first table n reads, when
// the planner reached it through a VirtualColumnTable, and the resolved
// table that wraps it.
func wrappedTable(n sql.Node) (*Table, *plan.ResolvedTable) {
	var rt *plan.ResolvedTable
	transform.Inspect(n, func(n sql.Node) bool {
		if r, ok := n.(*plan.ResolvedTable); ok && rt == nil {
			rt = r
		}
		return rt == nil
	})
	if rt == nil {
		return nil, nil
	}
	if _, wrapped := rt.Table.(*plan.VirtualColumnTable); !wrapped {
		return nil, nil
	}
	return storedTable(rt.Table), rt
}

// wrappedChecks are the CHECK constraints of the table under target,
// when the planner reached it through a VirtualColumnTable and so gave
// the statement none (have), built over the table's columns; nil
// otherwise.
func wrappedChecks(ctx *sql.Context, a *analyzer.Analyzer, target sql.Node, have sql.CheckConstraints) (sql.CheckConstraints, error) {
	if len(have) > 0 {
		return nil, nil
	}
	t, rt := wrappedTable(target)
	if t == nil {
		return nil, nil
	}
	return checksOf(ctx, a, t, rt.Table.Schema())
}

// checksOf are t's CHECK constraints, built over its columns sch.
func checksOf(ctx *sql.Context, a *analyzer.Analyzer, t *Table, sch sql.Schema) (sql.CheckConstraints, error) {
	defs, err := t.GetChecks(ctx)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	b := planbuilder.New(ctx, a.Catalog, nil, sql.NewMysqlParser())
	b.DisableAuth() // the statement itself was authorized
	from := &ast.AliasedTableExpr{Expr: ast.TableName{Name: ast.NewTableIdent(t.info.Name), DbQualifier: ast.NewTableIdent(t.info.DB)}}
	var out sql.CheckConstraints
	for _, def := range defs {
		st, err := ast.Parse("SELECT " + def.CheckExpression)
		if err != nil {
			return nil, err
		}
		sel, ok := st.(*ast.Select)
		if !ok || len(sel.SelectExprs) != 1 {
			return nil, sql.ErrInvalidCheckConstraint.New(def.CheckExpression)
		}
		ae, ok := sel.SelectExprs[0].(*ast.AliasedExpr)
		if !ok {
			return nil, sql.ErrInvalidCheckConstraint.New(def.CheckExpression)
		}
		var expr sql.Expression
		if err := func() (err error) {
			defer func() {
				// The builder reports errors by panicking.
				if r := recover(); r != nil {
					if e, ok := r.(error); ok {
						err = e
					} else {
						err = fmt.Errorf("check %s: %v", def.Name, r)
					}
				}
			}()
			expr = b.BuildScalarWithTable(ae.Expr, from)
			return nil
		}(); err != nil {
			return nil, err
		}
		// The columns by their place in the table's row, which is what
		// the statement's checks read.
		expr, _, err = transform.Expr(expr, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			gf, ok := e.(*expression.GetField)
			if !ok {
				return e, transform.SameTree, nil
			}
			i := sch.IndexOfColName(gf.Name())
			if i < 0 {
				return e, transform.SameTree, nil
			}
			// No column id: the statement's own differ, and the engine
			// finds a column without one by its name.
			return expression.NewGetFieldWithTable(i, 0, sch[i].Type, strings.ToLower(t.info.DB), strings.ToLower(t.Name()), sch[i].Name, sch[i].Nullable), transform.NewTree, nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, &sql.CheckConstraint{Name: def.Name, Expr: expr, Enforced: def.Enforced})
	}
	return out, nil
}

// wrapsVirtualTable reports whether n reads a table through a
// VirtualColumnTable, which most statements do not.
func wrapsVirtualTable(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			_, found = rt.Table.(*plan.VirtualColumnTable)
		}
		return !found
	})
	return found
}
