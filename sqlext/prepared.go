package sqlext

import (
	"sync"
	"unsafe"

	"github.com/sqlearn/sqlearn/storage"
)

// preparedCommands holds commands that are decoded and made ready to
// apply (storage.PrepareCommand) on a goroutine of their own while the
// log writes them, keyed by the first byte of their encoding. The log
// hands the leader's state machine the very bytes that were proposed, so
// the state machine, which applies one command at a time, takes the
// prepared command instead of decoding it and writing its JSON text
// itself: for ML_PREDICT_TABLE that work was a third of each apply, and
// the applies were its slowest stage. Commands that reach the state
// machine any other way (on a follower, forwarded to the leader, replayed
// after a restart) are decoded as before; the prepared command is decoded
// from the same bytes, so every node applies the same change.
type preparedCommands struct {
	m sync.Map // *byte -> *preparedCommand
}

type preparedCommand struct {
	ready chan struct{} // closed when the work is done; cmd stays nil if it failed
	cmd   *storage.Command
}

// prepare starts making b's command ready to apply, beside the log's
// write of it; done forgets it once the proposal is over, whether or not
// it was applied.
func (p *preparedCommands) prepare(b []byte) (done func()) {
	if p == nil || len(b) == 0 {
		return func() {}
	}
	e := &preparedCommand{ready: make(chan struct{})}
	key := unsafe.SliceData(b)
	p.m.Store(key, e)
	go func() {
		defer close(e.ready)
		cmd, err := storage.DecodeCommand(b)
		if err != nil || storage.PrepareCommand(cmd) != nil {
			// The state machine meets the same error and reports it.
			return
		}
		e.cmd = cmd
	}()
	return func() { p.m.Delete(key) }
}

// take returns b's prepared command, if its proposer made one, waiting
// for it to be ready.
func (p *preparedCommands) take(b []byte) (*storage.Command, bool) {
	if p == nil || len(b) == 0 {
		return nil, false
	}
	v, ok := p.m.LoadAndDelete(unsafe.SliceData(b))
	if !ok {
		return nil, false
	}
	e := v.(*preparedCommand)
	<-e.ready
	return e.cmd, e.cmd != nil
}

// preparable says whether preparing a command saves its apply work: one
// holding a batch whose JSON columns storage writes.
func preparable(ops []storage.Op) bool {
	for i := range ops {
		if ops[i].Batch != nil {
			return true
		}
	}
	return false
}
