package sqlext

import (
	"strings"
)

// Table options the parser refused, written as it reads them
// (rewriteTableOptions, one of rewriteRefused's rewrites):
//
//   - A storage engine named in quotes, ENGINE='InnoDB' or ENGINE="InnoDB"
//     (MySQL takes a name or a string), in CREATE and ALTER TABLE.
//   - Table options before the query of a CREATE TABLE ... [AS] SELECT,
//     which the parser reads only in a CREATE TABLE without a query. Those
//     that change nothing in this server are taken out, so that the
//     statement runs as one: the storage engine (one MySQL knows),
//     ROW_FORMAT and the other storage hints, and the character set
//     utf8mb4 and collation utf8mb4_0900_ai_ci, the defaults. A statement
//     with any other option (a COMMENT, another character set) runs as a
//     CREATE TABLE with options and a query does (ctasdefined.go).

// storageHints are table options that tune how MySQL's engines store a
// table; this server stores every table its own way.
var storageHints = map[string]bool{
	"ROW_FORMAT": true, "KEY_BLOCK_SIZE": true, "STATS_PERSISTENT": true, "STATS_AUTO_RECALC": true,
	"STATS_SAMPLE_PAGES": true, "PACK_KEYS": true, "CHECKSUM": true, "DELAY_KEY_WRITE": true,
	"AVG_ROW_LENGTH": true, "MIN_ROWS": true, "MAX_ROWS": true,
}

// rewriteTableOptions writes q's table options as the parser reads them
// (see above), and says whether it changed anything.
func rewriteTableOptions(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 4 || !strings.EqualFold(toks[0].text, "CREATE") && !strings.EqualFold(toks[0].text, "ALTER") {
		return q, false
	}
	table := 1
	if strings.EqualFold(toks[1].text, "TEMPORARY") {
		table = 2
	}
	if !strings.EqualFold(toks[table].text, "TABLE") {
		return q, false
	}
	out, changed := unquoteEngines(q, toks)
	if strings.EqualFold(toks[0].text, "CREATE") {
		if r, ok := dropQueryTableOptions(out); ok {
			out, changed = r, true
		}
	}
	return out, changed
}

// unquoteEngines writes a quoted storage engine name bare.
func unquoteEngines(q string, toks []sqlToken) (string, bool) {
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].word || !strings.EqualFold(toks[i].text, "ENGINE") {
			continue
		}
		v := i + 1
		if toks[v].text == "=" && v+1 < len(toks) {
			v++
		}
		name, ok := quotedName(toks[v].text)
		if !ok {
			continue
		}
		b.WriteString(q[last:toks[v].start])
		b.WriteString(name)
		last = toks[v].end
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// quotedName is the name in a string 'name' or "name" of letters, digits
// and underscores.
func quotedName(text string) (string, bool) {
	if len(text) < 3 || (text[0] != '\'' && text[0] != '"') || text[len(text)-1] != text[0] {
		return "", false
	}
	name := text[1 : len(text)-1]
	for _, c := range name {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	return name, true
}

// dropQueryTableOptions takes out of a CREATE TABLE ... [AS] query the
// options before its query, when it has no list of columns and none of
// them changes anything here.
func dropQueryTableOptions(q string) (string, bool) {
	d, ok := readDefinedQuery(q)
	if !ok || d.open >= 0 {
		return q, false
	}
	for _, option := range tableOptions(q[d.options:d.head]) {
		if !harmlessOption(option) {
			return q, false
		}
	}
	return q[:d.options] + q[d.head:], true
}

// harmlessOption says whether option, one table option as tableOptions
// gives it, changes nothing in this server.
func harmlessOption(option string) bool {
	toks := sqlTokens(option)
	if len(toks) == 0 {
		return false
	}
	i := 0
	if i+1 < len(toks) && strings.EqualFold(toks[i].text, "DEFAULT") {
		i++
	}
	word := strings.ToUpper(toks[i].text)
	if word == "CHARACTER" && i+1 < len(toks) && strings.EqualFold(toks[i+1].text, "SET") {
		i++
		word = "CHARSET"
	}
	value := strings.ToLower(strings.Trim(toks[len(toks)-1].text, "'\"`"))
	return word == "ENGINE" && knownEngines[value] || storageHints[word] ||
		word == "CHARSET" && value == "utf8mb4" || word == "COLLATE" && value == "utf8mb4_0900_ai_ci"
}

// tableOptions splits the table options of a CREATE TABLE into one text
// per option, each of which an ALTER TABLE takes alone.
func tableOptions(text string) []string {
	toks := sqlTokens(text)
	var out []string
	for i := 0; i < len(toks); {
		if toks[i].text == "," {
			i++
			continue
		}
		start := i
		if strings.EqualFold(toks[i].text, "DEFAULT") {
			i++
		}
		if i < len(toks) && strings.EqualFold(toks[i].text, "CHARACTER") {
			i++
		}
		i++ // the option's name
		if i < len(toks) && toks[i].text == "=" {
			i++
		}
		if i >= len(toks) {
			out = append(out, strings.TrimSpace(text[toks[start].start:]))
			break
		}
		out = append(out, text[toks[start].start:toks[i].end])
		i++
	}
	return out
}

// rewriteIndexOptions leaves out the ALGORITHM and LOCK options of a
// CREATE INDEX or DROP INDEX the parser refused (CREATE INDEX k ON t (a)
// ALGORITHM=INPLACE LOCK=NONE, as online schema-change tools write it),
// which MySQL reads as ALTER TABLE's: every change of a table here is
// one log command, taken in place, and the table stays readable.
func rewriteIndexOptions(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 4 || !toks[0].word || !strings.EqualFold(toks[0].text, "CREATE") && !strings.EqualFold(toks[0].text, "DROP") {
		return q, false
	}
	index := false
	for _, t := range toks[1:min(len(toks), 3)] {
		index = index || t.word && strings.EqualFold(t.text, "INDEX")
	}
	if !index {
		return q, false
	}
	var b strings.Builder
	last, depth := 0, 0
	for i := 0; i < len(toks); i++ {
		switch t := toks[i]; {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && t.word && (strings.EqualFold(t.text, "ALGORITHM") || strings.EqualFold(t.text, "LOCK")):
			j := i + 1
			if j < len(toks) && toks[j].text == "=" {
				j++
			}
			if j >= len(toks) || !toks[j].word {
				return q, false
			}
			b.WriteString(q[last:t.start])
			last, i = toks[j].end, j
		}
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}
