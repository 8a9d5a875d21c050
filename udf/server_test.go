package udf_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/internal/testenv"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/udf"
)

func datasets(t testing.TB) string { return testenv.Datasets(t) }

func missing(t testing.TB, format string, a ...any) {
	t.Helper()
	testenv.Missing(t, format, a...)
}

// python is Debian's interpreter, which has numpy and scipy; the python3 on
// PATH may be another one without them.
const python = "/usr/bin/python3"

// numpy runs a Python program that reads JSON on stdin and prints JSON.
func numpy(t testing.TB, program string, in any, out any) {
	t.Helper()
	if err := exec.Command(python, "-c", "import numpy, scipy").Run(); err != nil {
		missing(t, "%s with numpy and scipy is needed (apt-get install python3-numpy python3-scipy): %v", python, err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", program)
	cmd.Stdin = strings.NewReader(string(b))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("python output: %v\n%.2000s", err, res)
	}
}

type server struct {
	srv *sqlext.Server
	db  *sql.DB
	dsn string
}

// startServer runs a real server on a random loopback port, with the
// datasets folder as its import directory when importDir is true.
func startServer(t testing.TB, importDir string) *server {
	t.Helper()
	cfg := sqlext.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	cfg.ImportDir = importDir
	cfg.Extensions = udf.Extensions
	cfg.Logger = nil
	srv, err := sqlext.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	dsn := fmt.Sprintf("root@tcp(%s)/", srv.Addr())
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE DATABASE IF NOT EXISTS t"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	dsn += "t"
	if db, err = sql.Open("mysql", dsn); err != nil {
		t.Fatal(err)
	}
	// Session variables (@A) live on one connection.
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return &server{srv: srv, db: db, dsn: dsn}
}

func (s *server) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if _, err := s.db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// one returns the single value of a query.
func one[T any](t testing.TB, s *server, q string, args ...any) T {
	t.Helper()
	var v T
	if err := s.db.QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// matrixOf reads a matrix expression back as rows through MAT_TO_JSON.
func matrixOf(t testing.TB, s *server, expr string, args ...any) [][]float64 {
	t.Helper()
	js := one[string](t, s, "SELECT MAT_TO_JSON("+expr+")", args...)
	var m [][]float64
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("%s: %v: %.200s", expr, err, js)
	}
	return m
}
