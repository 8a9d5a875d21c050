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

// TestCreateTableAsSelectOfLiterals: the columns CREATE TABLE ... AS
// SELECT makes of literals and expressions have MySQL's types (MariaDB's
// for these statements, but that its id + 1 is an INT, as it sizes
// arithmetic by digits, and a BIGINT here): an integer an INT, or a BIGINT when
// its value needs one, text a VARCHAR as long as the literal, NULL a
// BINARY(0). The engine made the narrowest type of the value (1 AS flag
// a TINYINT, which refused a later 1000), LONGTEXT of text, and refused
// NULL AS note outright (1105), as models built by SQL write them.
func TestCreateTableAsSelectOfLiterals(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE cl", "USE cl",
		"CREATE TABLE src (id TINYINT PRIMARY KEY, name VARCHAR(700))",
		"INSERT INTO src VALUES (1, 'a')",
		"CREATE TABLE m AS SELECT id, name, 1 AS flag, -5 AS neg, 2147483648 AS big, 'web' AS source, '' AS blank, x'4142' AS bin, "+
			"NULL AS note, id + 1 AS next, CONCAT(name, '!') AS shout, 1.5 AS ratio FROM src")
	create := showCreate(t, db, "SHOW CREATE TABLE m")
	for _, want := range []string{"`id` tinyint NOT NULL", "`name` varchar(700)", "`flag` int NOT NULL", "`neg` int NOT NULL",
		"`big` bigint NOT NULL", "`source` varchar(3) NOT NULL", "`blank` char(0) NOT NULL", "`bin` varbinary(2) NOT NULL",
		"`note` binary(0) DEFAULT NULL", "`next` bigint", "`shout` text", "`ratio` decimal(2,1) NOT NULL"} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE m has no %s:\n%s", want, create)
		}
	}
	mustExecAll(t, db, "INSERT INTO m (id, flag, source, blank, bin, neg, big, ratio, next) VALUES (2, 1000, 'app', '', 'xy', 0, 0, 0, 3)")
	wantAnswers(t, db, "rows", map[string]string{
		"SELECT id, flag, source, COALESCE(note, 'null'), shout FROM m ORDER BY id": "1,1,web,null,a!;2,1000,app,null,NULL",
	})
	_, err := db.Exec("INSERT INTO m (id, source, next) VALUES (3, 'mobile', 4)")
	wantMySQLMessage(t, "VARCHAR(3)", err, 1406, "22001", "Data too long for column 'source' at row 1")
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

// TestCreateTableWithColumnsAndQuery: CREATE TABLE t (columns, keys)
// [options] [IGNORE | REPLACE] [AS] query creates the table as MySQL does
// (MariaDB 10.11's tables are the reference): the columns the list alone
// names first, then the query's in its order, each defined by the list
// when the list names it (in any case, keeping the query's name), with
// the list's keys and options; the rows are stored by column name and
// converted to the columns' types. A failure leaves no table. It was a
// syntax error; the engine's planner, given the statement, stored the
// query's rows by position unconverted, and a NULL that reached a key
// stopped the server.
func TestCreateTableWithColumnsAndQuery(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE cw", "USE cw",
		"CREATE TABLE src (id INT PRIMARY KEY, name VARCHAR(10), v DECIMAL(6,2))",
		"INSERT INTO src VALUES (1, 'a', 1.50), (2, 'b', NULL), (3, 'c', 3.25), (4, 'a', 9)",
		"CREATE TABLE d1 (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL) SELECT id, name FROM src",
		"CREATE TABLE d2 (extra INT DEFAULT 7, KEY (id)) ENGINE=InnoDB COMMENT='made' AS SELECT id, v FROM src WHERE id > 2",
		"CREATE TABLE d3 (v INT, id BIGINT PRIMARY KEY) SELECT id, v FROM src",
		"CREATE TABLE k1 (PRIMARY KEY (id)) SELECT id, name FROM src",
		"CREATE TABLE k2 (n INT AUTO_INCREMENT PRIMARY KEY, NAME VARCHAR(30)) SELECT name FROM src ORDER BY id",
		"CREATE TABLE k3 (name VARCHAR(10) PRIMARY KEY) IGNORE SELECT name, id FROM src ORDER BY id",
		"CREATE TABLE k4 (name VARCHAR(10) PRIMARY KEY) REPLACE SELECT name, id FROM src ORDER BY id",
		"CREATE TABLE IF NOT EXISTS k4 (name VARCHAR(10) PRIMARY KEY) SELECT name, 99 AS id FROM src",
		"CREATE TABLE o1 COMMENT='from src' DEFAULT CHARSET=latin1 AS SELECT id, name FROM src")
	wantCreateTables(t, db, map[string]string{
		"d1": "CREATE TABLE `d1` (\n  `id` int NOT NULL,\n  `name` varchar(20) NOT NULL,\n  PRIMARY KEY (`id`)\n)",
		"d2": "CREATE TABLE `d2` (\n  `extra` int DEFAULT '7',\n  `id` int NOT NULL,\n  `v` decimal(6,2) DEFAULT NULL,\n  KEY `id` (`id`)\n)",
		"d3": "CREATE TABLE `d3` (\n  `id` bigint NOT NULL,\n  `v` int DEFAULT NULL,\n  PRIMARY KEY (`id`)\n)",
		"k1": "CREATE TABLE `k1` (\n  `id` int NOT NULL,\n  `name` varchar(10) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n)",
		"k2": "CREATE TABLE `k2` (\n  `n` int NOT NULL AUTO_INCREMENT,\n  `name` varchar(30) DEFAULT NULL,\n  PRIMARY KEY (`n`)\n)",
	})
	if got := showCreate(t, db, "SHOW CREATE TABLE d2"); !strings.HasSuffix(got, "COMMENT='made'") {
		t.Errorf("d2 has not its comment:\n%s", got)
	}
	// Options alone before the query: the columns are the query's.
	if got := showCreate(t, db, "SHOW CREATE TABLE o1"); !strings.Contains(got, "`name` varchar(10)") ||
		!strings.HasSuffix(got, "DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci COMMENT='from src'") {
		t.Errorf("o1:\n%s", got)
	}
	wantAnswers(t, db, "rows", map[string]string{
		"SELECT * FROM d1 ORDER BY id": "1,a;2,b;3,c;4,a",
		"SELECT * FROM d2 ORDER BY id": "7,3,3.25;7,4,9.00",
		"SELECT * FROM d3 ORDER BY id": "1,2;2,NULL;3,3;4,9",
		"SELECT * FROM k2 ORDER BY n":  "1,a;2,b;3,c;4,a",
		"SELECT * FROM k3 ORDER BY id": "a,1;b,2;c,3",
		"SELECT * FROM k4 ORDER BY id": "b,2;c,3;a,4",
		"SELECT * FROM o1 ORDER BY id": "1,a;2,b;3,c;4,a",
	})
	// The rows copied are the statement's count, as MySQL answers.
	res, err := db.Exec("CREATE TABLE counted (id INT PRIMARY KEY) SELECT id FROM src WHERE id > 1")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 3 {
		t.Errorf("rows affected %d, want 3", n)
	}
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"CREATE TABLE bad1 (x INT) SELECT nosuch FROM src", 1054},
		{"CREATE TABLE bad2 (name INT) SELECT name FROM src", 1366},
		{"CREATE TABLE bad3 (name VARCHAR(10) PRIMARY KEY) SELECT name FROM src", 1062},
		{"CREATE TABLE d1 (id INT) SELECT id FROM src", 1050},
	} {
		_, err := db.Exec(c.q)
		wantMySQLError(t, err, c.code, "")
	}
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cw' AND TABLE_NAME LIKE 'bad%'")); got != "0" {
		t.Errorf("failed statements left %s tables", got)
	}
}
