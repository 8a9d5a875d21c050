package refdata

import (
	"os"
	"testing"
)

func TestLoadAll(t *testing.T) {
	if _, err := Dir(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, name := range Names {
		d, err := Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %d rows, %d features, target %v", name, d.Rows(), len(d.Features), d.Target != nil)
	}
}
