package sqlext_test

import (
	"strings"
	"testing"
)

// TestJSONKeepsDecimalScale: a DECIMAL put in a JSON document keeps its
// scale when the document is a statement's result, as in MySQL: the
// engine wrote 10.50 as 10.5 and 20.00 as 20. The DECIMALs are written
// as MariaDB 10.11 writes them, and a whole DOUBLE as MySQL 8.0 writes
// one (2.0: MariaDB, which keeps JSON as text, writes 2).
func TestJSONKeepsDecimalScale(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE jd",
		"CREATE TABLE jd.o (id INT PRIMARY KEY, amount DECIMAL(10,2), rate DOUBLE, doc JSON)",
		`INSERT INTO jd.o VALUES (1, 10.50, 1.5, '{"a": 1.50}'), (2, 20.00, 2, '[3.0]')`)
	wantAnswers(t, db, "JSON with DECIMALs", map[string]string{
		"SELECT JSON_OBJECT('id', id, 'amt', amount) FROM jd.o ORDER BY id":      `{"id": 1, "amt": 10.50};{"id": 2, "amt": 20.00}`,
		"SELECT JSON_ARRAY(amount, rate, 'x') AS j FROM jd.o WHERE id = 2":       `[20.00, 2.0, "x"]`,
		"SELECT JSON_OBJECT('n', JSON_ARRAY(amount * 2)) FROM jd.o WHERE id = 1": `{"n": [21.00]}`,
		"SELECT JSON_ARRAYAGG(amount) FROM jd.o":                                 `[10.50, 20.00]`,
		"SELECT JSON_OBJECT('r', rate) FROM jd.o ORDER BY id":                    `{"r": 1.5};{"r": 2.0}`,
	})
}

// TestJSONColumnNames: a JSON column selected on its own is named as
// written, as any other column is; the type that writes its DECIMALs
// named it after the table ("t.doc", "x.doc") when a whole table was read.
func TestJSONColumnNames(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE jn",
		"CREATE TABLE jn.t (id INT PRIMARY KEY, doc JSON)",
		`INSERT INTO jn.t VALUES (1, '{"a": 1}')`)
	for query, want := range map[string]string{
		"SELECT doc FROM jn.t":                     "doc",
		"SELECT x.doc FROM jn.t x":                 "doc",
		"SELECT doc, id FROM jn.t":                 "doc,id",
		"SELECT doc AS d FROM jn.t":                "d",
		"SELECT doc FROM jn.t WHERE id = 1":        "doc",
		"SELECT JSON_OBJECT('k', id) FROM jn.t":    "JSON_OBJECT('k', id)",
		"SELECT doc FROM jn.t ORDER BY id LIMIT 1": "doc",
	} {
		rows, err := db.Query(query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		cols, _ := rows.Columns()
		rows.Close()
		if got := strings.Join(cols, ","); got != want {
			t.Errorf("%s: columns %s, want %s", query, got, want)
		}
	}
}

// TestJSONDatesAndTimes: a date or time put in a JSON document is
// written as MySQL writes it, a DATETIME or TIME with six fractional
// digits (MySQL's manual: JSON_ARRAY(1, "abc", NULL, TRUE, CURTIME())
// is [1, "abc", null, true, "11:30:24.000000"]); the engine wrote a
// DATETIME as 2023-01-01T10:00:00Z. MariaDB, which keeps JSON as text,
// writes no fraction.
func TestJSONDatesAndTimes(t *testing.T) {
	db := inDatabase(t, "jt",
		"CREATE TABLE e (id INT PRIMARY KEY, at DATETIME, day DATE, ms DATETIME(3), clock TIME, ts TIMESTAMP)",
		"INSERT INTO e VALUES (1, '2023-01-01 10:00:00', '2023-01-03', '2023-01-01 10:00:00.5', '-01:02:03', '2023-01-01 10:00:00')")
	wantAnswers(t, db, "JSON of dates and times", map[string]string{
		"SELECT JSON_ARRAY(at, day, ms, clock, ts) FROM e":                                                                 `["2023-01-01 10:00:00.000000", "2023-01-03", "2023-01-01 10:00:00.500000", "-01:02:03.000000", "2023-01-01 10:00:00.000000"]`,
		"SELECT JSON_OBJECT('at', at), JSON_ARRAYAGG(day), JSON_OBJECTAGG(id, ms) FROM e":                                  `{"at": "2023-01-01 10:00:00.000000"},["2023-01-03"],{"1": "2023-01-01 10:00:00.500000"}`,
		"SELECT CAST(at AS JSON), JSON_TYPE(CAST(day AS JSON)), JSON_UNQUOTE(JSON_EXTRACT(JSON_ARRAY(at), '$[0]')) FROM e": `"2023-01-01 10:00:00.000000",STRING,2023-01-01 10:00:00.000000`,
		"SELECT JSON_ARRAY(CAST('10:00:00' AS TIME), DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05.25')":               `["10:00:00.000000", "2020-01-02", "2020-01-02 03:04:05.250000"]`,
	})
}
