package sqlext_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/storage"
)

// TestDefaultCollationIsMySQLs: a database, table and column created
// without a collation are utf8mb4_0900_ai_ci, as in MySQL 8.0, so
// comparisons, keys, GROUP BY, DISTINCT and ORDER BY fold case and
// accents, and the system variables say so.
func TestDefaultCollationIsMySQLs(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE d",
		"CREATE TABLE d.t (s VARCHAR(10) PRIMARY KEY, n INT)",
		"CREATE TABLE d.u (id INT PRIMARY KEY, s VARCHAR(10), UNIQUE KEY s (s))",
		"CREATE TABLE d.g (id INT PRIMARY KEY, s VARCHAR(10), c CHAR(5), x TEXT)",
		"INSERT INTO d.t VALUES ('abc', 1), ('Zeta', 2), ('beta', 3)",
		"INSERT INTO d.u VALUES (1, 'abc')",
		"INSERT INTO d.g VALUES (1, 'abc', 'x', 'Hello'), (2, 'ABC', 'X', 'hello'), (3, 'Abc', 'y', 'HÉLLO'), (4, 'b', 'Y', 'other')")
	wantAnswers(t, db, "default collation", map[string]string{
		"SELECT @@collation_server, @@collation_database, @@character_set_server, @@character_set_database, @@collation_connection": "utf8mb4_0900_ai_ci,utf8mb4_0900_ai_ci,utf8mb4,utf8mb4,utf8mb4_0900_ai_ci",
		"SELECT @@GLOBAL.collation_server, @@GLOBAL.collation_database":                                                             "utf8mb4_0900_ai_ci,utf8mb4_0900_ai_ci",
		"SELECT s, n FROM d.t WHERE s = 'ABC'":                                                                                      "abc,1",
		"SELECT s FROM d.t WHERE s IN ('ZETA', 'BETA') ORDER BY s":                                                                  "beta;Zeta",
		"SELECT s FROM d.t WHERE s > 'B' ORDER BY s":                                                                                "beta;Zeta",
		"SELECT s FROM d.t ORDER BY s":                                                                                              "abc;beta;Zeta",
		"SELECT s FROM d.t ORDER BY s DESC":                                                                                         "Zeta;beta;abc",
		"SELECT s FROM d.t WHERE s LIKE 'A%'":                                                                                       "abc",
		"SELECT COUNT(*) FROM d.g WHERE s = 'abc'":                                                                                  "3",
		"SELECT COUNT(*) FROM d.g WHERE x = 'hello'":                                                                                "3",
		"SELECT COUNT(DISTINCT s) FROM d.g":                                                                                         "2",
		"SELECT COUNT(*) FROM (SELECT DISTINCT c FROM d.g) q":                                                                       "2",
		"SELECT LOWER(s), COUNT(*) FROM d.g GROUP BY s ORDER BY 1":                                                                  "abc,3;b,1",
		"SELECT 'a' = 'A', 'a' = 'á', 'a' < 'B'":                                                                                    "1,1,1",
		"SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'd' AND TABLE_NAME = 't'":                       "utf8mb4_0900_ai_ci",
		"SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'd' AND TABLE_NAME = 't' AND COLUMN_NAME = 's'": "utf8mb4_0900_ai_ci",
		"SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'd'":        "utf8mb4,utf8mb4_0900_ai_ci",
	})
	// The fast point select finds the key under the column's collation,
	// as the planner does.
	for _, fast := range []string{"ON", "OFF"} {
		mustExec(t, db, "SET sqlearn_fast_point_select = "+fast)
		if got := flat(queryStrings(t, db, "SELECT n FROM d.t WHERE s = 'ZETA'")); got != "2" {
			t.Errorf("fast point select %s: %q, want 2", fast, got)
		}
		if got := flat(queryStrings(t, db, "SELECT n FROM d.t WHERE s = ?", "BETA")); got != "3" {
			t.Errorf("fast point select %s, prepared: %q, want 3", fast, got)
		}
	}
	for _, q := range []string{
		"INSERT INTO d.t VALUES ('ABC', 9)",
		"INSERT INTO d.t VALUES ('ábc', 9)",
		"INSERT INTO d.u VALUES (2, 'ABC')",
		"UPDATE d.t SET s = 'BETA' WHERE s = 'zeta'",
	} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1062, "23000")
	}
	wantAnswers(t, db, "after refused duplicates", map[string]string{
		"SELECT COUNT(*) FROM d.t": "3",
		"SELECT COUNT(*) FROM d.u": "1",
	})
	// REPLACE and ON DUPLICATE KEY UPDATE find the row a case variant
	// names.
	mustExecAll(t, db, "INSERT INTO d.t VALUES ('ABC', 7) ON DUPLICATE KEY UPDATE n = 10",
		"REPLACE INTO d.u VALUES (1, 'ABC')")
	wantAnswers(t, db, "after upserts", map[string]string{
		"SELECT s, n FROM d.t WHERE n = 10": "abc,10",
		"SELECT id, s FROM d.u":             "1,ABC",
	})

	if create, want := showCreate(t, db, "SHOW CREATE TABLE d.t"), "CREATE TABLE `t` (\n  `s` varchar(10) NOT NULL,\n  `n` int DEFAULT NULL,\n  PRIMARY KEY (`s`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci"; create != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant\n%s", create, want)
	}
	if create, want := showCreate(t, db, "SHOW CREATE DATABASE d"), "CREATE DATABASE `d` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci */"; create != want {
		t.Errorf("SHOW CREATE DATABASE: %s, want %s", create, want)
	}
}

// TestExplicitCollationsStay: a column or table declared with a collation
// keeps it under the new default, and SHOW CREATE TABLE names a column's
// collation only where it differs from its table's, as MySQL does.
func TestExplicitCollationsStay(t *testing.T) {
	_, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE d",
		"CREATE TABLE d.b (s VARCHAR(10) PRIMARY KEY, ci VARCHAR(10) COLLATE utf8mb4_0900_ai_ci) COLLATE utf8mb4_0900_bin",
		"CREATE TABLE d.c (s VARCHAR(10) COLLATE utf8mb4_0900_bin PRIMARY KEY, t VARCHAR(10))",
		"INSERT INTO d.b VALUES ('abc', 'abc'), ('ABC', 'x')",
		"INSERT INTO d.c VALUES ('abc', 'abc'), ('ABC', 'x')")
	wantAnswers(t, db, "explicit collations", map[string]string{
		"SELECT COUNT(*) FROM d.b WHERE s = 'abc'":  "1",
		"SELECT COUNT(*) FROM d.b WHERE ci = 'ABC'": "1",
		"SELECT s FROM d.b ORDER BY s":              "ABC;abc",
		"SELECT COUNT(*) FROM d.c WHERE s = 'abc'":  "1",
		"SELECT COUNT(*) FROM d.c WHERE t = 'ABC'":  "1",
		"SELECT s FROM d.c ORDER BY s":              "ABC;abc",
	})
	for table, want := range map[string]string{
		"b": "CREATE TABLE `b` (\n  `s` varchar(10) NOT NULL,\n  `ci` varchar(10) COLLATE utf8mb4_0900_ai_ci DEFAULT NULL,\n  PRIMARY KEY (`s`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin",
		"c": "CREATE TABLE `c` (\n  `s` varchar(10) COLLATE utf8mb4_0900_bin NOT NULL,\n  `t` varchar(10) DEFAULT NULL,\n  PRIMARY KEY (`s`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci",
	} {
		if create := showCreate(t, db, "SHOW CREATE TABLE d."+table); create != want {
			t.Errorf("SHOW CREATE TABLE %s:\n%s\nwant\n%s", table, create, want)
		}
	}
}

// TestDatabaseCollations: CREATE DATABASE ... CHARACTER SET / COLLATE is
// kept per database (its tables default to it) and survives a restart,
// with SHOW CREATE DATABASE, information_schema.SCHEMATA and
// @@collation_database reporting it; ALTER DATABASE changes what new
// tables get, and bad names get MySQL's errors.
func TestDatabaseCollations(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	mustExecAll(t, db,
		"CREATE DATABASE bin DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin",
		"CREATE DATABASE ci COLLATE = utf8mb4_0900_ai_ci",
		"CREATE DATABASE cs CHARACTER SET utf8mb4",
		"CREATE DATABASE gen COLLATE utf8mb4_general_ci")
	// CREATE DATABASE with a collation raises no warning: it is kept.
	if got := flat(queryStrings(t, db, "SHOW WARNINGS")); got != "" {
		t.Errorf("warnings after CREATE DATABASE ... COLLATE: %s", got)
	}
	mustExecAll(t, db,
		"CREATE TABLE bin.t (s VARCHAR(10) PRIMARY KEY)",
		"CREATE TABLE ci.t (s VARCHAR(10) PRIMARY KEY)",
		"CREATE TABLE gen.t (s VARCHAR(10) PRIMARY KEY)",
		"INSERT INTO bin.t VALUES ('abc'), ('ABC')",
		"INSERT INTO ci.t VALUES ('abc')",
		"INSERT INTO gen.t VALUES ('abc')",
		"CREATE DATABASE later",
		"ALTER DATABASE later COLLATE utf8mb4_0900_bin",
		"CREATE TABLE later.t (s VARCHAR(10) PRIMARY KEY)",
		"INSERT INTO later.t VALUES ('abc'), ('ABC')")
	for _, q := range []string{"INSERT INTO ci.t VALUES ('ABC')", "INSERT INTO gen.t VALUES ('ABC')"} {
		_, err := db.Exec(q)
		wantMySQLError(t, err, 1062, "23000")
	}
	check := func(when string) {
		wantAnswers(t, db, when, map[string]string{
			"SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('bin', 'ci', 'cs', 'gen', 'later') ORDER BY 1": "bin,utf8mb4,utf8mb4_0900_bin;ci,utf8mb4,utf8mb4_0900_ai_ci;cs,utf8mb4,utf8mb4_0900_ai_ci;gen,utf8mb4,utf8mb4_general_ci;later,utf8mb4,utf8mb4_0900_bin",
			"SELECT COUNT(*) FROM bin.t WHERE s = 'abc'":   "1",
			"SELECT COUNT(*) FROM ci.t WHERE s = 'ABC'":    "1",
			"SELECT COUNT(*) FROM gen.t WHERE s = 'ABC'":   "1",
			"SELECT COUNT(*) FROM later.t WHERE s = 'abc'": "1",
		})
		if create, want := showCreate(t, db, "SHOW CREATE DATABASE bin"), "CREATE DATABASE `bin` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin */"; create != want {
			t.Errorf("%s: SHOW CREATE DATABASE: %s, want %s", when, create, want)
		}
		conn, exec := oneSession(t, db)
		if err := exec("USE bin"); err != nil {
			t.Fatal(err)
		}
		var coll, vname, vcoll string
		if err := conn.QueryRowContext(t.Context(), "SELECT @@collation_database").Scan(&coll); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(t.Context(), "SHOW VARIABLES LIKE 'collation_database'").Scan(&vname, &vcoll); err != nil {
			t.Fatal(err)
		}
		if coll != "utf8mb4_0900_bin" || vcoll != "utf8mb4_0900_bin" {
			t.Errorf("%s: in bin, @@collation_database %s and SHOW VARIABLES %s, want utf8mb4_0900_bin", when, coll, vcoll)
		}
		conn.Close()
	}
	check("created")
	srv.Close()
	_, db = openIn(t, dir)
	check("restarted")

	wantRefused(t, db,
		refusal{"CREATE DATABASE bad COLLATE nope", 1273},
		refusal{"CREATE DATABASE bad CHARACTER SET nope", 1115},
		refusal{"CREATE DATABASE bad CHARACTER SET latin1 COLLATE utf8mb4_0900_ai_ci", 1253},
		refusal{"ALTER DATABASE ci COLLATE nope", 1273},
		refusal{"CREATE TABLE ci.bad (s VARCHAR(10) COLLATE nope)", 1273},
		refusal{"CREATE TABLE ci.bad (s VARCHAR(10)) COLLATE nope", 1273},
		refusal{"CREATE DATABASE bad COLLATE utf8mb4_nb_0900_ai_ci", 1235},
	)
	if got := flat(queryStrings(t, db, "SHOW DATABASES LIKE 'bad'")); got != "" {
		t.Errorf("a refused CREATE DATABASE left %s", got)
	}
	_, err := db.Exec("CREATE DATABASE bad COLLATE nope")
	if err == nil || !strings.Contains(err.Error(), "Unknown collation: 'nope'") {
		t.Errorf("unknown collation: %v", err)
	}
}

// TestTablesBeforeTheDefaultChangedStayBinary: a table whose stored schema
// names no collation, or utf8mb4_0900_bin, as every table created before
// the default became utf8mb4_0900_ai_ci does, and a database that
// recorded none, keep comparing case-sensitively.
func TestTablesBeforeTheDefaultChangedStayBinary(t *testing.T) {
	srv, _, db := serve(t)
	mustExecAll(t, db, "CREATE DATABASE old",
		"CREATE TABLE old.t (s VARCHAR(10) PRIMARY KEY) COLLATE utf8mb4_0900_bin")
	// The database as one created before databases recorded a collation,
	// the table as one whose meta recorded none.
	for _, op := range []storage.Op{
		{Kind: storage.OpDeleteMeta, DB: "old", Name: "collation"},
		{Kind: storage.OpSetTableMeta, DB: "old", Table: "t", Name: `{}`},
	} {
		if err := srv.Node().Propose(t.Context(), storage.EncodeCommand(&storage.Command{Ops: []storage.Op{op}})); err != nil {
			t.Fatal(err)
		}
	}
	mustExecAll(t, db, "INSERT INTO old.t VALUES ('abc'), ('ABC')",
		"CREATE TABLE old.n (s VARCHAR(10) PRIMARY KEY)",
		"INSERT INTO old.n VALUES ('abc'), ('ABC')")
	wantAnswers(t, db, "old", map[string]string{
		"SELECT COUNT(*) FROM old.t WHERE s = 'abc'":                                                           "1",
		"SELECT COUNT(*) FROM old.n WHERE s = 'abc'":                                                           "1",
		"SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'old'":             "utf8mb4_0900_bin",
		"SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'old' ORDER BY TABLE_NAME": "utf8mb4_0900_bin;utf8mb4_0900_bin",
	})
}

// showCreate is the statement a SHOW CREATE TABLE or DATABASE answers.
func showCreate(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var name, create string
	if err := db.QueryRow(q).Scan(&name, &create); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return create
}

// wantCreateTables wants SHOW CREATE TABLE of each table named to begin
// with the text given.
func wantCreateTables(t *testing.T, db *sql.DB, want map[string]string) {
	t.Helper()
	for table, begin := range want {
		if got := showCreate(t, db, "SHOW CREATE TABLE "+table); !strings.HasPrefix(got, begin) {
			t.Errorf("SHOW CREATE TABLE %s:\n%s\nwant it to begin\n%s", table, got, begin)
		}
	}
}

// BenchmarkVarcharPointSelect selects one row by a VARCHAR primary key of
// 10,000 rows under utf8mb4_0900_bin and under utf8mb4_0900_ai_ci (the
// default), through the fast point select and through the planner, with
// one client:
//
//	go test -tags openblas -run '^$' -bench VarcharPointSelect -count 6 ./sqlext
func BenchmarkVarcharPointSelect(b *testing.B) {
	srv, addr := startServer(b, b.TempDir())
	defer srv.Close()
	db := connect(b, addr, "")
	mustExecAll(b, db, "CREATE DATABASE pb")
	for _, coll := range []string{"utf8mb4_0900_bin", "utf8mb4_0900_ai_ci"} {
		mustExecAll(b, db, "CREATE TABLE pb."+coll+" (k VARCHAR(32) PRIMARY KEY, v INT) COLLATE "+coll,
			"SET @@cte_max_recursion_depth = 10000; INSERT INTO pb."+coll+` SELECT CONCAT('Key-', x), x FROM (WITH RECURSIVE s(x) AS
			(SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 10000) SELECT x FROM s) r`)
	}
	for _, fast := range []string{"ON", "OFF"} {
		for _, coll := range []string{"utf8mb4_0900_bin", "utf8mb4_0900_ai_ci"} {
			b.Run("fast="+fast+"/"+coll, func(b *testing.B) {
				c := connect(b, addr, "pb")
				c.SetMaxOpenConns(1)
				mustExecAll(b, c, "SET sqlearn_fast_point_select = "+fast)
				q := "SELECT v FROM " + coll + " WHERE k = ?"
				i := 0
				for b.Loop() {
					i = i%10000 + 1
					var v int
					if err := c.QueryRow(q, fmt.Sprintf("Key-%d", i)).Scan(&v); err != nil || v != i {
						b.Fatalf("key %d: %d, %v", i, v, err)
					}
				}
			})
		}
	}
}
