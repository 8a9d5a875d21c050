package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// INSERT ... SELECT of a DATE into a text column stores the date as
// MySQL writes it, 2024-01-15, where the engine wrote any time.Time it
// stored in text as a DATETIME, 2024-01-15 00:00:00 (a DATETIME(n), with
// its n digits). selectedTimesAsText has the SELECT's projection give
// such a value as text (asText); INSERT ... VALUES and UPDATE are
// textRule's. It runs for every statement (onEveryStatement), once the
// projection is planned, as it changes the types of its columns.
const insertTextRule analyzer.RuleId = 9982

func selectedTimesAsText(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := n.(*plan.InsertInto)
		if !ok || ins.Source == nil || !ins.Source.Resolved() {
			return n, transform.SameTree, nil
		}
		text := insertedIntoText(ins)
		if dest := ins.Destination.Schema(); len(text) != len(dest) && len(ins.Source.Schema()) == len(dest) {
			// The source gives every column of the table, those not
			// named their defaults.
			text = make([]bool, len(dest))
			for i, c := range dest {
				text[i] = types.IsText(c.Type)
			}
		}
		src, same, err := timesProjectedAsText(ins.Source, text)
		if err != nil || same == transform.SameTree {
			return n, transform.SameTree, err
		}
		return ins.WithSource(src), transform.NewTree, nil
	})
}

// insertedIntoText says of each column an INSERT gives a value whether
// it is a text column.
func insertedIntoText(ins *plan.InsertInto) []bool {
	schema := ins.Destination.Schema()
	text := make([]bool, len(ins.ColumnNames))
	for j, name := range ins.ColumnNames {
		if i := schema.IndexOfColName(name); i >= 0 {
			text[j] = types.IsText(schema[i].Type)
		}
	}
	return text
}

// timesProjectedAsText is the rows of a SELECT with each DATE, DATETIME
// or TIMESTAMP column bound for a text column (text[j]) given as text:
// the projection's expression, or those of each branch of a UNION,
// through LIMIT, OFFSET and DISTINCT.
func timesProjectedAsText(n sql.Node, text []bool) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.Project:
		exprs := make([]sql.Expression, len(x.Projections))
		same := transform.SameTree
		// The engine projects the SELECT's columns once more onto the
		// table's, each as the column's type: a column of the SELECT
		// that goes to a text column is given as text below.
		below := make([]bool, len(x.Child.Schema()))
		for j, e := range x.Projections {
			exprs[j] = e
			if j >= len(text) || !text[j] {
				continue
			}
			if gf, ok := e.(*expression.GetField); ok && gf.Index() < len(below) {
				below[gf.Index()] = true
			}
			if !types.IsTime(e.Type()) {
				continue
			}
			same = transform.NewTree
			if a, ok := e.(*expression.Alias); ok {
				aliased, err := a.WithChildren(&asText{Expression: a.Child})
				if err != nil {
					return nil, transform.SameTree, err
				}
				exprs[j] = aliased
			} else {
				exprs[j] = &asText{Expression: e}
			}
		}
		child, childSame, err := timesProjectedAsText(x.Child, below)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if same == transform.SameTree && childSame == transform.SameTree {
			return n, same, nil
		}
		out, err := x.WithExpressions(exprs...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		out, err = out.WithChildren(child)
		return out, transform.NewTree, err
	case *plan.SetOp, *plan.Limit, *plan.Offset, *plan.Distinct:
		children := n.Children()
		changed := transform.SameTree
		for i, c := range children {
			out, same, err := timesProjectedAsText(c, text)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if same == transform.NewTree {
				if changed == transform.SameTree {
					children = append([]sql.Node(nil), children...)
				}
				children[i], changed = out, transform.NewTree
			}
		}
		if changed == transform.SameTree {
			return n, changed, nil
		}
		out, err := n.WithChildren(children...)
		return out, transform.NewTree, err
	}
	return n, transform.SameTree, nil
}
