package sqlext_test

import "testing"

// TestInsertSetWithRowAlias: INSERT ... SET ... AS alias [(columns)]
// names the new row as the VALUES form does (MySQL 8.0.19), where the
// parser refused it; ON DUPLICATE KEY UPDATE reads the row by that name
// or by the column aliases, which follow the SET's order. MariaDB has no
// row aliases: the answers are worked out from MySQL's manual.
func TestInsertSetWithRowAlias(t *testing.T) {
	db := inDatabase(t, "ia",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT)",
		"INSERT INTO t VALUES (1, 12, 6)")
	wantAffected(t, db, []affectedStep{
		{"INSERT INTO t SET id = 1, a = 5, b = 6 AS n ON DUPLICATE KEY UPDATE b = n.b * 2", 2},
		{"INSERT INTO t SET id = 1, a = 7, b = GREATEST(1, 9, 3) AS n (i, x, y) ON DUPLICATE KEY UPDATE a = x + y", 2},
		{"INSERT INTO t SET id = 2, a = 1, b = (SELECT 5) AS n ON DUPLICATE KEY UPDATE b = n.b", 1},
		{"INSERT INTO t SET id = 2, `a` = 3 AS n ON DUPLICATE KEY UPDATE b = n.a", 2},
		{"INSERT INTO t SET id = 3, a = 'x,y' = 'x,y' AS n", 1},
	})
	wantAnswers(t, db, "rows", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', a, ':', IFNULL(b, '-') ORDER BY id) FROM t": "1:16:12,2:1:3,3:1:-",
	})
}
