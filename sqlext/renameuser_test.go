package sqlext_test

import (
	"testing"
)

// TestRenameUserAndSetPassword: RENAME USER gives an account a new name
// with its password and grants, all the accounts a statement names or
// none (1396 naming the one that fails); SET PASSWORD sets an account's
// password, the session's own without FOR. The engine left RENAME USER
// unimplemented (1105), refused SET PASSWORD FOR (1064) and read SET
// PASSWORD = '...' as an unknown variable (1193).
func TestRenameUserAndSetPassword(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE ru", "CREATE TABLE ru.t (id INT PRIMARY KEY)", "INSERT INTO ru.t VALUES (1)",
		"CREATE USER 'ann'@'%' IDENTIFIED BY 'a1'", "GRANT SELECT ON ru.* TO 'ann'@'%'",
		"CREATE USER 'bob'@'%' IDENTIFIED BY 'b1'")
	_, err := db.Exec("RENAME USER 'ann'@'%' TO 'anna'@'%', 'nobody'@'%' TO 'nb'@'%'")
	wantMySQLMessage(t, "an account that is not there", err, 1396, "HY000", "Operation RENAME USER failed for 'nobody'@'%'")
	_, err = db.Exec("RENAME USER 'ann'@'%' TO 'bob'@'%'")
	wantMySQLMessage(t, "a name taken", err, 1396, "HY000", "Operation RENAME USER failed for 'ann'@'%'")
	wantAnswers(t, db, "nothing renamed", map[string]string{"SELECT GROUP_CONCAT(User ORDER BY User) FROM mysql.user WHERE User IN ('ann', 'anna', 'bob')": "ann,bob"})

	mustExecAll(t, db, "RENAME USER 'ann'@'%' TO 'anna'@'%'")
	anna := connectAs(t, addr, "anna:a1", "ru")
	wantAnswers(t, anna, "the renamed account's grants", map[string]string{"SELECT COUNT(*) FROM t": "1", "SELECT CURRENT_USER()": "anna@%"})
	mustExecAll(t, anna, "SET PASSWORD = 'a2'")
	mustExecAll(t, db, "SET PASSWORD FOR 'bob'@'%' = 'b2'")
	wantAnswers(t, connectAs(t, addr, "anna:a2", "ru"), "anna's new password", map[string]string{"SELECT CURRENT_USER()": "anna@%"})
	wantAnswers(t, connectAs(t, addr, "bob:b2", ""), "bob's new password", map[string]string{"SELECT CURRENT_USER()": "bob@%"})
}
