package sqlext

import (
	"fmt"
	"strings"
)

// The engine's parser knows no quantified comparison, x op ANY (SELECT
// ...), x op SOME (...) or x op ALL (...), and refused them as syntax
// errors. rewriteQuantified writes each as what the parser reads, with
// MySQL's answer, NULLs included: = ANY (and = SOME) is IN, <> ALL is NOT
// IN, and any other is a scalar subquery over the quantified one that
// compares x with its least and greatest values (quantifiedCase).
func rewriteQuantified(q string) (string, bool) {
	changed := false
	for range 32 { // one comparison at a time, nested ones included
		r, ok := rewriteOneQuantified(q)
		if !ok {
			break
		}
		q, changed = r, true
	}
	return q, changed
}

func rewriteOneQuantified(q string) (string, bool) {
	toks := sqlTokens(q)
	for k := 1; k+2 < len(toks); k++ {
		quant := strings.ToUpper(toks[k].text)
		if !toks[k].word || quant != "ANY" && quant != "SOME" && quant != "ALL" || toks[k+1].text != "(" {
			continue
		}
		if first := strings.ToUpper(toks[k+2].text); first != "SELECT" && first != "WITH" && first != "(" {
			continue
		}
		op, opStart := comparisonBefore(toks, k)
		if op == "" {
			continue
		}
		closing := matchingParen(toks, k+1)
		if closing < 0 {
			return q, false
		}
		sub := q[toks[k+1].start+1 : toks[closing].start]
		end := toks[closing].end
		switch {
		case op == "=" && quant != "ALL":
			return q[:toks[opStart].start] + "IN (" + sub + ")" + q[end:], true
		case op == "<>" && quant == "ALL":
			return q[:toks[opStart].start] + "NOT IN (" + sub + ")" + q[end:], true
		}
		left := operandStart(toks, opStart)
		if left == opStart {
			continue
		}
		x := q[toks[left].start:toks[opStart].start]
		return q[:toks[left].start] + quantifiedCase(x, op, quant == "ALL", sub) + q[end:], true
	}
	return q, false
}

// comparisonBefore is the comparison operator whose last token comes
// just before toks[k] (<>, != as <>, <=, >=, <, >, =) and the index of
// its first token, or "".
func comparisonBefore(toks []sqlToken, k int) (string, int) {
	last := toks[k-1].text
	prev := ""
	if k >= 2 && toks[k-2].end == toks[k-1].start {
		prev = toks[k-2].text
	}
	switch {
	case last == "=" && (prev == "<" || prev == ">"):
		return prev + "=", k - 2
	case last == "=" && prev == "!":
		return "<>", k - 2
	case last == ">" && prev == "<":
		return "<>", k - 2
	case last == "=" || last == "<" || last == ">":
		return last, k - 1
	}
	return "", 0
}

// matchingParen is the index of the ")" closing the "(" at toks[open],
// or -1.
func matchingParen(toks []sqlToken, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// operandStart is the index of the first token of the operand that ends
// just before toks[op]: it reaches back past arithmetic and parentheses
// to the keyword, comma, comparison or open parenthesis before it.
func operandStart(toks []sqlToken, op int) int {
	depth := 0
	i := op - 1
	for ; i >= 0; i-- {
		t := toks[i].text
		switch t {
		case ")":
			depth++
			continue
		case "(":
			if depth == 0 {
				return i + 1
			}
			depth--
			continue
		}
		if depth > 0 {
			continue
		}
		if t == "," || t == ";" || t == "=" || t == "<" || t == ">" || t == "!" || t == "&" || t == "|" {
			return i + 1
		}
		if toks[i].word && operandBoundaries[strings.ToUpper(t)] {
			return i + 1
		}
	}
	return i + 1
}

var operandBoundaries = map[string]bool{
	"AND": true, "OR": true, "XOR": true, "NOT": true, "WHERE": true, "ON": true, "HAVING": true,
	"WHEN": true, "THEN": true, "ELSE": true, "SELECT": true, "SET": true, "RETURN": true, "IS": true,
	"LIKE": true, "IN": true, "BETWEEN": true, "CASE": true, "DISTINCT": true, "IF": true, "WHILE": true,
	"UNTIL": true,
}

// quantifiedCase is x op ANY (sub), or x op ALL (sub), as a scalar
// subquery over sub's one column v: true, false or NULL as MySQL answers
// it. ANY is true when some v makes the comparison true, false when sub
// has no rows or every comparison is false, NULL otherwise; ALL is true
// when sub has no rows or every comparison is true, false when some
// comparison is false, NULL otherwise. Some comparison is true (false)
// exactly when it is with the least or greatest v, by op; one with a
// NULL (x, or a v) is NULL.
func quantifiedCase(x, op string, all bool, sub string) string {
	const v = "sqlearn_quantified_v"
	var some string // a comparison with some v is true (ANY) or false (ALL)
	switch {
	case op == "<>" && !all, op == "=" && all:
		some = fmt.Sprintf("(%s) <> MIN(%s) OR (%s) <> MAX(%s)", x, v, x, v)
	case all: // x op every v fails when it fails for the greatest (>, >=) or least (<, <=)
		agg := map[string]string{">": "MAX", ">=": "MAX", "<": "MIN", "<=": "MIN"}[op]
		some = fmt.Sprintf("NOT ((%s) %s %s(%s))", x, op, agg, v)
	default: // x op some v holds when it holds for the least (>, >=) or greatest (<, <=)
		agg := map[string]string{">": "MIN", ">=": "MIN", "<": "MAX", "<=": "MAX"}[op]
		some = fmt.Sprintf("(%s) %s %s(%s)", x, op, agg, v)
	}
	none, found := "FALSE", "TRUE"
	if all {
		none, found = "TRUE", "FALSE"
	}
	return fmt.Sprintf("(SELECT CASE WHEN COUNT(*) = 0 THEN %s WHEN %s THEN %s WHEN (%s) IS NULL OR COUNT(%s) < COUNT(*) THEN NULL ELSE %s END FROM (%s) AS sqlearn_quantified (%s))",
		none, some, found, x, v, none, sub, v)
}
