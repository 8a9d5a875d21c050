package sqlext_test

import (
	"testing"
)

// TestProcedureVariablesEverywhere: a stored procedure's parameters and
// local variables are read wherever its statements name them, as in
// MySQL: in UPDATE ... SET, CASE, BETWEEN, IS NULL, a unary minus, GROUP
// BY and ORDER BY as well as WHERE; the engine bound them only in some
// places and answered the rest with 1054. A procedure whose last
// statement is COMMIT or START TRANSACTION answers OK (the engine failed
// it with "EOF" after its work was done), a parameter named like one of
// another type an earlier CALL had is read as its own type, and a CALL of
// a procedure that is not there is MySQL's 1305, or 1046 when it is named
// without a database and there is no current one (the engine failed on
// the missing database). The rows are MariaDB 10.11's.
func TestProcedureVariablesEverywhere(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE pv", "USE pv",
		"CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)",
		"INSERT INTO acct VALUES (1, 100), (2, 50)",
		"CREATE PROCEDURE pay(IN a INT, IN b INT, IN amt INT) BEGIN START TRANSACTION; UPDATE acct SET bal = bal - amt WHERE id = a; UPDATE acct SET bal = bal + amt WHERE id = b; COMMIT; END",
		"CREATE PROCEDURE scaled(IN f INT) BEGIN DECLARE k INT DEFAULT 2; UPDATE acct SET bal = bal * k + f ORDER BY id; END",
		"CREATE PROCEDURE kinds(IN a INT) SELECT id, CASE WHEN bal > a THEN 'over' ELSE 'under' END AS k, -a AS neg FROM acct WHERE id BETWEEN a AND a + 1 AND a IS NOT NULL ORDER BY id",
		"CREATE PROCEDURE opened() BEGIN START TRANSACTION; END",
		"CALL pay(1, 2, 10)",
		"CALL scaled(1)",
		"CALL opened()",
		"COMMIT")
	wantAnswers(t, db, "procedures", map[string]string{
		"SELECT id, bal FROM acct ORDER BY id": "1,181;2,121",
		"CALL kinds(1)":                        "1,over,-1;2,over,-1",
	})
	// A parameter named like an earlier CALL's, of another type.
	mustExecAll(t, db, "CREATE PROCEDURE named(IN a VARCHAR(10)) SELECT CONCAT(a, '!') AS x")
	wantAnswers(t, db, "same name", map[string]string{"CALL named('q')": "q!"})
	// RESIGNAL raises the handled error again, with the text it sets.
	mustExecAll(t, db, "CREATE PROCEDURE again() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION RESIGNAL SET MESSAGE_TEXT = 'no such account'; INSERT INTO acct VALUES (1, 1); END")
	_, err := db.Exec("CALL again()")
	wantMySQLMessage(t, "resignal", err, 1062, "23000", "no such account")
	// The usual guard: roll back and raise the error again. The error
	// reaches the client as raised, and nothing is written.
	mustExecAll(t, db, `CREATE PROCEDURE transfer(IN a INT, IN b INT, IN amt INT) BEGIN
		DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
		START TRANSACTION;
		UPDATE acct SET bal = bal - amt WHERE id = a;
		IF (SELECT bal FROM acct WHERE id = a) < 0 THEN
			SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'insufficient funds';
		END IF;
		UPDATE acct SET bal = bal + amt WHERE id = b;
		COMMIT;
	END`)
	_, err = db.Exec("CALL transfer(2, 1, 1000)")
	wantMySQLMessage(t, "transfer", err, 1644, "45000", "insufficient funds")
	mustExecAll(t, db, "CALL transfer(1, 2, 1)")
	wantAnswers(t, db, "transfer", map[string]string{"SELECT GROUP_CONCAT(bal ORDER BY id) FROM acct": "180,122"})
	// A handler of one statement that gives rows no longer makes the CALL
	// run for ever.
	mustExecAll(t, db, "CREATE PROCEDURE guarded() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION SELECT 'failed'; INSERT INTO acct VALUES (1, 1); END",
		"CALL guarded()")
	_, err = db.Exec("CALL nosuch()")
	wantMySQLMessage(t, "missing", err, 1305, "42000", "PROCEDURE pv.nosuch does not exist")
	_, err = db.Exec("CALL sys.nosuch()")
	wantMySQLMessage(t, "missing in sys", err, 1305, "42000", "PROCEDURE sys.nosuch does not exist")
	_, err = connect(t, addr, "").Exec("CALL pay(1, 2, 3)")
	wantMySQLMessage(t, "no current database", err, 1046, "3D000", "No database selected")
}
