package sqlext

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
)

// unknownColumnText gives error 1054 of a statement MySQL's words,
// "Unknown column 'c' in 'where clause'": the column as the statement
// writes it (qualified, t.c, when it is) and the clause it stands in. The
// engine's text said the column "could not be found in any table in
// scope", or named the table of a qualified one instead of the clause.
// An ALTER or CREATE names the table, as MySQL's does.
func unknownColumnText(err *error, query string) {
	var se *mysql.SQLError
	if !errors.As(*err, &se) || se.Num != mysql.ERBadFieldError {
		return
	}
	var name, table string
	if _, e := fmt.Sscanf(se.Message, "column %q could not be found in any table in scope", &name); e != nil {
		msg, ok := strings.CutPrefix(se.Message, "Unknown column '")
		if !ok {
			return
		}
		col, rest, ok := strings.Cut(msg, "' in '")
		if !ok || !strings.HasSuffix(rest, "'") || strings.Contains(col, ".") {
			return
		}
		name, table = col, strings.TrimSuffix(rest, "'")
	}
	toks := sqlTokens(query)
	if len(toks) == 0 || toks[0].word && (strings.EqualFold(toks[0].text, "ALTER") || strings.EqualFold(toks[0].text, "CREATE")) {
		return
	}
	if table == "" && setsVariable(toks, name) {
		*err = mysql.NewSQLError(erUnknownSystemVariable, "HY000", "Unknown system variable '%s'", name)
		return
	}
	written, clause, ok := columnClause(query, toks, name, table, false)
	if !ok {
		// Under ANSI_QUOTES, "c" is an identifier.
		if written, clause, ok = columnClause(query, ansiQuoted(toks), name, table, false); !ok {
			return
		}
	}
	se.Message = fmt.Sprintf("Unknown column '%s' in '%s'", written, clause)
}

// ambiguousColumnText is MySQL's error 1052 for a column that two tables
// of a statement hold, named without its table: "Column 'a' in field
// list is ambiguous", naming the clause where the statement first names
// it so. The engine's was 1105, naming the tables.
func ambiguousColumnText(err *error, query string) {
	var se *mysql.SQLError
	if !errors.As(*err, &se) || se.Num != mysql.ERUnknownError {
		return
	}
	const head, mid = `ambiguous column name "`, `", it's present in all these tables: [`
	rest, ok := strings.CutPrefix(se.Message, head)
	if !ok {
		return
	}
	name, _, ok := strings.Cut(rest, mid)
	if !ok {
		return
	}
	clause := "field list"
	if written, c, ok := columnClause(query, sqlTokens(query), name, "", true); ok {
		name, clause = written, c
	}
	*err = mysql.NewSQLError(mysql.ERNonUniq, "23000", "Column '%s' in %s is ambiguous", name, clause)
}

// erUnknownSystemVariable is MySQL's ER_UNKNOWN_SYSTEM_VARIABLE.
const erUnknownSystemVariable = 1193

// setsVariable reports whether toks, a SET statement, assigns to the bare
// name name: SET x = 1 of a name that is no variable is MySQL's 1193,
// "Unknown system variable 'x'", where the engine looked for a column.
func setsVariable(toks []sqlToken, name string) bool {
	if !toks[0].word || !strings.EqualFold(toks[0].text, "SET") {
		return false
	}
	depth := 0
	for i := 1; i+1 < len(toks); i++ {
		switch t := toks[i]; {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && t.word && strings.EqualFold(t.text, name) && (toks[i+1].text == "=" || toks[i+1].text == ":="):
			prev := toks[i-1]
			if prev.text == "," || prev.word && (i == 1 || strings.EqualFold(prev.text, "SESSION") || strings.EqualFold(prev.text, "LOCAL")) {
				return true
			}
		}
	}
	return false
}

// columnClause finds the first place query names the column name
// (qualified with table, when table is not empty; not qualified at all,
// when bare) and gives the column as written there and MySQL's name for
// the clause it is in.
func columnClause(query string, toks []sqlToken, name, table string, bare bool) (written, clause string, ok bool) {
	var stack []string
	current := "field list"
	word := func(i int, w string) bool {
		return i >= 0 && i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w)
	}
	for i, t := range toks {
		switch {
		case t.text == "(":
			stack = append(stack, current)
			continue
		case t.text == ")":
			if n := len(stack); n > 0 {
				current, stack = stack[n-1], stack[:n-1]
			}
			continue
		case word(i, "SELECT"), word(i, "SET"), word(i, "VALUES"), word(i, "VALUE"), word(i, "INTO"):
			current = "field list"
			continue
		case word(i, "UPDATE") && word(i-1, "KEY"):
			current = "field list" // ON DUPLICATE KEY UPDATE
			continue
		case word(i, "FROM"), word(i, "USING"):
			current = "from clause"
			continue
		case word(i, "WHERE"):
			current = "where clause"
			continue
		case word(i, "HAVING"):
			current = "having clause"
			continue
		case word(i, "ON") && !word(i+1, "DUPLICATE"):
			current = "on clause"
			continue
		case word(i, "BY") && word(i-1, "GROUP"):
			current = "group statement"
			continue
		case word(i, "BY") && word(i-1, "ORDER"):
			current = "order clause"
			continue
		}
		if !t.word && !strings.HasPrefix(t.text, "`") {
			continue
		}
		// The column, and its qualifier: t.c may be one word.
		qual, col := "", unquoteIdent(t.text)
		if q, c, dotted := strings.Cut(t.text, "."); dotted && t.word {
			qual, col = q, c
		} else if i >= 2 && toks[i-1].text == "." {
			qual = unquoteIdent(toks[i-2].text)
		}
		if !strings.EqualFold(col, name) || table != "" && qual != "" && !strings.EqualFold(qual, table) || bare && qual != "" {
			continue
		}
		if qual != "" {
			return qual + "." + col, current, true
		}
		return col, current, true
	}
	return "", "", false
}

// ansiQuoted is toks with each double-quoted string written as the
// identifier it is under ANSI_QUOTES, in backticks.
func ansiQuoted(toks []sqlToken) []sqlToken {
	out := slices.Clone(toks)
	for i, t := range out {
		if len(t.text) >= 2 && t.text[0] == '"' && t.text[len(t.text)-1] == '"' {
			name := strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
			out[i].text = "`" + strings.ReplaceAll(name, "`", "``") + "`"
		}
	}
	return out
}
