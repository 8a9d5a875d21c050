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
