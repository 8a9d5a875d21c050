package sqlext_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// routineSetup creates the tables and procedures the routine tests call.
// Every answer the tests want is MariaDB 10.11's for the same statements,
// but for key names, which MySQL 8 qualifies with the table ('t.PRIMARY').
func routineSetup(t *testing.T) *sql.DB {
	t.Helper()
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE rt", "USE rt",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE log (n INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(200))",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	return db
}

// definer is the account db's connection runs as, as a DEFINER clause
// names it (`user`@`host`).
func definer(t *testing.T, db *sql.DB) string {
	t.Helper()
	var who string
	if err := db.QueryRow("SELECT CURRENT_USER()").Scan(&who); err != nil {
		t.Fatal(err)
	}
	user, host, _ := strings.Cut(who, "@")
	return "`" + user + "`@`" + host + "`"
}

// TestHandlersTakeTheirConditions: a handler's BEGIN ... END runs whole
// (the engine ran only its first step, so its statements were skipped);
// handlers FOR an error code, an SQLSTATE and a declared condition take
// their errors, the most specific first; an error inside a handler goes
// to the handlers of the blocks around the one that declared it; a
// cursor loop whose NOT FOUND handler is declared after an SQLEXCEPTION
// one ends (the engine answered "exhausted fetch iterator").
func TestHandlersTakeTheirConditions(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		`CREATE PROCEDURE prec() BEGIN
			DECLARE dup CONDITION FOR 1062;
			DECLARE CONTINUE HANDLER FOR SQLEXCEPTION INSERT INTO log (msg) VALUES ('any');
			DECLARE CONTINUE HANDLER FOR dup INSERT INTO log (msg) VALUES ('1062');
			DECLARE CONTINUE HANDLER FOR SQLSTATE '42S02' INSERT INTO log (msg) VALUES ('42S02');
			INSERT INTO t VALUES (1, 1);
			INSERT INTO nosuch VALUES (1);
			SIGNAL SQLSTATE '45001';
		END`,
		`CREATE PROCEDURE nested() BEGIN
			DECLARE EXIT HANDLER FOR SQLEXCEPTION INSERT INTO log (msg) VALUES ('outer');
			BEGIN
				DECLARE EXIT HANDLER FOR 1062 BEGIN INSERT INTO log (msg) VALUES ('inner'); INSERT INTO t VALUES (2, 2); END;
				INSERT INTO t VALUES (1, 1);
				INSERT INTO log (msg) VALUES ('not reached');
			END;
			INSERT INTO log (msg) VALUES ('not reached either');
		END`,
		`CREATE PROCEDURE counted() BEGIN
			DECLARE k INT DEFAULT 0;
			DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN SET k = k + 1; INSERT INTO log (msg) VALUES (CONCAT('try ', k)); END;
			INSERT INTO t VALUES (1, 1);
			INSERT INTO t VALUES (2, 1);
			INSERT INTO log (msg) VALUES (CONCAT('k=', k));
		END`,
		`CREATE PROCEDURE summed(OUT total INT) BEGIN
			DECLARE done INT DEFAULT 0;
			DECLARE x INT;
			DECLARE c CURSOR FOR SELECT v FROM t ORDER BY id;
			DECLARE EXIT HANDLER FOR SQLEXCEPTION SET total = -1;
			DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
			SET total = 0;
			OPEN c;
			l: LOOP
				FETCH c INTO x;
				IF done THEN LEAVE l; END IF;
				SET total = total + x;
			END LOOP;
			CLOSE c;
		END`)
	for _, call := range []struct{ call, log string }{
		{"CALL prec()", "1062;42S02;any"},
		{"CALL nested()", "inner;outer"},
		{"CALL counted()", "try 1;try 2;k=2"},
	} {
		mustExecAll(t, db, call.call)
		wantAnswers(t, db, call.call, map[string]string{"SELECT msg FROM log ORDER BY n": call.log})
		mustExecAll(t, db, "DELETE FROM log")
	}
	mustExecAll(t, db, "CALL summed(@total)")
	wantAnswers(t, db, "cursor", map[string]string{"SELECT @total": "60"})
}

// TestProcedureDiagnostics: GET DIAGNOSTICS reads the handled error's
// SQLSTATE, number and text, the count of conditions and a statement's
// changed rows (the parser refused GET DIAGNOSTICS), and GET STACKED
// DIAGNOSTICS the handled error after a statement of the handler (MySQL
// 8's; MariaDB has no STACKED); RESIGNAL raises the
// handled error again, with the SQLSTATE and text it sets; SIGNAL of a
// warning class goes to an SQLWARNING handler and the procedure goes on.
func TestProcedureDiagnostics(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		`CREATE PROCEDURE diag(OUT st VARCHAR(5), OUT no INT, OUT txt VARCHAR(200), OUT cnt INT) BEGIN
			DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN
				GET DIAGNOSTICS cnt = NUMBER;
				GET DIAGNOSTICS CONDITION 1 st = RETURNED_SQLSTATE, no = MYSQL_ERRNO, txt = MESSAGE_TEXT;
			END;
			UPDATE t SET v = v + 1 WHERE id < 3;
			INSERT INTO t VALUES (3, 3);
		END`,
		`CREATE PROCEDURE changed(OUT n INT) BEGIN
			UPDATE t SET v = v + 1 WHERE id < 3;
			GET DIAGNOSTICS n = ROW_COUNT;
		END`,
		`CREATE PROCEDURE stacked(OUT m VARCHAR(200)) BEGIN
			DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN
				SELECT 1 INTO @ignored;
				GET STACKED DIAGNOSTICS CONDITION 1 m = MESSAGE_TEXT;
			END;
			SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'out of stock';
		END`,
		"CREATE PROCEDURE rs() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION RESIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x2'; INSERT INTO t VALUES (1, 1); END",
		"CREATE PROCEDURE rsno() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION RESIGNAL SET MYSQL_ERRNO = 5; INSERT INTO t VALUES (1, 1); END",
		`CREATE PROCEDURE warnsig(OUT r VARCHAR(20)) BEGIN
			DECLARE CONTINUE HANDLER FOR SQLWARNING SET r = 'warned';
			SET r = 'start';
			SIGNAL SQLSTATE '01234' SET MESSAGE_TEXT = 'just a warning';
			SET r = CONCAT(r, '+after');
		END`,
		"CALL diag(@st, @no, @txt, @cnt)",
		"CALL changed(@n)",
		"CALL stacked(@m)",
		"CALL warnsig(@r)")
	wantAnswers(t, db, "diagnostics", map[string]string{
		"SELECT @st, @no, @txt, @cnt":               "23000,1062,Duplicate entry '3' for key 't.PRIMARY',1",
		"SELECT GROUP_CONCAT(v ORDER BY id) FROM t": "12,22,30",
		"SELECT @n": "2",
		"SELECT @m": "out of stock",
		"SELECT @r": "warned+after",
	})
	_, err := db.Exec("CALL rs()")
	wantMySQLMessage(t, "resignal sqlstate", err, 1644, "45000", "x2")
	_, err = db.Exec("CALL rsno()")
	wantMySQLMessage(t, "resignal errno", err, 5, "23000", "Duplicate entry '1' for key 't.PRIMARY'")
}

// TestProcedureStatementsRunInTheCallersTransaction: a CALL inside a
// transaction writes in it, so ROLLBACK undoes and COMMIT keeps what it
// wrote, and the procedure reads the transaction's own rows; the engine
// ran the procedure in a transaction of its own that was then dropped, so
// a COMMIT kept nothing.
func TestProcedureStatementsRunInTheCallersTransaction(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db, "CREATE PROCEDURE ins(IN x INT) INSERT INTO t VALUES (x, x)",
		"START TRANSACTION", "CALL ins(4)", "ROLLBACK",
		"START TRANSACTION", "CALL ins(5)", "COMMIT",
		"SET autocommit = 0", "CALL ins(6)", "ROLLBACK", "SET autocommit = 1",
		"START TRANSACTION", "INSERT INTO t VALUES (7, 7)")
	_, err := db.Exec("CALL ins(7)")
	wantMySQLMessage(t, "own row", err, 1062, "23000", "Duplicate entry '7' for key 't.PRIMARY'")
	mustExecAll(t, db, "ROLLBACK")
	wantAnswers(t, db, "transactions", map[string]string{"SELECT GROUP_CONCAT(id ORDER BY id) FROM t": "1,2,3,5"})
}

// TestProcedureControlFlow: loops with LEAVE and ITERATE, CASE, SELECT
// ... INTO (no row: the NOT FOUND handler; more than one: 1172), nested
// CALLs with INOUT parameters bound to local variables, recursion up to
// max_sp_recursion_depth (1456 past it), local variables of their
// declared types, and MySQL's errors for a CASE with no branch taken
// (1339) and an OUT argument that is no variable (1414).
func TestProcedureControlFlow(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		`CREATE PROCEDURE loops(OUT s VARCHAR(100)) BEGIN
			DECLARE i INT DEFAULT 0;
			SET s = '';
			l: WHILE i < 10 DO
				SET i = i + 1;
				IF i % 2 = 0 THEN ITERATE l; END IF;
				IF i > 7 THEN LEAVE l; END IF;
				SET s = CONCAT(s, i, ',');
			END WHILE l;
			REPEAT SET i = i - 3; SET s = CONCAT(s, 'r', i); UNTIL i < 0 END REPEAT;
			CASE WHEN i < -5 THEN SET s = CONCAT(s, 'neg'); WHEN i < 0 THEN SET s = CONCAT(s, 'small'); END CASE;
		END`,
		"CREATE PROCEDURE nocase(IN x INT) BEGIN CASE x WHEN 1 THEN SELECT 'one'; END CASE; END",
		`CREATE PROCEDURE intos(IN k INT, OUT r VARCHAR(20)) BEGIN
			DECLARE v2 INT DEFAULT -1;
			DECLARE CONTINUE HANDLER FOR NOT FOUND SET r = 'none';
			SET r = 'some';
			SELECT v INTO v2 FROM t WHERE id = k;
			SET r = CONCAT(r, ':', v2);
		END`,
		"CREATE PROCEDURE many() BEGIN DECLARE x INT; SELECT v INTO x FROM t; END",
		"CREATE PROCEDURE addone(INOUT x INT) SET x = x + 1",
		"CREATE PROCEDURE caller(OUT y INT) BEGIN DECLARE z INT DEFAULT 40; CALL addone(z); CALL addone(z); SET y = z; END",
		"CREATE PROCEDURE selfcall(IN n INT) BEGIN IF n > 0 THEN CALL selfcall(n - 1); END IF; INSERT INTO log (msg) VALUES (n); END",
		`CREATE PROCEDURE typed(OUT a INT, OUT b DECIMAL(5,2), OUT c VARCHAR(3)) BEGIN
			DECLARE d DATE DEFAULT '2024-02-28';
			SET a = 2.6, b = 1.005, c = 'ab';
			SET d = d + INTERVAL 1 DAY;
			INSERT INTO log (msg) VALUES (CONCAT('d=', d));
		END`,
		"CREATE PROCEDURE report(IN k INT) BEGIN SELECT 'ignored' AS a; SELECT id, v FROM t WHERE id = k; END",
		"CALL loops(@s)", "CALL intos(2, @r1)", "CALL intos(9, @r2)", "CALL caller(@y)", "CALL typed(@a, @b, @c)",
		"SET max_sp_recursion_depth = 2", "CALL selfcall(2)", "SET max_sp_recursion_depth = 0")
	wantAnswers(t, db, "flow", map[string]string{
		"SELECT @s":         "1,3,5,7,r6r3r0r-3small",
		"SELECT @r1, @r2":   "some:20,none:-1",
		"SELECT @y":         "42",
		"SELECT @a, @b, @c": "3,1.01,ab",
		"SELECT GROUP_CONCAT(msg ORDER BY n) FROM log": "d=2024-02-29,0,1,2",
	})
	// A CALL prepared on the server answers with its last result set (the
	// wire layer writes one for COM_STMT_EXECUTE).
	var id, v int
	if err := db.QueryRow("CALL report(?)", 3).Scan(&id, &v); err != nil || id != 3 || v != 30 {
		t.Errorf("prepared CALL: %d, %d, %v", id, v, err)
	}
	for _, c := range []struct {
		call  string
		code  uint16
		state string
		msg   string
	}{
		{"CALL nocase(2)", 1339, "20000", "Case not found for CASE statement"},
		{"CALL many()", 1172, "42000", "Result consisted of more than one row"},
		{"CALL selfcall(1)", 1456, "HY000", "Recursive limit 0 (as set by the max_sp_recursion_depth variable) was exceeded for routine selfcall"},
		{"CALL addone(5)", 1414, "42000", "OUT or INOUT argument 1 for routine rt.addone is not a variable or NEW pseudo-variable in BEFORE trigger"},
	} {
		_, err := db.Exec(c.call)
		wantMySQLMessage(t, c.call, err, c.code, c.state, c.msg)
	}
}

// TestProcedureBodiesCheckedWhenCreated: a body MySQL refuses is refused
// by CREATE PROCEDURE with MySQL's error, and nothing is created; the
// text of one that is created is kept as written.
func TestProcedureBodiesCheckedWhenCreated(t *testing.T) {
	db := routineSetup(t)
	for _, c := range []struct {
		body string
		code uint16
		msg  string
	}{
		{"BEGIN LEAVE nowhere; END", 1308, "LEAVE with no matching label: nowhere"},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; DECLARE a INT; END", 1337, "Variable or condition declaration after cursor or handler declaration"},
		{"BEGIN DECLARE CONTINUE HANDLER FOR nope SET @a = 1; END", 1319, "Undefined CONDITION: nope"},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; FETCH c INTO nope; END", 1327, "Undeclared variable: nope"},
		{"BEGIN DECLARE a INT; DECLARE a INT; END", 1331, "Duplicate variable: a"},
		{"BEGIN SELECT 1 END", 1064, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"},
		{"BEGIN SELECT v INTO nope FROM t; END", 1327, "Undeclared variable: nope"},
		{"BEGIN SET nope = 1; END", 1193, "Unknown system variable 'nope'"},
		{"BEGIN INSERT INTO t VALUE (; END", 1064, "syntax error at position 22 near 'VALUE'"},
		{"BEGIN IF 1 + THEN SELECT 1; END IF; END", 1064, "syntax error at position 11 near '1'"},
	} {
		_, err := db.Exec("CREATE PROCEDURE bad() " + c.body)
		state := "42000"
		if c.code == 1193 {
			state = "HY000"
		}
		wantMySQLMessage(t, c.body, err, c.code, state, c.msg)
	}
	// A table the body names need not exist yet; statements of the
	// session's kinds are read as the server reads them.
	mustExecAll(t, db, "CREATE PROCEDURE later() BEGIN DECLARE x INT; SET x = 1, @y = 2, autocommit = 1; SELECT v INTO x FROM t LIMIT 1; INSERT INTO missing VALUES (x); END")
	body := "BEGIN\n  DECLARE EXIT HANDLER FOR 1062 BEGIN GET DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT; END;\n  INSERT INTO t VALUES (1, 1);\nEND"
	mustExecAll(t, db, "CREATE PROCEDURE kept() "+body)
	wantAnswers(t, db, "kept", map[string]string{
		"SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'rt' AND ROUTINE_NAME = 'bad'": "0",
		"SELECT ROUTINE_DEFINITION FROM information_schema.ROUTINES WHERE ROUTINE_NAME = 'kept'":                body,
	})
	var name, mode, text string
	if err := db.QueryRow("SHOW CREATE PROCEDURE kept").Scan(&name, &mode, &text, new(any), new(any), new(any)); err != nil {
		t.Fatal(err)
	}
	// The text as written, with the creating account as its definer and
	// the name quoted, as MySQL shows it.
	if want := "CREATE DEFINER=" + definer(t, db) + " PROCEDURE `kept`() " + body; text != want {
		t.Errorf("SHOW CREATE PROCEDURE: %q, want %q", text, want)
	}
}

// TestKillQueryStopsAProcedure: KILL QUERY ends a CALL that would loop
// for ever, with 1317, and the connection goes on.
func TestKillQueryStopsAProcedure(t *testing.T) {
	db := routineSetup(t)
	db.SetMaxOpenConns(2)
	mustExecAll(t, db, "CREATE PROCEDURE spin() BEGIN DECLARE i INT DEFAULT 0; WHILE TRUE DO SET i = i + 1; END WHILE; END")
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var id int64
	if err := conn.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(context.Background(), "CALL rt.spin()")
		done <- err
	}()
	for running := 0; running != 1; {
		if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'CALL rt.spin%'").Scan(&running); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			t.Fatalf("the CALL ended before it was killed: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := db.Exec(fmt.Sprintf("KILL QUERY %d", id)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1317 {
			t.Fatalf("CALL ended with %v, want 1317", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the CALL went on after KILL QUERY")
	}
	var one int
	if err := conn.QueryRowContext(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("connection after KILL QUERY: %v", err)
	}
}

// TestStoredFunctions: CREATE FUNCTION (which the parser refused) makes a
// function that queries call by name or qualified with its database; its
// body runs in the procedure interpreter inside the calling statement, so
// its writes are part of that statement's transaction; SHOW CREATE
// FUNCTION and DROP FUNCTION [IF EXISTS] work; and MySQL's errors come
// for a body that answers rows (1415) or commits (1422), one without
// RETURN (1320, and 1321 for a run that ends without one), recursion
// (1424), a call with the wrong number of arguments (1318) and a function
// that is not there (1305). The answers are MariaDB 10.11's.
func TestStoredFunctions(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		"CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2",
		`CREATE FUNCTION digits(x INT) RETURNS VARCHAR(20) DETERMINISTIC BEGIN
			DECLARE s VARCHAR(20) DEFAULT '';
			DECLARE i INT DEFAULT 0;
			WHILE i < x DO SET s = CONCAT(s, i); SET i = i + 1; END WHILE;
			IF x > 3 THEN RETURN 'big'; END IF;
			RETURN s;
		END`,
		`CREATE FUNCTION valueof(k INT) RETURNS INT READS SQL DATA BEGIN
			DECLARE r INT DEFAULT -1;
			DECLARE CONTINUE HANDLER FOR NOT FOUND SET r = -2;
			SELECT v INTO r FROM t WHERE id = k;
			RETURN r;
		END`,
		"CREATE FUNCTION logged(m VARCHAR(10)) RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO log (msg) VALUES (m); RETURN LENGTH(m); END",
		"CREATE FUNCTION noret(n INT) RETURNS INT BEGIN IF n > 0 THEN RETURN 1; END IF; END",
		"CREATE FUNCTION rec(n INT) RETURNS INT RETURN IF(n <= 0, 0, rec(n - 1))",
		"CREATE FUNCTION IF NOT EXISTS twice(x INT) RETURNS INT RETURN 0",
		"START TRANSACTION", "SELECT logged('gone')", "ROLLBACK",
		"SELECT logged('kept')")
	wantAnswers(t, db, "functions", map[string]string{
		"SELECT twice(21), digits(3), digits(5), valueof(2), valueof(9)": "42,012,big,20,-2",
		"SELECT id, twice(v) FROM t WHERE valueof(id) > 10 ORDER BY id":  "2,40;3,60",
		"SELECT rt.twice(4)":                "8",
		"SELECT GROUP_CONCAT(msg) FROM log": "kept",
		"SELECT noret(1)":                   "1",
	})
	// information_schema.ROUTINES, which SHOW FUNCTION STATUS and
	// mariadb-dump --routines read, lists the functions.
	wantAnswers(t, db, "listed", map[string]string{
		"SELECT GROUP_CONCAT(CONCAT_WS(' ', ROUTINE_NAME, DATA_TYPE, IS_DETERMINISTIC, SQL_DATA_ACCESS) ORDER BY ROUTINE_NAME) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'rt' AND ROUTINE_TYPE = 'FUNCTION'": "digits varchar YES CONTAINS SQL,logged int NO MODIFIES SQL DATA,noret int NO CONTAINS SQL,rec int NO CONTAINS SQL,twice int YES CONTAINS SQL,valueof int NO READS SQL DATA",
	})
	status, err := db.Query("SHOW FUNCTION STATUS WHERE Db = 'rt'")
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for status.Next() {
		listed++
	}
	if status.Close(); listed != 6 {
		t.Errorf("SHOW FUNCTION STATUS: %d rows, want 6", listed)
	}
	var name, mode, text string
	if err := db.QueryRow("SHOW CREATE FUNCTION twice").Scan(&name, &mode, &text, new(any), new(any), new(any)); err != nil {
		t.Fatal(err)
	}
	if text != "CREATE DEFINER="+definer(t, db)+" FUNCTION `twice`(x INT) RETURNS INT DETERMINISTIC RETURN x * 2" {
		t.Errorf("SHOW CREATE FUNCTION: %q", text)
	}
	for _, c := range []struct {
		stmt  string
		code  uint16
		state string
		msg   string
	}{
		{"CREATE FUNCTION rows() RETURNS INT BEGIN SELECT 1; RETURN 1; END", 1415, "0A000", "Not allowed to return a result set from a function"},
		{"CREATE FUNCTION commits() RETURNS INT BEGIN COMMIT; RETURN 1; END", 1422, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger."},
		{"CREATE FUNCTION none() RETURNS INT BEGIN SET @a = 1; END", 1320, "42000", "No RETURN found in FUNCTION rt.none"},
		{"CREATE FUNCTION twice(x INT) RETURNS INT RETURN 0", 1304, "42000", "FUNCTION twice already exists"},
		{"SELECT noret(0)", 1321, "2F005", "FUNCTION noret ended without RETURN"},
		{"SELECT rec(3)", 1424, "HY000", "Recursive stored functions and triggers are not allowed."},
		{"SELECT twice(1, 2)", 1318, "42000", "Incorrect number of arguments for FUNCTION rt.twice; expected 1, got 2"},
		{"SELECT nosuch(1)", 1305, "42000", "FUNCTION rt.nosuch does not exist"},
		{"DROP FUNCTION nosuch", 1305, "42000", "FUNCTION rt.nosuch does not exist"},
	} {
		_, err := db.Exec(c.stmt)
		wantMySQLMessage(t, c.stmt, err, c.code, c.state, c.msg)
	}
	mustExecAll(t, db, "DROP FUNCTION twice", "DROP FUNCTION IF EXISTS twice")
	_, err = db.Exec("SELECT twice(1)")
	wantMySQLMessage(t, "dropped", err, 1305, "42000", "FUNCTION rt.twice does not exist")
}

// TestProcedureConditionsAsMariaDB: what bench/procdiff.sh found apart
// from MariaDB, each now answered as MariaDB 10.11 (and MySQL) answers:
// DECIMAL and DATE variables read in a statement as their own types (a
// DECIMAL was a DOUBLE: ROUND(2.50) was 2), ROW_COUNT() after SELECT ...
// INTO, a RESIGNAL of a new SQLSTATE that adds its condition to the
// handled one, a RESIGNAL of a NOT FOUND warning that stays a warning,
// SELECT ... INTO of several rows that sets the first before failing, a
// failed assignment that leaves NULL, and a CONTINUE handler that goes on
// with a SET's next assignment.
func TestProcedureConditionsAsMariaDB(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		`CREATE PROCEDURE typed(IN p DECIMAL(6,2), OUT r VARCHAR(100)) BEGIN
			DECLARE v DECIMAL(6,2) DEFAULT 2.50;
			DECLARE d DATE DEFAULT '2024-02-28';
			SET r = CONCAT_WS(',', ROUND(v), ROUND(-v), ROUND(p), v * 2, d + INTERVAL 1 DAY, DATEDIFF(d, '2024-01-01'));
		END`,
		`CREATE PROCEDURE counted(OUT a INT, OUT b INT) BEGIN
			DECLARE x INT;
			SELECT v INTO x FROM t WHERE id = 1; SET a = ROW_COUNT();
			SELECT v INTO x FROM t WHERE id = 9; SET b = ROW_COUNT();
		END`,
		`CREATE PROCEDURE pushed(OUT n INT, OUT c1 INT, OUT c2 INT) BEGIN
			DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN
				GET DIAGNOSTICS n = NUMBER;
				GET DIAGNOSTICS CONDITION 1 c1 = MYSQL_ERRNO;
				GET DIAGNOSTICS CONDITION 2 c2 = MYSQL_ERRNO;
			END;
			BEGIN
				DECLARE CONTINUE HANDLER FOR 1146 RESIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'changed', MYSQL_ERRNO = 5200;
				INSERT INTO nosuch VALUES (1);
			END;
		END`,
		`CREATE PROCEDURE quiet(OUT r VARCHAR(20)) BEGIN
			DECLARE v INT;
			DECLARE EXIT HANDLER FOR NOT FOUND RESIGNAL;
			SET r = 'before';
			SELECT id INTO v FROM t WHERE id = 0;
			SET r = 'not reached';
		END`,
		`CREATE PROCEDURE firstrow(OUT o INT) BEGIN
			DECLARE CONTINUE HANDLER FOR 1172 BEGIN END;
			SELECT id INTO o FROM t WHERE v > 10 ORDER BY id;
		END`,
		`CREATE PROCEDURE assigns(OUT a VARCHAR(3), OUT b INT) BEGIN
			DECLARE v VARCHAR(3) DEFAULT 'abc';
			DECLARE w INT DEFAULT 1;
			DECLARE CONTINUE HANDLER FOR 1406 BEGIN END;
			SET v = 'too long', w = 2;
			SET a = v, b = w;
		END`,
		"CALL typed(2.50, @typed)", "CALL counted(@a, @b)", "CALL pushed(@n, @c1, @c2)",
		"CALL quiet(@quiet)", "CALL firstrow(@first)", "CALL assigns(@va, @vb)")
	wantAnswers(t, db, "as MariaDB", map[string]string{
		"SELECT @typed":           "3,-3,3,5.00,2024-02-29,58",
		"SELECT @a, @b":           "1,0",
		"SELECT @n, @c1, @c2":     "2,1146,5200",
		"SELECT @quiet":           "before",
		"SELECT @first":           "2",
		"SELECT @va IS NULL, @vb": "1,2",
	})
}

// TestUserVariablesTakeTheirValuesType: a user variable takes the type of
// each value given it, as in MySQL: the server kept the first value's
// type and refused a later value of another (SET @x = 1; SET @x = ”
// was 1366); and a DECIMAL keeps its digits (SET @d = 1.50 read back as
// 1.5 in text).
func TestUserVariablesTakeTheirValuesType(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "SET @x = 1", "SET @x = ''", "SET @y = ROUND(0.00) + 1", "SET @y = -22", "SET @d = 1.50")
	wantAnswers(t, db, "user variables", map[string]string{
		"SELECT @x = '', @y, CONCAT('d=', @d), @d": "1,-22,d=1.50,1.50",
	})
}

// TestTriggerCallsProcedure: a procedure a trigger calls writes as part of
// the statement that fired the trigger: a statement that fails keeps none
// of its rows or the procedure's, and a ROLLBACK undoes both; a COMMIT in
// such a procedure is MySQL's 1422. The procedure's statements committed
// the firing statement's transaction as they went, so a failed INSERT left
// rows behind, and an earlier one lost its own. The rows are MariaDB's.
func TestTriggerCallsProcedure(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		"CREATE TABLE audit (n INT AUTO_INCREMENT PRIMARY KEY, id INT, note VARCHAR(20))",
		"CREATE PROCEDURE note_it(IN i INT, IN w VARCHAR(20)) BEGIN INSERT INTO audit (id, note) VALUES (i, w); END",
		"CREATE TRIGGER t_ai AFTER INSERT ON t FOR EACH ROW CALL note_it(NEW.id, 'ins')",
		"INSERT INTO t VALUES (4, 40), (5, 50)")
	_, err := db.Exec("INSERT INTO t VALUES (6, 60), (1, 11)")
	wantMySQLMessage(t, "failed insert", err, 1062, "23000", "Duplicate entry '1' for key 't.PRIMARY'")
	mustExecAll(t, db, "START TRANSACTION", "INSERT INTO t VALUES (7, 70)", "ROLLBACK")
	wantAnswers(t, db, "trigger's procedure", map[string]string{
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM t":    "1,2,3,4,5",
		"SELECT GROUP_CONCAT(id ORDER BY n) FROM audit": "4,5",
	})
	mustExecAll(t, db,
		"CREATE PROCEDURE committing(IN i INT) BEGIN INSERT INTO audit (id, note) VALUES (i, 'c'); COMMIT; END",
		"CREATE TRIGGER t_bu BEFORE UPDATE ON t FOR EACH ROW CALL committing(OLD.id)")
	_, err = db.Exec("UPDATE t SET v = v + 1 WHERE id = 1")
	wantMySQLMessage(t, "commit in trigger", err, 1422, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger.")
	wantAnswers(t, db, "after 1422", map[string]string{
		"SELECT v FROM t WHERE id = 1":                "10",
		"SELECT COUNT(*) FROM audit WHERE note = 'c'": "0",
	})
}

// TestProcedureDynamicSQLAndDDL: what ETL procedures do, answered as
// MariaDB answers: dynamic SQL through PREPARE and EXECUTE ... USING,
// CREATE TABLE ... AS SELECT and CREATE VIEW with a parameter in the
// query (the parameter was left unbound in CREATE TABLE ... AS SELECT:
// 1054), and a temporary table made, filled, read and dropped.
func TestProcedureDynamicSQLAndDDL(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db,
		`CREATE PROCEDURE dyn(IN tbl VARCHAR(64), IN minv INT) BEGIN
			SET @sql = CONCAT('SELECT COUNT(*) AS n FROM ', tbl, ' WHERE v >= ?');
			SET @m = minv;
			PREPARE s FROM @sql;
			EXECUTE s USING @m;
			DEALLOCATE PREPARE s;
		END`,
		`CREATE PROCEDURE copied(IN n INT) BEGIN
			DROP TABLE IF EXISTS t_copy;
			CREATE TABLE t_copy AS SELECT * FROM t WHERE id <= n;
			CREATE OR REPLACE VIEW t_view AS SELECT id FROM t_copy;
			SELECT COUNT(*) AS copied FROM t_view;
		END`,
		`CREATE PROCEDURE scratch() BEGIN
			CREATE TEMPORARY TABLE tt (x INT);
			INSERT INTO tt VALUES (1), (2);
			SELECT SUM(x) AS s FROM tt;
			DROP TEMPORARY TABLE tt;
		END`)
	wantAnswers(t, db, "ETL", map[string]string{
		"CALL dyn('t', 20)": "2",
		"CALL copied(2)":    "2",
		"CALL scratch()":    "3",
	})
	// After copied(2), apart: the answers of one map come in no order.
	wantAnswers(t, db, "ETL view", map[string]string{"SELECT GROUP_CONCAT(id ORDER BY id) FROM t_view": "1,2"})
}

// TestRoutinesRunUnderTheirSQLMode: a procedure or function runs under
// the SQL mode it was created under, as in MySQL, and the caller's comes
// back after: one created outside strict mode stores '12abc' as 12 (with a
// warning) when called in strict mode. The answers are MariaDB's.
func TestRoutinesRunUnderTheirSQLMode(t *testing.T) {
	db := routineSetup(t)
	mustExecAll(t, db, "SET sql_mode = ''",
		"CREATE PROCEDURE lax(IN x VARCHAR(10)) INSERT INTO t VALUES (9, x)",
		"CREATE FUNCTION laxf(x VARCHAR(10)) RETURNS INT RETURN x",
		"SET sql_mode = 'STRICT_TRANS_TABLES'",
		"CALL lax('12abc')")
	wantAnswers(t, db, "lax", map[string]string{
		"SELECT v FROM t WHERE id = 9": "12",
		"SELECT laxf('7z')":            "7",
		"SELECT @@sql_mode":            "STRICT_TRANS_TABLES",
	})
}

// resultSets runs q on conn and gives the text of each result set with
// columns, its column names first ("a,b|1,2|3,4"), and the error that
// ended them, if any.
func resultSets(t *testing.T, conn *sql.Conn, q string) ([]string, error) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var sets []string
	for {
		cols, err := rows.Columns()
		if err != nil {
			return sets, err
		}
		got, err := rowStrings(rows)
		if err != nil {
			return sets, err
		}
		set := []string{strings.Join(cols, ",")}
		for _, row := range got {
			set = append(set, strings.Join(row, ","))
		}
		sets = append(sets, strings.Join(set, "|"))
		if !rows.NextResultSet() {
			return sets, rows.Err()
		}
	}
}

// TestCallAnswersEveryResultSet: a CALL answers with a result set for
// each statement of the procedure that reads rows, those of procedures
// it calls included, in order, then OK, as MySQL does; one that fails
// sends the result sets before the error. The server answered with the
// last result set only. It holds for a client that asked for
// multi-statement queries and for one that did not, which still gets a
// syntax error for a query of two statements.
func TestCallAnswersEveryResultSet(t *testing.T) {
	_, addr, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE rs", "USE rs",
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')",
		"CREATE PROCEDURE inner_p() SELECT 'in' AS inner_col",
		`CREATE PROCEDURE report(IN k INT) BEGIN
			SELECT COUNT(*) AS n FROM t;
			UPDATE t SET v = CONCAT(v, '+') WHERE id = k + 5;
			SELECT id, v FROM t WHERE id > k ORDER BY id;
			SELECT id FROM t WHERE id > 10;
			CALL inner_p();
		END`,
		`CREATE PROCEDURE fails() BEGIN
			SELECT 1 AS first;
			INSERT INTO t VALUES (1, 'dup');
			SELECT 2 AS never;
		END`,
		"CREATE PROCEDURE quiet() UPDATE t SET v = v WHERE id = 1")
	for _, c := range []struct {
		multi bool
		tls   string
	}{{false, "false"}, {true, "false"}, {false, "skip-verify"}} {
		multi := c.multi
		dsn := fmt.Sprintf("root@tcp(%s)/rs?multiStatements=%t&tls=%s", addr, multi, c.tls)
		pool, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		conn, err := pool.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		want := []string{"n|2", "id,v|1,a|2,b", "id", "inner_col|in"}
		if got, err := resultSets(t, conn, "CALL report(0)"); err != nil || strings.Join(got, " ; ") != strings.Join(want, " ; ") {
			t.Errorf("%s: CALL report(0) = %q, %v; want %q", dsn, got, err, want)
		}
		got, err := resultSets(t, conn, "CALL fails()")
		if len(got) != 1 || got[0] != "first|1" {
			t.Errorf("%s: CALL fails() sent %q before its error, want [first|1]", dsn, got)
		}
		wantMySQLError(t, err, 1062, "23000")
		if _, err := conn.ExecContext(context.Background(), "CALL quiet()"); err != nil {
			t.Errorf("%s: CALL quiet(): %v", dsn, err)
		}
		// The connection goes on as before.
		if got, err := resultSets(t, conn, "SELECT v FROM t WHERE id = 2"); err != nil || len(got) != 1 || got[0] != "v|b" {
			t.Errorf("%s: after the CALLs: %q, %v", dsn, got, err)
		}
		got, err = resultSets(t, conn, "CALL inner_p(); SELECT 'after' AS a")
		if multi {
			if err != nil || strings.Join(got, " ; ") != "inner_col|in ; a|after" {
				t.Errorf("CALL then SELECT in one query: %q, %v", got, err)
			}
		} else {
			wantMySQLError(t, err, 1064, "42000")
		}
	}
}

// TestRoutinesRunWithTheirDefinersPrivileges: a procedure or function of
// SQL SECURITY DEFINER (the default) runs its statements with its
// definer's privileges, so an account granted only EXECUTE can call one
// that reads and writes tables it cannot touch itself, and CURRENT_USER()
// inside names the definer; one of SQL SECURITY INVOKER runs with the
// caller's. The caller's own privileges are back once the CALL ends,
// failed or not. A definer that is no account is MySQL's 1449. The server
// ran every routine with the caller's privileges.
func TestRoutinesRunWithTheirDefinersPrivileges(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sec", "USE sec",
		"CREATE TABLE secret (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
		"INSERT INTO secret (v) VALUES (10)",
		"CREATE PROCEDURE add_secret(IN x INT) BEGIN INSERT INTO secret (v) VALUES (x); SELECT COUNT(*) AS n FROM secret; END",
		"CREATE PROCEDURE peek() SQL SECURITY INVOKER SELECT SUM(v) FROM secret",
		"CREATE PROCEDURE who(OUT inside VARCHAR(100)) SET inside = CURRENT_USER()",
		"CREATE PROCEDURE bad() BEGIN INSERT INTO secret (v) VALUES (1); INSERT INTO secret (id, v) VALUES (1, 1); END",
		"CREATE FUNCTION total() RETURNS INT READS SQL DATA RETURN (SELECT SUM(v) FROM secret)",
		"CREATE DEFINER = 'ghost'@'%' PROCEDURE orphan() SELECT 1",
		"CREATE USER 'clerk'@'%' IDENTIFIED BY 'pw'",
		"GRANT EXECUTE ON sec.* TO 'clerk'@'%'")
	clerk := connectAs(t, addr, "clerk:pw", "sec")
	clerk.SetMaxOpenConns(1)
	denied := func(q string) {
		t.Helper()
		_, err := clerk.Exec(q)
		wantMySQLError(t, err, 1142, "42000")
	}
	denied("SELECT * FROM secret")
	if got := flat(queryStrings(t, clerk, "CALL add_secret(5)")); got != "2" {
		t.Errorf("CALL add_secret(5) as clerk = %q, want 2", got)
	}
	var inside, after string
	if _, err := clerk.Exec("CALL who(@inside)"); err != nil {
		t.Fatal(err)
	}
	if err := clerk.QueryRow("SELECT @inside, CURRENT_USER()").Scan(&inside, &after); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(inside, "root@") || !strings.HasPrefix(after, "clerk@") {
		t.Errorf("CURRENT_USER() inside the procedure %q, after it %q; want root's, then clerk's", inside, after)
	}
	if got := flat(queryStrings(t, clerk, "SELECT total()")); got != "15" {
		t.Errorf("SELECT total() as clerk = %q, want 15", got)
	}
	_, err := clerk.Exec("CALL peek()")
	wantMySQLError(t, err, 1142, "42000")
	_, err = clerk.Exec("CALL bad()")
	wantMySQLError(t, err, 1062, "23000")
	// The caller's own privileges are back after a failed CALL.
	denied("SELECT * FROM secret")
	denied("INSERT INTO secret (v) VALUES (1)")
	_, err = clerk.Exec("CALL orphan()")
	wantMySQLMessage(t, "CALL orphan()", err, 1449, "HY000", "The user specified as a definer ('ghost'@'%') does not exist")
	if got := flat(queryStrings(t, db, "SELECT GROUP_CONCAT(v ORDER BY id) FROM secret")); got != "10,5,1" {
		t.Errorf("secret holds %q, want 10,5,1 (bad() commits its first INSERT under autocommit)", got)
	}
}

// TestRoutineTextsAsMySQLKeepsThem: SHOW CREATE PROCEDURE and SHOW CREATE
// FUNCTION give the routine's SQL mode (it was empty) and its name as
// MySQL writes it, unqualified and quoted, so that a dump restores the
// routine into the database it is loaded in (the qualified name created it
// in the original one). A procedure with a COMMENT is created (it was a
// syntax error), and CREATE PROCEDURE IF NOT EXISTS of one that exists is
// note 1304 and keeps it (it was a syntax error); without IF NOT EXISTS
// it is error 1304 (it was 1060, a duplicate column).
func TestRoutineTextsAsMySQLKeepsThem(t *testing.T) {
	db := routineSetup(t)
	who := definer(t, db)
	mustExecAll(t, db,
		"SET sql_mode = 'REAL_AS_FLOAT,NO_ENGINE_SUBSTITUTION'",
		"CREATE PROCEDURE rt.pb() COMMENT 'it''s here' SELECT CONCAT('a', 'b') AS ab",
		"CREATE FUNCTION rt.fx(a INT) RETURNS INT DETERMINISTIC RETURN a + 1",
		"SET sql_mode = DEFAULT",
		"CREATE PROCEDURE IF NOT EXISTS rt.ifnew() SELECT 1 AS first",
		"CREATE PROCEDURE IF NOT EXISTS rt.ifnew() SELECT 2 AS second")
	wantAnswers(t, db, "routine texts", map[string]string{
		"SHOW CREATE PROCEDURE rt.pb": "pb,NO_ENGINE_SUBSTITUTION,REAL_AS_FLOAT,CREATE DEFINER=" + who +
			" PROCEDURE `pb`() COMMENT 'it''s here' SELECT CONCAT('a', 'b') AS ab,utf8mb4,utf8mb4_0900_ai_ci,utf8mb4_0900_ai_ci",
		"SHOW CREATE FUNCTION rt.fx": "fx,NO_ENGINE_SUBSTITUTION,REAL_AS_FLOAT,CREATE DEFINER=" + who +
			" FUNCTION `fx`(a INT) RETURNS INT DETERMINISTIC RETURN a + 1,utf8mb4,utf8mb4_0900_ai_ci,utf8mb4_0900_ai_ci",
		"SELECT ROUTINE_COMMENT FROM information_schema.ROUTINES WHERE ROUTINE_NAME = 'pb'": "it's here",
		"CALL rt.ifnew()": "1",
		"CALL rt.pb()":    "ab",
	})
	_, err := db.Exec("CREATE PROCEDURE rt.ifnew() SELECT 3")
	wantMySQLMessage(t, "CREATE PROCEDURE of one that exists", err, 1304, "42000", "PROCEDURE ifnew already exists")
	mustExecAll(t, db, "CREATE PROCEDURE IF NOT EXISTS rt.ifnew() SELECT 3")
	var level, code, msg string
	if err := db.QueryRow("SHOW WARNINGS").Scan(&level, &code, &msg); err != nil || code != "1304" || msg != "PROCEDURE ifnew already exists" {
		t.Errorf("CREATE PROCEDURE IF NOT EXISTS of one that exists: warning %s %s %q, %v", level, code, msg, err)
	}
	// The text SHOW gives restores the procedure into another database.
	var name, mode, text, cs, cc, dc string
	if err := db.QueryRow("SHOW CREATE PROCEDURE rt.pb").Scan(&name, &mode, &text, &cs, &cc, &dc); err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, db, "CREATE DATABASE rt2", "USE rt2", "SET sql_mode = '"+mode+"'", text, "SET sql_mode = DEFAULT")
	if got := flat(queryStrings(t, db, "CALL rt2.pb()")); got != "ab" {
		t.Errorf("CALL of the procedure restored into rt2: %q", got)
	}
}
