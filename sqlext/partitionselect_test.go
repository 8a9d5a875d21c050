package sqlext_test

import "testing"

// TestPartitionSelection: CREATE TABLE ... PARTITION BY makes a table as
// any other, and a statement naming one of its partitions is MySQL's
// 1747 for a table without partitions, in a subquery too and over
// prepared statements, and writes nothing; the engine read and wrote
// the whole table. PARTITION BY in a window is not a partition's name.
func TestPartitionSelection(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE ps", "USE ps",
		"CREATE TABLE pt (id INT PRIMARY KEY, v INT) PARTITION BY HASH(id) PARTITIONS 4",
		"INSERT INTO pt VALUES (1, 10), (2, 20)")
	const msg = "PARTITION () clause on non partitioned table"
	for _, q := range []string{
		"SELECT * FROM pt PARTITION (p0)",
		"SELECT * FROM pt WHERE id IN (SELECT id FROM pt PARTITION (p1, p2))",
		"INSERT INTO pt PARTITION (p3) VALUES (3, 30)",
		"REPLACE INTO pt PARTITION (p1) VALUES (1, 11)",
		"UPDATE pt PARTITION (p1) SET v = 0",
		"DELETE FROM pt PARTITION (p2)",
	} {
		_, err := db.Exec(q)
		wantMySQLMessage(t, q, err, 1747, "HY000", msg)
	}
	_, err := db.Exec("SELECT * FROM pt PARTITION (p0) WHERE id = ?", 1)
	wantMySQLMessage(t, "prepared", err, 1747, "HY000", msg)
	wantAnswers(t, db, "nothing written", map[string]string{
		"SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM pt":                   "1:10,2:20",
		"SELECT SUM(s) FROM (SELECT SUM(v) OVER (PARTITION BY id) s FROM pt) w": "30",
	})
}

// TestCreateSelectKeepsLastInsertID: CREATE TABLE ... SELECT into a table
// without an AUTO_INCREMENT column generates no value and leaves
// LAST_INSERT_ID() as the last INSERT set it, as in MySQL; it was 0.
func TestCreateSelectKeepsLastInsertID(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE li", "USE li",
		"CREATE TABLE a (id INT PRIMARY KEY AUTO_INCREMENT, v INT)",
		"INSERT INTO a (v) VALUES (1), (2)", "INSERT INTO a (v) VALUES (3)",
		"CREATE TABLE copied AS SELECT v FROM a")
	wantAnswers(t, db, "after CREATE TABLE ... SELECT", map[string]string{
		"SELECT LAST_INSERT_ID()":            "3",
		"SELECT GROUP_CONCAT(v) FROM copied": "1,2,3",
	})
	mustExecAll(t, db, "CREATE TABLE numbered (n INT PRIMARY KEY AUTO_INCREMENT) SELECT v FROM a")
	wantAnswers(t, db, "into a table that numbers its rows", map[string]string{
		"SELECT LAST_INSERT_ID()": "1",
	})
}

// TestCreateSelectRowCount: ROW_COUNT() after CREATE TABLE ... SELECT is
// the count of rows copied, with or without a column list, and 0 when
// IF NOT EXISTS finds the table there, as in MySQL; the engine took the
// statement for a query and answered -1.
func TestCreateSelectRowCount(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE rc", "USE rc",
		"CREATE TABLE a (id INT PRIMARY KEY, v INT)", "INSERT INTO a VALUES (1, 1), (2, 2), (3, 3)")
	for _, c := range [][2]string{
		{"CREATE TABLE b AS SELECT * FROM a", "3"},
		{"CREATE TABLE c (n INT PRIMARY KEY AUTO_INCREMENT, v INT) SELECT v FROM a", "3"},
		{"CREATE TABLE d (v INT) SELECT v FROM a WHERE v > 1", "2"},
		{"CREATE TABLE e AS SELECT * FROM a WHERE v > 5", "0"},
		{"CREATE TABLE IF NOT EXISTS b AS SELECT * FROM a", "0"},
	} {
		mustExecAll(t, db, "INSERT INTO a VALUES (9, 9)", "DELETE FROM a WHERE id = 9", c[0])
		wantAnswers(t, db, c[0], map[string]string{"SELECT ROW_COUNT()": c[1]})
	}
}
