package sqlext_test

import (
	"context"
	"testing"
)

// TestLockingReadsCheckedAtCommit: a locking read takes no row lock, so a
// transaction that read rows FOR UPDATE (or LOCK IN SHARE MODE) and wrote
// has its commit fail with 1213, writing nothing, when another
// transaction changed or deleted those rows, or added one to the key
// range it read, after the read: the read-modify-write the locks of
// InnoDB serialise loses no update. Without such a change the commit goes
// through, as does a transaction that only read.
func TestLockingReadsCheckedAtCommit(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE lr",
		"CREATE TABLE lr.c (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE lr.free (n INT)",
		"INSERT INTO lr.c VALUES (1, 0), (2, 0), (3, 0)")
	conn, exec := oneSession(t, db)
	step := func(q string) {
		t.Helper()
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	read := func(q string, args ...any) int {
		t.Helper()
		var v int
		if err := conn.QueryRowContext(context.Background(), q, args...).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	for _, c := range []struct {
		what, lockingRead, theirs, mine, query, want string
	}{
		{"an increment of a row another transaction incremented",
			"SELECT v FROM lr.c WHERE id = 1 FOR UPDATE", "UPDATE lr.c SET v = v + 1 WHERE id = 1",
			"UPDATE lr.c SET v = 1 WHERE id = 1", "SELECT v FROM lr.c WHERE id = 1", "1"},
		{"a write of a row read in share mode and then changed",
			"SELECT v FROM lr.c WHERE id = 2 LOCK IN SHARE MODE", "UPDATE lr.c SET v = 7 WHERE id = 2",
			"UPDATE lr.c SET v = 5 WHERE id = 2", "SELECT v FROM lr.c WHERE id = 2", "7"},
		{"a row read by a scan and then deleted",
			"SELECT SUM(v) FROM lr.c FOR SHARE", "DELETE FROM lr.c WHERE id = 3",
			"INSERT INTO lr.free VALUES (3)", "SELECT COUNT(*) FROM lr.free", "0"},
		{"a key range read empty, where a row is then added",
			"SELECT COUNT(*) FROM lr.c WHERE id BETWEEN 10 AND 20 FOR UPDATE", "INSERT INTO lr.c VALUES (15, 0)",
			"INSERT INTO lr.c VALUES (16, 0)", "SELECT COUNT(*) FROM lr.c WHERE id BETWEEN 10 AND 20", "1"},
	} {
		step("BEGIN")
		step(c.lockingRead)
		mustExecAll(t, db, c.theirs)
		step(c.mine)
		if err := exec("COMMIT"); err == nil {
			t.Errorf("%s: the commit was accepted", c.what)
		} else {
			wantMySQLError(t, err, 1213, "40001")
		}
		if got := flat(queryStrings(t, db, c.query)); got != c.want {
			t.Errorf("%s: %s gives %s, want %s", c.what, c.query, got, c.want)
		}
	}

	// Through a prepared statement, and a retry that reads again.
	step("BEGIN")
	v := read("SELECT v FROM lr.c WHERE id = ? FOR UPDATE", 1)
	mustExecAll(t, db, "UPDATE lr.c SET v = v + 1 WHERE id = 1")
	step("UPDATE lr.c SET v = v + 1 WHERE id = 1 AND v = v")
	if _, err := conn.ExecContext(context.Background(), "UPDATE lr.c SET v = ? WHERE id = 1", v+10); err != nil {
		t.Fatal(err)
	}
	if err := exec("COMMIT"); err == nil {
		t.Error("prepared: the commit was accepted")
	}
	step("BEGIN")
	v = read("SELECT v FROM lr.c WHERE id = ? FOR UPDATE", 1)
	step("UPDATE lr.c SET v = v + 1 WHERE id = 1")
	step("COMMIT")
	if got := flat(queryStrings(t, db, "SELECT v FROM lr.c WHERE id = 1")); got != "3" || v != 2 {
		t.Errorf("after the retry: read %d, now %s, want 2 and 3", v, got)
	}

	// Changes that leave what was read as it was, and a transaction that
	// only read.
	step("BEGIN")
	step("SELECT v FROM lr.c WHERE id = 1 FOR UPDATE")
	mustExecAll(t, db, "UPDATE lr.c SET v = 9 WHERE id = 2", "INSERT INTO lr.c VALUES (30, 0)")
	step("UPDATE lr.c SET v = 4 WHERE id = 1")
	step("COMMIT")
	step("BEGIN")
	step("SELECT v FROM lr.c WHERE id = 1 FOR UPDATE")
	mustExecAll(t, db, "UPDATE lr.c SET v = 5 WHERE id = 1")
	step("COMMIT")
	// A plain read checks nothing.
	step("BEGIN")
	step("SELECT v FROM lr.c WHERE id = 1")
	mustExecAll(t, db, "UPDATE lr.c SET v = 6 WHERE id = 1")
	step("UPDATE lr.c SET v = 0 WHERE id = 2")
	step("COMMIT")
	if got := flat(queryStrings(t, db, "SELECT GROUP_CONCAT(v ORDER BY id) FROM lr.c")); got != "6,0,0,0" {
		t.Errorf("rows: %s", got)
	}
}
