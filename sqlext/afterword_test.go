package sqlext_test

import "testing"

// TestAlterAfterKeywordColumn: ALTER TABLE ... AFTER a column named by a
// word MySQL does not reserve (name, status, date) places the column
// there; the parser refused it.
func TestAlterAfterKeywordColumn(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE aw",
		"CREATE TABLE aw.t (id INT PRIMARY KEY, name VARCHAR(9), status INT, date DATE, score INT)",
		"ALTER TABLE aw.t ADD COLUMN x INT AFTER name",
		"ALTER TABLE aw.t ADD COLUMN y INT DEFAULT 1 AFTER status, ADD COLUMN z INT AFTER date",
		"ALTER TABLE aw.t CHANGE score score2 DECIMAL(8,3) AFTER name",
		"ALTER TABLE aw.t MODIFY y BIGINT AFTER `id`")
	wantAnswers(t, db, "column order", map[string]string{
		"SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'aw' AND TABLE_NAME = 't'": "id,y,name,score2,x,status,date,z",
	})
	_, err := db.Exec("ALTER TABLE aw.t ADD COLUMN q INT AFTER missing")
	if err == nil {
		t.Error("AFTER a column that does not exist was accepted")
	}
}
