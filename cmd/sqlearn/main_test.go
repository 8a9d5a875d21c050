package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs of client scripts")

// binary is the sqlearn executable built once for these tests.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "sqlearn-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "sqlearn")
	args := []string{"build", "-o", binary}
	if tags := os.Getenv("SQLEARN_TAGS"); tags != "" {
		args = append(args, "-tags", tags)
	}
	build := exec.Command("go", append(args, ".")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building sqlearn:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running sqlearn process.
type proc struct {
	cmd  *exec.Cmd
	addr string
	log  *bytes.Buffer
	mu   *sync.Mutex
	done chan struct{}
}

var readyRe = regexp.MustCompile(`msg="sqlearn ready" addr=(\S+)`)

// startBinary runs the real binary on a random port over dataDir.
func startBinary(t *testing.T, dataDir string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir}, extra...)
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, log: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan struct{})}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			if m := readyRe.FindStringSubmatch(line); m != nil {
				ready <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() { cmd.Wait(); close(p.done) }()
	select {
	case p.addr = <-ready:
	case <-p.done:
		t.Fatalf("sqlearn exited before it was ready:\n%s", p.logs())
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("sqlearn not ready after 60s:\n%s", p.logs())
	}
	t.Cleanup(func() { p.kill() })
	return p
}

func (p *proc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop shuts the server down cleanly with SIGTERM.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("sqlearn did not stop on SIGTERM:\n%s", p.logs())
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("sqlearn exited with %d after SIGTERM:\n%s", code, p.logs())
	}
}

func (p *proc) db(t *testing.T, user, pass, dbName string) *sql.DB {
	t.Helper()
	auth := user
	if pass != "" {
		auth += ":" + pass
	}
	db, err := sql.Open("mysql", fmt.Sprintf("%s@tcp(%s)/%s?timeout=5s", auth, p.addr, dbName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func exec1(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func scalar[T any](t *testing.T, db *sql.DB, q string, args ...any) T {
	t.Helper()
	var v T
	if err := db.QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// requireTool finds an external client; missing tools fail in CI and skip
// elsewhere.
func requireTool(t *testing.T, name string, check ...string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil && len(check) > 0 {
		err = exec.Command(path, check...).Run()
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required (install it with `make deps`): %v", name, err)
		}
		t.Skipf("%s not available: %v", name, err)
	}
	return path
}

func TestRestartPreservesEverything(t *testing.T) {
	dir := t.TempDir()
	p := startBinary(t, dir)
	db := p.db(t, "root", "", "")
	exec1(t, db, "CREATE DATABASE keep")
	exec1(t, db, "CREATE TABLE keep.t (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(10), n DOUBLE, KEY name_i (name))")
	exec1(t, db, "INSERT INTO keep.t (name, n) VALUES ('a', 1), ('b', 2), ('c', 3)")
	exec1(t, db, "DELETE FROM keep.t WHERE id = 3")
	exec1(t, db, "CREATE USER alice IDENTIFIED BY 'secret'")
	exec1(t, db, "CREATE USER carol IDENTIFIED WITH caching_sha2_password BY 'pw2'")
	exec1(t, db, "GRANT SELECT ON keep.* TO alice")
	exec1(t, db, "CREATE VIEW keep.v AS SELECT name FROM keep.t")
	db.Close()
	p.stop(t)

	p = startBinary(t, dir)
	db = p.db(t, "root", "", "")
	if got := scalar[int](t, db, "SELECT COUNT(*) FROM keep.t"); got != 2 {
		t.Fatalf("rows after restart: %d", got)
	}
	exec1(t, db, "INSERT INTO keep.t (name) VALUES ('d')")
	if got := scalar[int](t, db, "SELECT id FROM keep.t WHERE name = 'd'"); got != 4 {
		t.Fatalf("auto-increment after restart: %d, want 4", got)
	}
	if got := scalar[string](t, p.db(t, "root", "", "keep"), "SELECT GROUP_CONCAT(name ORDER BY name) FROM v"); got != "a,b,d" {
		t.Fatalf("view after restart: %s", got)
	}
	var table, create string
	if err := db.QueryRow("SHOW CREATE TABLE keep.t").Scan(&table, &create); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(create, "KEY `name_i` (`name`)") || !strings.Contains(create, "AUTO_INCREMENT") {
		t.Fatalf("schema after restart:\n%s", create)
	}
	alice := p.db(t, "alice", "secret", "keep")
	if got := scalar[int](t, alice, "SELECT COUNT(*) FROM t"); got != 3 {
		t.Fatalf("alice reads %d rows", got)
	}
	if _, err := alice.Exec("INSERT INTO t (name) VALUES ('x')"); err == nil {
		t.Fatal("alice may only read")
	}
	if _, err := p.db(t, "alice", "wrong", "keep").Exec("SELECT 1"); err == nil {
		t.Fatal("a wrong password was accepted")
	}
	carol, err := sql.Open("mysql", fmt.Sprintf("carol:pw2@tcp(%s)/?tls=skip-verify", p.addr))
	if err != nil {
		t.Fatal(err)
	}
	defer carol.Close()
	if _, err := carol.Exec("SELECT 1"); err != nil {
		t.Fatalf("caching_sha2_password user after restart: %v", err)
	}
}

func TestRootPassword(t *testing.T) {
	dir := t.TempDir()
	p := startBinary(t, dir, "--root-password", "s3cret")
	if _, err := p.db(t, "root", "", "").Exec("SELECT 1"); err == nil {
		t.Fatal("root logged in without its password")
	}
	exec1(t, p.db(t, "root", "s3cret", ""), "SELECT 1")
}

// TestRaftLogKindIsKept: a data dir made with --raft-log wal restarts on
// its WAL without the flag, and refuses to start as a bolt log.
func TestRaftLogKindIsKept(t *testing.T) {
	dir := t.TempDir()
	for start, flags := range [][]string{{"--raft-log", "wal"}, nil} {
		p := startBinary(t, dir, flags...)
		db := p.db(t, "root", "", "")
		if start == 0 {
			exec1(t, db, "CREATE DATABASE w")
			exec1(t, db, "CREATE TABLE w.t (id INT PRIMARY KEY)")
			exec1(t, db, "INSERT INTO w.t VALUES (1), (2)")
		}
		if got := scalar[int](t, db, "SELECT COUNT(*) FROM w.t"); got != 2 {
			t.Fatalf("start %d: %d rows", start, got)
		}
		db.Close()
		p.stop(t)
	}
	out, err := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--raft-log", "bolt").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "holds a wal log") {
		t.Errorf("a WAL data dir started as bolt: %v\n%s", err, out)
	}
	if out, err := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--raft-log", "tape").CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown log store") {
		t.Errorf("--raft-log tape: %v\n%s", err, out)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"--log-level", "loud"}, {"frobnicate"}} {
		out, err := exec.Command(binary, args...).CombinedOutput()
		if err == nil {
			t.Errorf("%v: exited 0:\n%s", args, out)
		}
	}
}

// TestGarbageDoesNotDisturbOthers sends junk bytes and disconnects mid
// statement on some connections while another client keeps working.
func TestGarbageDoesNotDisturbOthers(t *testing.T) {
	p := startBinary(t, t.TempDir())
	db := p.db(t, "root", "", "")
	exec1(t, db, "CREATE DATABASE g")
	exec1(t, db, "CREATE TABLE g.t (id INT PRIMARY KEY)")
	for i := 0; i < 20; i++ {
		c, err := (&netDialer{}).dial(p.addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write(bytes.Repeat([]byte{0xff, 0x00, byte(i)}, 100*i+1))
		c.Close()
		exec1(t, db, "INSERT INTO g.t VALUES (?)", i)
	}
	// A client that starts a long statement and vanishes.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	db.ExecContext(ctx, "SELECT SLEEP(2)")
	cancel()
	if got := scalar[int](t, db, "SELECT COUNT(*) FROM g.t"); got != 20 {
		t.Fatalf("rows: %d", got)
	}
}
