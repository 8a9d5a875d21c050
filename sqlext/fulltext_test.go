package sqlext_test

import (
	"context"
	"strings"
	"testing"
)

// articlesFT is a table with a FULLTEXT index and the rows of MySQL's
// manual's full-text examples.
var articlesFT = []string{
	"CREATE TABLE articles (id INT UNSIGNED AUTO_INCREMENT NOT NULL PRIMARY KEY, title VARCHAR(200), body TEXT, FULLTEXT (title, body))",
	`INSERT INTO articles (title, body) VALUES
	('MySQL Tutorial', 'DBMS stands for DataBase ...'),
	('How To Use MySQL Well', 'After you went through a ...'),
	('Optimizing MySQL', 'In this tutorial, we show ...'),
	('1001 MySQL Tricks', '1. Never run mysqld as root. 2. ...'),
	('MySQL vs. YourSQL', 'In the following database comparison ...'),
	('MySQL Security', 'When configured properly, MySQL ...')`,
}

// scoresOf is the query that lists each article's relevance for against.
func scoresOf(against string) string {
	return "SELECT GROUP_CONCAT(id, ':', MATCH (title, body) AGAINST (" + against + ") ORDER BY id SEPARATOR ' ') FROM articles"
}

// TestFulltextSearch: MATCH ... AGAINST ranks rows as InnoDB does, in
// natural language and boolean mode; every answer here is MariaDB
// 10.11's (InnoDB) for the same statements. A WHERE MATCH without ORDER
// BY returns the rows by relevance.
func TestFulltextSearch(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, append([]string{"CREATE DATABASE fts", "USE fts"}, articlesFT...)...)
	const tiny = "0.000000001885928302414186" // a word every row holds
	wantAnswers(t, db, "relevance", map[string]string{
		scoresOf("'database' IN NATURAL LANGUAGE MODE"):         "1:0.22764469683170319 2:0 3:0 4:0 5:0.22764469683170319 6:0",
		scoresOf("'mysql tutorial'"):                            "1:0.22764469683170319 2:" + tiny + " 3:0.22764469683170319 4:" + tiny + " 5:" + tiny + " 6:0.000000003771856604828372",
		scoresOf("'mysql mysql'"):                               "1:0.0906190574169159 2:0.0906190574169159 3:0.0906190574169159 4:0.0906190574169159 5:0.0906190574169159 6:0.1812381148338318",
		scoresOf("'\"database comparison\"'"):                   "1:0 2:0 3:0 4:0 5:0.8331640362739563 6:0",
		scoresOf("'Tutorial, DBMS; show!'"):                     "1:0.8331640362739563 2:0 3:0.8331640362739563 4:0 5:0 6:0",
		scoresOf("'the run root ab'"):                           "1:0 2:0 3:0 4:1.2110387086868286 5:0 6:0",
		scoresOf("NULL"):                                        "1:0 2:0 3:0 4:0 5:0 6:0",
		scoresOf("'+MySQL -YourSQL' IN BOOLEAN MODE"):           "1:" + tiny + " 2:" + tiny + " 3:" + tiny + " 4:" + tiny + " 5:0 6:0.000000003771856604828372",
		scoresOf("'MySQL >tutorial <security' IN BOOLEAN MODE"): "1:1.227644681930542 2:" + tiny + " 3:1.227644681930542 4:" + tiny + " 5:" + tiny + " 6:-0.3944806456565857",
		scoresOf("'tut*' IN BOOLEAN MODE"):                      "1:0.22764469683170319 2:0 3:0.22764469683170319 4:0 5:0 6:0",
		scoresOf("'mysql*' IN BOOLEAN MODE"):                    "1:0.004481872543692589 2:0.004481872543692589 3:0.004481872543692589 4:0.004481872543692589 5:0.004481872543692589 6:0.008963745087385178",
		scoresOf("'\"mysql tricks\"' IN BOOLEAN MODE"):          "1:0 2:0 3:0 4:0.6055193543434143 5:0 6:0",
		scoresOf("'\"tricks mysql\"' IN BOOLEAN MODE"):          "1:0 2:0 3:0 4:0 5:0 6:0",
		scoresOf("'security ~mysql' IN BOOLEAN MODE"):           "1:0 2:0 3:0 4:0 5:0 6:-0.3944806456565857",
		scoresOf("'~tricks mysql' IN BOOLEAN MODE"):             "1:" + tiny + " 2:" + tiny + " 3:" + tiny + " 4:" + tiny + " 5:" + tiny + " 6:0.000000003771856604828372",
		scoresOf("'+tutorial +(>show <dbms)' IN BOOLEAN MODE"):  "1:-0.1668359637260437 2:0 3:1.8331639766693115 4:0 5:0 6:0",
		scoresOf("'+the +tutorial' IN BOOLEAN MODE"):            "1:0 2:0 3:0 4:0 5:0 6:0",
		scoresOf("'tricks -mysql' IN BOOLEAN MODE"):             "1:0 2:0 3:0 4:0 5:0 6:0",
		scoresOf("'+tutorial dbms' IN BOOLEAN MODE"):            "1:0.8331640362739563 2:0 3:0.22764469683170319 4:0 5:0 6:0",
		// By relevance, ties in key order.
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('mysql tutorial security')":                      "6;1;3;2;4;5",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('<tricks' IN BOOLEAN MODE)":                      "4",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('tutorial database') AND id > 1 LIMIT 1":         "3",
		"SELECT COUNT(*) FROM articles a WHERE MATCH (a.title, a.body) AGAINST ('+mysql -security' IN BOOLEAN MODE)": "5",
	})
	// The column is named as written.
	if cols := resultColumns(t, db, "SELECT MATCH (title,body) AGAINST ('database') FROM articles LIMIT 1"); len(cols) != 1 || cols[0].Name() != "MATCH (title,body) AGAINST ('database')" {
		t.Errorf("column name %q", cols[0].Name())
	}
	// A prepared statement takes the query as a parameter.
	if got := flat(queryStrings(t, db, "SELECT id FROM articles WHERE MATCH (title, body) AGAINST (? IN BOOLEAN MODE) ORDER BY id", "+mysql +tutorial")); got != "1;3" {
		t.Errorf("prepared MATCH: %q", got)
	}
	// The counts follow the table's rows: a seventh row holding
	// "database" changes every row's relevance for it.
	mustExecAll(t, db, "INSERT INTO articles (title, body) VALUES ('Database Ünïcode Straße', 'café CAFÉ naïve_word x2y ab abc')")
	wantAnswers(t, db, "relevance after an insert", map[string]string{
		scoresOf("'database'"):               "1:0.13540691137313843 2:0 3:0 4:0 5:0.13540691137313843 6:0 7:0.13540691137313843",
		scoresOf("'café naïve_word'"):        "1:0 2:0 3:0 4:0 5:0 6:0 7:2.1425721645355225",
		scoresOf("'STRASSE straße ünïcode'"): "1:0 2:0 3:0 4:0 5:0 6:0 7:1.4283814430236816",
	})
	// A row's new text is searched once it commits, and its old text no
	// longer.
	mustExecAll(t, db, "UPDATE articles SET body = 'a database, and another database' WHERE id = 2")
	wantAnswers(t, db, "after an update", map[string]string{
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('database') ORDER BY id": "1;2;5;7",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('went') ORDER BY id":     "",
	})
	mustExecAll(t, db, "UPDATE articles SET body = 'After you went through a ...' WHERE id = 2")
	wantAnswers(t, db, "after an update back", map[string]string{
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('database') ORDER BY id": "1;5;7",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('went') ORDER BY id":     "2",
	})
	// A procedure's statements, a view's query and a correlated subquery
	// search too.
	mustExecAll(t, db, "CREATE PROCEDURE pm(q VARCHAR(50)) SELECT id FROM articles WHERE MATCH (title, body) AGAINST (q)",
		`CREATE PROCEDURE pw() BEGIN
			SELECT COUNT(*) INTO @before FROM articles WHERE MATCH (title, body) AGAINST ('zebra');
			UPDATE articles SET body = 'a zebra' WHERE id = 2;
			SELECT COUNT(*) INTO @after FROM articles WHERE MATCH (title, body) AGAINST ('zebra');
			UPDATE articles SET body = 'After you went through a ...' WHERE id = 2;
		END`, "CALL pw()",
		"CREATE VIEW vm AS SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('tutorial')")
	wantAnswers(t, db, "in routines and views", map[string]string{
		"CALL pm('security')":    "6",
		"SELECT @before, @after": "0,1",
		"SELECT * FROM vm":       "1;3",
		"SELECT a.id, (SELECT COUNT(*) FROM articles b WHERE b.id = a.id AND MATCH (a.title, a.body) AGAINST ('tutorial')) FROM articles a ORDER BY a.id": "1,1;2,0;3,1;4,0;5,0;6,0;7,0",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('tutorial') OR id = 2":                                                                "1;2;3",
	})
	// As in InnoDB, a transaction's own rows are not found until it
	// commits, nor a row whose indexed text it changed.
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"BEGIN", "INSERT INTO articles (title, body) VALUES ('tutorial again', 'x')",
		"UPDATE articles SET body = 'no longer' WHERE id = 3"} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := flat(queryStrings(t, conn, "SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('tutorial database')")); got != "1;5;7" {
		t.Errorf("inside a transaction: %q, want %q", got, "1;5;7")
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close() // the pool's one connection

	_, err = db.Exec("SELECT MATCH (title) AGAINST ('x') FROM articles")
	wantMySQLMessage(t, "MATCH of other columns", err, 1191, "HY000", "Can't find FULLTEXT index matching the column list")
	_, err = db.Exec("SELECT id FROM (SELECT * FROM articles) d WHERE MATCH (title, body) AGAINST ('tutorial')")
	wantMySQLError(t, err, 1191, "HY000")
	_, err = db.Exec("SELECT MATCH (title, CONCAT(body)) AGAINST ('x') FROM articles")
	wantMySQLMessage(t, "MATCH of an expression", err, 1210, "HY000", "Incorrect arguments to MATCH")
	_, err = db.Exec("CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY, b TEXT, FULLTEXT (b))")
	wantMySQLMessage(t, "FULLTEXT of a temporary table", err, 1796, "HY000", "Cannot create FULLTEXT index on temporary InnoDB table")
	_, err = db.Exec(scoresOf("'>>tricks' IN BOOLEAN MODE"))
	wantMySQLMessage(t, "two operators", err, 1064, "42000", "syntax error, unexpected '>'")
	wantAnswers(t, db, "the tokenizer's variables", map[string]string{
		"SELECT @@innodb_ft_min_token_size, @@innodb_ft_max_token_size, @@innodb_ft_enable_stopword": "3,84,1",
	})
	_, err = db.Exec("SET GLOBAL innodb_ft_min_token_size = 2")
	wantMySQLError(t, err, 1238, "HY000")
	_, err = db.Exec(scoresOf("'database' WITH QUERY EXPANSION"))
	wantMySQLError(t, err, 1235, "42000")
}

// TestFulltextIndexes: FULLTEXT indexes are made by CREATE TABLE, CREATE
// FULLTEXT INDEX and ALTER TABLE, listed by SHOW CREATE TABLE, SHOW
// INDEX and information_schema.STATISTICS, follow their columns through
// DROP and RENAME COLUMN, are dropped by DROP INDEX, and survive a
// restart. Only text columns take one (1283), and a CREATE TABLE refused
// so leaves no table. They were not made at all (warning 1235).
func TestFulltextIndexes(t *testing.T) {
	dir := t.TempDir()
	srv, db := openIn(t, dir)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, append([]string{"CREATE DATABASE ftx", "USE ftx"}, articlesFT...)...)
	if create := showCreate(t, db, "SHOW CREATE TABLE articles"); !strings.Contains(create, "  PRIMARY KEY (`id`),\n  FULLTEXT KEY `title` (`title`,`body`)\n) ENGINE") {
		t.Errorf("SHOW CREATE TABLE articles:\n%s", create)
	}
	var shown []string
	for _, r := range queryStrings(t, db, "SHOW INDEX FROM articles") {
		shown = append(shown, strings.Join([]string{r[1], r[2], r[3], r[4], r[9], r[10]}, " "))
	}
	if got, want := strings.Join(shown, "; "), "0 PRIMARY 1 id  BTREE; 1 title 1 title YES FULLTEXT; 1 title 2 body YES FULLTEXT"; got != want {
		t.Errorf("SHOW INDEX: %q, want %q", got, want)
	}
	mustExecAll(t, db, "CREATE FULLTEXT INDEX ft_body ON articles (body)",
		"ALTER TABLE articles ADD FULLTEXT INDEX ft_title (title), ADD COLUMN n INT DEFAULT 3",
		"ALTER TABLE articles ADD FULLTEXT (title) COMMENT 'titles'")
	wantAnswers(t, db, "made", map[string]string{
		"SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX), INDEX_TYPE, INDEX_COMMENT FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ftx' AND INDEX_TYPE = 'FULLTEXT' GROUP BY INDEX_NAME, INDEX_TYPE, INDEX_COMMENT ORDER BY INDEX_NAME": "ft_body,body,FULLTEXT,;ft_title,title,FULLTEXT,;title,title,body,FULLTEXT,;title_2,title,FULLTEXT,titles",
		"SELECT id FROM articles WHERE MATCH (body) AGAINST ('tutorial')":  "3",
		"SELECT id FROM articles WHERE MATCH (title) AGAINST ('tutorial')": "1",
	})
	mustExecAll(t, db, "DROP INDEX ft_body ON articles", "ALTER TABLE articles DROP INDEX title_2")
	if create := showCreate(t, db, "SHOW CREATE TABLE articles"); !strings.Contains(create, "  FULLTEXT KEY `title` (`title`,`body`),\n  FULLTEXT KEY `ft_title` (`title`)\n) ENGINE") || strings.Contains(create, "ft_body") {
		t.Errorf("SHOW CREATE TABLE articles after DROP INDEX:\n%s", create)
	}
	_, err := db.Exec("SELECT id FROM articles WHERE MATCH (body) AGAINST ('tutorial')")
	wantMySQLError(t, err, 1191, "HY000")

	_, err = db.Exec("CREATE TABLE bad (id INT PRIMARY KEY, n INT, FULLTEXT (n))")
	wantMySQLMessage(t, "FULLTEXT of an INT", err, 1283, "HY000", "Column 'n' cannot be part of FULLTEXT index")
	_, err = db.Exec("ALTER TABLE articles ADD FULLTEXT (n)")
	wantMySQLError(t, err, 1283, "HY000")
	wantAnswers(t, db, "no table left", map[string]string{"SHOW TABLES LIKE 'bad'": ""})

	mustExecAll(t, db, "CREATE TABLE notes (id INT PRIMARY KEY, a VARCHAR(50), b TEXT, FULLTEXT KEY fa (a), FULLTEXT (a, b), KEY (id, a))",
		"INSERT INTO notes VALUES (1, 'hello world', 'x'), (2, 'goodbye world', 'y'), (3, 'hello there', 'z')",
		"ALTER TABLE notes DROP COLUMN b", "ALTER TABLE notes RENAME COLUMN a TO words")
	if create := showCreate(t, db, "SHOW CREATE TABLE notes"); !strings.Contains(create, "  KEY `id` (`id`,`words`),\n  FULLTEXT KEY `fa` (`words`),\n  FULLTEXT KEY `a` (`words`)\n) ENGINE") {
		t.Errorf("SHOW CREATE TABLE notes:\n%s", create)
	}
	mustExecAll(t, db, "UPDATE notes SET words = 'changed' WHERE MATCH (words) AGAINST ('goodbye')",
		"DELETE FROM notes WHERE MATCH (words) AGAINST ('+there' IN BOOLEAN MODE)")
	wantAnswers(t, db, "writes by MATCH", map[string]string{"SELECT id, words FROM notes ORDER BY id": "1,hello world;2,changed"})

	srv.Close()
	_, db = openIn(t, dir)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "USE ftx")
	wantAnswers(t, db, "after a restart", map[string]string{
		"SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ftx' AND INDEX_TYPE = 'FULLTEXT'": "5",
		"SELECT id FROM articles WHERE MATCH (title, body) AGAINST ('tutorial')":                                    "1;3",
		"SELECT id FROM notes WHERE MATCH (words) AGAINST ('hello')":                                                "1",
	})
}

// TestFailedCreateTableLeavesNoTable: a CREATE TABLE that fails on one of
// its indexes, which the engine makes after the table, leaves no table,
// as in MySQL; the engine left it without its indexes. A duplicate key
// name is MySQL's 1061.
func TestFailedCreateTableLeavesNoTable(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE cf", "USE cf", "CREATE TABLE kept (id INT PRIMARY KEY)")
	_, err := db.Exec("CREATE TABLE u (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY (s(5)))")
	wantMySQLError(t, err, 1089, "HY000")
	_, err = db.Exec("CREATE TABLE d (id INT PRIMARY KEY, s VARCHAR(30), KEY k (s), KEY k (id))")
	wantMySQLMessage(t, "a key name twice", err, 1061, "42000", "Duplicate key name 'k'")
	_, err = db.Exec("CREATE TABLE kept (id INT PRIMARY KEY, s VARCHAR(30), UNIQUE KEY (s(5)))")
	wantMySQLError(t, err, 1050, "42S01")
	wantAnswers(t, db, "tables", map[string]string{"SHOW TABLES": "kept"})
	mustExecAll(t, db, "CREATE TABLE u (id INT PRIMARY KEY, s VARCHAR(30), KEY (s(5)))")
}

// TestIndexStatementOptions: CREATE INDEX and DROP INDEX with ALGORITHM
// and LOCK options, as online schema-change tools write them, run (the
// parser refused them); a key name given twice by CREATE INDEX is 1061.
func TestIndexStatementOptions(t *testing.T) {
	_, _, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExecAll(t, db, "CREATE DATABASE io", "USE io", "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT)",
		"CREATE INDEX kb ON t (b) ALGORITHM=INPLACE LOCK=NONE",
		"CREATE UNIQUE INDEX ka ON t (a) LOCK = SHARED",
		"DROP INDEX kb ON t ALGORITHM = INPLACE")
	if create := showCreate(t, db, "SHOW CREATE TABLE t"); !strings.Contains(create, "UNIQUE KEY `ka` (`a`)") || strings.Contains(create, "`kb`") {
		t.Errorf("SHOW CREATE TABLE t:\n%s", create)
	}
	_, err := db.Exec("CREATE INDEX ka ON t (b)")
	wantMySQLMessage(t, "a key name twice", err, 1061, "42000", "Duplicate key name 'ka'")
}
