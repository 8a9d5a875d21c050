package sqlext_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestGeneratedColumnsAndExpressionDefaults covers columns whose value
// or default is an expression over other columns: they are computed on
// INSERT and UPDATE, filled in for existing rows when added by ALTER (or
// the ALTER fails with nothing changed), and read back after a restart.
// Such a table used to make every later statement on its database fail,
// as its stored schema could not be rebuilt.
func TestGeneratedColumnsAndExpressionDefaults(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE gc",
		"CREATE TABLE gc.other (id INT PRIMARY KEY)",
		"CREATE TABLE gc.t (id INT PRIMARY KEY, a INT, b INT AS (a * 2) STORED, c INT AS (a + 1) VIRTUAL, d INT DEFAULT (a + 10))",
		"INSERT INTO gc.t (id, a) VALUES (1, 3), (2, NULL)",
		"INSERT INTO gc.t (id, a, d) VALUES (3, 4, 0)",
		"UPDATE gc.t SET a = 5 WHERE id = 1",
		"TRUNCATE gc.other",
		"ALTER TABLE gc.t ADD COLUMN e INT AS (a * a) STORED FIRST")
	want := "e=25 id=1 a=5 b=10 c=6 d=13 | e=NULL id=2 a=NULL b=NULL c=NULL d=NULL | e=16 id=3 a=4 b=8 c=5 d=0"
	rows := func() string {
		var out []string
		for _, r := range queryStrings(t, db, "SELECT e, id, a, b, c, d FROM gc.t ORDER BY id") {
			out = append(out, "e="+r[0]+" id="+r[1]+" a="+r[2]+" b="+r[3]+" c="+r[4]+" d="+r[5])
		}
		return strings.Join(out, " | ")
	}
	if got := rows(); got != want {
		t.Errorf("rows:\n got %s\nwant %s", got, want)
	}
	if _, err := db.Exec("INSERT INTO gc.t (id, a, b) VALUES (4, 1, 7)"); err == nil {
		t.Error("a value for a generated column was accepted")
	}
	if _, err := db.Exec("ALTER TABLE gc.t ADD COLUMN small TINYINT AS (a * 1000) STORED"); err == nil {
		t.Error("a generated value out of range was accepted")
	}
	if cols := queryStrings(t, db, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE table_schema = 'gc' AND table_name = 't'"); cols[0][0] != "6" {
		t.Errorf("after the failed ALTER the table has %s columns, want 6", cols[0][0])
	}
	srv.Close()

	srv, db = openIn(t, dir)
	defer srv.Close()
	if got := rows(); got != want {
		t.Errorf("after restart:\n got %s\nwant %s", got, want)
	}
	mustExecAll(t, db, "INSERT INTO gc.t (id, a) VALUES (5, 2)", "TRUNCATE gc.other")
	if got := queryStrings(t, db, "SELECT e, b, c, d FROM gc.t WHERE id = 5"); strings.Join(got[0], ",") != "4,4,3,12" {
		t.Errorf("after restart, a new row holds %v, want 4,4,3,12", got[0])
	}
}

// TestGeneratedValuesReadStoredTypes: a generated column or expression
// default is computed from the other columns as they are stored, converted
// to their types, as in MySQL, whether the row comes from VALUES or a
// SELECT; and a virtual column read by primary key is computed, not
// answered from storage. Before, '3.250' given for a DOUBLE made CONCAT(p)
// '3.250' and JSON_OBJECT('a', p) the string "3.250", and a DECIMAL
// literal 2.5 became the JSON string "2.5".
func TestGeneratedValuesReadStoredTypes(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE gt",
		"CREATE TABLE gt.t (id INT PRIMARY KEY, p DOUBLE, d DATE,"+
			" j JSON AS (JSON_OBJECT('a', p)) STORED, v JSON AS (JSON_OBJECT('a', p)) VIRTUAL,"+
			" s VARCHAR(30) AS (CONCAT(p, '/')) STORED, q JSON DEFAULT (JSON_OBJECT('a', p)))",
		"INSERT INTO gt.t (id, p, d) VALUES (1, 2.5, '2024-01-15'), (2, '3.250', '20240116')",
		"INSERT INTO gt.t (id, p, d) SELECT 3, '8.50', '2024-1-7'",
		// Added to rows that exist: storage has no value of it for them.
		"ALTER TABLE gt.t ADD COLUMN w INT AS (id * 2) VIRTUAL")
	rows := []string{ // d is read as CONCAT(d): the driver parses a DATE
		`1,2.5,2024-01-15,{"a": 2.5},{"a": 2.5},2.5/,{"a": 2.5}`,
		`2,3.25,2024-01-16,{"a": 3.25},{"a": 3.25},3.25/,{"a": 3.25}`,
		`3,8.5,2024-01-07,{"a": 8.5},{"a": 8.5},8.5/,{"a": 8.5}`,
	}
	all := "id, p, CONCAT(d), j, v, s, q"
	answers := map[string]string{"SELECT " + all + " FROM gt.t ORDER BY id": strings.Join(rows, ";")}
	for i, r := range rows {
		// By primary key, each column by name too: the point-select path.
		id := strconv.Itoa(i + 1)
		answers["SELECT "+all+" FROM gt.t WHERE id = "+id] = r
		answers["SELECT id, p, j, v, s, q FROM gt.t WHERE id = "+id] = strings.Replace(r, ","+strings.Split(r, ",")[2], "", 1)
		answers["SELECT v FROM gt.t WHERE id = "+id] = strings.Split(r, ",")[4]
		answers["SELECT w FROM gt.t WHERE id = "+id] = strconv.Itoa(2 * (i + 1))
	}
	wantAnswers(t, db, "generated values", answers)
	// Rows read with a computed virtual value are written back against
	// storage's: no false conflict (error 1213) with the value it holds.
	mustExecAll(t, db, "UPDATE gt.t SET p = 9.5 WHERE id = 1", "DELETE FROM gt.t WHERE id = 3", "UPDATE gt.t SET p = p + 1")
	wantAnswers(t, db, "after UPDATE and DELETE", map[string]string{
		"SELECT id, p, v, w FROM gt.t ORDER BY id": `1,10.5,{"a": 10.5},2;2,4.25,{"a": 4.25},4`})
}

// TestNotNullGeneratedColumnAddedByAlter: a stored generated column
// declared NOT NULL and added by ALTER TABLE holds its computed value in
// the rows already there, with or without a primary key. The engine
// filled such a column again with 0 after it was computed (and a table
// with a primary key refused the ALTER with 1213).
func TestNotNullGeneratedColumnAddedByAlter(t *testing.T) {
	db := inDatabase(t, "gn",
		"CREATE TABLE k (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE n (id INT, a INT)",
		"INSERT INTO k VALUES (1, 2), (2, 5)",
		"INSERT INTO n VALUES (1, 2), (2, 5)",
		"ALTER TABLE k ADD COLUMN g INT AS (a * 2) STORED NOT NULL",
		"ALTER TABLE n ADD COLUMN g INT AS (a * 2) STORED NOT NULL FIRST")
	wantAnswers(t, db, "NOT NULL generated", map[string]string{
		"SELECT id, g FROM k ORDER BY id": "1,4;2,10",
		"SELECT * FROM n ORDER BY id":     "4,1,2;10,2,5",
	})
}
