package sqlext_test

import "testing"

// TestJSONAggregatesOverWindows: JSON_OBJECTAGG is a window function, as
// in MySQL 8.0 (the OVER clause was dropped and the statement failed),
// over whole partitions, running frames, named windows and the groups of
// a grouped query, the last value of a key kept; over no rows, or an
// empty frame, JSON_OBJECTAGG and JSON_ARRAYAGG are NULL (JSON_ARRAYAGG
// was []); a NULL key is MySQL's 3158.
func TestJSONAggregatesOverWindows(t *testing.T) {
	db := inDatabase(t, "jw",
		"CREATE TABLE w (id INT PRIMARY KEY, g INT, k VARCHAR(5), v INT)",
		"INSERT INTO w VALUES (1, 1, 'a', 10), (2, 1, 'b', 20), (3, 2, 'c', 30), (4, 1, 'a', 40)")
	wantAnswers(t, db, "JSON aggregates", map[string]string{
		"SELECT id, JSON_OBJECTAGG(k, v) OVER (PARTITION BY g ORDER BY id) FROM w ORDER BY id":                                                                                                         `1,{"a": 10};2,{"a": 10, "b": 20};3,{"c": 30};4,{"a": 40, "b": 20}`,
		"SELECT id, JSON_OBJECTAGG(k, v) OVER w2 FROM w WINDOW w2 AS (PARTITION BY g) ORDER BY id":                                                                                                     `1,{"a": 40, "b": 20};2,{"a": 40, "b": 20};3,{"c": 30};4,{"a": 40, "b": 20}`,
		"SELECT id, JSON_OBJECTAGG(k, v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING), JSON_ARRAYAGG(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) FROM w ORDER BY id": `1,{"b": 20},[20];2,{"c": 30},[30];3,{"a": 40},[40];4,NULL,NULL`,
		"SELECT g, JSON_OBJECTAGG(k, SUM(v)) OVER () FROM w GROUP BY g, k ORDER BY g, k LIMIT 1":                                                                                                       `1,{"a": 50, "b": 20, "c": 30}`,
		"SELECT JSON_ARRAYAGG(v), JSON_OBJECTAGG(k, v) FROM w WHERE id > 9":                                                                                                                            "NULL,NULL",
		"SELECT g, JSON_ARRAYAGG(v) FROM w GROUP BY g ORDER BY g":                                                                                                                                      "1,[10, 20, 40];2,[30]",
	})
	for _, q := range []string{"SELECT JSON_OBJECTAGG(NULL, 1)", "SELECT JSON_OBJECTAGG(IF(id = 3, NULL, k), v) OVER () FROM w"} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 3158, "22032", "JSON documents may not contain NULL member names")
	}
}
