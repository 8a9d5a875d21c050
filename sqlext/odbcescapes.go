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

// escapedSpan widens written[from:to], the text of an expression, to
// the braces of the ODBC escapes it begins or ends in, which the
// rewrite took out: SELECT {fn CONCAT(a, b)} names its column with them.
func escapedSpan(written string, from, to int) (int, int) {
	if !strings.ContainsAny(written[from:to], "{}") {
		return from, to
	}
	toks := sqlTokens(written)
	pairs := bracePairs(toks)
	newFrom, newTo := from, to
	for k, t := range toks {
		other, ok := pairs[k]
		if !ok || t.start < from || t.end > to {
			continue
		}
		if t.text == "{" && toks[other].end > newTo {
			newTo = toks[other].end
		}
		if t.text == "}" && toks[other].start < newFrom {
			newFrom = toks[other].start
		}
	}
	return newFrom, newTo
}

// isIdentifierStart reports whether an unquoted name may begin with c.
func isIdentifierStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
