package sqlext

import "strings"

// SHOW COLLATION [LIKE 'pattern' | WHERE expr] names its columns
// Collation, Charset, Id, Default, Compiled, Sortlen and Pad_attribute in
// MySQL 8.0; the engine named them collation, charset, ID, default,
// compiled, SORTLEN and PAD_ATTRIBUTE, so a client reading them by name
// (Connector/J's collation map, an ORM's charset check) found none, and
// `WHERE Charset = ...` matched its lower-case name only by chance.
// rewriteShowCollation writes the statement as a SELECT of
// information_schema.COLLATIONS under MySQL's names, LIKE matching the
// collation's name and WHERE read over those columns, in collation
// order.
func rewriteShowCollation(query string) (string, bool) {
	if head := strings.TrimLeft(query, " \t\r\n"); len(head) < 4 || !strings.EqualFold(head[:4], "SHOW") {
		return "", false // most statements, without tokenising them
	}
	toks := sqlTokens(query)
	if len(toks) < 2 || !isWords(toks[:2], "SHOW", "COLLATION") {
		return "", false
	}
	filter, like, i, ok := showFilter(query, toks, 2, "collation_name")
	if !ok {
		return "", false
	}
	rest, ok := statementRest(query, toks, i)
	if !ok {
		return "", false
	}
	if like != "" {
		like = " WHERE " + like
	}
	return "SELECT * FROM (SELECT collation_name AS `Collation`, character_set_name AS `Charset`, " +
		"id AS `Id`, is_default AS `Default`, is_compiled AS `Compiled`, sortlen AS `Sortlen`, " +
		"pad_attribute AS `Pad_attribute` FROM information_schema.collations" + like + ") AS collations" +
		filter + " ORDER BY `Collation`" + rest, true
}
