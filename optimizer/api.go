package optimizer

import (
	"context"
	"fmt"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// Env is what a script sees of the world. The SQL layer implements it; the
// package never reaches a table or a session any other way.
type Env interface {
	// Query runs a SELECT and returns its result as a dense matrix, one row
	// per result row (the script's query("...")).
	Query(ctx context.Context, sql string) (*matrix.Matrix, error)
	// Var returns the session matrix bound to name (the script's @name).
	Var(name string) (*matrix.Matrix, bool)
	// Save writes m as the table (the script's save(m, "table")).
	Save(ctx context.Context, m *matrix.Matrix, table string) error
	// Print receives one line of the script's print(...) output.
	Print(line string)
}

// Inputs is the Env of a script that reads only the matrices bound in it,
// as built-in programs run by procedures do: query() and save() are
// errors and print() output is dropped.
type Inputs map[string]*matrix.Matrix

func (e Inputs) Query(context.Context, string) (*matrix.Matrix, error) {
	return nil, fmt.Errorf("%w: this script reads no tables", ErrNoEnv)
}

func (e Inputs) Var(name string) (*matrix.Matrix, bool) { m, ok := e[name]; return m, ok }

func (e Inputs) Save(context.Context, *matrix.Matrix, string) error {
	return fmt.Errorf("%w: this script saves no tables", ErrNoEnv)
}

func (e Inputs) Print(string) {}

// Options control how a script is planned and run.
type Options struct {
	// RedundancyElimination turns the ReMac rewrite on (the default) or off
	// (the SQL side's @@la_redundancy_elimination).
	RedundancyElimination bool
	// ReorderChains lets every %*% chain run in its cheapest order; off,
	// chains run left to right as written.
	ReorderChains bool
	// Costs is the cost model; nil loads the calibrated model from
	// CostCachePath, calibrating this machine's kernels on first use.
	Costs *CostModel
	// CostCachePath is where calibrated constants are kept; empty means a
	// file under os.UserCacheDir().
	CostCachePath string
	// WhileIterations is the iteration estimate for a while loop whose
	// condition is not a recognisable counter test.
	WhileIterations int
	// Hybrid routes each loop's products of a constant sparse matrix by
	// the matrix the loop changes to the hybrid runtime (see
	// iterative.go); IterationMode forces its choice per iteration (the
	// SQL side's @@la_iteration_mode). An incremental step may carry over
	// instead of propagating an ℓ1 mass of max(IterationResidual,
	// IterationBudget × the iteration's change): a caller that knows the
	// loop's tolerance (sys.ML_PAGERANK) sets the absolute bound.
	Hybrid            bool
	IterationMode     hybrid.Mode
	IterationBudget   float64
	IterationResidual float64
	// ElementwiseFusion evaluates trees of element-wise operators over
	// dense values in one pass without temporaries (fuse.go); results are
	// the same bit for bit either way.
	ElementwiseFusion bool
	// Devices runs the script's products and tells EXPLAIN where each
	// would run and why; the SQL side passes the server's dispatcher as
	// the session's @@ml_device sees it. Nil means matrix.Device().
	Devices *gpu.Dispatcher
}

// DefaultOptions turns every optimisation on.
func DefaultOptions() Options {
	return Options{RedundancyElimination: true, ReorderChains: true, WhileIterations: 20,
		Hybrid: true, IterationMode: hybrid.ModeHybrid, IterationBudget: 0.01, ElementwiseFusion: true}
}

// Result is what a finished script leaves behind.
type Result struct {
	// Value is the value of the script's last top-level statement when it
	// is a bare expression (not print or save); nil otherwise.
	Value *matrix.Matrix
	// Vars holds every script variable at the end of the run.
	Vars  map[string]*matrix.Matrix
	Stats Stats
	// Iterations traces every product the hybrid runtime evaluated, per
	// loop execution, in the order the loops ended.
	Iterations []IterTrace
}

// Stats counts what the optimiser did during a run.
type Stats struct {
	OptimizeTime   time.Duration // planning: normalisation, search, DP, lowering
	Units          int           // straight-line blocks and loops planned
	Candidates     int           // redundancy candidates found by block-wise search
	TreeCandidates int           // candidates a per-tree search finds in the same code
	Chosen         int           // candidates the chosen plans reuse
	Hoisted        int           // loop constants computed before their loop
}

// Run parses and executes script. It checks ctx between statements and
// loop iterations, so cancelling ctx stops a long loop.
func Run(ctx context.Context, script string, env Env, opts Options) (Result, error) {
	prog, err := lang.Parse(script)
	if err != nil {
		return Result{}, err
	}
	in, err := newInterp(ctx, env, opts, modeRun)
	if err != nil {
		return Result{}, err
	}
	if err := in.run(prog); err != nil {
		return Result{}, err
	}
	return in.result(), nil
}

// Explain plans script and reports the plans. Without analyze it runs only
// the code outside loops (to bind inputs and learn shapes; save and print
// are suppressed) and plans each loop at its entry without running it; with
// analyze it runs the whole script and records measured times.
func Explain(ctx context.Context, script string, env Env, opts Options, analyze bool) (*Explanation, error) {
	prog, err := lang.Parse(script)
	if err != nil {
		return nil, err
	}
	mode := modeExplain
	if analyze {
		mode = modeAnalyze
	}
	in, err := newInterp(ctx, env, opts, mode)
	if err != nil {
		return nil, err
	}
	if err := in.run(prog); err != nil {
		return nil, err
	}
	return in.explanation(), nil
}

// posError prefixes an error with its script position, keeping the chain.
func posError(at lang.Pos, err error) error {
	return fmt.Errorf("line %d, column %d: %w", at.Line, at.Col, err)
}
