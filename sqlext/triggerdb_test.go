package sqlext_test

import "testing"

// TestTriggersBindInTheirDatabase: CREATE TRIGGER db.name reads the
// tables its body names without a database in db, as MySQL does, from a
// session in no database (the engine refused it with 1046) and from one
// in a database that has a table of the same name (the engine bound the
// body to that table at CREATE); DROP TABLE of a table in a database
// with triggers and SHOW TRIGGERS FROM db work from a session in no
// database (1046 before); and INSERT ... SELECT into a table with
// triggers, from a session in another database, runs the triggers in
// theirs (the engine bound them in the session's). The rows are MariaDB
// 10.11's.
func TestTriggersBindInTheirDatabase(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tg", "CREATE DATABASE other",
		"CREATE TABLE tg.t (id INT)", "CREATE TABLE tg.audit (id INT)", "CREATE TABLE tg.scratch (id INT)",
		"CREATE TABLE other.log (id INT)", "CREATE TABLE other.src (id INT)", "INSERT INTO other.src VALUES (3), (4)",
		"CREATE TRIGGER tg.t_ai AFTER INSERT ON tg.t FOR EACH ROW INSERT INTO audit VALUES (NEW.id)",
		"USE other",
		"CREATE TABLE other.audit (id INT)",
		"CREATE TRIGGER tg.t_bi BEFORE INSERT ON tg.t FOR EACH ROW INSERT INTO log VALUES (NEW.id * 10)")
	_, err := db.Exec("INSERT INTO tg.t VALUES (1)")
	// tg has no table log: the body of t_bi was bound in tg, as in MySQL,
	// and fails where the engine had bound it to other.log.
	wantMySQLMessage(t, "trigger body in its database", err, 1146, "42S02", "Table 'tg.log' doesn't exist")
	// INSERT ... SELECT reads its tables in the session's database and
	// the triggers theirs in tg.
	mustExecAll(t, db, "DROP TRIGGER tg.t_bi", "INSERT INTO tg.t VALUES (2)", "INSERT INTO tg.t SELECT id FROM src")
	// A client of its own, in no database.
	none := connect(t, addr, "")
	defer none.Close()
	for _, q := range []string{"DROP TABLE tg.scratch", "DROP TABLE IF EXISTS tg.scratch", "SHOW TRIGGERS FROM tg"} {
		if _, err := none.Exec(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	wantAnswers(t, db, "triggers", map[string]string{
		"SELECT id FROM tg.audit ORDER BY id": "2;3;4",
		"SELECT id FROM other.audit":          "",
		"SELECT COUNT(*) FROM other.log":      "0",
		"SHOW TABLES FROM tg":                 "audit;t",
	})
}

// TestTriggersOfUpdatesThatJoin: an UPDATE of one table that reads
// another (through IN (SELECT ...), JOIN ... ON, or a comma join) runs
// that table's BEFORE and AFTER UPDATE triggers for each row it changes.
// The engine looked for the triggers of the last table its plan names,
// often the other one, and ran none. The rows are MariaDB 10.11's.
func TestTriggersOfUpdatesThatJoin(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE lu", "USE lu",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(10))",
		"CREATE TABLE s (id INT PRIMARY KEY, k INT)",
		"CREATE TABLE audit (n INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(60))",
		"CREATE TRIGGER t_bu BEFORE UPDATE ON t FOR EACH ROW SET NEW.w = CONCAT(OLD.w, '+')",
		"CREATE TRIGGER t_au AFTER UPDATE ON t FOR EACH ROW INSERT INTO audit (what) VALUES (CONCAT(OLD.id, ':', OLD.v, '->', NEW.v, ' ', NEW.w))",
		"INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')",
		"INSERT INTO s VALUES (2, 5), (3, 6)",
		"UPDATE t SET v = v * 2 WHERE id IN (SELECT id FROM s WHERE k > 5)",
		"UPDATE t JOIN s ON t.id = s.id SET t.v = t.v + s.k",
		"UPDATE t, s SET t.v = 0 WHERE t.id = s.id AND s.k = 5")
	wantAnswers(t, db, "update triggers", map[string]string{
		"SELECT * FROM t ORDER BY id":       "1,10,a;2,0,b++;3,66,c++",
		"SELECT what FROM audit ORDER BY n": "3:30->60 c+;2:20->25 b+;3:60->66 c++;2:25->0 b++",
	})
}

// TestTriggersOfReplaceAndUpsert: REPLACE runs the DELETE triggers of
// each row it replaces, and INSERT ... ON DUPLICATE KEY UPDATE the
// UPDATE triggers of each row it updates, in MySQL's order; AFTER INSERT
// triggers read the inserted row and run only for rows inserted. The
// expected tables are MariaDB's for the same statements.
func TestTriggersOfReplaceAndUpsert(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ru", "USE ru",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, u INT UNIQUE, note VARCHAR(20))",
		"CREATE TABLE log (n INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(100))",
		"CREATE TABLE total (k INT PRIMARY KEY, s INT)",
		"INSERT INTO total VALUES (1, 0)",
		"CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW INSERT INTO log (msg) VALUES (CONCAT('bi ', NEW.id, ' ', NEW.v))",
		"CREATE TRIGGER ai AFTER INSERT ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('ai ', NEW.id, ' ', NEW.v)); UPDATE total SET s = s + NEW.v WHERE k = 1; END",
		"CREATE TRIGGER bd BEFORE DELETE ON t FOR EACH ROW INSERT INTO log (msg) VALUES (CONCAT('bd ', OLD.id, ' ', OLD.v))",
		`CREATE TRIGGER ad AFTER DELETE ON t FOR EACH ROW BEGIN
			UPDATE total SET s = s - OLD.v WHERE k = 1;
			IF OLD.v = 13 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no 13'; END IF;
		END`,
		`CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW BEGIN
			SET NEW.note = CONCAT('upd', OLD.v);
			IF NEW.v > 100 THEN SET NEW.v = 100; END IF;
			INSERT INTO log (msg) VALUES (CONCAT('bu ', OLD.id, ' ', OLD.v, '->', NEW.v));
		END`,
		"CREATE TRIGGER au AFTER UPDATE ON t FOR EACH ROW UPDATE total SET s = s - OLD.v + NEW.v WHERE k = 1",
		"INSERT INTO t (id, v, u) VALUES (1, 10, 100), (2, 20, 200), (3, 13, 300)")
	// Replaces rows 1 (by key) and 2 (by u): one row inserted, two
	// deleted.
	wantAffected(t, db, []affectedStep{{"REPLACE INTO t (id, v, u) VALUES (1, 11, 200)", 3}})
	wantAnswers(t, db, "replace", map[string]string{
		"SELECT * FROM t ORDER BY id": "1,11,200,NULL;3,13,300,NULL",
		"SELECT s FROM total":         "24",
	})
	// The AFTER DELETE trigger of row 3 fails: nothing of the statement
	// stays, neither row 5 nor what the triggers wrote.
	_, err := db.Exec("REPLACE INTO t (id, v, u) VALUES (5, 50, 500), (3, 1, 1)")
	wantMySQLMessage(t, "failing trigger", err, 1644, "45000", "no 13")
	mustExecAll(t, db,
		"INSERT INTO t (id, v, u) VALUES (1, 5, 1), (6, 60, 600) ON DUPLICATE KEY UPDATE v = v + VALUES(v)",
		"INSERT INTO t (id, v, u) VALUES (1, 500, 1) ON DUPLICATE KEY UPDATE v = VALUES(v)",
		"CREATE TABLE src (id INT, v INT, u INT)",
		"INSERT INTO src VALUES (1, 7, 700), (8, 80, 800), (9, 90, 800)",
		"REPLACE INTO t (id, v, u) SELECT id, v, u FROM src",
		"INSERT INTO t (id, v, u) SELECT id, v, u FROM src ON DUPLICATE KEY UPDATE v = t.v + 1",
		// From another database, with none current after it.
		"USE mysql",
		"REPLACE INTO ru.t (id, v, u) VALUES (9, 99, 999)",
		"INSERT INTO ru.t (id, v, u) VALUES (9, 1, 1) ON DUPLICATE KEY UPDATE v = 42")
	wantAnswers(t, db, "upsert", map[string]string{
		"SELECT * FROM ru.t ORDER BY id": "1,8,700,upd7;3,13,300,NULL;6,60,600,NULL;9,42,999,upd99",
		"SELECT s FROM ru.total":         "123",
		"SELECT GROUP_CONCAT(msg ORDER BY n SEPARATOR '|') FROM ru.log": "bi 1 10|ai 1 10|bi 2 20|ai 2 20|bi 3 13|ai 3 13|" +
			"bi 1 11|bd 1 10|bd 2 20|ai 1 11|" +
			"bi 1 5|bu 1 11->16|bi 6 60|ai 6 60|" +
			"bi 1 500|bu 1 16->100|" +
			"bi 1 7|bd 1 100|ai 1 7|bi 8 80|ai 8 80|bi 9 90|bd 8 80|ai 9 90|" +
			"bi 1 7|bu 1 7->8|bi 8 80|bu 9 90->91|bi 9 90|bu 9 91->92|" +
			"bi 9 99|bd 9 92|ai 9 99|bi 9 1|bu 9 99->42",
	})
}

// TestTriggersInTriggerBodies: the statements of one trigger's BEGIN ...
// END body run only their own table's triggers. The engine also ran the
// firing statement's other triggers on them: an AFTER UPDATE trigger
// that updates a table failed on a BEFORE UPDATE body's INSERT.
func TestTriggersInTriggerBodies(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tb", "USE tb",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, u INT UNIQUE)",
		"CREATE TABLE log (n INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(100))",
		"CREATE TABLE cnt (k VARCHAR(10) PRIMARY KEY, c INT)",
		"INSERT INTO cnt VALUES ('ins', 0), ('del', 0), ('upd', 0)",
		"CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('bi ', NEW.id)); SET NEW.v = NEW.v * 2; END",
		"CREATE TRIGGER ai AFTER INSERT ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('ai ', NEW.id, ' ', NEW.v)); UPDATE cnt SET c = c + 1 WHERE k = 'ins'; END",
		"CREATE TRIGGER ai2 AFTER INSERT ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('ai2 ', NEW.id)); END",
		"CREATE TRIGGER bd BEFORE DELETE ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('bd ', OLD.id)); END",
		"CREATE TRIGGER ad AFTER DELETE ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('ad ', OLD.id)); UPDATE cnt SET c = c + 1 WHERE k = 'del'; END",
		"CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('bu ', OLD.id, ' ', OLD.v, '>', NEW.v)); END",
		"CREATE TRIGGER au AFTER UPDATE ON t FOR EACH ROW BEGIN INSERT INTO log (msg) VALUES (CONCAT('au ', NEW.id, ' ', NEW.v)); UPDATE cnt SET c = c + 1 WHERE k = 'upd'; END",
		"INSERT INTO t VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3)",
		"UPDATE t SET v = v + 10 WHERE id > 1",
		"DELETE FROM t WHERE id = 3",
		"REPLACE INTO t VALUES (2, 7, 1)",
		"INSERT INTO t VALUES (2, 0, 9), (4, 4, 4) ON DUPLICATE KEY UPDATE v = v + 100",
		// The first row is a duplicate IGNORE passes over; what its
		// BEFORE INSERT trigger wrote stays.
		"INSERT IGNORE INTO t VALUES (4, 5, 5), (5, 5, 5)")
	wantAnswers(t, db, "bodies", map[string]string{
		"SELECT * FROM t ORDER BY id":                   "2,114,1;4,8,4;5,10,5",
		"SELECT GROUP_CONCAT(k, c ORDER BY k) FROM cnt": "del3,ins6,upd3",
		"SELECT GROUP_CONCAT(msg ORDER BY n SEPARATOR '|') FROM log": "bi 1|ai 1 2|ai2 1|bi 2|ai 2 4|ai2 2|bi 3|ai 3 6|ai2 3|" +
			"bu 2 4>14|au 2 14|bu 3 6>16|au 3 16|bd 3|ad 3|" +
			"bi 2|bd 2|ad 2|bd 1|ad 1|ai 2 14|ai2 2|" +
			"bi 2|bu 2 14>114|au 2 114|bi 4|ai 4 8|ai2 4|" +
			"bi 4|bi 5|ai 5 10|ai2 5",
	})
}

// TestBeforeInsertTriggersReadStoredValues: the values a BEFORE INSERT
// trigger reads as NEW are those the columns hold: checked (in strict
// mode an out-of-range value fails the row before a later NULL does),
// and under IGNORE already cut to the column (text to its length, a
// DECIMAL to its largest value, a number to the column's type). The
// engine skipped the checks of values read by a BEFORE INSERT trigger,
// which then read the raw values, and under IGNORE a DECIMAL out of
// range was stored as 0. Expected: MariaDB's answers.
func TestBeforeInsertTriggersReadStoredValues(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE bv", "USE bv",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(6), c DECIMAL(6,2))",
		"CREATE TABLE log (m VARCHAR(100))",
		"CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT_WS(' ', NEW.id, NEW.a, NEW.b, NEW.c))",
		"INSERT IGNORE INTO t VALUES (1, 'x', 'long-text', 10000), (2, 99999999999, 'ab', -10000), (3, 2.5, 'c', '1.239')")
	wantAnswers(t, db, "ignore", map[string]string{
		"SELECT * FROM t ORDER BY id":                              "1,0,long-t,9999.99;2,2147483647,ab,-9999.99;3,3,c,1.24",
		"SELECT GROUP_CONCAT(m ORDER BY m SEPARATOR '|') FROM log": "1 0 long-t 9999.99|2 2147483647 ab -9999.99|3 3 c 1.24",
	})
	_, err := db.Exec("INSERT INTO t VALUES (NULL, 1, 'x', 10000)")
	wantMySQLMessage(t, "strict", err, 1264, "22003", "Out of range value for column 'c' at row 1")
	wantAnswers(t, db, "strict", map[string]string{"SELECT COUNT(*) FROM log": "3"})
}

// TestTriggersOfAliasedJoinUpdates: an UPDATE that joins two tables
// runs the triggers of the tables it sets columns of, each on its own
// table's rows, also of a table it names by an alias. The engine ran
// the triggers of one table, sometimes the other one's, on the join's
// row, so that OLD.id was the other table's id.
func TestTriggersOfAliasedJoinUpdates(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE aj", "USE aj",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE n (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE log (m VARCHAR(100))",
		"CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT('t ', NEW.id))",
		"CREATE TRIGGER nu AFTER UPDATE ON n FOR EACH ROW INSERT INTO log VALUES (CONCAT('n ', NEW.id))",
		"INSERT INTO t VALUES (1, 10), (2, 20)",
		"INSERT INTO n VALUES (7, 10), (8, 30)",
		"UPDATE t JOIN n AS j ON t.a = j.a SET j.a = j.a + 1",
		"UPDATE t AS x JOIN n ON x.a = n.a - 1 SET x.a = x.a + 5")
	wantAnswers(t, db, "aliased", map[string]string{
		"SELECT GROUP_CONCAT(m ORDER BY m) FROM log": "n 7,t 1",
		"SELECT GROUP_CONCAT(a ORDER BY id) FROM n":  "11,30",
		"SELECT GROUP_CONCAT(a ORDER BY id) FROM t":  "15,20",
	})
	// Both tables set, and columns of the same name in each: each
	// table's triggers read its own row, and a BEFORE trigger's NEW is
	// its own table's.
	mustExecAll(t, db, "DROP TABLE t, n", "DELETE FROM log",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, note VARCHAR(20))",
		"CREATE TABLE n (id INT PRIMARY KEY, a INT, note VARCHAR(20))",
		"CREATE TRIGGER tb BEFORE UPDATE ON t FOR EACH ROW SET NEW.note = CONCAT('t', OLD.id, '>', NEW.a)",
		"CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT('t ', OLD.id, ' ', OLD.a, '>', NEW.a, ' ', NEW.note))",
		"CREATE TRIGGER nu AFTER UPDATE ON n FOR EACH ROW INSERT INTO log VALUES (CONCAT('n ', OLD.id, ' ', OLD.a, '>', NEW.a, ' ', IFNULL(NEW.note, '-')))",
		"INSERT INTO t VALUES (1, 10, NULL), (2, 20, NULL)",
		"INSERT INTO n VALUES (7, 10, NULL), (8, 20, NULL), (9, 30, NULL)",
		"UPDATE t JOIN n ON t.a = n.a SET t.a = t.a + 1, n.a = n.a + 100",
		"UPDATE t, n SET n.note = 'x' WHERE t.id = 1 AND n.id = 9")
	wantAnswers(t, db, "both", map[string]string{
		"SELECT GROUP_CONCAT(m ORDER BY m SEPARATOR '|') FROM log": "n 7 10>110 -|n 8 20>120 -|n 9 30>30 x|t 1 10>11 t1>11|t 2 20>21 t2>21",
		"SELECT * FROM t ORDER BY id":                              "1,11,t1>11;2,21,t2>21",
		"SELECT * FROM n ORDER BY id":                              "7,110,NULL;8,120,NULL;9,30,x",
	})
}

// TestTriggersOfMultipleTableDeletes: a DELETE that names the tables it
// deletes from runs each one's DELETE triggers once for each row it
// deletes (a row the join matches twice included), and a trigger's
// error takes back the whole statement. The engine refused such a DELETE
// when a table had triggers. Expected: MariaDB's answers.
func TestTriggersOfMultipleTableDeletes(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE dj", "USE dj",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE s (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE log (m VARCHAR(100))",
		`CREATE TRIGGER td BEFORE DELETE ON t FOR EACH ROW BEGIN
			INSERT INTO log VALUES (CONCAT('bt ', OLD.id, ' ', OLD.a));
			IF OLD.a = 13 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'keep 13'; END IF;
		END`,
		"CREATE TRIGGER sd AFTER DELETE ON s FOR EACH ROW INSERT INTO log VALUES (CONCAT('as ', OLD.id, ' ', OLD.a))",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 13), (4, 40)",
		"INSERT INTO s VALUES (7, 10), (8, 10), (9, 13), (10, 50)")
	_, err := db.Exec("DELETE t, s FROM t JOIN s ON t.a = s.a")
	wantMySQLMessage(t, "both", err, 1644, "45000", "keep 13")
	wantAnswers(t, db, "taken back", map[string]string{
		"SELECT COUNT(*) FROM log":                 "0",
		"SELECT COUNT(*), COUNT(*) = 4 FROM t, s ": "16,0",
	})
	mustExecAll(t, db,
		"DELETE t FROM t JOIN s ON t.a = s.a WHERE s.a = 10",
		"DELETE s FROM s LEFT JOIN t ON t.a = s.a WHERE t.id IS NULL",
		"DELETE t FROM s RIGHT JOIN t ON t.a = s.a WHERE s.id IS NULL",
		"USE mysql")
	_, err = db.Exec("DELETE x FROM dj.t AS x WHERE x.id = 3")
	wantMySQLMessage(t, "aliased", err, 1644, "45000", "keep 13")
	wantAnswers(t, db, "deleted", map[string]string{
		"SELECT GROUP_CONCAT(m ORDER BY m SEPARATOR '|') FROM dj.log": "as 10 50|as 7 10|as 8 10|bt 1 10|bt 2 20|bt 4 40",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM dj.t":               "3",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM dj.s":               "9",
	})
}

// TestDeletesOfJoins: a DELETE of named tables deletes every row of the
// join it read, and counts each row deleted once. The engine deleted
// while it read, so a table read again for each row of the other side
// had lost the rows already deleted (a row of n matched after the first
// was kept), and counted a row once for each row of the join it was in.
// Expected: MariaDB's answers.
func TestDeletesOfJoins(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE dd", "USE dd",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE n (id INT PRIMARY KEY AUTO_INCREMENT, a INT NOT NULL, b VARCHAR(6))",
		"CREATE TABLE k (a INT, b INT)",
		"INSERT INTO t VALUES (3, 0), (4, 0), (5, 7), (6, 0)",
		"INSERT INTO n (a, b) VALUES (0, 'w'), (0, 'z'), (7, 'x'), (9, 'q')",
		"INSERT INTO k VALUES (0, 1), (0, 1), (7, 2)")
	wantAffected(t, db, []affectedStep{
		{"DELETE k FROM k JOIN n ON k.a = n.a", 3},
		{"DELETE t, n FROM t JOIN n ON t.a = n.a WHERE t.id > 2", 7},
	})
	wantAnswers(t, db, "deleted", map[string]string{
		"SELECT COUNT(*) FROM t":                     "0",
		"SELECT GROUP_CONCAT(id ORDER BY id) FROM n": "4",
		"SELECT COUNT(*) FROM k":                     "0",
	})
	// Rows inserted by the same transaction.
	mustExecAll(t, db, "BEGIN", "INSERT INTO t VALUES (1, 9), (2, 9)", "INSERT INTO n (a, b) VALUES (9, 'r')")
	wantAffected(t, db, []affectedStep{{"DELETE n FROM t JOIN n ON t.a = n.a", 2}})
	mustExecAll(t, db, "COMMIT")
	wantAnswers(t, db, "in a transaction", map[string]string{"SELECT COUNT(*) FROM n": "0"})
}

// TestUpsertCountsWhatTriggersWrite: INSERT ... ON DUPLICATE KEY UPDATE
// counts a row its BEFORE UPDATE triggers changed as changed (2), and
// one they set back to what it was as unchanged (0). The engine counted
// the row its SET computed. Expected: MariaDB's counts.
func TestUpsertCountsWhatTriggersWrite(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE uc", "USE uc",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
		"CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW SET NEW.note = CONCAT('upd', OLD.v)",
		"CREATE TRIGGER bu2 BEFORE UPDATE ON t FOR EACH ROW SET NEW.v = IF(NEW.v > 100, OLD.v, NEW.v)",
		"INSERT INTO t VALUES (1, 10, NULL), (2, 20, 'upd20')")
	wantAffected(t, db, []affectedStep{
		{"INSERT INTO t VALUES (1, 10, NULL) ON DUPLICATE KEY UPDATE v = VALUES(v)", 2},
		{"INSERT INTO t VALUES (2, 20, NULL) ON DUPLICATE KEY UPDATE v = VALUES(v)", 0},
		{"INSERT INTO t VALUES (2, 500, NULL) ON DUPLICATE KEY UPDATE v = VALUES(v)", 0},
	})
	wantAnswers(t, db, "counted", map[string]string{"SELECT * FROM t ORDER BY id": "1,10,upd10;2,20,upd20"})
}

// TestPreparedWritesRunTriggersOnce: statements prepared on the server
// (the Go driver prepares a statement with arguments) and executed more
// than once run each trigger once a row, as the text statements do: a
// multiple-table UPDATE and DELETE, a REPLACE and an upsert from a
// SELECT, whose triggers this server binds itself. Expected: MariaDB's
// answers to the same statements sent as text.
func TestPreparedWritesRunTriggersOnce(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE pt", "USE pt",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE s (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE log (m VARCHAR(50))",
		"CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT('tu ', NEW.id))",
		"CREATE TRIGGER td AFTER DELETE ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT('td ', OLD.id))",
		"CREATE TRIGGER ti AFTER INSERT ON t FOR EACH ROW INSERT INTO log VALUES (CONCAT('ti ', NEW.id))",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)", "INSERT INTO s VALUES (1, 10), (2, 20)", "DELETE FROM log")
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for range 2 {
		exec("UPDATE t JOIN s ON t.id = s.id SET t.a = t.a + ? WHERE s.a > ?", 1, 0)
	}
	exec("REPLACE INTO t VALUES (?, ?)", 1, 5)
	exec("DELETE t FROM t JOIN s ON t.id = s.id WHERE s.id = ?", 2)
	for range 2 {
		exec("INSERT INTO t SELECT id + ?, a FROM s ON DUPLICATE KEY UPDATE a = VALUES(a) + 1", 10)
	}
	wantAnswers(t, db, "prepared", map[string]string{
		"SELECT GROUP_CONCAT(m ORDER BY m) FROM log":         "td 1,td 2,ti 1,ti 11,ti 12,tu 1,tu 1,tu 11,tu 12,tu 2,tu 2",
		"SELECT GROUP_CONCAT(id, ':', a ORDER BY id) FROM t": "1:5,3:30,11:11,12:21",
	})
}
