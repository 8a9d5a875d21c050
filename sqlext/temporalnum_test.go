package sqlext_test

import "testing"

// TestTemporalValuesAsNumbers: arithmetic reads a DATE as YYYYMMDD, a
// DATETIME or TIMESTAMP as YYYYMMDDhhmmss (with its fractional seconds)
// and a TIME as hhmmss, as MySQL does (the answers are MariaDB 10.11's);
// an INTERVAL still makes date arithmetic.
func TestTemporalValuesAsNumbers(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tn", "USE tn",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, tm TIME, dt6 DATETIME(6), ts TIMESTAMP)",
		"INSERT INTO t VALUES (1, '2024-01-15', '2024-01-15 10:20:30', '10:20:30', '2024-01-15 10:20:30.123456', '2024-01-15 10:20:30'),"+
			" (2, '1999-12-31', NULL, '-01:02:03', NULL, NULL), (3, NULL, NULL, NULL, NULL, NULL)")
	wantAnswers(t, db, "numbers", map[string]string{
		"SELECT d + 0, d * 1, d - 1, -d, d + d, d + 0e0 = 20240115 FROM t WHERE id = 1":                    "20240115,20240115,20240114,-20240115,40480230,1",
		"SELECT d + 1.5, d / 2, d DIV 100, d % 100, d + 0 > 20240100 FROM t WHERE id = 1":                  "20240116.5,10120057.5000,202401,15,1",
		"SELECT dt + 0, ts + 0, dt6 + 0, dt - d, tm + 0, -tm FROM t WHERE id = 1":                          "20240115102030,20240115102030,20240115102030.123456,20240094861915,102030,-102030",
		"SELECT d + 0, tm + 0, tm * 2 FROM t ORDER BY id":                                                  "20240115,102030,204060;19991231,-10203,-20406;NULL,NULL,NULL",
		"SELECT MIN(d + 0), MAX(d) + 0 FROM t":                                                             "19991231,20240115",
		"SELECT DATE_FORMAT(d + INTERVAL 1 DAY, '%Y-%m-%d'), d - INTERVAL 1 MONTH < d FROM t WHERE id = 1": "2024-01-16,1",
	})
	// The engine's short plan for a single-table UPDATE.
	mustExec(t, db, "UPDATE t SET id = d - 19990000 WHERE id = 2")
	wantAnswers(t, db, "after UPDATE", map[string]string{"SELECT id FROM t ORDER BY id": "1;3;1231"})
}
