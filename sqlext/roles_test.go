package sqlext_test

import (
	"testing"
)

// TestRoles: every role granted to an account is active in its sessions
// (activate_all_roles_on_login is ON and read-only, where it read OFF);
// CURRENT_ROLE() lists them; SET ROLE and SET DEFAULT ROLE, which the
// parser refused, are taken when they name granted roles and leave none
// inactive, refused with 1235 when they would (the privileges would
// stay), and with 3530 for a role not granted.
func TestRoles(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE rl", "CREATE TABLE rl.t (id INT PRIMARY KEY)", "INSERT INTO rl.t VALUES (1)",
		"CREATE ROLE reader, auditor", "GRANT SELECT ON rl.* TO reader",
		"CREATE USER ann IDENTIFIED BY 'pw'", "GRANT reader, auditor TO ann",
		"SET DEFAULT ROLE reader, auditor TO ann", "SET DEFAULT ROLE ALL TO ann", "SET DEFAULT ROLE NONE TO ann")
	ann := connectAs(t, addr, "ann:pw", "rl")
	ann.SetMaxOpenConns(1)
	wantAnswers(t, ann, "ann's roles", map[string]string{
		"SELECT CURRENT_ROLE()":                "`auditor`@`%`,`reader`@`%`",
		"SELECT COUNT(*) FROM t":               "1",
		"SELECT @@activate_all_roles_on_login": "1",
	})
	wantAnswers(t, db, "root's", map[string]string{"SELECT CURRENT_ROLE()": "NONE"})
	mustExecAll(t, ann, "SET ROLE ALL", "SET ROLE DEFAULT", "SET ROLE reader, auditor")
	for _, q := range []string{"SET ROLE NONE", "SET ROLE reader", "SET ROLE ALL EXCEPT auditor"} {
		_, err := ann.Exec(q)
		wantMySQLError(t, err, 1235, "42000")
	}
	_, err := ann.Exec("SET ROLE writer")
	wantMySQLMessage(t, "a role not granted", err, 3530, "HY000", "`writer`@`%` is not granted to `ann`@`%`")
	_, err = db.Exec("SET DEFAULT ROLE writer TO ann")
	wantMySQLMessage(t, "a default role not granted", err, 3530, "HY000", "`writer`@`%` is not granted to `ann`@`%`")
	_, err = db.Exec("SET DEFAULT ROLE ALL TO nobody")
	wantMySQLError(t, err, 1396, "HY000")
	_, err = ann.Exec("SET DEFAULT ROLE ALL TO root@localhost")
	wantMySQLError(t, err, 1227, "42000")
	_, err = db.Exec("SET GLOBAL activate_all_roles_on_login = OFF")
	wantMySQLError(t, err, 1238, "HY000")
}
