package sqlext_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/sqlext"
)

// TestServerSideFileAccess checks that LOAD DATA INFILE, SELECT ... INTO
// OUTFILE and LOAD_FILE() are refused with MySQL's error 1290 on a server
// without an import directory, and confined to it on one with it.
func TestServerSideFileAccess(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "out.csv")

	_, _, db := serve(t)
	load := "LOAD_FILE('" + secret + "')"
	mustExecAll(t, db, "CREATE DATABASE fa", "CREATE TABLE fa.t (s TEXT)", "INSERT INTO fa.t VALUES ('kept')",
		"CREATE TABLE fa.k (id INT PRIMARY KEY, s TEXT)", "INSERT INTO fa.k VALUES (1, 'kept')",
		"CREATE PROCEDURE fa.readfile() SELECT "+load,
		"CREATE PROCEDURE fa.writefile() SELECT 1 INTO OUTFILE '"+outside+"'",
		"CREATE TABLE fa.g (s TEXT)",
		"CREATE TRIGGER fa.tr BEFORE INSERT ON fa.g FOR EACH ROW SET NEW.s = "+load)
	// As in MySQL with file access disabled, and not '' ("anywhere").
	if got := flat(queryStrings(t, db, "SELECT @@secure_file_priv IS NULL")); got != "1" {
		t.Errorf("@@secure_file_priv IS NULL = %s without an import directory", got)
	}
	// Every path the engine plans a statement by: the full analyzer, the
	// short one of single-table UPDATE and DELETE, subqueries, stored
	// procedures and triggers.
	for _, q := range []string{
		"SELECT " + load,
		"SELECT 1 INTO OUTFILE '" + outside + "'",
		"LOAD DATA INFILE '" + secret + "' INTO TABLE fa.t",
		"UPDATE fa.t SET s = " + load,
		"UPDATE fa.k SET s = " + load + " WHERE id = 1",
		"DELETE FROM fa.t WHERE s <> " + load,
		"SELECT (SELECT " + load + ")",
		"SELECT * FROM fa.t WHERE s IN (SELECT " + load + ")",
		"INSERT INTO fa.t VALUES (" + load + ")",
		"CALL fa.readfile()",
		"INSERT INTO fa.g VALUES ('a')",
	} {
		_, err := db.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1290 {
			t.Errorf("%s: %v, want error 1290", q, err)
		}
	}
	// The engine cannot run INTO OUTFILE inside a procedure at all (it
	// fails with another error, with or without an import directory).
	if _, err := db.Exec("CALL fa.writefile()"); err == nil {
		t.Error("CALL fa.writefile(): no error")
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("INTO OUTFILE wrote a file with file access off")
	}
	if got := flat(queryStrings(t, db, "SELECT (SELECT GROUP_CONCAT(s) FROM fa.t), (SELECT s FROM fa.k), (SELECT COUNT(*) FROM fa.g)")); got != "kept,kept,0" {
		t.Errorf("refused statements changed rows: %s", got)
	}

	// With an import directory, a file in it loads; one outside does not.
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(in, []byte("a\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	defer srv.Close()
	db = connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE fa", "CREATE TABLE fa.t (s TEXT)", "LOAD DATA INFILE '"+in+"' INTO TABLE fa.t")
	if got := flat(queryStrings(t, db, "SELECT @@secure_file_priv")); got != dir {
		t.Errorf("@@secure_file_priv = %s, want %s", got, dir)
	}
	if got := queryStrings(t, db, "SELECT COUNT(*) FROM fa.t"); got[0][0] != "2" {
		t.Errorf("loaded %s rows, want 2", got[0][0])
	}
	if _, err := db.Exec("LOAD DATA INFILE '" + secret + "' INTO TABLE fa.t"); err == nil {
		t.Error("a file outside the import directory was loaded")
	}
}

// TestLoadDataLocal: LOAD DATA LOCAL INFILE reads the file from the
// client. It is refused with MySQL's 3948 while local_infile is OFF (its
// default, as in MySQL 8), and loads what the client sends once it is ON.
func TestLoadDataLocal(t *testing.T) {
	in := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(in, []byte("1,one\n2,two\n3,\"th,ree\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, addr, db := serve(t)
	// The driver sends a file the server asks for only when told it may.
	local := connectAs(t, addr, "root", "?allowAllFiles=true")
	mustExecAll(t, db, "CREATE DATABASE ld", "CREATE TABLE ld.t (id INT PRIMARY KEY, name VARCHAR(10))")
	load := "LOAD DATA LOCAL INFILE '" + in + "' INTO TABLE ld.t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"
	_, err := local.Exec(load)
	wantMySQLError(t, err, 3948, "42000")
	mustExecAll(t, db, "SET GLOBAL local_infile = 1")
	t.Cleanup(func() { db.Exec("SET GLOBAL local_infile = 0") })
	mustExecAll(t, local, load)
	if got := flat(queryStrings(t, db, "SELECT id, name FROM ld.t ORDER BY id")); got != "1,one;2,two;3,th,ree" {
		t.Errorf("loaded %s", got)
	}
}

// TestLoadDataFormats: LOAD DATA INFILE of a CSV file with a header, a
// quoted field holding the separator, a doubled quote and a line break,
// NULLs spelled \N and NULL, a column list with user variables and SET
// (NULLIF turning an empty field into NULL, which strict mode would
// refuse for a DOUBLE, as MySQL does), and a name relative to the import
// directory.
func TestLoadDataFormats(t *testing.T) {
	dir := t.TempDir()
	csv := "id,name,score,note\n" +
		"1,\"Smith, Jane\",2.5,\"said \"\"hi\"\"\"\n" +
		"2,\"two\nlines\",\\N,NULL\n" +
		"3,plain,,\"\"\n"
	if err := os.WriteFile(filepath.Join(dir, "people.csv"), []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	defer srv.Close()
	db := connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE lf",
		"CREATE TABLE lf.p (id INT PRIMARY KEY, name VARCHAR(20), score DOUBLE, note VARCHAR(20), shout VARCHAR(20))",
		`LOAD DATA INFILE 'people.csv' INTO TABLE lf.p FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' IGNORE 1 LINES `+
			`(id, @n, @s, note) SET name = @n, shout = UPPER(@n), score = NULLIF(@s, '')`)
	got := flat(queryStrings(t, db, "SELECT id, REPLACE(name, '\n', '/'), COALESCE(score, 'null'), COALESCE(note, 'null'), shout FROM lf.p ORDER BY id"))
	if want := `1,Smith, Jane,2.5,said "hi",SMITH, JANE;2,two/lines,null,null,TWO` + "\n" + `LINES;3,plain,null,,PLAIN`; got != want {
		t.Errorf("loaded\n %s\nwant\n %s", got, want)
	}
	// An empty field of a DOUBLE is refused in strict mode and read as 0
	// with IGNORE (and LOCAL), as in MySQL.
	mustExecAll(t, db, "CREATE TABLE lf.q (id INT PRIMARY KEY, name VARCHAR(20), score DOUBLE, note VARCHAR(20))")
	layout := `FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' IGNORE 1 LINES`
	_, err := db.Exec("LOAD DATA INFILE 'people.csv' INTO TABLE lf.q " + layout)
	wantMySQLError(t, err, 1366, "")
	mustExecAll(t, db, "LOAD DATA INFILE 'people.csv' IGNORE INTO TABLE lf.q "+layout)
	if got := flat(queryStrings(t, db, "SELECT id, COALESCE(score, 'null') FROM lf.q ORDER BY id")); got != "1,2.5;2,null;3,0" {
		t.Errorf("with IGNORE: %s", got)
	}
	// The same for INT, which an INSERT of '' stores as 0 even in strict
	// mode.
	mustExecAll(t, db, "CREATE TABLE lf.i (id INT PRIMARY KEY, name VARCHAR(20), score INT, note VARCHAR(20))")
	_, err = db.Exec("LOAD DATA INFILE 'people.csv' INTO TABLE lf.i " + layout)
	wantMySQLError(t, err, 1366, "HY000")
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Message != "Incorrect integer value: '' for column 'score' at row 3" {
		t.Errorf("strict INT: %s", me.Message)
	}
	if got := flat(queryStrings(t, db, "SELECT COUNT(*) FROM lf.i")); got != "0" {
		t.Errorf("a refused LOAD DATA left %s rows", got)
	}
	_, exec := oneSession(t, db)
	if err := exec("LOAD DATA INFILE 'people.csv' IGNORE INTO TABLE lf.i " + layout); err != nil {
		t.Fatal(err)
	}
	if got := flat(queryStrings(t, db, "SELECT id, COALESCE(score, 'null') FROM lf.i ORDER BY id")); got != "1,3;2,null;3,0" {
		t.Errorf("INT with IGNORE: %s", got)
	}
	if _, err := db.Exec("LOAD DATA INFILE '../people.csv' INTO TABLE lf.p"); err == nil {
		t.Error("a name outside the import directory was loaded")
	}
}

// TestOutfileRoundTrip: SELECT ... INTO OUTFILE writes values as a client
// reads them and escapes what LOAD DATA would misread, so a table written
// out in either layout loads back into an equal one; INTO DUMPFILE writes
// a value's bytes; an existing file is MySQL's 1086.
func TestOutfileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	srv, addr := startServerWith(t, t.TempDir(), func(c *sqlext.Config) { c.ImportDir = dir })
	defer srv.Close()
	db := connect(t, addr, "")
	mustExecAll(t, db, "CREATE DATABASE rt",
		"CREATE TABLE rt.t (id INT PRIMARY KEY, s VARCHAR(30), b VARBINARY(10), f DOUBLE, d DECIMAL(10,3), at DATETIME(2), day DATE, e ENUM('x','y'), j JSON)",
		`INSERT INTO rt.t VALUES (1, 'a,b "q" \\ end', 0x00410A, 1e20, 1.5, '2024-01-02 03:04:05.25', '2024-01-02', 'y', '{"k": [1, "v"]}'),`+
			`(2, 'tab	and`+"\n"+`line', NULL, NULL, NULL, NULL, NULL, NULL, NULL), (3, 'NULL', '', 0.1, -2, '1999-12-31 23:59:59', '1999-12-31', 'x', 'null')`)
	mustExecAll(t, db,
		"SELECT * FROM rt.t INTO OUTFILE 't.tsv'",
		`SELECT * FROM rt.t INTO OUTFILE 't.csv' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\r\n'`,
		"SELECT b FROM rt.t WHERE id = 1 INTO DUMPFILE 'b.bin'")
	tsv, err := os.ReadFile(filepath.Join(dir, "t.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.SplitN(string(tsv), "\n", 2)[0], "1\ta,b \"q\" \\\\ end\t\\0A\\\n"; !strings.HasPrefix(got+"\n", want) {
		t.Errorf("first line of t.tsv: %q, want it to start %q", got, want)
	}
	if !strings.Contains(string(tsv), "\t1e20\t1.500\t2024-01-02 03:04:05.25\t2024-01-02\ty\t{\"k\": [1, \"v\"]}\n") {
		t.Errorf("t.tsv's values are not written as a client reads them:\n%s", tsv)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.bin")); err != nil || string(b) != "\x00A\n" {
		t.Errorf("b.bin holds %q (%v)", b, err)
	}
	mustExecAll(t, db, "CREATE TABLE rt.fromtsv LIKE rt.t", "CREATE TABLE rt.fromcsv LIKE rt.t",
		"LOAD DATA INFILE 't.tsv' INTO TABLE rt.fromtsv",
		`LOAD DATA INFILE 't.csv' INTO TABLE rt.fromcsv FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\r\n'`)
	all := func(table string) string {
		return flat(queryStrings(t, db, "SELECT id, COALESCE(s, '<n>'), COALESCE(HEX(b), '<n>'), COALESCE(f, '<n>'), COALESCE(d, '<n>'), "+
			"COALESCE(at, '<n>'), COALESCE(day, '<n>'), COALESCE(e, '<n>'), COALESCE(j, '<n>') FROM rt."+table+" ORDER BY id"))
	}
	want := all("t")
	for _, table := range []string{"fromtsv", "fromcsv"} {
		if got := all(table); got != want {
			t.Errorf("%s:\n %s\nwant\n %s", table, got, want)
		}
	}
	_, err = db.Exec("SELECT * FROM rt.t INTO OUTFILE 't.tsv'")
	wantMySQLError(t, err, 1086, "HY000")
	// A DUMPFILE of more than one row is MySQL's 1172 and leaves no file.
	_, err = db.Exec("SELECT b FROM rt.t INTO DUMPFILE 'two.bin'")
	wantMySQLError(t, err, 1172, "42000")
	if _, err := os.Stat(filepath.Join(dir, "two.bin")); !os.IsNotExist(err) {
		t.Errorf("a failed DUMPFILE left a file (%v)", err)
	}
	if _, err := db.Exec("SELECT * FROM rt.t INTO OUTFILE '../escape.tsv'"); err == nil {
		t.Error("a file outside the import directory was written")
	}
}
