package sqlext_test

import (
	"strings"
	"testing"
)

// SHOW CREATE TABLE writes each column as MySQL 8 does: DEFAULT NULL for
// a nullable column declared without a default, but not for TEXT, BLOB,
// generated or AUTO_INCREMENT columns; NULL before a nullable
// TIMESTAMP's default; VIRTUAL after a virtual column. Its text creates
// the same table again.
func TestShowCreateTableColumnDefaults(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE sc", "CREATE TABLE sc.t (id INT AUTO_INCREMENT PRIMARY KEY, s CHAR(60), "+
		"v VARCHAR(10) DEFAULT 'a', tx TEXT, b BLOB, j JSON, ts TIMESTAMP NULL, "+
		"ts2 TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, ts3 TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP, "+
		"d DATETIME, g INT AS (id + 1), e ENUM('a','b'), c INT COMMENT 'hi', nn INT NOT NULL)")
	want := "CREATE TABLE `t` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `s` char(60) DEFAULT NULL,\n" +
		"  `v` varchar(10) DEFAULT 'a',\n" +
		"  `tx` text,\n" +
		"  `b` blob,\n" +
		"  `j` json DEFAULT NULL,\n" +
		"  `ts` timestamp NULL DEFAULT NULL,\n" +
		"  `ts2` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n" +
		"  `ts3` timestamp NULL DEFAULT CURRENT_TIMESTAMP,\n" +
		"  `d` datetime DEFAULT NULL,\n" +
		"  `g` int GENERATED ALWAYS AS ((`id` + 1)) VIRTUAL,\n" +
		"  `e` enum('a','b') DEFAULT NULL,\n" +
		"  `c` int DEFAULT NULL COMMENT 'hi',\n" +
		"  `nn` int NOT NULL,\n" +
		"  PRIMARY KEY (`id`)\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci"
	got := showCreate(t, db, "SHOW CREATE TABLE sc.t")
	if got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant\n%s", got, want)
	}
	mustExecAll(t, db, strings.Replace(got, "CREATE TABLE `t`", "CREATE TABLE sc.again", 1))
	if again := showCreate(t, db, "SHOW CREATE TABLE sc.again"); again != strings.Replace(want, "`t`", "`again`", 1) {
		t.Errorf("the table made from SHOW CREATE TABLE's text shows\n%s", again)
	}
	wantAnswers(t, db, "defaults", map[string]string{
		"SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sc' AND TABLE_NAME = 't' AND COLUMN_DEFAULT IS NULL": "11",
	})
}
