package sqlext

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// FIRST_VALUE, LAST_VALUE, LAG, LEAD and NTH_VALUE over an empty window,
// OVER (), failed with an internal error: the engine's expression of
// each counts its window's PARTITION BY and ORDER BY expressions among
// its children, and refuses to be rebuilt with none of them. Such a
// window is written with PARTITION BY NULL, which puts every row in one
// partition, as OVER () does (emptyWindowsPartitioned); the column keeps
// the name written.

// unaryWindowFunctions are the window functions of one value that the
// engine cannot rebuild over an empty window.
var unaryWindowFunctions = map[string]bool{"first_value": true, "last_value": true, "lag": true, "lead": true, "nth_value": true}

func emptyWindowsPartitioned(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		f, ok := node.(*ast.FuncExpr)
		if !ok || f.Over == nil || !unaryWindowFunctions[strings.ToLower(f.Name.String())] {
			return true, nil
		}
		w := f.Over
		if w.NameRef.IsEmpty() && len(w.PartitionBy) == 0 && len(w.OrderBy) == 0 && w.Frame == nil {
			w.PartitionBy = ast.Exprs{&ast.NullVal{}}
		}
		return true, nil
	}, st)
}
