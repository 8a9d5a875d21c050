package sqlext_test

import (
	"strings"
	"testing"
)

// TestCreateTableAsSelectColumns: CREATE TABLE ... AS SELECT gives an
// aggregate other than COUNT a column that may hold NULL, and SUM and AVG
// of DECIMALs their exact DECIMAL types, as MySQL does; a group whose
// values are all NULL no longer fails the statement.
func TestCreateTableAsSelectColumns(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE cs",
		"CREATE TABLE cs.a (id INT PRIMARY KEY, g VARCHAR(5), v DECIMAL(8,2), d DATETIME(3), n INT NOT NULL)",
		"INSERT INTO cs.a VALUES (1, 'x', 1.5, '2024-01-01 10:00:00.123', 1), (2, 'y', 2.25, NULL, 2)",
		"CREATE TABLE cs.b AS SELECT g, SUM(v) s, MAX(d) md, COUNT(*) c, AVG(v) av, MIN(n) mn FROM cs.a GROUP BY g",
		"CREATE TABLE cs.e AS SELECT MAX(d) md, SUM(n) sn FROM cs.a WHERE id > 5")
	create := showCreate(t, db, "SHOW CREATE TABLE cs.b")
	for _, want := range []string{"`s` decimal(30,2) DEFAULT NULL", "`md` datetime(3) DEFAULT NULL", "`c` bigint NOT NULL",
		"`av` decimal(12,6) DEFAULT NULL", "`mn` int DEFAULT NULL"} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE cs.b has no %s:\n%s", want, create)
		}
	}
	// Columns of expressions are named as written.
	mustExecAll(t, db, "CREATE TABLE cs.n AS SELECT MAX(d), g, a.v, COUNT(*)  , UPPER(g) AS ug, 'lit', 1+2 FROM cs.a GROUP BY g, v")
	create = showCreate(t, db, "SHOW CREATE TABLE cs.n")
	for _, want := range []string{"`MAX(d)` datetime(3)", "`g` varchar(5)", "`v` decimal(8,2)", "`COUNT(*)` bigint", "`ug` ", "`lit` ", "`1+2` "} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE cs.n has no %s:\n%s", want, create)
		}
	}
	wantAnswers(t, db, "ctas", map[string]string{
		"SELECT g, s, COALESCE(md, 'null'), c, av, mn FROM cs.b ORDER BY g": "x,1.50,2024-01-01 10:00:00.123,1,1.500000,1;y,2.25,null,1,2.250000,2",
		"SELECT COALESCE(md, 'null'), COALESCE(sn, 'null') FROM cs.e":       "null,null",
	})
}

// TestTableOptionsAsMySQLReadsThem: a storage engine named in quotes
// (ENGINE='InnoDB') is taken in CREATE and ALTER TABLE, and one MySQL
// does not know is still 1286; table options that change nothing here
// (the engine, ROW_FORMAT, the default character set) may stand before
// the query of a CREATE TABLE ... SELECT. All were syntax errors.
func TestTableOptionsAsMySQLReadsThem(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE tob", "USE tob",
		"CREATE TABLE q1 (a INT) ENGINE='InnoDB'",
		`CREATE TABLE q2 (a INT) ENGINE = "MyISAM" DEFAULT CHARSET=utf8mb4`,
		"ALTER TABLE q1 ENGINE='InnoDB'",
		"CREATE TABLE c1 ENGINE=InnoDB AS SELECT 1 AS x",
		"CREATE TABLE c2 ENGINE='InnoDB' DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC, COLLATE utf8mb4_0900_ai_ci SELECT 2 AS y",
		"CREATE TABLE IF NOT EXISTS c1 ENGINE=InnoDB AS SELECT 3 AS x")
	wantAnswers(t, db, "table options", map[string]string{
		"SELECT x FROM c1": "1",
		"SELECT y FROM c2": "2",
		"SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tob'": "c1,c2,q1,q2",
	})
	_, err := db.Exec("CREATE TABLE q3 (a INT) ENGINE='Nope'")
	wantMySQLError(t, err, 1286, "42000")
}
