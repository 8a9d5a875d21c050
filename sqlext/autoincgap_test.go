package sqlext_test

import (
	"testing"
)

// TestFailedInsertTakesNoAutoIncrementValue: an INSERT refused before any
// of its rows reaches the table (a value its column cannot hold, a NULL
// in a NOT NULL column, a CHECK that fails, in the first row) gives back
// the AUTO_INCREMENT values it took, also a value it gave itself, so the
// next row takes the value after the last stored one; one whose row
// reached the table (a duplicate key, a bad later row of a VALUES list)
// keeps them, a gap, as in InnoDB. The ids are MariaDB 10.11's for the
// same statements. Before, every failed INSERT left a gap.
func TestFailedInsertTakesNoAutoIncrementValue(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ag", "USE ag",
		"CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, u INT UNIQUE, s VARCHAR(3), n INT NOT NULL DEFAULT 0, CHECK (n >= 0))",
		"INSERT INTO t (u, s) VALUES (1, 'a')")
	steps := []struct {
		q   string
		bad bool
	}{
		{"INSERT INTO t (u, s) VALUES (2, 'toolong')", true},
		{"INSERT INTO t (u, s) VALUES (3, 'b')", false},                // 2: no gap
		{"INSERT INTO t (u, s) VALUES (1, 'dup')", true},               // takes 3
		{"INSERT INTO t (u, s) VALUES (4, 'c')", false},                // 4
		{"INSERT INTO t (u, s) VALUES (5, 'd'), (6, 'toolong')", true}, // takes 5 and 6
		{"INSERT INTO t (u, s) VALUES (7, 'e')", false},                // 7
		{"INSERT INTO t (u, s, n) VALUES (8, 'f', -1)", true},
		{"INSERT INTO t (u, s) VALUES (9, 'g')", false}, // 8
		{"INSERT INTO t (u, s, n) VALUES (10, 'h', NULL)", true},
		{"INSERT INTO t (u, s) VALUES (11, 'i')", false}, // 9
		{"INSERT INTO t (u, s) VALUES (12, 'toolong'), (13, 'x')", true},
		{"INSERT INTO t (u, s) SELECT 15, 'toolong'", true},
		{"INSERT INTO t (u, s) VALUES (14, 'j')", false}, // 10
		{"INSERT INTO t (id, u, s) VALUES (100, 16, 'toolong')", true},
		{"INSERT INTO t (u, s) VALUES (17, 'k')", false}, // 11, not 101
		{"BEGIN", false},
		{"INSERT INTO t (u, s) VALUES (18, 'l')", false}, // 12
		{"INSERT INTO t (u, s) VALUES (19, 'toolong')", true},
		{"INSERT INTO t (u, s) VALUES (20, 'm')", false}, // 13
		{"COMMIT", false},
	}
	for _, s := range steps {
		_, err := db.Exec(s.q)
		if (err != nil) != s.bad {
			t.Fatalf("%s: error %v, want one: %v", s.q, err, s.bad)
		}
	}
	wantAnswers(t, db, "ids", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', u ORDER BY id) FROM t":                                                  "1:1,2:3,4:4,7:7,8:9,9:11,10:14,11:17,12:18,13:20",
		"SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ag' AND TABLE_NAME = 't'": "14",
	})

	// Prepared statements give back the same way.
	ins, err := db.Prepare("INSERT INTO t (u, s) VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	if _, err := ins.Exec(21, "toolong"); err == nil {
		t.Fatal("prepared INSERT of a value too long succeeded")
	}
	if _, err := ins.Exec(22, "n"); err != nil {
		t.Fatal(err)
	}
	wantAnswers(t, db, "prepared", map[string]string{"SELECT id FROM t WHERE u = 22": "14"})
}
