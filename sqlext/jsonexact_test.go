package sqlext_test

import (
	"testing"
)

// TestJSONNumbersExact: JSON documents keep their numbers as MySQL keeps
// them, through every way a document is stored and read, and across a
// restart. The engine read every number as a DOUBLE: 9007199254740993
// was stored as 9007199254740992 and 18446744073709551615 as
// 18446744073709552000; 1.0 came back as 1, a DECIMAL of JSON_OBJECT was
// stored as the string "10.5", and keys were written unescaped.
func TestJSONNumbersExact(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	doc1 := `{"a": 1.0, "b": 9007199254740993, "c": 18446744073709551615, "d": -0.0, "e": 1e2, "q\"k": "x\ty"}`
	mustExecAll(t, db,
		"CREATE DATABASE jx",
		"CREATE TABLE jx.t (id INT PRIMARY KEY, j JSON)",
		"CREATE TABLE jx.s (id INT PRIMARY KEY, txt TEXT)",
		`INSERT INTO jx.s VALUES (1, '{"x": 9007199254740993, "y": 2.0}')`)
	mustExec(t, db, "INSERT INTO jx.t VALUES (1, ?)", doc1) // a prepared statement's parameter
	mustExecAll(t, db,
		"INSERT INTO jx.t VALUES (2, '[1.0, 12345678901234567890, -9223372036854775808, 0.5, 3]')",
		"INSERT INTO jx.t VALUES (3, JSON_OBJECT('amount', CAST(10.50 AS DECIMAL(6,2)), 'n', 2))",
		"INSERT INTO jx.t SELECT 4, txt FROM jx.s WHERE id = 1",
		"INSERT INTO jx.t VALUES (5, '[]')",
		`UPDATE jx.t SET j = '{"z": 1.0}' WHERE id = 5`)
	all := `{"a": 1.0, "b": 9007199254740993, "c": 18446744073709551615, "d": -0.0, "e": 100.0, "q\"k": "x\ty"};` +
		`[1.0, 12345678901234567890, -9223372036854775808, 0.5, 3];` +
		`{"n": 2, "amount": 10.50};` +
		`{"x": 9007199254740993, "y": 2.0};` +
		`{"z": 1.0}`
	answers := map[string]string{
		"SELECT j FROM jx.t ORDER BY id":                all,
		"SELECT * FROM jx.t WHERE id = 3":               `3,{"n": 2, "amount": 10.50}`, // the point-select path
		"SELECT * FROM jx.t WHERE id > 4":               `5,{"z": 1.0}`,
		"SELECT t.* FROM jx.t ORDER BY id DESC LIMIT 1": `5,{"z": 1.0}`,
		"SELECT JSON_TYPE(j->'$.a'), JSON_TYPE(j->'$.b'), JSON_TYPE(j->'$.c'), JSON_TYPE(j->'$.e') FROM jx.t WHERE id = 1":                    "DOUBLE,INTEGER,UNSIGNED INTEGER,DOUBLE",
		"SELECT j->>'$.x', j->>'$.y', CAST(j AS CHAR) FROM jx.t WHERE id = 4":                                                                 `9007199254740993,2.0,{"x": 9007199254740993, "y": 2.0}`,
		`SELECT JSON_EXTRACT('{"a": 9007199254740993}', '$.a'), CAST('[2.0, 3]' AS JSON), JSON_TYPE('1.0'), JSON_SET('{"a": 1.0}', '$.b', 2)`: `9007199254740993,[2.0, 3],DOUBLE,{"a": 1.0, "b": 2}`,
	}
	wantAnswers(t, db, "before restart", answers)
	if got := flat(queryStrings(t, db, "SELECT j FROM jx.t WHERE id = ?", 1)); got != `{"a": 1.0, "b": 9007199254740993, "c": 18446744073709551615, "d": -0.0, "e": 100.0, "q\"k": "x\ty"}` {
		t.Errorf("binary result: %s", got)
	}
	srv.Close()
	_, db = openIn(t, dir)
	wantAnswers(t, db, "after restart", answers)
	for _, bad := range []string{`[1e400]`, `{"a": 1`, `[1] x`} {
		_, err := db.Exec("INSERT INTO jx.t VALUES (6, ?)", bad)
		wantMySQLError(t, err, 3140, "22032")
	}
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM jx.t")); got != "5" {
		t.Errorf("%s rows after the refused ones, want 5", got)
	}
}
