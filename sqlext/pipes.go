package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
)

// Under PIPES_AS_CONCAT (and ANSI, which sets it) `a || b` joins strings,
// as CONCAT(a, b) does, and binds tighter than every binary operator but
// ^: `'a' || 'b' = 'ab'` is true. The engine's parser always read || as
// OR, so `name || '-' || id` was 1 or 0. The statement's text is
// rewritten before it is parsed: each chain of operands joined by || is
// written as one CONCAT of them. An operand is a primary (a name, a
// literal, a variable, a call, a CASE ... END or a parenthesized
// expression) with its unary operators and COLLATE clause, which bind
// tighter still. A view or routine made under the mode keeps the
// CONCAT, as MySQL keeps a routine's sql_mode.
func pipesAsConcat(ctx context.Context, q string, origin []int) (string, []int) {
	sctx, ok := ctx.(*sql.Context)
	if !ok || sctx.Session == nil || !strings.Contains(q, "||") || !sqlMode(sctx).ModeEnabled("PIPES_AS_CONCAT") {
		return q, origin
	}
	for from := 0; ; {
		toks := sqlTokens(q)
		i := nextPipes(toks, from)
		if i < 0 {
			return q, origin
		}
		start := concatOperandStart(toks, i-1)
		if start < 0 {
			from = i + 2
			continue
		}
		edits := []edit{{from: toks[start].start, to: toks[start].start, text: "CONCAT("}}
		for pipes := i; ; {
			end := concatOperandEnd(toks, pipes+2)
			if end < 0 {
				break
			}
			edits = append(edits, edit{from: toks[pipes].start, to: toks[pipes+1].end, text: ", "})
			if pipes = nextPipes(toks, end+1); pipes != end+1 {
				edits = append(edits, edit{from: toks[end].end, to: toks[end].end, text: ")"})
				break
			}
		}
		if edits[len(edits)-1].text != ")" {
			from = i + 2
			continue
		}
		q, origin = splice(q, origin, edits)
		from = start
	}
}

// nextPipes is the index of the first | of the first || at or after
// toks[from], -1 when there is none.
func nextPipes(toks []sqlToken, from int) int {
	for i := max(from, 0); i+1 < len(toks); i++ {
		if toks[i].text == "|" && toks[i+1].text == "|" && toks[i].end == toks[i+1].start {
			return i
		}
	}
	return -1
}

// beforeOperand are keywords that stand before an operand, not as one;
// none of them is a function when "(" follows.
var beforeOperand = map[string]bool{
	"SELECT": true, "WHERE": true, "HAVING": true, "ON": true, "AND": true,
	"OR": true, "XOR": true, "NOT": true, "IN": true, "WHEN": true,
	"THEN": true, "ELSE": true, "ELSEIF": true, "BY": true, "SET": true,
	"AS": true, "RETURN": true, "LIKE": true, "REGEXP": true, "RLIKE": true,
	"BETWEEN": true, "IS": true, "DISTINCT": true, "ALL": true, "ANY": true,
	"SOME": true, "FROM": true, "LIMIT": true, "OFFSET": true,
	"ESCAPE": true, "CASE": true, "DIV": true, "MOD": true, "BINARY": true,
	"INTERVAL": true, "WHILE": true, "UNTIL": true, "USING": true,
	"JOIN": true, "UNION": true, "INTO": true, "SEPARATOR": true,
	"OVER": true, "FOR": true, "OF": true, "MEMBER": true, "DO": true,
	"DEFAULT": true, "SOUNDS": true, "LEADING": true, "TRAILING": true,
	"BOTH": true, "VALUES": true,
}

// endsOperand reports whether t can be the last token of an operand.
func endsOperand(t sqlToken) bool {
	switch {
	case t.text == ")" || t.text == "?":
		return true
	case t.word:
		return !beforeOperand[strings.ToUpper(t.text)]
	}
	c := t.text[0]
	return c == '\'' || c == '"' || c == '`' || c == '@'
}

// calls reports whether word t names a function when "(" follows it.
func calls(t sqlToken) bool {
	u := strings.ToUpper(t.text)
	return t.word && (!beforeOperand[u] || u == "VALUES")
}

// joined reports whether a and b, adjacent, are parts of one name or
// literal: a qualified name (db.t.c, `t`.`c`) or an introduced string
// (_utf8mb4'x', X'0f').
func joined(a, b sqlToken) bool {
	if a.end != b.start {
		return false
	}
	if a.text == "." || b.text == "." || strings.HasSuffix(a.text, ".") || strings.HasPrefix(b.text, ".") {
		return true
	}
	return a.word && (b.text[0] == '\'' || b.text[0] == '"')
}

func keyword(t sqlToken, w string) bool { return t.word && strings.EqualFold(t.text, w) }

// unaryAt reports whether toks[k] is a unary operator of what follows.
func unaryAt(toks []sqlToken, k int) bool {
	switch toks[k].text {
	case "-", "+", "~":
		return k == 0 || !endsOperand(toks[k-1])
	case "!":
		return true
	}
	return keyword(toks[k], "BINARY")
}

// concatOperandStart is the index of the first token of the operand whose last
// token is toks[j], -1 when toks[j] ends none.
func concatOperandStart(toks []sqlToken, j int) int {
	for j >= 2 && keyword(toks[j-1], "COLLATE") {
		j -= 2
	}
	if j < 0 {
		return -1
	}
	i := -1
	switch t := toks[j]; {
	case t.text == ")":
		if i = matchingOpen(toks, j); i > 0 && calls(toks[i-1]) {
			i--
		}
	case keyword(t, "END"):
		i = matchingCase(toks, j)
	case endsOperand(t):
		i = j
	}
	if i < 0 {
		return -1
	}
	for i > 0 && joined(toks[i-1], toks[i]) {
		i--
	}
	for i > 0 && unaryAt(toks, i-1) {
		i--
	}
	return i
}

// concatOperandEnd is the index of the last token of the operand whose first
// token is toks[i], -1 when none starts there.
func concatOperandEnd(toks []sqlToken, i int) int {
	for i < len(toks) && unaryAt(toks, i) {
		i++
	}
	if i >= len(toks) {
		return -1
	}
	j := -1
	switch t := toks[i]; {
	case t.text == "(":
		j = matchingParen(toks, i)
	case keyword(t, "CASE"):
		j = matchingEnd(toks, i)
	case endsOperand(t) && t.text != ")":
		j = i
		for j+1 < len(toks) && joined(toks[j], toks[j+1]) {
			j++
		}
		if j+1 < len(toks) && toks[j+1].text == "(" && calls(toks[j]) {
			j = matchingParen(toks, j+1)
		}
	}
	for j >= 0 && j+2 < len(toks) && keyword(toks[j+1], "COLLATE") {
		j += 2
	}
	return j
}

// matchingToken is the index of the token that closes the one at
// toks[i], walking by step (1 or -1), or -1: opens and closes say which
// tokens open and close a level.
func matchingToken(toks []sqlToken, i, step int, opens, closes func(sqlToken) bool) int {
	depth := 0
	for k := i; k >= 0 && k < len(toks); k += step {
		switch {
		case opens(toks[k]):
			depth++
		case closes(toks[k]):
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

func isText(s string) func(sqlToken) bool    { return func(t sqlToken) bool { return t.text == s } }
func isKeyword(w string) func(sqlToken) bool { return func(t sqlToken) bool { return keyword(t, w) } }

func matchingOpen(toks []sqlToken, j int) int {
	return matchingToken(toks, j, -1, isText(")"), isText("("))
}

func matchingEnd(toks []sqlToken, i int) int {
	return matchingToken(toks, i, 1, isKeyword("CASE"), isKeyword("END"))
}

func matchingCase(toks []sqlToken, j int) int {
	return matchingToken(toks, j, -1, isKeyword("END"), isKeyword("CASE"))
}
