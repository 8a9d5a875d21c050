package sqlext_test

import (
	"strconv"
	"testing"
	"time"
)

// performance_schema's variable and status tables give what SHOW
// VARIABLES and SHOW STATUS give, as MySQL 8 shows them (a boolean as ON
// or OFF, a DOUBLE with six decimals); a session's own settings show in
// session_variables; Uptime counts seconds; the database is listed and
// takes no writes.
func TestPerformanceSchema(t *testing.T) {
	_, addr, db := serve(t)
	conn, exec := oneSession(t, db)
	if err := exec("SET SESSION autocommit = 0, SESSION sql_mode = 'ANSI_QUOTES'"); err != nil {
		t.Fatal(err)
	}
	one := func(q string) string {
		t.Helper()
		var v string
		if err := conn.QueryRowContext(t.Context(), q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	// The session's own settings.
	if got := one("SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME) FROM performance_schema.session_variables WHERE VARIABLE_NAME IN ('autocommit', 'sql_mode')"); got != "OFF,ANSI_QUOTES" {
		t.Errorf("session_variables autocommit, sql_mode: %s", got)
	}
	wantAnswers(t, db, "performance_schema", map[string]string{
		"SELECT VARIABLE_VALUE FROM performance_schema.global_variables WHERE VARIABLE_NAME = 'autocommit'":                            "ON",
		"SELECT VARIABLE_VALUE FROM performance_schema.global_variables WHERE VARIABLE_NAME = 'long_query_time'":                       "10.000000",
		"SELECT VARIABLE_VALUE FROM performance_schema.global_variables WHERE VARIABLE_NAME = 'max_connections'":                       "151",
		"SELECT COUNT(*) FROM performance_schema.session_status WHERE VARIABLE_NAME = 'Threads_connected'":                             "1",
		"SELECT COUNT(*) > 300 FROM performance_schema.global_variables":                                                               "1",
		"SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'performance_schema'":                                    "1",
		"SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'performance_schema'": "global_status,global_variables,session_status,session_variables",
	})
	var name, value string
	if err := conn.QueryRowContext(t.Context(), "SHOW VARIABLES LIKE 'autocommit'").Scan(&name, &value); err != nil || value != "OFF" {
		t.Errorf("SHOW VARIABLES LIKE 'autocommit': %s %v", value, err)
	}
	if err := conn.QueryRowContext(t.Context(), "SHOW GLOBAL VARIABLES LIKE 'autocommit'").Scan(&name, &value); err != nil || value != "ON" {
		t.Errorf("SHOW GLOBAL VARIABLES LIKE 'autocommit': %s %v", value, err)
	}
	if got := one("SELECT @@autocommit"); got != "0" {
		t.Errorf("@@autocommit is %s, want the number 0", got)
	}

	uptime := func() int {
		t.Helper()
		if err := conn.QueryRowContext(t.Context(), "SHOW GLOBAL STATUS LIKE 'Uptime'").Scan(&name, &value); err != nil {
			t.Fatal(err)
		}
		shown, _ := strconv.Atoi(value)
		table, _ := strconv.Atoi(one("SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Uptime'"))
		if table < shown || table > shown+1 {
			t.Errorf("Uptime: SHOW STATUS %d, global_status %d", shown, table)
		}
		return shown
	}
	before := uptime()
	time.Sleep(1100 * time.Millisecond)
	if after := uptime(); after < before+1 {
		t.Errorf("Uptime went from %d to %d over a second", before, after)
	}

	// Every user reads it (and sys) without a grant, as in MySQL, and
	// gains nothing else: the grants are as they were, and other
	// databases stay closed.
	mustExecAll(t, db, "CREATE USER 'plain'@'%' IDENTIFIED BY 'pw'", "CREATE DATABASE closed", "CREATE TABLE closed.t (a INT)")
	plain := connectAs(t, addr, "plain:pw", "")
	wantAnswers(t, plain, "an ungranted user", map[string]string{
		"SELECT VARIABLE_VALUE FROM performance_schema.global_variables WHERE VARIABLE_NAME = 'max_connections'": "151",
		"SELECT COUNT(*) FROM performance_schema.session_status WHERE VARIABLE_NAME = 'Threads_connected'":       "1",
		"SELECT GROUP_CONCAT(SCHEMA_NAME ORDER BY SCHEMA_NAME) FROM information_schema.SCHEMATA":                 "information_schema,performance_schema,sys",
		"SHOW GRANTS": "GRANT USAGE ON *.* TO `plain`@`%`",
	})
	_, err := plain.Exec("SELECT * FROM closed.t")
	wantMySQLError(t, err, 1044, "42000")
	_, err = plain.Exec("SHOW GRANTS FOR 'root'@'localhost'")
	wantMySQLError(t, err, 1044, "42000")
	// The cluster's members, as MySQL's replica status, take REPLICATION
	// CLIENT.
	_, err = plain.Exec("SELECT * FROM sys.cluster_members")
	wantMySQLError(t, err, 1227, "42000")
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM sys.cluster_members")); got != "1" {
		t.Errorf("root sees %s members, want 1", got)
	}
	mustExecAll(t, db, "GRANT REPLICATION CLIENT ON *.* TO 'plain'@'%'")
	if got := flat(queryStrings(t, plain, "SELECT role FROM sys.cluster_members")); got != "leader" {
		t.Errorf("with REPLICATION CLIENT: %s", got)
	}
	_, err = plain.Exec("INSERT INTO performance_schema.global_variables VALUES ('a', 'b')")
	if err == nil {
		t.Error("an ungranted user wrote to performance_schema")
	}

	// Nothing writes to it.
	for _, q := range []string{"CREATE TABLE performance_schema.t (a INT)", "DROP DATABASE performance_schema",
		"CREATE DATABASE performance_schema", "INSERT INTO performance_schema.global_variables VALUES ('a', 'b')",
		"CREATE VIEW performance_schema.v AS SELECT 1"} {
		if _, err := db.Exec(q); err == nil {
			t.Errorf("%s was accepted", q)
		}
	}
}
