package main

import (
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
	py := requireTool(t, pythonWithPyMySQL(), "-c", "import pymysql")
	p := startBinary(t, t.TempDir())
	host, port, _ := strings.Cut(p.addr, ":")
	out, err := exec.Command(py, filepath.Join(clientScripts, "session_pymysql.py"), host, port).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("pymysql session: %v\n%s", err, out)
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

// pythonWithPyMySQL prefers the system interpreter, where the Debian
// python3-pymysql package installs.
func pythonWithPyMySQL() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}
