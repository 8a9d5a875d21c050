package sqlext

import ast "github.com/dolthub/vitess/go/vt/sqlparser"

// FIRST_VALUE, LAST_VALUE, LAG, LEAD and NTH_VALUE over an empty window,
// OVER (), failed with an internal error: the engine's expression of
// each counts its window's PARTITION BY and ORDER BY expressions among
// its children, and refuses to be rebuilt with none of them. Such a
// window is written with PARTITION BY NULL, which puts every row in one
// partition, as OVER () does (emptyWindowPartitioned); the column keeps
// the name written.

// unaryWindowFunctions are the window functions of one value that the
// engine cannot rebuild over an empty window.
var unaryWindowFunctions = map[string]bool{"first_value": true, "last_value": true, "lag": true, "lead": true, "nth_value": true}

// windowCalls writes the window functions of st the engine's planner
// does not take as written: CUME_DIST (cumeDistAsPercentRank), NTH_VALUE
// (nthValueAsFirstValue), and those over an empty window
// (emptyWindowPartitioned). Only a statement whose text says OVER has
// any (the caller's check).
func windowCalls(st ast.Statement) {
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if f, ok := node.(*ast.FuncExpr); ok && f.Over != nil {
			emptyWindowPartitioned(f)
			cumeDistAsPercentRank(f)
			nthValueAsFirstValue(f)
		}
		return true, nil
	}, st)
}

// emptyWindowPartitioned gives f, a call over a window, PARTITION BY NULL
// for an empty window, when it is one of unaryWindowFunctions.
func emptyWindowPartitioned(f *ast.FuncExpr) {
	w := f.Over
	if unaryWindowFunctions[f.Name.Lowered()] && w.NameRef.IsEmpty() && len(w.PartitionBy) == 0 && len(w.OrderBy) == 0 && w.Frame == nil {
		w.PartitionBy = ast.Exprs{&ast.NullVal{}}
	}
}

// nestedSelect reports whether text says SELECT twice, as a statement
// with a subquery does.
func nestedSelect(text string) bool {
	i := indexFold(text, "select")
	return i >= 0 && containsFold(text[i+len("select"):], "select")
}
