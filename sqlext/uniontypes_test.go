package sqlext_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongUnionOfMixedTypes: a chain of sixty SELECTs whose columns
// differ in type plans (it took time exponential in the chain's length)
// and answers with MySQL's types for the union's columns: an INT with a
// VARCHAR is a VARCHAR, with a DECIMAL a DECIMAL of the larger scale, with
// a DOUBLE a DOUBLE. The answers are MariaDB 10.11's.
func TestLongUnionOfMixedTypes(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE lu",
		"CREATE TABLE lu.k (id INT PRIMARY KEY, i INT, d DECIMAL(8,2), f DOUBLE, s VARCHAR(5))",
		"INSERT INTO lu.k VALUES (1, 7, 30.00, 2.5, 'ab')")
	rows := []string{
		"SELECT 1 a, 'a' b, 1.5 c, 7 d, 1e0 e, i, s, d FROM lu.k",
		"SELECT 'xy', 2, NULL, 2.25, 3, s, i, f FROM lu.k",
		"SELECT 3, 'y', 2.25, 9, 2.5, d, NULL, i FROM lu.k",
	}
	var branches []string
	for i := 0; i < 60; i++ {
		branches = append(branches, rows[i%len(rows)])
	}
	q := strings.Join(branches, " UNION ALL ")
	got := queryStrings(t, db, q)
	if len(got) != 60 {
		t.Fatalf("%d rows, want 60", len(got))
	}
	want := strings.Split("1,a,1.50,7.00,1,7,ab,30;xy,2,NULL,2.25,3,ab,7,2.5;3,y,2.25,9.00,2.5,30.00,NULL,7", ";")
	for i, r := range got {
		if strings.Join(r, ",") != want[i%len(want)] {
			t.Errorf("row %d: %v, want %s", i, r, want[i%len(want)])
		}
	}
	// The engine types a text literal as TEXT, where MySQL has a VARCHAR.
	types := strings.Fields(columnTypes(t, db, q))
	if got, want := strings.Join(types[2:], " "), "DECIMAL(3,2) DECIMAL(5,2) DOUBLE VARCHAR VARCHAR DOUBLE"; got != want {
		t.Errorf("types %s, want %s", got, want)
	}
	// The same as a union (distinct) with ORDER BY.
	distinct := strings.ReplaceAll(q, "UNION ALL", "UNION") + " ORDER BY 4"
	if got, want := flat(queryStrings(t, db, distinct)), "xy,2,NULL,2.25,3,ab,7,2.5;1,a,1.50,7.00,1,7,ab,30;3,y,2.25,9.00,2.5,30.00,NULL,7"; got != want {
		t.Errorf("%s = %s, want %s", distinct, got, want)
	}
}

// TestLongUnionKeepsItsOrder: a union of a thousand SELECTs plans (the
// engine's analysis took time cubic in their number) and returns its rows
// in the order of its SELECTs; a union (distinct) drops the repeated ones.
func TestLongUnionKeepsItsOrder(t *testing.T) {
	_, _, db := serve(t)
	var all, distinct []string
	var want []string
	for i := 0; i < 1000; i++ {
		all = append(all, fmt.Sprintf("SELECT %d", i))
		distinct = append(distinct, fmt.Sprintf("SELECT %d", i%10))
		want = append(want, fmt.Sprint(i))
	}
	if got := flat(queryStrings(t, db, strings.Join(all, " UNION ALL "))); got != strings.Join(want, ";") {
		t.Errorf("UNION ALL of 1000 SELECTs: %.80s..., want %.80s...", got, strings.Join(want, ";"))
	}
	if got := flat(queryStrings(t, db, strings.Join(distinct, " UNION "))); got != strings.Join(want[:10], ";") {
		t.Errorf("UNION of 1000 SELECTs: %s, want %s", got, strings.Join(want[:10], ";"))
	}
}

// TestUnionColumnTypes: each column of a set operation has the type
// MySQL gives it from the types of that column in every SELECT, and
// every SELECT's values are converted to it (a DECIMAL shows the
// union's scale). The answers are MariaDB 10.11's.
func TestUnionColumnTypes(t *testing.T) {
	_, addr, _ := serve(t)
	db := textTimes(t, addr)
	mustExecAll(t, db, "CREATE DATABASE ut", "USE ut",
		"CREATE TABLE k (id INT PRIMARY KEY, i INT, d DECIMAL(8,2), f DOUBLE, s VARCHAR(5), dt DATE, ts DATETIME)",
		"INSERT INTO k VALUES (1, 7, 30.00, 2.5, 'ab', '2024-01-15', '2024-01-15 10:20:30')")
	wantTypedAnswers(t, db, []typedAnswer{
		{"SELECT i FROM ut.k UNION ALL SELECT d FROM ut.k", "7.00;30.00", "DECIMAL(12,2)"},
		{"SELECT i FROM ut.k UNION ALL SELECT s FROM ut.k", "7;ab", "VARCHAR"},
		{"SELECT d FROM ut.k UNION ALL SELECT f FROM ut.k", "30;2.5", "DOUBLE"},
		{"SELECT i, d, f FROM ut.k UNION ALL SELECT d, f, i FROM ut.k", "7.00,30,2.5;30.00,2.5,7", "DECIMAL(12,2) DOUBLE DOUBLE"},
		{"SELECT i FROM ut.k UNION ALL SELECT d FROM ut.k UNION ALL SELECT s FROM ut.k UNION ALL SELECT f FROM ut.k", "7;30.00;ab;2.5", "VARCHAR"},
		{"SELECT dt FROM ut.k UNION ALL SELECT ts FROM ut.k", "2024-01-15 00:00:00;2024-01-15 10:20:30", "DATETIME(0)"},
		{"SELECT dt FROM ut.k UNION ALL SELECT ts FROM ut.k UNION ALL SELECT i FROM ut.k", "2024-01-15;2024-01-15 10:20:30;7", "VARCHAR"},
		{"SELECT d FROM ut.k UNION ALL SELECT NULL", "30.00;NULL", "DECIMAL(8,2)"},
		{"SELECT * FROM (SELECT d FROM ut.k UNION ALL SELECT 1) q", "30.00;1.00", "DECIMAL(8,2)"},
		{"SELECT x + 1 FROM (SELECT 1 x UNION ALL SELECT 2.5) q ORDER BY 1", "2.0;3.5", ""},
		{"SELECT SUM(d) FROM ut.k UNION ALL SELECT 1", "30.00;1.00", ""},
		{"SELECT 1 UNION SELECT 1.0 UNION SELECT '1'", "1;1.0", ""},
		{"SELECT 2 IN (SELECT 1 UNION SELECT 2.0)", "1", ""},
		{"WITH RECURSIVE r AS (SELECT 1 n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r", "1;2;3", ""},
		{"SELECT * FROM ut.k UNION ALL SELECT * FROM ut.k", "1,7,30.00,2.5,ab,2024-01-15,2024-01-15 10:20:30;1,7,30.00,2.5,ab,2024-01-15,2024-01-15 10:20:30", ""},
	})
	// A prepared statement's result, in the binary protocol.
	if got, want := flat(queryStrings(t, db, "SELECT d FROM ut.k WHERE id = ? UNION ALL SELECT 1", 1)), "30.00;1.00"; got != want {
		t.Errorf("prepared: %s, want %s", got, want)
	}
}

// TestUnionOfStars: a set operation whose SELECTs read whole tables
// (`*`, `t.*`, over joins and temporary tables) types its columns as
// MySQL does, as one with the columns written out would: an INT with a
// DOUBLE is a DOUBLE (the engine made it text), an INT with a VARCHAR a
// VARCHAR. A star over what the statement alone cannot list (a derived
// table, a join with USING) keeps the engine's typing but still answers.
// The types and answers are MariaDB 10.11's.
func TestUnionOfStars(t *testing.T) {
	_, addr, _ := serve(t)
	db := connect(t, addr, "")
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE us", "USE us",
		"CREATE TABLE ti (a INT, b VARCHAR(5))",
		"CREATE TABLE td (a DOUBLE, b INT)",
		"INSERT INTO ti VALUES (1, 'x')",
		"INSERT INTO td VALUES (2.5, 7)",
		"CREATE TEMPORARY TABLE tt (a DECIMAL(6,3), b INT)",
		"INSERT INTO tt VALUES (1.125, 3)")
	for q, want := range map[string]string{
		"SELECT * FROM ti UNION ALL SELECT * FROM td":                                    "DOUBLE VARCHAR",
		"SELECT t.* FROM ti t UNION ALL SELECT us.td.* FROM us.td":                       "DOUBLE VARCHAR",
		"SELECT * FROM ti UNION ALL SELECT a, b FROM td":                                 "DOUBLE VARCHAR",
		"SELECT ti.*, td.a FROM ti JOIN td ON td.b > 0 UNION ALL SELECT 1, b, 2 FROM ti": "INT VARCHAR DOUBLE",
		"SELECT * FROM ti UNION ALL SELECT * FROM tt":                                    "DECIMAL(13,3) VARCHAR",
	} {
		if got := columnTypes(t, db, q); got != want {
			t.Errorf("%s: types %s, want %s", q, got, want)
		}
	}
	wantAnswers(t, db, "stars in set operations", map[string]string{
		"SELECT * FROM ti UNION ALL SELECT * FROM td ORDER BY a":                   "1,x;2.5,7",
		"SELECT * FROM ti UNION ALL SELECT * FROM tt ORDER BY a":                   "1.000,x;1.125,3",
		"SELECT * FROM (SELECT a FROM ti) d UNION ALL SELECT a FROM td ORDER BY 1": "1;2.5",
		"SELECT * FROM ti JOIN td USING (a) UNION ALL SELECT 1, 'q', 2 ORDER BY 1": "1,q,2",
	})
}
