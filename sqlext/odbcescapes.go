package sqlext

import "strings"

// ODBC's escape syntax, which ODBC drivers and the BI tools over them
// send as written: {d '2024-01-15'}, {t '10:20:30'} and {ts '2024-01-15
// 10:20:30'} are a DATE, TIME and DATETIME literal, {oj t LEFT OUTER
// JOIN s ON ...} is the join inside it, and {fn CONCAT(a, b)}, or any
// other name before an expression, is the expression. MySQL reads these
// in its grammar; the engine's parser refused the braces. The statement's
// text is rewritten before it is parsed (odbcEscapes): the opening brace
// and its name go, d, t and ts before a string becoming DATE, TIME and
// TIMESTAMP, and the closing brace goes. A brace without a name after it,
// or without its closing brace, is left for the parser to refuse.

// odbcEscapes is the edits that write q's ODBC escapes as plain SQL.
func odbcEscapes(q string) []edit {
	if strings.IndexByte(q, '{') < 0 {
		return nil
	}
	toks := sqlTokens(q)
	closing := bracePairs(toks)
	var edits []edit
	closes := make(map[int]bool) // closing braces of escapes
	for i := 0; i < len(toks); i++ {
		if closes[i] {
			edits = append(edits, edit{from: toks[i].start, to: toks[i].end})
			continue
		}
		end, ok := closing[i]
		if !ok || toks[i].text != "{" || end < i+3 || !toks[i+1].word || !isIdentifierStart(toks[i+1].text[0]) {
			continue
		}
		text := ""
		if end == i+3 && strings.HasPrefix(toks[i+2].text, "'") {
			switch strings.ToLower(toks[i+1].text) {
			case "d":
				text = "DATE "
			case "t":
				text = "TIME "
			case "ts":
				text = "TIMESTAMP "
			}
		}
		edits = append(edits, edit{from: toks[i].start, to: toks[i+1].end, text: text})
		closes[end] = true
		i++
	}
	return edits
}

// bracePairs maps the index of each brace of toks that is closed to the
// index of the brace that closes it, and that one's to its own.
func bracePairs(toks []sqlToken) map[int]int {
	pairs := make(map[int]int)
	var open []int
	for k, t := range toks {
		switch t.text {
		case "{":
			open = append(open, k)
		case "}":
			if n := len(open); n > 0 {
				pairs[open[n-1]] = k
				pairs[k] = open[n-1]
				open = open[:n-1]
			}
		}
	}
	return pairs
}

// escapeBraces is the braces of a written statement's text, paired,
// which escapedSpan reads.
type escapeBraces struct {
	text  string
	toks  []sqlToken
	pairs map[int]int
}

// braceless reports whether text[from:to] holds no brace, and so widens
// to no escape.
func (b *escapeBraces) braceless(from, to int) bool {
	return !strings.ContainsAny(b.text[from:to], "{}")
}

// bracesOf pairs the braces of written; nil when it has none.
func bracesOf(written string) *escapeBraces {
	if strings.IndexByte(written, '{') < 0 {
		return nil
	}
	toks := sqlTokens(written)
	return &escapeBraces{text: written, toks: toks, pairs: bracePairs(toks)}
}

// escapedSpan widens [from, to), the text of an expression in the
// written statement b pairs the braces of, to the braces of the ODBC
// escapes it begins or ends in, which the rewrite took out: SELECT {fn
// CONCAT(a, b)} names its column with them.
func (b *escapeBraces) escapedSpan(from, to int) (int, int) {
	if b == nil || b.braceless(from, to) {
		return from, to
	}
	newFrom, newTo := from, to
	for k, t := range b.toks {
		other, ok := b.pairs[k]
		if !ok || t.start < from || t.end > to {
			continue
		}
		if t.text == "{" && b.toks[other].end > newTo {
			newTo = b.toks[other].end
		}
		if t.text == "}" && b.toks[other].start < newFrom {
			newFrom = b.toks[other].start
		}
	}
	return newFrom, newTo
}

// isIdentifierStart reports whether an unquoted name may begin with c.
func isIdentifierStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
