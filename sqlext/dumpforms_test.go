package sqlext_test

import (
	"strings"
	"testing"
)

// TestDumpedStatementForms: statements as mariadb-dump and mysqldump
// write them load. A trigger in executable comments (/*!50003 CREATE*/
// /*!50017 DEFINER=...*/ /*!50003 TRIGGER ... */) is kept as the statement
// it stands for: it was kept with its comments cut at the ends only, so
// every later statement that read the database's triggers failed (1064).
// A table partitioned with an engine named for each partition loads,
// without its partitions (see TestPartitionSelection); the parser
// refused it.
func TestDumpedStatementForms(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE df", "USE df",
		"CREATE TABLE a (id INT PRIMARY KEY, n INT)", "CREATE TABLE b (id INT PRIMARY KEY)", "INSERT INTO a VALUES (1, 0)",
		"/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER counted AFTER INSERT ON b FOR EACH ROW BEGIN UPDATE a SET n = n + 1 WHERE id = 1; END */",
		"INSERT INTO b VALUES (1), (2)",
		"CREATE TABLE stats (d DATE NOT NULL, hits INT NOT NULL, PRIMARY KEY (d)) PARTITION BY RANGE (YEAR(d)) "+
			"(PARTITION p2023 VALUES LESS THAN (2024) ENGINE = InnoDB, PARTITION pmax VALUES LESS THAN MAXVALUE ENGINE = InnoDB)",
		"CREATE TABLE h (id INT PRIMARY KEY) ENGINE=InnoDB /*!50100 PARTITION BY HASH (id) PARTITIONS 4 */",
		"INSERT INTO stats VALUES ('2023-05-01', 10)", "INSERT INTO h VALUES (1)")
	wantAnswers(t, db, "after the dumped statements", map[string]string{
		"SELECT n FROM a":        "2",
		"SELECT hits FROM stats": "10",
		"SELECT COUNT(*) FROM h": "1",
		"SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'df'": "1",
	})
	var name, mode, stmt, cs, cc, dc, created string
	if err := db.QueryRow("SHOW CREATE TRIGGER counted").Scan(&name, &mode, &stmt, &cs, &cc, &dc, &created); err != nil {
		t.Fatal(err)
	}
	if want := "CREATE DEFINER=`root`@`localhost` TRIGGER counted AFTER INSERT ON b FOR EACH ROW BEGIN UPDATE a SET n = n + 1 WHERE id = 1; END"; stmt != want {
		t.Errorf("SHOW CREATE TRIGGER: %q, want %q", stmt, want)
	}
	for _, table := range []string{"stats", "h"} {
		if create := showCreate(t, db, "SHOW CREATE TABLE "+table); strings.Contains(create, "PARTITION") {
			t.Errorf("SHOW CREATE TABLE %s:\n%s", table, create)
		}
	}
}

// TestTriggersOfEveryDatabaseListed: information_schema.TRIGGERS lists the
// triggers of every database, from any current database or none; it read
// each trigger in the current database, failing with 1146 when another
// database had one and with 1046 without a current database.
func TestTriggersOfEveryDatabaseListed(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE tl1", "CREATE DATABASE tl2", "CREATE DATABASE tl3",
		"CREATE TABLE tl1.a (id INT PRIMARY KEY, n INT)", "CREATE TABLE tl2.b (id INT PRIMARY KEY)",
		"USE tl1", "CREATE TRIGGER ta BEFORE INSERT ON a FOR EACH ROW SET NEW.n = 1",
		"USE tl2", "CREATE TRIGGER tb AFTER INSERT ON b FOR EACH ROW UPDATE tl1.a SET n = n + 1",
		"USE tl3")
	const q = "SELECT GROUP_CONCAT(TRIGGER_SCHEMA, '.', TRIGGER_NAME, ':', EVENT_OBJECT_TABLE ORDER BY TRIGGER_SCHEMA) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA LIKE 'tl%'"
	wantAnswers(t, db, "from another database", map[string]string{q: "tl1.ta:a,tl2.tb:b", "SELECT DATABASE()": "tl3"})
	none := connect(t, addr, "")
	none.SetMaxOpenConns(1)
	wantAnswers(t, none, "without a current database", map[string]string{q: "tl1.ta:a,tl2.tb:b", "SELECT DATABASE()": "NULL"})
}
