package sqlext

import "strings"

// HELP 'topic' answers from MySQL's help tables, which this server does
// not have; the parser refused the statement. MySQL with empty help
// tables answers a topic with no match: a result of the columns name and
// is_it_category, without rows (the mysql and mariadb clients then say
// that nothing was found). rewriteHelp writes the statement as a SELECT
// of those columns that returns no row.
func rewriteHelp(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 2 || !toks[0].word || !strings.EqualFold(toks[0].text, "HELP") {
		return "", false
	}
	if topic := toks[1].text; !toks[1].word && topic[0] != '\'' && topic[0] != '"' && topic[0] != '`' {
		return "", false
	}
	rest, ok := statementRest(query, toks, 2)
	if !ok {
		return "", false
	}
	return "SELECT CAST('' AS CHAR(64)) AS name, CAST('' AS CHAR(1)) AS is_it_category FROM dual WHERE FALSE" + rest, true
}
