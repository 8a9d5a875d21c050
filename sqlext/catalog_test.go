package sqlext_test

import (
	"strings"
	"testing"
)

// TestCatalogQueriesOfClients runs the metadata queries that GUI clients
// and BI tools issue when they connect and browse a server. The engine
// asks every database, the read-only sys database included, for its
// routines, triggers and events; each query must answer, and list what
// the user created.
func TestCatalogQueriesOfClients(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE DATABASE cat",
		"CREATE TABLE cat.t (id INT PRIMARY KEY, v INT, KEY iv (v))",
		"CREATE PROCEDURE cat.p(IN x INT) SELECT x",
		"CREATE TRIGGER cat.tr BEFORE INSERT ON cat.t FOR EACH ROW SET NEW.v = NEW.v + 1")
	inCat := connect(t, addr, "cat")
	for _, c := range []struct {
		q    string
		want string // a value some row must hold; empty: any answer
	}{
		{"SELECT routine_schema, routine_name FROM information_schema.ROUTINES", "p"},
		{"SELECT specific_name, parameter_name FROM information_schema.PARAMETERS", "x"},
		{"SELECT trigger_schema, trigger_name FROM information_schema.TRIGGERS", "tr"},
		{"SELECT event_name FROM information_schema.EVENTS", ""},
		{"SHOW PROCEDURE STATUS", "p"},
		{"SHOW FUNCTION STATUS", ""},
		{"SHOW TRIGGERS", "tr"},
		{"SHOW EVENTS", ""},
		{"SELECT index_name FROM information_schema.STATISTICS WHERE table_schema = 'cat'", "iv"},
		{"SELECT table_name FROM information_schema.TABLES WHERE table_schema = 'sys'", ""},
		{"SHOW FULL TABLES FROM sys", ""},
	} {
		rows := queryStrings(t, inCat, c.q)
		if c.want == "" {
			continue
		}
		found := false
		for _, r := range rows {
			for _, v := range r {
				found = found || strings.EqualFold(v, c.want)
			}
		}
		if !found {
			t.Errorf("%s: no row holds %q: %v", c.q, c.want, rows)
		}
	}
	// From a session with no current database too.
	queryStrings(t, db, "SELECT routine_name FROM information_schema.ROUTINES")
	queryStrings(t, db, "SELECT trigger_name FROM information_schema.TRIGGERS")
	queryStrings(t, db, "SELECT event_name FROM information_schema.EVENTS")
	queryStrings(t, db, "SHOW EVENTS FROM cat")
	queryStrings(t, db, "SHOW TRIGGERS FROM cat")
	_, err := db.Exec("SHOW EVENTS FROM nodb")
	wantMySQLError(t, err, 1049, "42000")

	for _, c := range []struct{ q, msg string }{
		{"CREATE EVENT cat.e ON SCHEDULE EVERY 1 HOUR DO SELECT 1", "events"},
		{"CREATE PROCEDURE sys.p() SELECT 1", "locked"},
		{"CREATE TRIGGER sys.tr BEFORE INSERT ON sys.ml_models FOR EACH ROW SET @x = 1", ""},
	} {
		_, err := db.Exec(c.q)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error naming %q", c.q, err, c.msg)
		}
	}
	if _, err := db.Exec("DROP EVENT IF EXISTS cat.e"); err != nil {
		t.Errorf("DROP EVENT IF EXISTS: %v", err)
	}
}

// TestProcessListNamesUsers checks that SHOW PROCESSLIST gives every
// connection's user, also for connections that never chose a database,
// which the engine alone left as "unauthenticated user".
func TestProcessListNamesUsers(t *testing.T) {
	_, addr, db := serve(t)
	mustExec(t, db, "CREATE DATABASE pl")
	other := connect(t, addr, "pl")
	other.SetMaxOpenConns(1)
	queryStrings(t, other, "SELECT 1")
	db.SetMaxOpenConns(1)
	rows := queryStrings(t, db, "SELECT user, db, command FROM information_schema.PROCESSLIST")
	if len(rows) < 2 {
		t.Fatalf("process list %v, want both connections", rows)
	}
	for _, r := range rows {
		if r[0] != "root" {
			t.Errorf("process %v: user %q, want root", r, r[0])
		}
	}
}
