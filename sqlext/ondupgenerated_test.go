package sqlext_test

import "testing"

// TestOnDuplicateKeyUpdateRecomputesGenerated: INSERT ... ON DUPLICATE
// KEY UPDATE recomputes the stored generated columns of the row it
// changes, from the row as changed, as MySQL does; it left them at their
// old values. Expected answers are MariaDB 10.11's.
func TestOnDuplicateKeyUpdateRecomputesGenerated(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE od",
		"CREATE TABLE od.g (id INT PRIMARY KEY, p INT, q INT DEFAULT 1, k INT AS (p * 2 + q) STORED, v INT AS (p + 100) VIRTUAL, s VARCHAR(20) AS (CONCAT('p=', p)) STORED)",
		"INSERT INTO od.g (id, p) VALUES (1, 3), (2, 4)",
		"INSERT INTO od.g (id, p) VALUES (1, 9) ON DUPLICATE KEY UPDATE p = 5",
		"INSERT INTO od.g (id, p) VALUES (2, 7), (3, 8) ON DUPLICATE KEY UPDATE p = VALUES(p) + 1, q = p",
		"INSERT INTO od.g (id, p) SELECT 3, 1 ON DUPLICATE KEY UPDATE q = 10")
	wantAnswers(t, db, "after ON DUPLICATE KEY UPDATE", map[string]string{
		"SELECT id, p, q, k, v, s FROM od.g ORDER BY id": "1,5,1,11,105,p=5;2,8,8,24,108,p=8;3,8,10,26,108,p=8",
		"SELECT k, s FROM od.g WHERE id = 2":             "24,p=8",
	})
}
