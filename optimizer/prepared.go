package optimizer

import (
	"context"
	"sync"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// Prepared is a parsed script that keeps its plans between runs, for a
// caller that runs one script many times: the SELECT rule runs its program
// once per row. A plan is reused only while the inputs have the shapes it
// was made for (the same check a loop's plan passes on every entry), so
// results are those of Run; only the planning is saved. Runs of one
// Prepared are serialised.
type Prepared struct {
	prog *lang.Program
	mu   sync.Mutex
	in   *interp // the last run's interpreter, holding the plans
	opts Options // what in was made with
}

// Prepare parses script.
func Prepare(script string) (*Prepared, error) {
	prog, err := lang.Parse(script)
	if err != nil {
		return nil, err
	}
	return &Prepared{prog: prog}, nil
}

// Run executes the script as Run does, planning only what the plans kept
// from earlier runs with the same options do not cover.
func (p *Prepared) Run(ctx context.Context, env Env, opts Options) (Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in := p.in
	if in == nil || p.opts != opts {
		var err error
		if in, err = newInterp(ctx, env, opts, modeRun); err != nil {
			return Result{}, err
		}
		p.in, p.opts = in, opts
	} else {
		in.reuse(ctx, env)
	}
	if err := in.run(p.prog); err != nil {
		return Result{}, err
	}
	return in.result(), nil
}

// reuse readies an interpreter for another run of the same program: the
// run's values go, the plans and the lowering caches stay.
func (in *interp) reuse(ctx context.Context, env Env) {
	in.ctx, in.env = ctx, env
	in.vars = map[string]*matrix.Matrix{}
	in.session = map[string]*matrix.Matrix{}
	in.hoisted = map[*pnode]*matrix.Matrix{}
	in.tcache = map[string]tcached{}
	in.active, in.units = nil, nil
	in.last, in.stats, in.stopped = nil, Stats{}, nil
	in.loopRuns, in.iterTraces = nil, nil
}
