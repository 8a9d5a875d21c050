package sqlext_test

import (
	"strings"
	"testing"
)

// TestWhatDumpsNeed covers what restoring a mysqldump needs of the
// server, each of which failed: a table comment next to a PRIMARY KEY
// clause, ENUM and SET members and defaults as SQL that runs again,
// generated columns marked as such and their values ignored outside strict
// mode, triggers and procedures written without their database.
func TestWhatDumpsNeed(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	conn, exec := oneSession(t, db)
	for _, q := range []string{
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE c (id INT NOT NULL, tier ENUM('free','pro') NOT NULL DEFAULT 'free', flags SET('a','b''q','c\\\\d') DEFAULT 'a,c\\\\d', " +
			"name VARCHAR(9), len INT GENERATED ALWAYS AS (CHAR_LENGTH(name)) STORED, vlen INT AS (CHAR_LENGTH(name)) VIRTUAL, PRIMARY KEY (id)) COMMENT='customers'",
		"CREATE TABLE o (id INT PRIMARY KEY, amt INT)",
		"CREATE TRIGGER o_amt BEFORE INSERT ON o FOR EACH ROW SET NEW.amt = COALESCE(NEW.amt, 0)",
		"CREATE PROCEDURE add_order(IN oid INT) INSERT INTO o (id) VALUES (oid)",
		"USE mysql",
	} {
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	create := queryStrings(t, db, "SHOW CREATE TABLE d.c")[0][1]
	for _, want := range []string{"COMMENT='customers'", "enum('free','pro') NOT NULL DEFAULT 'free'", `set('a','b''q','c\\d') DEFAULT 'a,c\\d'`} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE lacks %s:\n%s", want, create)
		}
	}
	if got := flat(queryStrings(t, db, "SELECT column_name, extra FROM information_schema.COLUMNS WHERE table_schema = 'd' AND table_name = 'c' AND extra <> '' ORDER BY 1")); got != "len,STORED GENERATED;vlen,VIRTUAL GENERATED" {
		t.Errorf("generated columns' extra: %s", got)
	}

	// Values for generated columns: ignored with a warning outside strict
	// mode (as mariadb-dump's output needs), refused in it.
	insert := `INSERT INTO d.c VALUES (1, 'pro', 'b''q', 'abc', 99, 98)`
	wantMySQLError(t, exec(insert), 3105, "HY000")
	if err := exec("SET sql_mode = ''"); err != nil {
		t.Fatal(err)
	}
	if err := exec(insert); err != nil {
		t.Fatalf("%s outside strict mode: %v", insert, err)
	}
	var level, msg string
	var code int
	if err := conn.QueryRowContext(t.Context(), "SHOW WARNINGS").Scan(&level, &code, &msg); err != nil || code != 1906 {
		t.Errorf("warning %d %q (%v), want 1906", code, msg, err)
	}
	if got := flat(queryStrings(t, db, "SELECT tier, flags, len, vlen FROM d.c")); got != "pro,b'q,3,3" {
		t.Errorf("row %s, want pro,b'q,3,3", got)
	}

	// Triggers and procedures that name tables without their database,
	// from a session in another database and from one in none.
	for _, c := range []struct{ use, call string }{{"", "CALL d.add_order(1)"}, {"USE mysql", "CALL d.add_order(2)"}} {
		conn2, err := db.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{c.use, "INSERT INTO d.c (id) VALUES (10)", "DELETE FROM d.c WHERE id = 10", c.call} {
			if q == "" {
				continue
			}
			if _, err := conn2.ExecContext(t.Context(), q); err != nil {
				t.Errorf("%s (after %q): %v", q, c.use, err)
			}
		}
		conn2.Close()
	}
	if got := flat(queryStrings(t, db, "SELECT id, amt FROM d.o ORDER BY id")); got != "1,0;2,0" {
		t.Errorf("orders %s, want 1,0;2,0 (the procedure inserts, the trigger fills amt)", got)
	}
}
