// Package testenv finds what tests need from outside the repository — the
// shared datasets, free loopback ports — and applies the project's rule for it: a test whose
// input is missing fails under CI (CI set) and is skipped elsewhere. It is
// imported by tests only.
package testenv

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// Missing fails the test under CI and skips it elsewhere.
func Missing(t testing.TB, format string, a ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: "+format, a...)
	}
	t.Skipf(format, a...)
}

// Datasets is the shared datasets folder: $SQLEARN_DATASETS, else
// ../shared/datasets beside the repository root (the nearest parent of the
// working directory holding go.mod), as an absolute path.
func Datasets(t testing.TB) string {
	t.Helper()
	dir, err := datasetsDir()
	if err != nil {
		Missing(t, "datasets folder: %v (set SQLEARN_DATASETS)", err)
		return ""
	}
	return dir
}

func datasetsDir() (string, error) {
	dir := os.Getenv("SQLEARN_DATASETS")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dir = filepath.Join(d, "..", "shared", "datasets")
				break
			}
			if filepath.Dir(d) == d {
				return "", fmt.Errorf("no go.mod above %s", wd)
			}
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	return abs, nil
}

// FreeAddr returns a loopback address whose port was free a moment ago,
// for a server a test starts and must name before it listens (a Raft
// address other nodes join through).
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
