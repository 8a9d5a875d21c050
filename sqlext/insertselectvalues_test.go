package sqlext_test

import "testing"

// TestInsertSelectUpsertReadsValues: in INSERT ... SELECT ... ON
// DUPLICATE KEY UPDATE, VALUES(col) is the value the SELECT gave col,
// with or without a column list, of a UNION, from another database, and
// beside columns of the table itself. The engine refused every such
// statement ("expected ON DUPLICATE KEY ... VALUES() to reference a
// column"). Expected: MariaDB's tables.
func TestInsertSelectUpsertReadsValues(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE iv", "USE iv",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, note VARCHAR(10), n INT DEFAULT 0)",
		"CREATE TABLE s (id INT PRIMARY KEY, v INT, note VARCHAR(10), n INT)",
		"INSERT INTO t VALUES (1, 10, 'a', 0), (2, 20, 'b', 0)",
		"INSERT INTO s VALUES (1, 11, 'x', 5), (2, 22, NULL, 6), (3, 33, 'z', 7)")
	// Two rows updated (2 each) and one inserted.
	wantAffected(t, db, []affectedStep{{"INSERT INTO t SELECT * FROM s ON DUPLICATE KEY UPDATE v = VALUES(v), n = t.n + VALUES(n)", 5}})
	mustExecAll(t, db,
		"INSERT INTO t (id, note) SELECT id + 1, UPPER(note) FROM s UNION ALL SELECT 9, 'nine' ON DUPLICATE KEY UPDATE note = VALUES(note)",
		"INSERT INTO t SELECT * FROM s ON DUPLICATE KEY UPDATE v = s.v + 1000",
		"USE mysql",
		"INSERT INTO iv.t (id, v) SELECT id, v FROM iv.s ON DUPLICATE KEY UPDATE v = VALUES(v) - 1")
	wantAnswers(t, db, "upserts", map[string]string{
		"SELECT * FROM iv.t ORDER BY id": "1,10,a,5;2,21,X,6;3,32,NULL,7;4,NULL,Z,0;9,NULL,nine,0",
	})
}

// TestWritesReadTheirRowsFirst: a REPLACE or upsert whose SELECT reads
// the table it writes reads the rows as they were before it began. It
// read the rows it had changed no more: INSERT INTO t SELECT id + 1, a
// FROM t ON DUPLICATE KEY UPDATE ... updated row 2 and then skipped it,
// so row 4 was never inserted. Expected: MariaDB's answers.
func TestWritesReadTheirRowsFirst(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE sf", "USE sf",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	wantAffected(t, db, []affectedStep{
		{"INSERT INTO t SELECT id + 1, a FROM t ON DUPLICATE KEY UPDATE a = VALUES(a)", 5},
		{"REPLACE INTO t SELECT id + 1, a + 1 FROM t WHERE id > 2", 3},
	})
	wantAnswers(t, db, "read first", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', a ORDER BY id) FROM t": "1:10,2:10,3:20,4:21,5:31",
	})
}

// TestInsertSelectReadsItsTableFirst: a plain INSERT ... SELECT whose
// SELECT reads the table it writes in a subquery or a self join reads
// the rows as they were before it began, as MySQL reads them into a
// temporary table first. The subquery ran again for each row and saw the
// rows inserted so far (11, 12, 13), and the inner side of the join read
// them too. Expected: MariaDB's answers.
func TestInsertSelectReadsItsTableFirst(t *testing.T) {
	db := inDatabase(t, "sr",
		"CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, k INT, x INT)",
		"CREATE TABLE a (id INT PRIMARY KEY, k INT)",
		"INSERT INTO t (k, x) VALUES (1, 10), (2, 20)",
		"INSERT INTO a VALUES (1, 1), (2, 1), (3, 1), (4, 2)")
	wantAffected(t, db, []affectedStep{
		{"INSERT INTO t (k, x) SELECT k, (SELECT MAX(x) FROM t AS b WHERE b.k = a.k) + 1 FROM a ORDER BY id", 4},
		{"INSERT INTO t (k, x) SELECT p.k, p.x + q.x FROM t AS p JOIN t AS q ON p.k = q.k AND p.id < q.id WHERE p.k = 2", 1},
		{"INSERT INTO t (k, x) SELECT k, x + 100 FROM t WHERE k = 2", 3},
	})
	wantAnswers(t, db, "read first", map[string]string{
		"SELECT GROUP_CONCAT(k, ':', x ORDER BY id) FROM t": "1:10,2:20,1:11,1:11,1:11,2:21,2:41,2:120,2:121,2:141",
	})
}

// TestUpdateAndDeleteReadTheirTableFirst: an UPDATE or DELETE of one
// table whose WHERE or new values read the table in a correlated
// subquery reads every row, and works out the new values, before it
// writes one, as MariaDB does (MySQL refuses such a statement with
// 1093). The subquery saw the rows written before it: a DELETE of the
// least x of each group deleted the whole table, one row after another.
// With duplicate rows of a table without a key, text changed to text
// the collation holds equal, and triggers. Expected: MariaDB's answers.
func TestUpdateAndDeleteReadTheirTableFirst(t *testing.T) {
	db := inDatabase(t, "rt",
		"CREATE TABLE k (g INT, x INT)",
		"INSERT INTO k VALUES (1,5),(1,5),(1,7),(1,9),(2,3),(2,3),(2,4)",
		"CREATE TABLE s (id INT PRIMARY KEY, g INT, name VARCHAR(20), n INT)",
		"INSERT INTO s VALUES (1,1,'a',1),(2,1,'b',2),(3,2,'c',3)",
		"CREATE TABLE log (id INT, oldn INT, newn INT)",
		"CREATE TRIGGER tb BEFORE UPDATE ON s FOR EACH ROW SET NEW.name = CONCAT(NEW.name, '!')",
		"CREATE TRIGGER ta AFTER UPDATE ON s FOR EACH ROW INSERT INTO log VALUES (NEW.id, OLD.n, NEW.n)")
	db.SetMaxOpenConns(1)
	wantAffected(t, db, []affectedStep{
		{"DELETE FROM k WHERE x <= (SELECT MIN(x) FROM k AS b WHERE b.g = k.g)", 4},
		{"UPDATE k SET x = x + (SELECT COUNT(*) FROM k AS b WHERE b.g = k.g AND b.x >= k.x)", 3},
		{"UPDATE s SET n = (SELECT SUM(n) FROM s AS b WHERE b.g = s.g), name = UPPER(name)", 3},
		{"DROP TRIGGER tb", 0},
		{"DROP TRIGGER ta", 0},
		{"UPDATE s SET name = LOWER(name), n = n + (SELECT COUNT(*) FROM s AS b WHERE b.n > s.n)", 3},
		{"DELETE FROM s WHERE n >= (SELECT MAX(n) FROM s AS b WHERE b.g = s.g) ORDER BY id LIMIT 1", 1},
	})
	wantAnswers(t, db, "read first", map[string]string{
		"SELECT GROUP_CONCAT(g, ':', x ORDER BY g, x) FROM k":                "1:9,1:10,2:5",
		"SELECT GROUP_CONCAT(id, name, n ORDER BY id) FROM s":                "2b!3,3c!3",
		"SELECT GROUP_CONCAT(id, ':', oldn, ':', newn ORDER BY id) FROM log": "1:1:3,2:2:3,3:3:3",
	})
}
