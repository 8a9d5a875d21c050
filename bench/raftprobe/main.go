// Command raftprobe measures how many proposals per second the Raft log
// (hashicorp/raft as the server uses it, on raft-boltdb and on raft-wal)
// commits with 1, 4 and 16 concurrent proposers and a state machine that
// does nothing: the ceiling of durable commits before any SQL work. It
// first times a 4 KiB write plus fdatasync in the same directory, the
// disk's part of a commit.
//
//	go run ./bench/raftprobe [-store bolt|wal]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sqlearn/sqlearn/replication"
)

type nop struct{}

func (nop) Apply(uint64, []byte) error              { return nil }
func (nop) Snapshot() (replication.Snapshot, error) { return snap{}, nil }
func (nop) Restore(io.Reader) error                 { return nil }

type snap struct{}

func (snap) WriteTo(w io.Writer) (int64, error) { return 0, nil }
func (snap) Release()                           {}

func main() {
	only := flag.String("store", "", "probe only this log store (bolt or wal); both when empty")
	flag.Parse()
	dir, _ := os.MkdirTemp("", "probe")
	defer os.RemoveAll(dir)
	fsyncProbe(dir)
	for _, store := range []string{replication.LogBolt, replication.LogWAL} {
		if *only == "" || *only == store {
			probe(filepath.Join(dir, store), store)
		}
	}
}

// probe runs the proposers against a fresh single-node log on store.
func probe(dir, store string) {
	cfg := replication.DefaultConfig(dir)
	cfg.LogStore = store
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := replication.Open(context.Background(), cfg, nop{})
	if err != nil {
		panic(err)
	}
	defer n.Close()
	for _, workers := range []int{1, 4, 16} {
		var count atomic.Int64
		stop := time.Now().Add(4 * time.Second)
		var wg sync.WaitGroup
		for i := 0; i < workers; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := make([]byte, 300)
				for time.Now().Before(stop) {
					if err := n.Propose(context.Background(), cmd); err != nil {
						panic(err)
					}
					count.Add(1)
				}
			}()
		}
		wg.Wait()
		fmt.Printf("%s log, %d workers: %.0f proposals/s\n", store, workers, float64(count.Load())/4)
	}
}

func fsyncProbe(dir string) {
	f, err := os.Create(filepath.Join(dir, "fsync.probe"))
	if err != nil {
		panic(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	ds := make([]time.Duration, 300)
	for i := range ds {
		if _, err := f.WriteAt(buf, int64(i%16)*4096); err != nil {
			panic(err)
		}
		start := time.Now()
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			panic(err)
		}
		ds[i] = time.Since(start)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	fmt.Printf("4 KiB write + fdatasync: median %v, p90 %v\n", ds[len(ds)/2], ds[len(ds)*9/10])
}
