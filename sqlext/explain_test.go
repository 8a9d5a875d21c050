package sqlext_test

import (
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// explainTables serves the database xp of the EXPLAIN tests: customers c
// and their orders o, with an index on the customer.
func explainTables(t *testing.T) *sql.DB {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE xp",
		"CREATE TABLE xp.c (id INT PRIMARY KEY, city VARCHAR(9))",
		"CREATE TABLE xp.o (id INT PRIMARY KEY, cid INT, amount INT, KEY by_c (cid))",
		"INSERT INTO xp.c VALUES (1, 'Oslo'), (2, 'Rome')",
		"INSERT INTO xp.o VALUES (1, 1, 5), (2, 1, 7), (3, 2, 9)")
	return db
}

// TestExplainTraditional: EXPLAIN answers a row per table read, as MySQL
// does, where the engine answered one row of NULLs: a scan is ALL, a
// unique point lookup const with one row, a lookup by value range, a
// join's lookup by a unique key eq_ref (the engine's join plans are not
// held here: they follow its costs), a derived table's reads DERIVED.
func TestExplainTraditional(t *testing.T) {
	db := explainTables(t)
	explain := func(q string) string {
		var out []string
		for _, r := range queryStrings(t, db, "EXPLAIN "+q) {
			// id, select_type, table, type, possible_keys, key, ref, rows, Extra
			out = append(out, r[0]+" "+r[1]+" "+r[2]+" "+r[4]+" "+r[5]+" "+r[6]+" "+r[8]+" "+r[9]+" "+r[11])
		}
		return flat([][]string{out})
	}
	for q, want := range map[string]string{
		"SELECT * FROM xp.c": "1 SIMPLE c ALL PRIMARY NULL NULL 2 ",
		// An index read checks no condition its keys already meet: no
		// "Using where", as in MySQL.
		"SELECT * FROM xp.c WHERE id = 2":                 "1 SIMPLE c const PRIMARY PRIMARY const 1 ",
		"SELECT * FROM xp.o WHERE cid = 1":                "1 SIMPLE o range PRIMARY,by_c by_c NULL 3 ",
		"SELECT * FROM xp.o WHERE cid = 1 AND amount > 6": "1 SIMPLE o range PRIMARY,by_c by_c NULL 3 Using where",
		"SELECT 1": "1 SIMPLE NULL NULL NULL NULL NULL NULL No tables used",
		"SELECT * FROM (SELECT city, COUNT(*) n FROM xp.c GROUP BY city) d WHERE n > 0": "2 DERIVED c ALL PRIMARY NULL NULL 2 Using where",
	} {
		if got := explain(q); got != want {
			t.Errorf("EXPLAIN %s:\n got %q\nwant %q", q, got, want)
		}
	}
}

// TestExplainUnion: the SELECTs of a UNION are PRIMARY and UNION rows
// with their own ids, and a UNION that removes duplicates ends with the
// UNION RESULT row of its temporary table, as in MySQL.
func TestExplainUnion(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE xu",
		"CREATE TABLE xu.a (id INT PRIMARY KEY)", "CREATE TABLE xu.b (id INT)",
		"INSERT INTO xu.a VALUES (1), (2)", "INSERT INTO xu.b VALUES (3)")
	for q, want := range map[string]string{
		"SELECT id FROM xu.a UNION SELECT id FROM xu.b WHERE id > 1": "1,PRIMARY,a,ALL,,;" +
			"2,UNION,b,ALL,,Using where;NULL,UNION RESULT,<union1,2>,ALL,,Using temporary",
		"SELECT id FROM xu.a UNION ALL SELECT id FROM xu.b UNION ALL SELECT 1": "1,PRIMARY,a,ALL,,;2,UNION,b,ALL,,;3,UNION,NULL,NULL,,No tables used",
	} {
		var got []string
		for _, r := range queryStrings(t, db, "EXPLAIN "+q) {
			got = append(got, strings.Join([]string{r[0], r[1], r[2], r[4], "", r[11]}, ","))
		}
		if g := strings.Join(got, ";"); g != want {
			t.Errorf("EXPLAIN %s:\n got %q\nwant %q", q, g, want)
		}
	}
}

// TestExplainJSON: EXPLAIN FORMAT=JSON (it was a syntax error) answers
// one row of one column, EXPLAIN, holding a JSON document in MySQL's
// shape: a query block with its select_id and its table (a nested_loop of
// them for a join, the query block a derived table is materialized from,
// a union_result of query specifications), each with the access type,
// keys, rows examined and filtered of the traditional table and the
// condition attached to it.
func TestExplainJSON(t *testing.T) {
	db := explainTables(t)
	type table struct {
		TableName    string   `json:"table_name"`
		AccessType   string   `json:"access_type"`
		PossibleKeys []string `json:"possible_keys"`
		Key          string   `json:"key"`
		Ref          []string `json:"ref"`
		Rows         *int     `json:"rows_examined_per_scan"`
		Filtered     string   `json:"filtered"`
		Condition    string   `json:"attached_condition"`
		Materialized *struct {
			UsingTemporaryTable bool `json:"using_temporary_table"`
			Dependent           bool `json:"dependent"`
			Cacheable           bool `json:"cacheable"`
			QueryBlock          struct {
				SelectID int    `json:"select_id"`
				Table    *table `json:"table"`
			} `json:"query_block"`
		} `json:"materialized_from_subquery"`
	}
	type block struct {
		SelectID   int    `json:"select_id"`
		Message    string `json:"message"`
		Table      *table `json:"table"`
		NestedLoop []struct {
			Table *table `json:"table"`
		} `json:"nested_loop"`
		UnionResult *struct {
			UsingTemporaryTable bool   `json:"using_temporary_table"`
			TableName           string `json:"table_name"`
			AccessType          string `json:"access_type"`
			Specifications      []struct {
				Dependent  bool  `json:"dependent"`
				Cacheable  bool  `json:"cacheable"`
				QueryBlock block `json:"query_block"`
			} `json:"query_specifications"`
		} `json:"union_result"`
	}
	explain := func(q string) block {
		t.Helper()
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		if cols, _ := rows.Columns(); len(cols) != 1 || cols[0] != "EXPLAIN" {
			t.Errorf("%s: columns %v, want [EXPLAIN]", q, cols)
		}
		var text string
		if !rows.Next() {
			t.Fatalf("%s: no row", q)
		}
		if err := rows.Scan(&text); err != nil {
			t.Fatal(err)
		}
		if rows.Next() {
			t.Errorf("%s: more than one row", q)
		}
		var doc struct {
			QueryBlock *block `json:"query_block"`
		}
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil || doc.QueryBlock == nil {
			t.Fatalf("%s: not a query block (%v):\n%s", q, err, text)
		}
		return *doc.QueryBlock
	}

	b := explain("EXPLAIN FORMAT=JSON SELECT * FROM xp.c WHERE id = 2")
	if tb := b.Table; b.SelectID != 1 || tb == nil || tb.TableName != "c" || tb.AccessType != "const" || tb.Key != "PRIMARY" ||
		!slices.Equal(tb.PossibleKeys, []string{"PRIMARY"}) || !slices.Equal(tb.Ref, []string{"const"}) ||
		tb.Rows == nil || *tb.Rows != 1 || tb.Filtered != "100.00" || tb.Condition != "" {
		t.Errorf("point lookup: %+v %+v", b, b.Table)
	}
	for _, q := range []string{"explain format=json SELECT * FROM xp.o", "DESCRIBE FORMAT='JSON' SELECT * FROM xp.o", "EXPLAIN FORMAT = \"json\" SELECT * FROM xp.o"} {
		if tb := explain(q).Table; tb == nil || tb.AccessType != "ALL" || tb.Key != "" || tb.Rows == nil || *tb.Rows != 3 ||
			!slices.Equal(tb.PossibleKeys, []string{"PRIMARY", "by_c"}) || tb.Condition != "" {
			t.Errorf("%s: %+v", q, tb)
		}
	}
	b = explain("EXPLAIN FORMAT=JSON SELECT c.city, o.amount FROM xp.c c JOIN xp.o o ON o.cid = c.id WHERE o.amount > 5")
	names := map[string]bool{}
	for _, n := range b.NestedLoop {
		names[n.Table.TableName] = true
	}
	if b.Table != nil || len(b.NestedLoop) != 2 || !names["c"] || !names["o"] {
		t.Errorf("join: %+v", b)
	}
	b = explain("EXPLAIN FORMAT=JSON SELECT * FROM (SELECT city, COUNT(*) n FROM xp.c GROUP BY city) d WHERE n > 0")
	if tb := b.Table; tb == nil || tb.TableName != "d" || tb.Materialized == nil || tb.Materialized.QueryBlock.SelectID != 2 ||
		tb.Materialized.QueryBlock.Table == nil || tb.Materialized.QueryBlock.Table.TableName != "c" {
		t.Errorf("derived table: %+v", tb)
	}
	b = explain("EXPLAIN FORMAT=JSON SELECT id FROM xp.c UNION SELECT cid FROM xp.o")
	if u := b.UnionResult; u == nil || !u.UsingTemporaryTable || u.TableName != "<union1,2>" || len(u.Specifications) != 2 ||
		u.Specifications[1].QueryBlock.SelectID != 2 || u.Specifications[1].QueryBlock.Table.TableName != "o" {
		t.Errorf("union: %+v", b)
	}
	if b = explain("EXPLAIN FORMAT=JSON SELECT 1"); b.Message != "No tables used" || b.SelectID != 1 {
		t.Errorf("no tables: %+v", b)
	}
	// Each statement of a query answers in its own format.
	rows, err := db.Query("EXPLAIN FORMAT=JSON SELECT 1; EXPLAIN FORMAT=TREE SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	if !rows.NextResultSet() {
		t.Fatal("one result for two statements")
	}
	if cols, _ := rows.Columns(); len(cols) != 1 || cols[0] != "plan" {
		t.Errorf("EXPLAIN FORMAT=TREE after FORMAT=JSON: columns %v", cols)
	}
	rows.Close()
	_, err = db.Exec("EXPLAIN FORMAT=JSON")
	wantMySQLError(t, err, 1064, "42000")
}
