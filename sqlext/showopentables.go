package sqlext

import "strings"

// SHOW OPEN TABLES [{FROM | IN} db] [LIKE 'pattern' | WHERE expr] lists
// the tables MySQL has open, by database and name, with In_use and
// Name_locked counts; monitoring tools send it, and the parser refused
// it. Every table here is as open as it will be (storage keeps them all),
// none is used by a lock or held by a name lock, so rewriteShowOpenTables
// writes the statement as a SELECT of the base tables that
// information_schema shows the user, outside the system databases, with
// In_use and Name_locked 0: FROM names the database, LIKE matches the
// table's name and WHERE is read over the four columns, as in MySQL.
// Temporary tables are not listed, as MySQL does not list them.
func rewriteShowOpenTables(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 3 || !isWords(toks[:3], "SHOW", "OPEN", "TABLES") {
		return "", false
	}
	var where []string
	i := 3
	if i+1 < len(toks) && (isWords(toks[i:i+1], "FROM") || isWords(toks[i:i+1], "IN")) {
		db := toks[i+1]
		if !db.word && !strings.HasPrefix(db.text, "`") {
			return "", false
		}
		where = append(where, "table_schema = "+quoteString(unquoteIdent(db.text)))
		i += 2
	}
	filter, like, i, ok := showFilter(query, toks, i, "table_name")
	if !ok {
		return "", false
	}
	if like != "" {
		where = append(where, like)
	}
	rest, ok := statementRest(query, toks, i)
	if !ok {
		return "", false
	}
	where = append(where, "table_type = 'BASE TABLE'",
		"table_schema NOT IN ('information_schema', 'mysql', 'performance_schema', '"+SystemDatabase+"')")
	return "SELECT * FROM (SELECT table_schema AS `Database`, table_name AS `Table`, " +
		"CAST(0 AS SIGNED) AS In_use, CAST(0 AS SIGNED) AS Name_locked " +
		"FROM information_schema.tables WHERE " + strings.Join(where, " AND ") + ") AS open_tables" +
		filter + " ORDER BY `Database`, `Table`" + rest, true
}

// isWords reports whether toks are the unquoted words given, in any case.
func isWords(toks []sqlToken, words ...string) bool {
	if len(toks) != len(words) {
		return false
	}
	for i, w := range words {
		if !toks[i].word || !strings.EqualFold(toks[i].text, w) {
			return false
		}
	}
	return true
}

// showFilter reads the filter of a SHOW statement at toks[i], if any:
// LIKE 'pattern', which it gives as a condition on column, or WHERE
// expr, which it gives as a WHERE clause to put after the SELECT the
// statement is written as (the expression names that SELECT's columns).
// i is the token after the filter; ok is false when the filter is not
// one of these.
func showFilter(query string, toks []sqlToken, i int, column string) (where, like string, next int, ok bool) {
	switch {
	case i+1 < len(toks) && isWords(toks[i:i+1], "LIKE"):
		if pattern := toks[i+1].text; pattern[0] != '\'' && pattern[0] != '"' {
			return "", "", i, false
		}
		return "", column + " LIKE " + toks[i+1].text, i + 2, true
	case i+1 < len(toks) && isWords(toks[i:i+1], "WHERE"):
		end := i + 1
		for end < len(toks) && toks[end].text != ";" {
			end++
		}
		if end == i+1 {
			return "", "", i, false
		}
		return " WHERE (" + query[toks[i+1].start:toks[end-1].end] + ")", "", end, true
	}
	return "", "", i, true
}
