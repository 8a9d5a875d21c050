package sqlext

import (
	"context"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Some of MySQL's operators the engine's parser reads otherwise, or not
// at all: || under PIPES_AS_CONCAT (pipes.go) and the INTERVAL(N, N1,
// ...) function (intervalfunc.go). A statement's text is rewritten
// before it is parsed (rewriteOperators), keeping where each byte of the
// rewritten text was in the text written, so that a selected expression
// is still named as it was written (writtenSelectNames).

// edit replaces text[from:to] of a statement's text.
type edit struct {
	from, to int
	text     string
}

// rewriteOperators is q with the operators the parser does not read as
// MySQL does rewritten, and where each of its bytes was in q; origin is
// nil when nothing was rewritten.
func rewriteOperators(ctx context.Context, q string) (string, []int) {
	var origin []int
	if edits := intervalCalls(q); len(edits) > 0 {
		q, origin = splice(q, nil, edits)
	}
	return pipesAsConcat(ctx, q, origin)
}

// splice applies edits, in order and apart, to q, whose byte i was at
// origin[i] of the text written (nil: at i). The bytes an edit writes
// stand where the text it replaced began.
func splice(q string, origin []int, edits []edit) (string, []int) {
	if origin == nil {
		origin = make([]int, len(q)+1)
		for i := range origin {
			origin[i] = i
		}
	}
	var b strings.Builder
	at := make([]int, 0, len(origin)+16)
	last := 0
	for _, e := range edits {
		b.WriteString(q[last:e.from])
		at = append(at, origin[last:e.from]...)
		b.WriteString(e.text)
		for range len(e.text) {
			at = append(at, origin[e.from])
		}
		last = e.to
	}
	b.WriteString(q[last:])
	at = append(at, origin[last:]...)
	return b.String(), at
}

// writtenSelectNames names the selected expressions of st, parsed from
// q, which rewriteOperators rewrote from written, as they were written:
// MySQL names a column `a || b` so.
func writtenSelectNames(st ast.Statement, q, written string, origin []int) {
	if origin == nil {
		return
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		ae, ok := n.(*ast.AliasedExpr)
		if !ok || ae.InputExpression == "" || ae.EndParsePos <= ae.StartParsePos || ae.EndParsePos > len(q) {
			return true, nil
		}
		from, to := origin[ae.StartParsePos], origin[ae.EndParsePos]
		if from >= to || to > len(written) {
			return true, nil
		}
		if name := written[from:to]; name != q[ae.StartParsePos:ae.EndParsePos] {
			ae.InputExpression = strings.Trim(name, " \n\t")
		}
		return true, nil
	}, st)
}
