package sqlext_test

import (
	"strings"
	"testing"
)

// TestJSONGeneratedNull: a JSON column whose generated value or DEFAULT
// is SQL NULL is SQL NULL, virtual or stored, by INSERT and UPDATE, read
// directly, by key, through a join, a derived table, a view or a
// subquery (the answers are MariaDB 10.11's, which are MySQL 8's here);
// a value that is not NULL is still converted to JSON.
func TestJSONGeneratedNull(t *testing.T) {
	db := inDatabase(t, "jn",
		"CREATE TABLE n (id INT PRIMARY KEY, p DOUBLE, j JSON AS (IF(p IS NULL, NULL, JSON_OBJECT('a', p))) VIRTUAL, k JSON AS (IF(p IS NULL, NULL, JSON_OBJECT('a', p))) STORED)",
		"INSERT INTO n (id, p) VALUES (1, NULL), (2, 2.5), (3, 4)",
		"INSERT INTO n (id, p) SELECT 4, NULL",
		"UPDATE n SET p = NULL WHERE id = 3",
		"CREATE VIEW v AS SELECT id, j, k FROM n",
		"CREATE TABLE d (id INT PRIMARY KEY, p DOUBLE, j JSON DEFAULT NULL, j2 JSON DEFAULT (NULL), a JSON DEFAULT (JSON_ARRAY()), s JSON AS (CONCAT('{\"b\": ', p, '}')) STORED)",
		"INSERT INTO d (id, p) VALUES (1, 2), (2, NULL)",
		"INSERT INTO d (id, p, j, j2, a) VALUES (3, NULL, DEFAULT, DEFAULT, DEFAULT)")
	wantAnswers(t, db, "SQL NULL", map[string]string{
		"SELECT id, j IS NULL, k IS NULL, j, k FROM n ORDER BY id":                             `1,1,1,NULL,NULL;2,0,0,{"a": 2.5},{"a": 2.5};3,1,1,NULL,NULL;4,1,1,NULL,NULL`,
		"SELECT j IS NULL, k IS NULL FROM n WHERE id = 1":                                      "1,1",
		"SELECT a.id, b.j IS NULL, b.k IS NULL FROM n a JOIN n b ON b.id = a.id ORDER BY a.id": "1,1,1;2,0,0;3,1,1;4,1,1",
		"SELECT id, j IS NULL FROM (SELECT id, j FROM n) x ORDER BY id":                        "1,1;2,0;3,1;4,1",
		"SELECT id, j IS NULL, k IS NULL FROM v ORDER BY id":                                   "1,1,1;2,0,0;3,1,1;4,1,1",
		"SELECT id FROM n WHERE id IN (SELECT id FROM n WHERE j IS NULL) ORDER BY id":          "1;3;4",
		"SELECT id, j IS NULL, j2 IS NULL, a, s, JSON_TYPE(s) FROM d ORDER BY id":              `1,1,1,[],{"b": 2},OBJECT;2,1,1,[],NULL,NULL;3,1,1,[],NULL,NULL`,
	})
}

// TestJSONNullAddedByAlter: a JSON column added by ALTER TABLE to a table
// with rows holds SQL NULL in them where its value is SQL NULL, as in
// MySQL: without a default, with DEFAULT NULL, with an expression default
// or a stored generated expression that is NULL for the row (they held a
// JSON null document, so j IS NULL was 0). A JSON null the expression
// makes stays one. The rows read the same after a restart that replays
// the log and after one that starts from a snapshot.
func TestJSONNullAddedByAlter(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	for _, table := range []string{"ja.t (id INT PRIMARY KEY, p INT)", "ja.n (id INT, p INT)"} {
		name := strings.Fields(table)[0]
		mustExecAll(t, db,
			"CREATE DATABASE IF NOT EXISTS ja",
			"CREATE TABLE "+table,
			"INSERT INTO "+name+" VALUES (1, NULL), (2, 5)",
			"ALTER TABLE "+name+" ADD COLUMN plain JSON",
			"ALTER TABLE "+name+" ADD COLUMN lit JSON DEFAULT NULL",
			"ALTER TABLE "+name+" ADD COLUMN expr JSON DEFAULT (IF(p IS NULL, NULL, JSON_ARRAY(p)))",
			"ALTER TABLE "+name+" ADD COLUMN gen JSON AS (IF(p IS NULL, NULL, JSON_OBJECT('p', p))) STORED",
			"ALTER TABLE "+name+" ADD COLUMN nul JSON AS (NULL) STORED AFTER id",
			"ALTER TABLE "+name+" ADD COLUMN jn JSON DEFAULT (CAST('null' AS JSON))",
			"ALTER TABLE "+name+" ADD COLUMN arr JSON NOT NULL DEFAULT (JSON_ARRAY())")
	}
	want := `1,1,1,1,1,1,0,NULL,NULL,NULL,[];2,1,1,0,0,1,0,[5],{"p": 5},NULL,[]`
	check := func(when string) {
		t.Helper()
		for _, name := range []string{"ja.t", "ja.n"} {
			q := "SELECT id, plain IS NULL, lit IS NULL, expr IS NULL, gen IS NULL, nul IS NULL, jn IS NULL, expr, gen, JSON_TYPE(jn), arr FROM " + name + " ORDER BY id"
			if got := flat(queryStrings(t, db, q)); got != want {
				t.Errorf("%s: %s:\n got %s\nwant %s", when, name, got, want)
			}
		}
	}
	check("after ALTER")
	srv.Close()

	srv, db = openIn(t, dir)
	check("after a restart")
	if err := srv.Node().Snapshot(); err != nil {
		t.Fatal(err)
	}
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	check("after a restart from a snapshot")
}
