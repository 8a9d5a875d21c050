package sqlext_test

import "testing"

// TestNumbersStoredAsDates: a number given for a DATE, DATETIME or
// TIMESTAMP column is stored as the date it spells, as in MySQL, by every
// statement that writes rows; one that spells no date is still error
// 1292 with nothing written. The engine refused them all with 1292.
func TestNumbersStoredAsDates(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE nd",
		"CREATE TABLE nd.t (id INT PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP NULL)",
		"INSERT INTO nd.t VALUES (1, 20240116, 20240116103005, 240118)",
		"INSERT INTO nd.t (id, d, dt) SELECT 2, 19991231, 991231235959.4",
		"INSERT INTO nd.t (id, d) VALUES (3, 20240101)",
		"UPDATE nd.t SET d = 20240229, ts = 20240301120000 WHERE id = 3",
		"INSERT INTO nd.t (id, d) VALUES (3, 20240101) ON DUPLICATE KEY UPDATE dt = 20250102030405",
		"INSERT INTO nd.t (id, d) VALUES (4, '2024-05-06')")
	wantAnswers(t, db, "dates from numbers", map[string]string{
		"SELECT id, CONCAT(d), CONCAT(dt), CONCAT(ts) FROM nd.t ORDER BY id": "1,2024-01-16,2024-01-16 10:30:05,2024-01-18 00:00:00;" +
			"2,1999-12-31,1999-12-31 23:59:59,NULL;" +
			"3,2024-02-29,2025-01-02 03:04:05,2024-03-01 12:00:00;" +
			"4,2024-05-06,NULL,NULL",
	})
	for _, bad := range []string{
		"INSERT INTO nd.t (id, d) VALUES (5, 20241301)",
		"INSERT INTO nd.t (id, d) VALUES (5, 20240230)",
		"UPDATE nd.t SET d = 1234567 WHERE id = 1",
	} {
		_, err := db.Exec(bad)
		wantMySQLError(t, err, 1292, "22007")
	}
	wantAnswers(t, db, "after the refused statements", map[string]string{
		"SELECT COUNT(*), CONCAT(MAX(d)) FROM nd.t": "4,2024-05-06",
	})
}
