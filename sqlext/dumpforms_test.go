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
