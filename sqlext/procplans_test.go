package sqlext_test

import "testing"

// TestLoopStatementsKeepTheirPlans: a procedure's statements that run at
// every step of a loop keep their plans (procplans.go), and give what
// planning each anew gave: values of every variable type the plans read
// (DECIMAL, text, DATE, DATETIME, DOUBLE), errors that name row 1 at
// every step (each run counts its rows from the start), a division by
// zero refused in strict mode at the step it happens, a table altered
// between steps (the plan is made again, with its new columns), a block
// entered again at each step with variables of the same names and other
// types, LAST_INSERT_ID() and ROW_COUNT() after each INSERT, foreign key
// checks and triggers at every step, a SET sql_mode between steps, and
// duplicate keys taken by a CONTINUE handler; SETs and conditions of
// DECIMAL, text, DATE and DOUBLE variables, text compared with LIKE under
// the connection's collation, a stored function that writes, called in a
// SET under autocommit, and a user variable. A routine's SET sql_mode
// also ends with the routine, as in MySQL (it stayed set). Every answer
// is MariaDB 10.11's for the same statements.
func TestLoopStatementsKeepTheirPlans(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE kp", "USE kp",
		"CREATE TABLE typed (id INT PRIMARY KEY, d DECIMAL(6,2), s VARCHAR(10), dt DATE, ts DATETIME, f DOUBLE)",
		"CREATE TABLE small (id INT PRIMARY KEY, v TINYINT)",
		"CREATE TABLE errs (n INT AUTO_INCREMENT PRIMARY KEY, code INT, msg VARCHAR(200))",
		"CREATE TABLE grow (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE auto (n INT AUTO_INCREMENT PRIMARY KEY, v INT)",
		"CREATE TABLE parent (id INT PRIMARY KEY)",
		"CREATE TABLE child (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES parent (id))",
		"INSERT INTO parent VALUES (1), (2), (4)",
		"CREATE TABLE seen (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(40))",
		"CREATE TABLE trig (id INT PRIMARY KEY, v INT)",
		"CREATE TRIGGER trig_ai AFTER INSERT ON trig FOR EACH ROW INSERT INTO seen (what) VALUES (CONCAT('trig ', NEW.id))",
		"CREATE PROCEDURE types_loop() BEGIN DECLARE i INT DEFAULT 0; DECLARE d DECIMAL(6,2) DEFAULT 1.25; DECLARE s VARCHAR(10) DEFAULT 'a'; DECLARE dt DATE DEFAULT '2024-02-27'; DECLARE ts DATETIME DEFAULT '2024-02-27 23:59:30'; DECLARE f DOUBLE DEFAULT 0.5; WHILE i < 4 DO SET i = i + 1; INSERT INTO typed VALUES (i, d * i, CONCAT(s, i), dt + INTERVAL i DAY, ts + INTERVAL i * 20 SECOND, f / i); SET s = CONCAT(s, 'b'), d = d + 0.5; END WHILE; END",
		"CREATE PROCEDURE range_loop() BEGIN DECLARE i INT DEFAULT 120; DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN DECLARE c INT; DECLARE m VARCHAR(200); GET DIAGNOSTICS CONDITION 1 c = MYSQL_ERRNO, m = MESSAGE_TEXT; INSERT INTO errs (code, msg) VALUES (c, m); END; WHILE i < 130 DO SET i = i + 1; INSERT INTO small VALUES (i, i + 4); INSERT INTO small VALUES (i + 100, 10 DIV (i - 125)); END WHILE; END",
		"CREATE PROCEDURE grow_loop() BEGIN DECLARE i INT DEFAULT 0; WHILE i < 6 DO SET i = i + 1; IF i = 3 THEN ALTER TABLE grow ADD COLUMN w INT DEFAULT 7; END IF; IF i = 5 THEN ALTER TABLE grow DROP COLUMN w, ADD COLUMN w VARCHAR(5) DEFAULT 'x' FIRST; END IF; INSERT INTO grow (id, v) VALUES (i, i * 10); END WHILE; END",
		"CREATE PROCEDURE scopes_loop() BEGIN DECLARE i INT DEFAULT 0; WHILE i < 3 DO SET i = i + 1; BEGIN DECLARE x VARCHAR(5) DEFAULT CONCAT('s', i); INSERT INTO seen (what) VALUES (x); END; BEGIN DECLARE x INT DEFAULT i * 100; INSERT INTO seen (what) VALUES (x); END; END WHILE; END",
		"CREATE PROCEDURE auto_loop() BEGIN DECLARE i INT DEFAULT 0; WHILE i < 3 DO SET i = i + 1; INSERT INTO auto (v) VALUES (i); INSERT INTO seen (what) VALUES (CONCAT('id ', LAST_INSERT_ID(), ' rows ', ROW_COUNT())); END WHILE; END",
		"CREATE PROCEDURE fk_loop() BEGIN DECLARE i INT DEFAULT 0; DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN DECLARE c INT; GET DIAGNOSTICS CONDITION 1 c = MYSQL_ERRNO; INSERT INTO errs (code, msg) VALUES (c, CONCAT('fk ', i)); END; WHILE i < 5 DO SET i = i + 1; INSERT INTO child VALUES (i, i); END WHILE; END",
		"CREATE PROCEDURE trig_loop() BEGIN DECLARE i INT DEFAULT 0; WHILE i < 3 DO SET i = i + 1; INSERT INTO trig VALUES (i, i); END WHILE; END",
		"CREATE PROCEDURE mode_loop() BEGIN DECLARE i INT DEFAULT 0; DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN DECLARE c INT; GET DIAGNOSTICS CONDITION 1 c = MYSQL_ERRNO; INSERT INTO errs (code, msg) VALUES (c, CONCAT('mode ', i)); END; WHILE i < 4 DO SET i = i + 1; IF i = 3 THEN SET sql_mode = ''; END IF; INSERT INTO small VALUES (i + 200, i * 100); END WHILE; END",
		"CREATE PROCEDURE dup_loop() BEGIN DECLARE i INT DEFAULT 0; DECLARE dups INT DEFAULT 0; DECLARE CONTINUE HANDLER FOR 1062 SET dups = dups + 1; WHILE i < 6 DO SET i = i + 1; INSERT INTO grow (id, v) VALUES (i MOD 3 + 100, i); END WHILE; INSERT INTO errs (code, msg) VALUES (1062, CONCAT('dups ', dups)); END")
	mustExecAll(t, db, "CALL types_loop()", "CALL range_loop()", "CALL grow_loop()", "CALL scopes_loop()",
		"CALL auto_loop()", "CALL fk_loop()", "CALL trig_loop()", "CALL mode_loop()")
	wantAnswers(t, db, "after the mode loop", map[string]string{"SELECT @@sql_mode = ''": "0"})
	mustExecAll(t, db, "CALL dup_loop()",
		"CREATE TABLE vals (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(80))",
		"CREATE FUNCTION logged(x INT) RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO vals (what) VALUES (CONCAT('f ', x)); RETURN x * 2; END",
		"CREATE PROCEDURE values_loop() BEGIN DECLARE i INT DEFAULT 0; DECLARE d DECIMAL(8,3) DEFAULT 0.5; "+
			"DECLARE s VARCHAR(8) DEFAULT ''; DECLARE dt DATE DEFAULT '2024-01-30'; DECLARE q DOUBLE; DECLARE r INT; "+
			"WHILE i < 5 DO SET i = i + 1; "+
			"SET d = d * 1.5, s = RIGHT(CONCAT(s, CHAR(96 + i)), 3), dt = dt + INTERVAL 1 MONTH; "+
			"SET q = (i + 3) / 4; SET r = logged(i); SET @u = CONCAT(s, '/', i); "+
			"IF s LIKE '%c%' THEN SET d = d + 100; END IF; "+
			"INSERT INTO vals (what) VALUES (CONCAT_WS(' ', i, d, s, dt, q, r, @u)); END WHILE; END",
		// Under autocommit the function's rows are committed with each
		// SET that calls it.
		"CALL values_loop()", "ROLLBACK")
	outOfRange := "1264,Out of range value for column 'v' at row 1"
	wantAnswers(t, db, "kept plans", map[string]string{
		"SELECT id, d, s, CAST(dt AS CHAR), CAST(ts AS CHAR), f FROM typed ORDER BY id": "1,1.25,a1,2024-02-28,2024-02-27 23:59:50,0.5;" +
			"2,3.50,ab2,2024-02-29,2024-02-28 00:00:10,0.25;3,6.75,abb3,2024-03-01,2024-02-28 00:00:30,0.16666666666666666;" +
			"4,11.00,abbb4,2024-03-02,2024-02-28 00:00:50,0.125",
		"SELECT id, v FROM small ORDER BY id": "121,125;122,126;123,127;201,100;203,127;204,127;" +
			"221,-2;222,-3;223,-5;224,-10;226,10;227,5;228,3;229,2;230,2",
		"SELECT code, msg FROM errs ORDER BY n": outOfRange + ";" + outOfRange + ";1365,Division by 0;" +
			outOfRange + ";" + outOfRange + ";" + outOfRange + ";" + outOfRange + ";" + outOfRange + ";" +
			"1452,fk 3;1452,fk 5;1264,mode 2;1062,dups 3",
		"SELECT * FROM grow ORDER BY id":  "x,1,10;x,2,20;x,3,30;x,4,40;x,5,50;x,6,60;x,100,3;x,101,1;x,102,2",
		"SELECT * FROM auto ORDER BY n":   "1,1;2,2;3,3",
		"SELECT * FROM child ORDER BY id": "1,1;2,2;4,4",
		"SELECT what FROM vals ORDER BY id": "f 1;1 0.750 a 2024-02-29 1 2 a/1;f 2;2 1.125 ab 2024-03-29 1.25 4 ab/2;" +
			"f 3;3 101.688 abc 2024-04-29 1.5 6 abc/3;f 4;4 252.532 bcd 2024-05-29 1.75 8 bcd/4;" +
			"f 5;5 478.798 cde 2024-06-29 2 10 cde/5",
		"SELECT what FROM seen ORDER BY id": "s1;100;s2;200;s3;300;id 1 rows 1;id 2 rows 1;id 3 rows 1;trig 1;trig 2;trig 3",
	})
}
