package sqlext_test

import (
	"database/sql"
	"testing"
)

// affected runs q and returns the rows it affected.
func affected(t *testing.T, db *sql.DB, q string) int64 {
	t.Helper()
	res, err := db.Exec(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEqualKeylessRows: DELETE and UPDATE of a table without a primary
// key change every row they match when rows are equal. Of two equal
// rows, the statement changed the first one stored (by row id) for
// whichever it read first; when that was the other one, the scan, which
// skips rows the transaction changed, then never reached the first
// again, so one of the two stayed as it was.
func TestEqualKeylessRows(t *testing.T) {
	db := inDatabase(t, "kd", "CREATE TABLE k (a INT, b VARCHAR(6))")
	fill := "INSERT INTO k VALUES (1, 'a'), (2, 'a'), (9, 'x'), (3, 'a'), (9, 'x'), (4, 'a'), (9, 'x')"
	mustExecAll(t, db, fill)
	if n := affected(t, db, "UPDATE k SET a = 10 WHERE a = 9"); n != 3 {
		t.Errorf("UPDATE of three equal rows changed %d", n)
	}
	wantAnswers(t, db, "after the update", map[string]string{"SELECT a, COUNT(*) FROM k GROUP BY a ORDER BY a": "1,1;2,1;3,1;4,1;10,3"})
	if n := affected(t, db, "DELETE FROM k WHERE a = 10"); n != 3 {
		t.Errorf("DELETE of three equal rows removed %d", n)
	}
	wantAnswers(t, db, "after the delete", map[string]string{"SELECT COUNT(*) FROM k": "4"})
	// Inside a stored procedure too.
	mustExecAll(t, db, fill, "CREATE PROCEDURE drop9() DELETE FROM k WHERE a = 9", "CALL drop9()", "DELETE FROM k WHERE a <> 9")
	wantAnswers(t, db, "after the procedure", map[string]string{"SELECT COUNT(*) FROM k": "0"})
	mustExecAll(t, db, "INSERT INTO k VALUES (1, 'a'), (2, 'a'), (3, 'a'), (4, 'a')")
	// In a transaction, over rows it inserted too, and with a LIMIT.
	mustExecAll(t, db, "BEGIN", fill, "DELETE FROM k WHERE a = 9 LIMIT 2", "UPDATE k SET a = 5 WHERE a IN (1, 9)", "COMMIT")
	wantAnswers(t, db, "after the transaction", map[string]string{"SELECT a, COUNT(*) FROM k GROUP BY a ORDER BY a": "2,2;3,2;4,2;5,3"})
}
