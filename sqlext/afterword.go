package sqlext

import "strings"

// ALTER TABLE ... AFTER col places a column after col. The parser reads
// what follows AFTER as a bare identifier only when it is no keyword, so
// AFTER name, AFTER status or AFTER date (columns many tables have, and
// words MySQL does not reserve) were syntax errors. quoteAfterColumns
// quotes the word after each AFTER of an ALTER TABLE the parser refused.
func quoteAfterColumns(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 4 || !toks[0].word || !strings.EqualFold(toks[0].text, "ALTER") {
		return "", false
	}
	var b strings.Builder
	last, changed := 0, false
	for i := 1; i+1 < len(toks); i++ {
		if !toks[i].word || !strings.EqualFold(toks[i].text, "AFTER") || !toks[i+1].word {
			continue
		}
		w := toks[i+1]
		b.WriteString(query[last:w.start])
		b.WriteString("`" + w.text + "`")
		last, changed = w.end, true
	}
	if !changed {
		return "", false
	}
	b.WriteString(query[last:])
	return b.String(), true
}
