package sqlext

import "testing"

// TestReadDefinedQuery: only a CREATE TABLE whose name is followed by its
// list of columns, then a query, is read as one; the statement that
// carries it out (CREATE TABLE t AS SELECT * FROM (query) ...) is not,
// which made the server call itself without end.
func TestReadDefinedQuery(t *testing.T) {
	for text, want := range map[string]bool{
		"CREATE TABLE t (a INT) SELECT 1 AS a":                                     true,
		"CREATE TABLE d.t (a INT) AS SELECT 1 AS a":                                true,
		"CREATE TEMPORARY TABLE IF NOT EXISTS `t` (a INT) IGNORE SELECT 1 AS a":    true,
		"CREATE TABLE t AS SELECT * FROM (SELECT 1 AS a) AS sqlearn_query LIMIT 0": false,
		"CREATE TABLE t SELECT * FROM (SELECT 1) AS q":                             false,
		"CREATE TABLE t (a INT)":                                                   false,
		"CREATE TABLE t (a INT) ENGINE=InnoDB; SELECT 1":                           false,
		"CREATE TABLE t (a INT) COMMENT 'x' IGNORE ENGINE=InnoDB SELECT 1 AS a":    false,
	} {
		if _, got := readDefinedQuery(text); got != want {
			t.Errorf("%s: read %v, want %v", text, got, want)
		}
	}
}
