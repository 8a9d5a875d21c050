package sqlearn

import (
	"os"
	"regexp"
	"testing"
)

// TestArchitectureNamesRealPackages keeps ARCHITECTURE.md honest: every
// package it lists must exist as a directory with Go files.
func TestArchitectureNamesRealPackages(t *testing.T) {
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := regexp.MustCompile("(?m)^- `([a-z0-9_/]+)`").FindAllSubmatch(doc, -1)
	if len(listed) < 5 {
		t.Fatalf("ARCHITECTURE.md lists only %d packages", len(listed))
	}
	for _, m := range listed {
		dir := string(m[1])
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("ARCHITECTURE.md names package %q, which does not exist: %v", dir, err)
			continue
		}
		hasGo := false
		for _, e := range entries {
			if !e.IsDir() && regexp.MustCompile(`\.go$`).MatchString(e.Name()) {
				hasGo = true
			}
		}
		if !hasGo {
			t.Errorf("ARCHITECTURE.md names package %q, which has no Go files", dir)
		}
	}
}
