// Command raftprobe measures how many proposals per second the Raft log
// (hashicorp/raft on raft-boltdb, as the server uses it) commits with 1, 4
// and 16 concurrent proposers and a state machine that does nothing: the
// ceiling of durable commits before any SQL work.
//
//	go run ./bench/raftprobe
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
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
	dir, _ := os.MkdirTemp("", "probe")
	defer os.RemoveAll(dir)
	cfg := replication.DefaultConfig(dir)
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
		fmt.Printf("%d workers: %.0f proposals/s\n", workers, float64(count.Load())/4)
	}
}
