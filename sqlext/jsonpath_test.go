package sqlext_test

import "testing"

// TestJSONPaths: the functions that read a document by path follow
// MySQL's path language (the answers are MariaDB 10.11's, but for the
// order of JSON_KEYS, which MySQL gives shorter names first, and for
// what MySQL refuses where MariaDB answers NULL with a warning), and
// JSON_VALUE (which gave a string quoted) with them; the functions that
// change a document refuse a path as MySQL does (the engine answered
// 1105). The
// engine knew neither [last], ranges nor **, read $[*][0] wrong, gave []
// for a member missing from an array, JSON_LENGTH('[]') as NULL, and
// refused an integer in JSON_CONTAINS with 1105.
func TestJSONPaths(t *testing.T) {
	db := inDatabase(t, "jp",
		"CREATE TABLE d (id INT PRIMARY KEY, j JSON)",
		`INSERT INTO d VALUES (1, '{"a": [1, 2, {"b": 3}], "c": {"a": 4}}'), (2, '[10, 20, 30]')`)
	wantAnswers(t, db, "paths", map[string]string{
		`SELECT JSON_EXTRACT('[1,2]', '$.y'), JSON_EXTRACT('{"a":[1,2]}', '$.a[5]'), JSON_EXTRACT('{"a":1}', '$.c', '$.d')`:                                                                                                                                                                                                                                "NULL,NULL,NULL",
		`SELECT JSON_EXTRACT('[[1,2],[3,4]]', '$[*][0]'), JSON_EXTRACT('{"a":{"a":1}}', '$**.a'), JSON_EXTRACT('{"b":1,"a":2}', '$.*')`:                                                                                                                                                                                                                    "[1, 3],[{\"a\": 1}, 1],[2, 1]",
		`SELECT JSON_EXTRACT('[1,2,3]', '$[last]'), JSON_EXTRACT('[1,2,3]', '$[last-1]'), JSON_EXTRACT('[1,2,3]', '$[0 to 1]'), JSON_EXTRACT('[1,2,3]', '$[1 to last]')`:                                                                                                                                                                                   "3,2,[1, 2],[2, 3]",
		`SELECT JSON_EXTRACT('{"a":1}', '$[0]'), JSON_EXTRACT('5', '$[1]'), JSON_EXTRACT('{"a b":1}', '$."a b"'), JSON_EXTRACT('{"a":1,"b":2}', '$.a', '$.b'), JSON_EXTRACT('{"a":[1,2]}', '$.a[*]')`:                                                                                                                                                      `{"a": 1},NULL,1,[1, 2],[1, 2]`,
		`SELECT JSON_KEYS('{"bb":1,"a":{"c":2}}'), JSON_KEYS('{"a":{"c":2}}', '$.a'), JSON_KEYS('[1]'), JSON_LENGTH('[]'), JSON_LENGTH('{"a":[1,2,3]}', '$.a'), JSON_LENGTH('5'), JSON_LENGTH('{"a":1}', '$.b')`:                                                                                                                                           `["a", "bb"],["c"],NULL,0,3,1,NULL`,
		`SELECT JSON_CONTAINS('{"a":[1,2]}', '2', '$.a'), JSON_CONTAINS('[1,[2,3]]', '[3]'), JSON_CONTAINS('[1,2]', '1.0'), JSON_CONTAINS('{"a":1,"b":{"c":2}}', '{"b":{"c":2}}'), JSON_CONTAINS('{"a":1}', '{"a":1,"b":2}'), JSON_CONTAINS('{"a":1}', '1'), JSON_CONTAINS('[1]', '"1"'), JSON_CONTAINS('[18446744073709551615]', '18446744073709551615')`: "1,1,1,1,0,0,0,1",
		`SELECT JSON_CONTAINS_PATH('{"a":1}', 'one', '$.a', '$.b'), JSON_CONTAINS_PATH('{"a":1}', 'all', '$.a', '$.b'), JSON_CONTAINS_PATH('{"a":[1]}', 'ONE', '$**[0]')`:                                                                                                                                                                                  "1,0,1",
		// A column's documents, -> and ->> included.
		`SELECT id, j->'$.a[last].b', j->>'$.c.a', j->'$[last]', JSON_LENGTH(j), JSON_CONTAINS(j, '4', '$.c.a') FROM d ORDER BY id`: "1,3,4,{\"a\": [1, 2, {\"b\": 3}], \"c\": {\"a\": 4}},2,1;2,NULL,NULL,30,3,NULL",
		`SELECT id FROM d WHERE JSON_CONTAINS(j, '20')`: "2",
		// The functions that change a document read their paths as the engine does.
		`SELECT JSON_SET('{"a":[1,2]}', '$.a[last]', 9), JSON_REMOVE('[1,2,3]', '$[last-1]'), JSON_SET('{"a b":1}', '$."a b"', 2)`: `{"a": [1, 9]},[1, 3],{"a b": 2}`,
		// JSON_VALUE gives the scalar's text, a string unquoted.
		`SELECT JSON_VALUE('{"a":"5"}', '$.a'), JSON_VALUE('{"a":[1,2]}', '$.a[last]'), JSON_VALUE('{"a":[1]}', '$.a'), JSON_VALUE('{"a":null}', '$.a')`: "5,2,NULL,NULL",
	})
	for q, code := range map[string]uint16{
		`SELECT JSON_EXTRACT('{"a":1}', 'a')`:                 3143,
		`SELECT JSON_EXTRACT('{"a":1}', '$**')`:               3143,
		`SELECT JSON_EXTRACT('[1,2]', '$[2 to 1]')`:           3143,
		`SELECT JSON_EXTRACT('junk', '$.a')`:                  3141,
		`SELECT JSON_EXTRACT(5, '$.a')`:                       3146,
		`SELECT JSON_LENGTH('[1]', '$[*]')`:                   3149,
		`SELECT JSON_KEYS('{"a":1}', '$.*')`:                  3149,
		`SELECT JSON_CONTAINS_PATH('{"a":1}', 'some', '$.a')`: 3154,
		`SELECT JSON_SET('{"a":1}', '$.*', 2)`:                3149,
		`SELECT JSON_INSERT('[1,2]', '$[0 to 1]', 9)`:         3149,
		`SELECT JSON_SET('{"a":1}', '$.b', 1, 'b', 2)`:        3143,
		`SELECT JSON_REMOVE('{"a":1}', '$')`:                  3153,
	} {
		if got := errorCode(t, db, q); got != code {
			t.Errorf("%s: error %d, want %d", q, got, code)
		}
	}
}
