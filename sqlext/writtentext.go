package sqlext

import (
	"context"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Some of MySQL's operators the engine's parser reads otherwise, or not
// at all: || under PIPES_AS_CONCAT (pipes.go), the INTERVAL(N, N1, ...)
// function (intervalfunc.go), ODBC's escapes {d '...'} and {fn f(x)}
// (odbcescapes.go), typed literals DATE '...' (literals.go), strings under NO_BACKSLASH_ESCAPES and
// the \% and \_ of a string (nobackslash.go). A statement's text is rewritten before it is parsed
// (rewriteOperators), keeping where each byte of the rewritten text was
// in the text written, so that a selected expression is still named as
// it was written (writtenSelectNames), and the rest of a text of several
// statements is handed back as written (writtenRest). A statement the
// parser refuses is rewritten again (statementParser.rewriteRefused);
// its rewrite of assignments (@v := e) keeps that map too.

// edit replaces text[from:to] of a statement's text.
type edit struct {
	from, to int
	text     string
}

// rewriteOperators is q with the operators the parser does not read as
// MySQL does rewritten, and where each of its bytes was in q; origin is
// nil when nothing was rewritten.
func rewriteOperators(ctx context.Context, q string) (string, []int) {
	q, origin := standardEscapes(ctx, q, nil)
	q, origin = escapedWildcards(ctx, q, origin)
	if edits := intervalCalls(q); len(edits) > 0 {
		q, origin = splice(q, origin, edits)
	}
	if edits := odbcEscapes(q); len(edits) > 0 {
		q, origin = splice(q, origin, edits)
	}
	if edits := typedLiteralEdits(q); len(edits) > 0 {
		q, origin = splice(q, origin, edits)
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

// writtenRest is the rest of a text of several statements, after the one
// parsed from q, as written: the next statement is rewritten when it is
// parsed, and a rewrite such as standardEscapes must not apply twice.
func writtenRest(rest, q, written string, origin []int) string {
	if origin == nil || rest == "" || len(rest) > len(q) || q[len(q)-len(rest):] != rest {
		return rest
	}
	if at := origin[len(q)-len(rest)]; at <= len(written) {
		return written[at:]
	}
	return rest
}

// writtenSelectNames names the selected expressions of st, parsed from
// q, which rewriteOperators rewrote from written (origin nil: q is the
// text written), as they were written: MySQL names a column `a || b`
// so. A comment after the expression is no part of its name, nor a comma
// before it, where the parser kept them in: SELECT 1 /* one */ , 2 names
// its columns 1 and 2.
func writtenSelectNames(st ast.Statement, q, written string, origin []int) {
	var braces *escapeBraces
	if origin != nil {
		braces = bracesOf(written)
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		ae, ok := n.(*ast.AliasedExpr)
		if !ok || ae.InputExpression == "" || ae.EndParsePos <= ae.StartParsePos || ae.EndParsePos > len(q) {
			return true, nil
		}
		start, end := ae.StartParsePos, ae.EndParsePos
		if rest := strings.TrimLeft(q[start:end], " \n\t\r"); strings.HasPrefix(rest, ",") {
			// The parser begins an expression after a space before its
			// comma at that space: SELECT a , b named its second column ", b".
			start = end - len(strings.TrimLeft(rest[1:], " \n\t\r"))
		}
		if raw := q[start:end]; strings.Contains(raw, "/*") || strings.Contains(raw, "#") || strings.Contains(raw, "--") {
			end = start + lastTokenEnd(raw)
		}
		if origin == nil && start == ae.StartParsePos && end == ae.EndParsePos {
			return true, nil // as the parser named it
		}
		name := q[start:end]
		if origin != nil {
			from, to := origin[start], origin[end]
			if from >= to || to > len(written) {
				return true, nil
			}
			from, to = braces.escapedSpan(from, to)
			name = written[from:to]
		}
		if name == q[ae.StartParsePos:ae.EndParsePos] {
			return true, nil
		}
		name = strings.Trim(name, " \n\t\r")
		if v, ok := ae.Expr.(*ast.SQLVal); ok && v.Type == ast.StrVal && len(name) >= 2 && (name[0] == '\'' || name[0] == '"') && name[len(name)-1] == name[0] {
			name = string(v.Val) // a string is named by its value
		}
		ae.InputExpression = name
		return true, nil
	}, st)
}

// lastTokenEnd is where the last token of text ends, comments after it
// left out; len(text) when it has none.
func lastTokenEnd(text string) int {
	toks := sqlTokens(text)
	if len(toks) == 0 {
		return len(text)
	}
	return toks[len(toks)-1].end
}
