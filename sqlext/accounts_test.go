package sqlext_test

import (
	"testing"
)

// TestAccountLocking: CREATE USER ... ACCOUNT LOCK makes an account no
// one can log in as (the engine made it unlocked); ALTER USER locks and
// unlocks one or several accounts, with a new password or without (the
// parser refused it); mysql.user shows the lock; the password clauses
// this server does not enforce are refused with 1235 and change nothing;
// SHOW CREATE USER gives a statement that makes the account again with
// its password and lock.
func TestAccountLocking(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db,
		"CREATE USER 'ann'@'%' IDENTIFIED BY 'a1' ACCOUNT LOCK",
		"CREATE USER 'bob'@'%' IDENTIFIED BY 'b1' PASSWORD EXPIRE NEVER ACCOUNT UNLOCK PASSWORD HISTORY DEFAULT")
	login := func(account string) error {
		t.Helper()
		return connectAs(t, addr, account, "").Ping()
	}
	wantMySQLError(t, login("ann:a1"), 1045, "28000")
	if err := login("bob:b1"); err != nil {
		t.Fatalf("bob: %v", err)
	}
	wantAnswers(t, db, "the lock in mysql.user", map[string]string{
		"SELECT GROUP_CONCAT(User, account_locked ORDER BY User) FROM mysql.user WHERE User IN ('ann', 'bob')": "annY,bobN"})

	mustExecAll(t, db, "ALTER USER 'ann'@'%', bob ACCOUNT UNLOCK", "ALTER USER bob IDENTIFIED BY 'b2' ACCOUNT LOCK")
	if err := login("ann:a1"); err != nil {
		t.Fatalf("ann after ALTER USER ... ACCOUNT UNLOCK: %v", err)
	}
	wantMySQLError(t, login("bob:b2"), 1045, "28000")
	mustExecAll(t, db, "ALTER USER bob ACCOUNT UNLOCK PASSWORD HISTORY DEFAULT PASSWORD REUSE INTERVAL 0 DAY FAILED_LOGIN_ATTEMPTS 0 PASSWORD_LOCK_TIME UNBOUNDED")
	wantMySQLError(t, login("bob:b1"), 1045, "28000")
	if err := login("bob:b2"); err != nil {
		t.Fatalf("bob's new password: %v", err)
	}

	_, err := db.Exec("ALTER USER ann, 'nobody'@'%' ACCOUNT LOCK")
	wantMySQLMessage(t, "an account that is not there", err, 1396, "HY000", "Operation ALTER USER failed for 'nobody'@'%'")
	if err := login("ann:a1"); err != nil {
		t.Fatalf("ann locked by a statement that failed: %v", err)
	}
	for q, clause := range map[string]string{
		"CREATE USER cat PASSWORD EXPIRE":                              "PASSWORD EXPIRE",
		"CREATE USER cat FAILED_LOGIN_ATTEMPTS 3 PASSWORD_LOCK_TIME 2": "FAILED_LOGIN_ATTEMPTS",
		"CREATE USER cat PASSWORD HISTORY 5":                           "PASSWORD HISTORY",
		"ALTER USER ann ACCOUNT LOCK PASSWORD EXPIRE INTERVAL 90 DAY":  "PASSWORD EXPIRE INTERVAL",
		"ALTER USER ann PASSWORD REUSE INTERVAL 30 DAY":                "PASSWORD REUSE INTERVAL",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1235, "42000", "This version of MySQL doesn't yet support '"+clause+"'")
	}
	wantAnswers(t, db, "nothing made or locked by a refused clause", map[string]string{
		"SELECT COUNT(*) FROM mysql.user WHERE User = 'cat'":       "0",
		"SELECT account_locked FROM mysql.user WHERE User = 'ann'": "N"})

	mustExecAll(t, db, "ALTER USER ann ACCOUNT LOCK")
	var column, statement string
	if err := db.QueryRow("SHOW CREATE USER 'ann'@'%'").Scan(&statement); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SHOW CREATE USER ann")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if column = cols[0]; column != "CREATE USER for ann@%" {
		t.Errorf("SHOW CREATE USER's column is %q", column)
	}
	mustExecAll(t, db, "DROP USER ann", statement)
	wantMySQLError(t, login("ann:a1"), 1045, "28000")
	mustExecAll(t, db, "ALTER USER ann ACCOUNT UNLOCK")
	if err := login("ann:a1"); err != nil {
		t.Fatalf("ann made again from %q: %v", statement, err)
	}
	_, err = db.Exec("SHOW CREATE USER nobody")
	wantMySQLMessage(t, "SHOW CREATE USER of no account", err, 1396, "HY000", "Operation SHOW CREATE USER failed for 'nobody'@'%'")

	// Locking needs CREATE USER; another account's statement needs SELECT
	// on mysql; one's own does not.
	bob := connectAs(t, addr, "bob:b2", "")
	_, err = bob.Exec("ALTER USER ann ACCOUNT LOCK")
	wantMySQLError(t, err, 1227, "42000")
	_, err = bob.Exec("SHOW CREATE USER ann")
	wantMySQLError(t, err, 1044, "42000")
	if err := bob.QueryRow("SHOW CREATE USER bob").Scan(&statement); err != nil {
		t.Fatalf("bob's own statement: %v", err)
	}
}

// TestAccountLockSurvivesRestart: a lock is part of the account as the
// data dir keeps it.
func TestAccountLockSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db, "CREATE USER ann IDENTIFIED BY 'a1'", "ALTER USER ann ACCOUNT LOCK")
	db.Close()
	srv.Close()
	srv, addr := startServer(t, dir)
	defer srv.Close()
	wantMySQLError(t, connectAs(t, addr, "ann:a1", "").Ping(), 1045, "28000")
}
