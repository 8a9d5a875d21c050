package sqlext_test

import (
	"database/sql"
	"strconv"
	"testing"
)

// wantAffected runs each statement of steps on db, one connection, and
// wants the rows it affected, and ROW_COUNT() after it, to be the number
// beside it.
func wantAffected(t *testing.T, db *sql.DB, steps []affectedStep) {
	t.Helper()
	for _, s := range steps {
		if n := affected(t, db, s.q); n != s.want {
			t.Errorf("%s: %d rows affected, want %d", s.q, n, s.want)
		}
		if got := flat(queryStrings(t, db, "SELECT ROW_COUNT()")); got != strconv.FormatInt(s.want, 10) {
			t.Errorf("%s: ROW_COUNT() = %s, want %d", s.q, got, s.want)
		}
	}
}

type affectedStep struct {
	q    string
	want int64
}

// TestReplaceCountsEveryDelete: REPLACE counts the row it inserts and
// every row it deletes for it, one by the primary key and one by each
// unique key the new row repeats, for one row, several, rows of a
// SELECT, a table without a primary key, in a transaction rolled back or
// committed. A row that conflicted with two was counted 2, not 3. The
// answers are MariaDB 10.11's.
func TestReplaceCountsEveryDelete(t *testing.T) {
	db := inDatabase(t, "rc",
		"CREATE TABLE t (a INT PRIMARY KEY, b INT UNIQUE, c INT)",
		"CREATE TABLE u (a INT PRIMARY KEY, b INT UNIQUE, c INT UNIQUE)",
		"CREATE TABLE k (a INT, b INT UNIQUE, c INT UNIQUE)",
		"CREATE TABLE s (a INT, b INT)",
		"INSERT INTO t VALUES (1,10,0),(2,20,0),(3,30,0)",
		"INSERT INTO u VALUES (1,1,1),(2,2,2),(3,3,3)",
		"INSERT INTO k VALUES (1,1,1),(2,2,2),(3,3,3)",
		"INSERT INTO s VALUES (5,40),(7,70),(7,71)")
	wantAffected(t, db, []affectedStep{
		{"REPLACE INTO t VALUES (4,40,1)", 1},
		{"REPLACE INTO t VALUES (1,11,1)", 2},
		{"REPLACE INTO t VALUES (1,20,2)", 3},
		{"REPLACE INTO t VALUES (3,40,9),(5,50,1),(1,4,0)", 6},
		{"REPLACE INTO t SELECT a, b, 5 FROM s", 6},
		{"REPLACE INTO u VALUES (1,2,3)", 4},
		{"REPLACE INTO k VALUES (9,2,3)", 3},
	})
	mustExecAll(t, db, "BEGIN")
	wantAffected(t, db, []affectedStep{
		{"REPLACE INTO t VALUES (8,80,0)", 1},
		{"REPLACE INTO t VALUES (8,71,0)", 3},
	})
	mustExecAll(t, db, "ROLLBACK", "BEGIN")
	wantAffected(t, db, []affectedStep{{"REPLACE INTO t VALUES (1,40,6)", 3}})
	mustExecAll(t, db, "COMMIT")
	wantAnswers(t, db, "after the replaces", map[string]string{
		"SELECT * FROM t ORDER BY a": "1,40,6;7,71,5",
		"SELECT * FROM u":            "1,2,3",
		"SELECT * FROM k ORDER BY a": "1,1,1;9,2,3",
	})
}
