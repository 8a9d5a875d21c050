package sqlext_test

import (
	"testing"
)

// TestRandSeeds: RAND(N) gives MySQL's sequence for the seed N, one
// value per call: a constant seed is taken once for the statement (and
// again for each run of a procedure's statement or a prepared one), so
// ORDER BY RAND(42) orders rows as MySQL does; a seed read from the row
// seeds each call anew. Each row's sort key is computed once. The
// answers are MariaDB 10.11's, whose RAND is MySQL's.
func TestRandSeeds(t *testing.T) {
	db := inDatabase(t, "rs",
		"CREATE TABLE t (id INT PRIMARY KEY, k INT)",
		"INSERT INTO t WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200) SELECT i, IF(i % 17 = 0, NULL, i % 5) FROM r",
		"CREATE TABLE lg (i INT, s TEXT, r DOUBLE)",
		`CREATE PROCEDURE p() BEGIN
			DECLARE i INT DEFAULT 0;
			WHILE i < 2 DO
				INSERT INTO lg SELECT i, (SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t WHERE id <= 5 ORDER BY RAND(1)) s), RAND(8);
				SET i = i + 1;
			END WHILE;
		END`,
		"CALL p()")
	db.SetMaxOpenConns(1)
	wantAnswers(t, db, "seeds", map[string]string{
		"SELECT RAND(42), RAND(1), RAND(NULL), RAND(0), RAND(-1), RAND(3.7), RAND('5')":         "0.6629110161800972,0.40540353712197724,0.15522042769493574,0.15522042769493574,0.9050373219931845,0.15595286540310166,0.40613597483014313",
		"SELECT RAND(18446744073709551615), RAND(4294967297)":                                   "0.9050373219931845,0.40540353712197724",
		"SELECT GROUP_CONCAT(r ORDER BY id) FROM (SELECT id, RAND(3) r FROM t WHERE id <= 3) s": "0.9057697559760601,0.37307905813034536,0.14808605345719125",
		"SELECT 0, (SELECT 1) s, RAND(8)":                                                       "0,1,0.15668530311126755",
		// The sort keys of a sequence, each drawn once per row.
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t ORDER BY RAND(42) LIMIT 8) s":            "62,176,156,108,131,123,18,90",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t WHERE id <= 10 ORDER BY RAND(9) DESC) s": "6,2,8,9,10,5,1,4,3,7",
		"SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t WHERE id <= 10 ORDER BY k, RAND(9)) s":   "5,10,1,6,7,2,3,8,4,9",
		// In a WHERE, the sequence runs row by row; a seed from the row
		// starts its own.
		"SELECT COUNT(*) FROM t WHERE RAND(7) < 0.5": "112",
		"SELECT SUM(RAND(id) < 0.5) FROM t":          "100",
		// Each run of a procedure's statement starts the sequence again.
		"SELECT GROUP_CONCAT(i, ':', s, ':', r ORDER BY i SEPARATOR ';') FROM lg": "0:5,4,3,1,2:0.15668530311126755;1:5,4,3,1,2:0.15668530311126755",
	})
	mustExecAll(t, db, "PREPARE st FROM 'SELECT GROUP_CONCAT(id) FROM (SELECT id FROM t WHERE id <= 5 ORDER BY RAND(?)) s'", "SET @s = 2")
	for range 2 {
		if got := flat(queryStrings(t, db, "EXECUTE st USING @s")); got != "2,5,3,1,4" {
			t.Errorf("prepared ORDER BY RAND(?): %s, want 2,5,3,1,4", got)
		}
	}
}
