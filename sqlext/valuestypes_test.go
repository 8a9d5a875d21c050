package sqlext_test

import "testing"

// TestValuesTableTypes: the columns of a table value constructor (VALUES
// ROW(...), ...) are typed by all its rows, as MySQL types them, so no
// value is cut to the first row's type. The engine kept the first row's
// type: VALUES ROW(1), ROW(300) gave 1 and 127, and an IN over such a
// table missed the rows of the values it cut.
func TestValuesTableTypes(t *testing.T) {
	db := inDatabase(t, "vt",
		"CREATE TABLE t (id INT PRIMARY KEY)",
		"INSERT INTO t VALUES (1), (3), (300), (70000)")
	wantAnswers(t, db, "values", map[string]string{
		"SELECT column_0 FROM (VALUES ROW(1), ROW(300), ROW(-70000)) v ORDER BY 1":                                  "-70000;1;300",
		"SELECT a, b FROM (VALUES ROW(1, 'a'), ROW(2.5, 'bcd')) AS v (a, b) ORDER BY a":                             "1.0,a;2.5,bcd",
		"SELECT a FROM (VALUES ROW(1), ROW(300)) AS v (a) WHERE a > 100":                                            "300",
		"SELECT COUNT(*) FROM t WHERE id IN (SELECT column_0 FROM (VALUES ROW(1), ROW(300), ROW(70000)) v)":         "3",
		"SELECT COUNT(*) FROM t WHERE EXISTS (SELECT 1 FROM (VALUES ROW(3), ROW(70000)) v WHERE v.column_0 = t.id)": "2",
	})
	if got := flat(queryStrings(t, db, "VALUES ROW(1, 'x'), ROW(300, 'longer')")); got != "1,x;300,longer" {
		t.Errorf("VALUES statement: %s", got)
	}
}
