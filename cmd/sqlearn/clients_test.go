package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const clientScripts = "../../testdata/clients"

// TestMariaDBClient runs a session through the mariadb command-line client
// and compares its output with the recorded one (-rewrite records anew).
func TestMariaDBClient(t *testing.T) {
	cli := requireTool(t, "mariadb", "--version")
	p := startBinary(t, t.TempDir())
	host, port, _ := strings.Cut(p.addr, ":")
	script, err := os.Open(filepath.Join(clientScripts, "session.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	cmd := exec.Command(cli, "--batch", "--table", "-h", host, "-P", port, "-u", "root")
	cmd.Stdin = script
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mariadb: %v\n%s", err, out)
	}
	golden := filepath.Join(clientScripts, "session.sql.out")
	if *rewrite {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("mariadb output differs from %s:\n%s", golden, out)
	}
}

// TestPyMySQLClient runs a session through Python's pymysql.
func TestPyMySQLClient(t *testing.T) {
	runSession(t, "session_pymysql.py", "import pymysql")
}

// runSession runs a Python client session from testdata/clients against a
// fresh server, once the interpreter has what the check imports; the
// script prints "ok" when every step did what it should.
func runSession(t *testing.T, script, check string) {
	t.Helper()
	py := requireTool(t, pythonWithPyMySQL(), "-c", check)
	p := startBinary(t, t.TempDir())
	host, port, _ := strings.Cut(p.addr, ":")
	out, err := exec.Command(py, filepath.Join(clientScripts, script), host, port).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// mariadbJDBC is where Debian's libmariadb-java installs MariaDB
// Connector/J.
const mariadbJDBC = "/usr/share/java/mariadb-java-client.jar"

// TestJDBCClient runs a session through JDBC (MariaDB Connector/J), as Java
// programs and BI tools connect: catalog metadata, prepared statements on
// the server and in the driver, batches, transactions, error codes, a
// procedure call and a streamed result.
func TestJDBCClient(t *testing.T) {
	java := requireTool(t, "java", "-version")
	if _, err := os.Stat(mariadbJDBC); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("MariaDB Connector/J is required (install it with `make deps`): %v", err)
		}
		t.Skipf("MariaDB Connector/J not available: %v", err)
	}
	p := startBinary(t, t.TempDir())
	host, port, _ := strings.Cut(p.addr, ":")
	out, err := exec.Command(java, "-cp", mariadbJDBC, filepath.Join(clientScripts, "SessionJdbc.java"), host, port).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("JDBC session: %v\n%s", err, out)
	}
}

// TestDumpAndRestore backs a database up with mariadb-dump (Debian's
// mysqldump), restores the dump into a second server with the mariadb
// client, and dumps that again: the two dumps must be the same, and the
// restored tables must answer as the originals do.
func TestDumpAndRestore(t *testing.T) {
	cli := requireTool(t, "mariadb", "--version")
	dump := requireTool(t, "mariadb-dump", "--version")
	run := func(addr string, stdin io.Reader, name string, args ...string) string {
		t.Helper()
		host, port, _ := strings.Cut(addr, ":")
		cmd := exec.Command(name, append([]string{"-h", host, "-P", port, "-u", "root"}, args...)...)
		cmd.Stdin = stdin
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, errOut.String())
		}
		return out.String()
	}
	dumpOf := func(addr string) string {
		t.Helper()
		out := run(addr, nil, dump, "--hex-blob", "--routines", "--triggers", "--databases", "shop")
		// The last line says when the dump was taken.
		return out[:strings.LastIndex(strings.TrimRight(out, "\n"), "\n")]
	}
	schema, err := os.Open(filepath.Join(clientScripts, "dump.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	from, to := startBinary(t, t.TempDir()), startBinary(t, t.TempDir())
	run(from.addr, schema, cli)
	first := dumpOf(from.addr)
	run(to.addr, strings.NewReader(first), cli)
	// The database's collation is dumped, and restored (the second dump
	// writes it from the restored database).
	if !strings.Contains(first, "DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci") {
		t.Errorf("the dump does not give the database's collation:\n%s", first)
	}
	if second := dumpOf(to.addr); second != first {
		t.Errorf("the restored database dumps differently:\n--- first\n%s\n--- second\n%s", first, second)
	}
	const check = `SELECT id, name, email, tier, flags, born, seen, t, score, big, HEX(bits), name_len FROM shop.c ORDER BY id;
SELECT id FROM shop.c WHERE code = 'ab';
SELECT id FROM shop.c WHERE name = 'A' AND email = 'a@X.ORG';
SELECT id, c, amt, doc, HEX(b) FROM shop.o ORDER BY id;
SELECT * FROM shop.v;
SELECT name, shop.tier_rank(tier) FROM shop.c ORDER BY id;
CALL shop.add_order(3, 2);
SELECT id, amt FROM shop.o WHERE id = 3;
SHOW CREATE TABLE shop.c;`
	want := run(from.addr, strings.NewReader(check), cli, "--batch")
	if got := run(to.addr, strings.NewReader(check), cli, "--batch"); got != want {
		t.Errorf("restored tables answer\n%s\nwhere the originals answer\n%s", got, want)
	}
	for _, s := range []string{"COMMENT='customers'", "DEFAULT 'free'", "set('a','b''q','c') DEFAULT 'a,c'", "GENERATED ALWAYS AS",
		"`code` varchar(8) COLLATE utf8mb4_0900_bin", "DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci"} {
		if !strings.Contains(want, s) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", s, want)
		}
	}
}

// TestRestoreMariaDBDump restores, with the mariadb client, a dump that
// mariadb-dump 10.11 wrote of a MariaDB 10.11 database
// (mariadb_dump_schema.sql made it: prefix keys, a FULLTEXT key, a foreign
// key with ON DELETE CASCADE, a table partitioned by range, a view, a
// trigger and a procedure), then runs mariadb_dump_check.sql and compares
// the client's output with MariaDB's own for the same script
// (mariadb_dump_check.out, taken from MariaDB after the same restore).
func TestRestoreMariaDBDump(t *testing.T) {
	cli := requireTool(t, "mariadb", "--version")
	p := startBinary(t, t.TempDir())
	host, port, _ := strings.Cut(p.addr, ":")
	for _, script := range []string{"mariadb_dump.sql", "mariadb_dump_check.sql"} {
		f, err := os.Open(filepath.Join(clientScripts, script))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cli, "--batch", "--table", "-h", host, "-P", port, "-u", "root")
		cmd.Stdin = f
		out, err := cmd.CombinedOutput()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		if script != "mariadb_dump_check.sql" {
			continue
		}
		want, err := os.ReadFile(filepath.Join(clientScripts, "mariadb_dump_check.out"))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(want) {
			t.Fatalf("the restored database answers\n%s\nwhere MariaDB's answers\n%s", out, want)
		}
	}
}

// TestSQLAlchemyClient runs a session as data engineers do from Python:
// pandas to_sql and read_sql, SQLAlchemy Core with a reflected schema,
// and an ORM model with a relationship, over pymysql.
func TestSQLAlchemyClient(t *testing.T) {
	runSession(t, "session_sqlalchemy.py", "import pymysql, sqlalchemy, pandas")
}

// TestODBCClient runs a session through ODBC (MariaDB Connector/ODBC
// under unixODBC, from pyodbc), as BI tools that speak ODBC connect.
func TestODBCClient(t *testing.T) {
	runSession(t, "session_odbc.py", "import pyodbc; assert 'MariaDB Unicode' in pyodbc.drivers()")
}

// pythonWithPyMySQL prefers the system interpreter, where the Debian
// python3-pymysql package installs.
func pythonWithPyMySQL() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}
