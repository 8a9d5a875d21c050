package sqlext

import "strings"

// CREATE TABLE ... AS (SELECT ...), CREATE VIEW ... AS (SELECT ...) and
// INSERT INTO t [(columns)] (SELECT ...), which MySQL reads and tools
// that build models in the database write (a SELECT in parentheses), were
// syntax errors: the parser takes a query there only bare. The
// parentheses around such a final query are left out
// (rewriteParenthesizedQuery). CREATE TABLE ... AS WITH ..., which the
// parser refuses too, reads its query as a derived table.

// rewriteQueryInParentheses is rewriteParenthesizedQuery, else
// rewriteCreateTableWith.
func rewriteQueryInParentheses(q string) (string, bool) {
	if r, ok := rewriteParenthesizedQuery(q); ok {
		return r, true
	}
	return rewriteCreateTableWith(q)
}

// rewriteParenthesizedQuery is q without the parentheses around the
// query that ends a CREATE TABLE ... AS, CREATE VIEW ... AS or INSERT, and
// whether it had them.
func rewriteParenthesizedQuery(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 5 {
		return q, false
	}
	first := strings.ToUpper(toks[0].text)
	if first != "CREATE" && first != "INSERT" && first != "REPLACE" {
		return q, false
	}
	last := len(toks) - 1
	for last > 0 && toks[last].text == ";" {
		last--
	}
	if toks[last].text != ")" {
		return q, false
	}
	open, depth := -1, 0
	for i := last; i >= 0 && open < 0; i-- {
		switch toks[i].text {
		case ")":
			depth++
		case "(":
			if depth--; depth == 0 {
				open = i
			}
		}
	}
	if open < 2 || open+1 >= last {
		return q, false
	}
	if next := strings.ToUpper(toks[open+1].text); next != "SELECT" && next != "WITH" {
		return q, false
	}
	prev := strings.ToUpper(toks[open-1].text)
	switch {
	case first == "CREATE" && prev != "AS":
		return q, false
	case first != "CREATE" && prev == "AS":
		return q, false
	}
	inner := q[toks[open].end:toks[last].start]
	if isCreateTable(toks) && strings.EqualFold(toks[open+1].text, "WITH") {
		// The parser takes no WITH after CREATE TABLE ... AS.
		return q[:toks[open].start] + "SELECT * FROM (" + inner + ") AS sqlearn_query" + q[toks[last].end:], true
	}
	return q[:toks[open].start] + inner + q[toks[last].end:], true
}

// isCreateTable says whether tokens are a CREATE [TEMPORARY] TABLE's.
func isCreateTable(toks []sqlToken) bool {
	return len(toks) > 2 && strings.EqualFold(toks[0].text, "CREATE") &&
		(strings.EqualFold(toks[1].text, "TABLE") || strings.EqualFold(toks[1].text, "TEMPORARY") && strings.EqualFold(toks[2].text, "TABLE"))
}

// rewriteCreateTableWith is CREATE TABLE ... AS WITH ... SELECT ..., which
// the parser refuses, as CREATE TABLE ... AS SELECT * FROM (WITH ...),
// and whether q was one.
func rewriteCreateTableWith(q string) (string, bool) {
	toks := sqlTokens(q)
	if !isCreateTable(toks) {
		return q, false
	}
	for i := 2; i+1 < len(toks); i++ {
		if toks[i].word && strings.EqualFold(toks[i].text, "AS") && toks[i+1].word && strings.EqualFold(toks[i+1].text, "WITH") {
			end := len(q)
			if last := toks[len(toks)-1]; last.text == ";" {
				end = last.start
			}
			return q[:toks[i+1].start] + "SELECT * FROM (" + q[toks[i+1].start:end] + ") AS sqlearn_query" + q[end:], true
		}
	}
	return q, false
}
