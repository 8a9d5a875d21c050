package replication

import (
	"testing"

	"github.com/hashicorp/raft"
)

// TestClosingStoreDropsTermWritesOnly checks what Raft's heartbeat handler
// meets when it outlives the node's shutdown: term writes succeed without
// effect instead of failing (Raft panics on that failure), while log
// writes still fail.
func TestClosingStoreDropsTermWritesOnly(t *testing.T) {
	for _, kind := range []string{LogBolt, LogWAL} {
		t.Run(kind, func(t *testing.T) {
			cfg := DefaultConfig(t.TempDir())
			cfg.LogStore = kind
			opened, err := openLogStore(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := &closingStore{logStore: opened}
			if err := s.SetUint64([]byte("CurrentTerm"), 3); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.SetUint64([]byte("CurrentTerm"), 4); err != nil {
				t.Fatalf("term write after close: %v", err)
			}
			if err := s.Set([]byte("LastVoteCand"), []byte("x")); err != nil {
				t.Fatalf("vote write after close: %v", err)
			}
			if err := s.StoreLog(&raft.Log{Index: 1, Term: 4, Type: raft.LogCommand, Data: []byte("x")}); err == nil {
				t.Fatal("a log write after close succeeded")
			}
		})
	}
}
