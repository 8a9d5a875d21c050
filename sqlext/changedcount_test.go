package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestChangedRowsCountBytes: an UPDATE counts a row as changed when its
// bytes change, as MySQL does, also when its collation holds the new
// text equal to the old ('x' to 'X' under utf8mb4_general_ci, and 'x' to
// 'x ' under that PAD SPACE collation), in a table with a primary key or
// without one, in a transaction; ON DUPLICATE KEY UPDATE counts such a
// row 2. Such rows were written but counted unchanged. A client with
// CLIENT_FOUND_ROWS, which reads the rows matched, reads them as before.
// The answers are MariaDB 10.11's.
func TestChangedRowsCountBytes(t *testing.T) {
	steps := []countStep{
		{"UPDATE t SET b = 'X' WHERE a = 1", 1, 1},
		{"UPDATE t SET b = 'X' WHERE a = 1", 0, 1},
		{"UPDATE t SET b = 'x ' WHERE a = 1", 1, 1},
		{"UPDATE t SET b = 'x ' WHERE a = 1", 0, 1},
		{"UPDATE t SET b = 'x' WHERE a = 1", 1, 1},
		{"UPDATE t SET b = UPPER(b)", 3, 3},
		{"UPDATE t SET b = 'Y' WHERE a > 0", 2, 3},
		{"UPDATE k SET a = 'Q' WHERE a = 'q'", 2, 2},
		{"BEGIN", 0, 0},
		{"UPDATE k SET a = 'r' WHERE a = 'r'", 0, 1},
		{"UPDATE k SET a = 'R'", 3, 3},
		{"UPDATE t SET b = 'y' WHERE a = 2", 1, 1},
		{"COMMIT", 0, 0},
		{"INSERT INTO t VALUES (2,'q') ON DUPLICATE KEY UPDATE b = 'Y'", 2, 2},
		{"INSERT INTO t VALUES (2,'q') ON DUPLICATE KEY UPDATE b = 'Y'", 0, 1},
		{"INSERT INTO t VALUES (2,'q'),(3,'q'),(4,'w') ON DUPLICATE KEY UPDATE b = LOWER(b)", 5, 5},
		{"INSERT INTO t VALUES (2,'q') ON DUPLICATE KEY UPDATE b = 'y '", 2, 2},
	}
	for _, c := range countingConnections(t, "cc",
		"CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)) DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_general_ci",
		"CREATE TABLE k (a VARCHAR(3)) DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_general_ci",
		"INSERT INTO t VALUES (1,'x'),(2,'y'),(3,'x')",
		"INSERT INTO k VALUES ('q'),('q'),('r')") {
		c.wantCounts(t, steps)
		wantAnswers(t, c.db, "after the updates", map[string]string{
			"SELECT a, CONCAT('[', b, ']') FROM t ORDER BY a": "1,[Y];2,[y ];3,[y];4,[w]",
			"SELECT a FROM k": "R;R;R",
		})
	}
}

// countStep is a statement and the rows it affects as the client reads
// them: those it changed, or without CLIENT_FOUND_ROWS those it matched.
type countStep struct {
	q                string
	changed, matched int64
}

// countingConnection is one connection, which reads the rows a
// statement matched as affected when found is set (CLIENT_FOUND_ROWS).
type countingConnection struct {
	db    *sql.DB
	found bool
}

// countingConnections starts a server and connects to it without
// CLIENT_FOUND_ROWS and with it, each in a database of its own called
// name and made by setup.
func countingConnections(t *testing.T, name string, setup ...string) []countingConnection {
	t.Helper()
	_, addr, _ := serve(t)
	var out []countingConnection
	for _, found := range []bool{false, true} {
		db := oneConnection(t, addr, found)
		d := fmt.Sprintf("%s%t", name, found)
		mustExecAll(t, db, append([]string{"CREATE DATABASE " + d, "USE " + d}, setup...)...)
		out = append(out, countingConnection{db, found})
	}
	return out
}

// wantCounts runs each step on c and wants its count.
func (c countingConnection) wantCounts(t *testing.T, steps []countStep) {
	t.Helper()
	for _, s := range steps {
		want := s.changed
		if c.found {
			want = s.matched
		}
		if n := affected(t, c.db, s.q); n != want {
			t.Errorf("%s (found rows %t): %d rows affected, want %d", s.q, c.found, n, want)
		}
	}
}

// oneConnection connects to addr with one connection, which reports the
// rows an UPDATE matched as affected when found is set
// (CLIENT_FOUND_ROWS).
func oneConnection(t *testing.T, addr string, found bool) *sql.DB {
	t.Helper()
	c, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?clientFoundRows=%t", addr, found))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetMaxOpenConns(1)
	return c
}

// TestCharDropsTrailingSpaces: a CHAR column stores its text without
// trailing spaces, as MySQL does (it pads CHAR values and removes the
// padding when it reads them), so 'x ' for 'x' leaves a row unchanged,
// 'q ' repeats the key 'q', and a read gives 'x'; under a NO PAD
// collation (utf8mb4_0900_ai_ci, the default) as under a PAD SPACE one,
// in a table with a primary key and without one, through UPDATE, ON
// DUPLICATE KEY UPDATE, a multiple-table UPDATE, INSERT ... SELECT and
// REPLACE. The counts and rows are MariaDB 10.11's (utf8mb4_general_ci).
// Before, the spaces were kept and counted as changes.
func TestCharDropsTrailingSpaces(t *testing.T) {
	steps := []countStep{
		{"INSERT INTO c VALUES (1,'x  '),(2,'y')", 2, 2},
		{"UPDATE c SET b = 'x ' WHERE a = 1", 0, 1},
		{"UPDATE c SET b = CONCAT(b, ' ')", 0, 2},
		{"INSERT INTO c VALUES (1,'q') ON DUPLICATE KEY UPDATE b = 'x   '", 0, 1},
		{"INSERT INTO c VALUES (1,'q') ON DUPLICATE KEY UPDATE b = 'w '", 2, 2},
		{"UPDATE c SET b = 'z ' WHERE a = 2", 1, 1},
		{"UPDATE n SET b = 'p ' WHERE b LIKE 'p%'", 0, 2},
		{"UPDATE c JOIN n ON n.b = 'q' SET c.b = 'z  ', n.b = 'q '", 1, 3},
		{"BEGIN", 0, 0},
		{"UPDATE c SET b = 'v ' WHERE a = 2", 1, 1},
		{"UPDATE c SET b = 'v' WHERE a = 2", 0, 1},
		{"COMMIT", 0, 0},
		{"INSERT INTO c SELECT a + 10, CONCAT(b, '  ') FROM c", 2, 2},
		{"REPLACE INTO c VALUES (11, 'w   ')", 2, 2},
	}
	for _, collation := range []string{"utf8mb4_0900_ai_ci", "utf8mb4_general_ci"} {
		for _, c := range countingConnections(t, "ch"+collation[8:12],
			"CREATE TABLE c (a INT PRIMARY KEY, b CHAR(4)) DEFAULT CHARSET utf8mb4 COLLATE "+collation,
			"CREATE TABLE n (b CHAR(3)) DEFAULT CHARSET utf8mb4 COLLATE "+collation,
			"INSERT INTO n VALUES ('p'),('p  '),('q')",
			"CREATE TABLE k (a CHAR(3) PRIMARY KEY) DEFAULT CHARSET utf8mb4 COLLATE "+collation,
			"INSERT INTO k VALUES ('q')") {
			c.wantCounts(t, steps)
			wantAnswers(t, c.db, collation, map[string]string{
				"SELECT a, CONCAT('[', b, ']') FROM c ORDER BY a": "1,[z];2,[v];11,[w];12,[v]",
				"SELECT CONCAT('[', b, ']') FROM n ORDER BY b":    "[p];[p];[q]",
				"SELECT COUNT(*) FROM c WHERE b = 'w'":            "1",
			})
			if _, err := c.db.Exec("INSERT INTO k VALUES ('q  ')"); err == nil || !strings.Contains(err.Error(), "1062") {
				t.Errorf("%s: a key repeated but for trailing spaces: %v, want 1062", collation, err)
			}
		}
	}
}
