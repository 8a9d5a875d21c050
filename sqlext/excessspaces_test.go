package sqlext_test

import (
	"strings"
	"testing"
)

// TestExcessTrailingSpaces: text longer than its CHAR or VARCHAR column
// only by trailing spaces is cut to the column's length, silently for
// CHAR and with note 1265 for VARCHAR, in strict mode as in MySQL, by
// INSERT ... VALUES, INSERT ... SELECT, UPDATE and ON DUPLICATE KEY
// UPDATE; text too long in other characters is still 1406, with MySQL's
// text. The engine refused them all. The rows, notes and errors are
// MariaDB 10.11's (but for the row MariaDB's error names).
func TestExcessTrailingSpaces(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE xs", "USE xs",
		"CREATE TABLE e (id INT PRIMARY KEY, c CHAR(3), v VARCHAR(3))")
	cut := func(row string) string { return "Note 1265 Data truncated for column 'v' at row " + row }
	wantLeveledWarnings(t, db, "INSERT INTO e VALUES (1,'ab    ','ab    '),(2,'é  ','xyz   ')", cut("1"), cut("2"))
	wantLeveledWarnings(t, db, "INSERT INTO e SELECT id + 10, CONCAT(c, '     '), CONCAT(v, '    ') FROM e", cut("1"), cut("2"))
	wantLeveledWarnings(t, db, "UPDATE e SET v = CONCAT(v, '  ') WHERE id = 1", cut("1"))
	wantLeveledWarnings(t, db, "INSERT INTO e VALUES (1,'a','b') ON DUPLICATE KEY UPDATE c = 'zz     ', v = 'yy        '", cut("1"))
	wantLeveledWarnings(t, db, "UPDATE e SET c = 'é     ' WHERE id = 12")
	wantAnswers(t, db, "cut", map[string]string{
		"SELECT id, CONCAT('[', c, ']'), CONCAT('[', v, ']') FROM e ORDER BY id": "1,[zz],[yy ];2,[é],[xyz];11,[ab],[ab ];12,[é],[xyz]",
	})
	for _, q := range []string{
		"INSERT INTO e VALUES (3, 'abcd ', 'a')",
		"INSERT INTO e VALUES (3, 'a', ' abcd')",
		"UPDATE e SET c = CONCAT(c, 'xy ') WHERE id = 1",
	} {
		_, err := db.Exec(q)
		t.Run(q, func(t *testing.T) {
			wantMySQLError(t, err, 1406, "22001")
			if err != nil && !strings.Contains(err.Error(), "Data too long for column '") {
				t.Errorf("%v: want MySQL's text", err)
			}
		})
	}
	wantAnswers(t, db, "after the errors", map[string]string{"SELECT COUNT(*), MAX(c) FROM e": "4,zz"})
}
