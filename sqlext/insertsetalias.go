package sqlext

import "strings"

// MySQL 8.0.19 names the new row of an upsert with an alias, in place of
// VALUES(col): INSERT INTO t VALUES (...) AS new ON DUPLICATE KEY UPDATE
// b = new.b, which the parser reads, and the same after the SET form,
// INSERT INTO t SET a = 1, b = 2 AS new ON DUPLICATE KEY UPDATE ...,
// which it refused as a syntax error. rewriteInsertSetAlias writes the
// SET form with an alias as the VALUES form: the columns the SET names,
// then a row of its values.
func rewriteInsertSetAlias(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 8 || !toks[0].word || !strings.EqualFold(toks[0].text, "INSERT") {
		return "", false
	}
	set := -1
	for i, t := range toks {
		if t.text == "(" || t.text == ";" {
			return "", false // a column list or VALUES come first, or not this form
		}
		if t.word && strings.EqualFold(t.text, "SET") {
			set = i
			break
		}
	}
	if set < 2 {
		return "", false
	}
	// The assignments, split at the commas outside parentheses, up to the
	// AS that names the row.
	var cols, vals []string
	depth, start, eq := 0, set+1, -1
	as := -1
	for i := set + 1; i < len(toks) && as < 0; i++ {
		t := toks[i]
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth > 0:
		case t.text == "=" && eq < 0:
			eq = i
		case t.text == "," || (t.word && strings.EqualFold(t.text, "AS")):
			if eq <= start || eq+1 >= i {
				return "", false
			}
			cols = append(cols, query[toks[start].start:toks[eq-1].end])
			vals = append(vals, query[toks[eq+1].start:toks[i-1].end])
			if t.text != "," {
				as = i
			}
			start, eq = i+1, -1
		case t.text == ";":
			return "", false
		}
	}
	if as < 0 || len(cols) == 0 || as+1 >= len(toks) || !toks[as+1].word {
		return "", false
	}
	// The alias, and its column list if any, then ON DUPLICATE KEY UPDATE
	// or the end of the statement.
	next := as + 2
	if next < len(toks) && toks[next].text == "(" {
		for next < len(toks) && toks[next].text != ")" {
			next++
		}
		next++
	}
	switch {
	case next >= len(toks) || toks[next].text == ";":
	case next+1 < len(toks) && strings.EqualFold(toks[next].text, "ON") && strings.EqualFold(toks[next+1].text, "DUPLICATE"):
	default:
		return "", false
	}
	var b strings.Builder
	b.WriteString(query[:toks[set].start])
	b.WriteString("(" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(vals, ", ") + ") ")
	b.WriteString(query[toks[as].start:])
	return b.String(), true
}
