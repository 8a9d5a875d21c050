package gpu

import (
	"fmt"
	"runtime"
	"sync"
)

// minParallelWork is the number of floating-point operations below which
// starting goroutines costs more than it saves.
const minParallelWork = 1 << 16

// parallelFor splits [0, n) into contiguous ranges, one per available
// processor, and runs fn on each; work estimates the total flops so small
// jobs stay on the calling goroutine. A panic in a worker is re-raised on
// the caller, where the server's per-query recovery can see it.
func parallelFor(n, work int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 || work < minParallelWork {
		fn(0, n)
		return
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		panicked any
	)
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if panicked == nil {
						panicked = r
					}
					mu.Unlock()
				}
			}()
			fn(lo, hi)
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(fmt.Sprintf("gpu: kernel worker panicked: %v", panicked))
	}
}
