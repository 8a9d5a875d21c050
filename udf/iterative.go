package udf

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/optimizer/hybrid"
	"github.com/sqlearn/sqlearn/sqlext"
)

// IterationModeVar selects how iterative procedures evaluate their loops:
// 'hybrid' (the cost model chooses per iteration), 'full' or
// 'incremental'. A 'mode' option in a call's JSON overrides it.
const IterationModeVar = "la_iteration_mode"

// withIterative adds the graph and iterative procedures and the
// sys.la_iteration_trace table to ext.
func (l *lib) withIterative(ext sqlext.Extensions) sqlext.Extensions {
	ext.Procedures = append(ext.Procedures, l.graphProcedures()...)
	ext.Procedures = append(ext.Procedures, l.gnmfProcedures()...)
	ext.SystemTables = append(ext.SystemTables, sqlext.SystemTable{Name: "la_iteration_trace", Schema: traceSchema, Rows: traces.rows})
	return ext
}

// options is a procedure's JSON options object, consumed key by key so
// that a misspelt key is an error rather than silently ignored.
type options map[string]any

func parseOptions(s string) (options, error) {
	o := options{}
	if strings.TrimSpace(s) == "" {
		return o, nil
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return nil, fmt.Errorf("%w: options must be a JSON object: %w", ErrArgument, err)
	}
	for k, v := range raw {
		o[strings.ToLower(k)] = v
	}
	return o, nil
}

func (o options) number(key string, def float64) (float64, error) {
	v, ok := o[key]
	if !ok || v == nil {
		return def, nil
	}
	delete(o, key)
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%w: option '%s' must be a number, got %v", ErrArgument, key, v)
	}
	return f, nil
}

func (o options) integer(key string, def, lo, hi int) (int, error) {
	f, err := o.number(key, float64(def))
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%w: option '%s' must be a whole number in [%d, %d], got %v", ErrArgument, key, lo, hi, f)
	}
	return int(f), nil
}

// mode reads the 'mode' option, else @@la_iteration_mode.
func (o options) mode(ctx *sql.Context) (hybrid.Mode, error) {
	if v, ok := o["mode"]; ok {
		delete(o, "mode")
		s, _ := v.(string)
		m, err := hybrid.ParseMode(s)
		if err != nil {
			return 0, fmt.Errorf("%w: option 'mode': %w", ErrArgument, err)
		}
		return m, nil
	}
	v, err := ctx.GetSessionVariable(ctx, IterationModeVar)
	if err != nil {
		return hybrid.ModeHybrid, nil
	}
	s, _ := v.(string)
	return hybrid.ParseMode(s)
}

// finish reads the mode and rejects options nobody consumed, so that a
// misspelt key is an error rather than silently ignored.
func (o options) finish(ctx *sql.Context) (hybrid.Mode, error) {
	mode, err := o.mode(ctx)
	if err != nil {
		return 0, err
	}
	for k := range o {
		return 0, fmt.Errorf("%w: unknown option '%s'", ErrArgument, k)
	}
	return mode, nil
}

// traceSchema is sys.la_iteration_trace: one row per iteration of the
// most recent iterative procedure calls.
var traceSchema = sql.Schema{
	{Name: "run_id", Type: types.Int64},
	{Name: "routine", Type: types.LongText},
	{Name: "iteration", Type: types.Int64},
	{Name: "mode", Type: types.LongText},
	{Name: "compared", Type: types.Boolean},
	{Name: "active_fraction", Type: types.Float64, Nullable: true},
	{Name: "blocks_touched", Type: types.Int64, Nullable: true},
	{Name: "blocks", Type: types.Int64},
	{Name: "est_full_ms", Type: types.Float64, Nullable: true},
	{Name: "est_incremental_ms", Type: types.Float64, Nullable: true},
	{Name: "measured_ms", Type: types.Float64},
	{Name: "change", Type: types.Float64},
	{Name: "reorganised", Type: types.Boolean},
	{Name: "sampled", Type: types.Boolean},
}

// traceLog keeps the traces of the last keepRuns calls, process-wide: run
// ids are unique in the process, so servers sharing it do not collide.
type traceLog struct {
	mu struct {
		sync.Mutex
		runs []tracedRun
	}
	next atomic.Int64
}

type tracedRun struct {
	id      int64
	routine string
	steps   []hybrid.Step
}

const keepRuns = 32

var traces traceLog

func (t *traceLog) add(routine string, steps []hybrid.Step) int64 {
	id := t.next.Add(1)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.mu.runs = append(t.mu.runs, tracedRun{id: id, routine: routine, steps: steps})
	if len(t.mu.runs) > keepRuns {
		t.mu.runs = append(t.mu.runs[:0:0], t.mu.runs[len(t.mu.runs)-keepRuns:]...)
	}
	return id
}

func (t *traceLog) rows(*sql.Context) ([]sql.Row, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []sql.Row
	ms := func(ns float64) any {
		if ns < 0 {
			return nil
		}
		return ns / 1e6
	}
	for _, r := range t.mu.runs {
		for _, s := range r.steps {
			var frac any
			if s.ActiveFraction >= 0 {
				frac = s.ActiveFraction
			}
			var touched any
			if s.BlocksTouched >= 0 {
				touched = int64(s.BlocksTouched)
			}
			out = append(out, sql.Row{r.id, r.routine, int64(s.Iteration), s.Mode.String(), s.Compared, frac,
				touched, int64(s.Blocks), ms(s.EstFull), ms(s.EstIncremental),
				float64(s.Measured.Nanoseconds()) / 1e6, s.Change, s.Reorganised, s.Sampled})
		}
	}
	return out, nil
}

// writeTable creates a table and fills it on the caller's behalf; on any
// failure the table is dropped, so a failed call leaves nothing behind.
func (l *lib) writeTable(ctx *sql.Context, qt, create string, rows func(emit func(vals ...float64) error) error) (int64, error) {
	ictx := l.innerContext(ctx)
	if err := exec(ictx, l, create); err != nil {
		return 0, err
	}
	n, err := l.insertAll(ictx, qt, rows)
	if err != nil {
		if derr := exec(ictx, l, "DROP TABLE IF EXISTS "+qt); derr != nil {
			return 0, errors.Join(err, derr)
		}
		return 0, err
	}
	return n, nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

func (l *lib) gnmfProcedures() []sql.ExternalStoredProcedureDetails {
	return []sql.ExternalStoredProcedureDetails{
		{Name: "ml_gnmf", Schema: iterativeSchema, Function: l.gnmf},
		{Name: "ml_gnmf", Schema: iterativeSchema, Function: func(ctx *sql.Context, ratings, row, col, val, wOut, hOut string) (sql.RowIter, error) {
			return l.gnmf(ctx, ratings, row, col, val, wOut, hOut, "")
		}},
	}
}

// gnmf is CALL sys.ML_GNMF('db.ratings', 'user', 'item', 'rating',
// 'db.w', 'db.h', JSON_OBJECT('rank', 10, 'iterations', 50, 'seed', 1)):
// the ratings as a sparse users × items matrix V ≈ W·H, W written as
// (id, f1..f<rank>) per user and H as (id, f1..f<rank>) per item.
func (l *lib) gnmf(ctx *sql.Context, ratings, rowCol, colCol, valCol, wOut, hOut, opts string) (sql.RowIter, error) {
	return guard(ctx, "ML_GNMF", func() (sql.RowIter, error) {
		o, err := parseOptions(opts)
		if err != nil {
			return nil, err
		}
		def := hybrid.DefaultGNMFOptions()
		var opt hybrid.GNMFOptions
		if opt.Rank, err = o.integer("rank", def.Rank, 1, 1000); err != nil {
			return nil, err
		}
		if opt.Iterations, err = o.integer("iterations", def.Iterations, 1, 1_000_000); err != nil {
			return nil, err
		}
		seed, err := o.integer("seed", int(def.Seed), 0, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		opt.Seed = uint64(seed)
		if opt.Tolerance, err = o.number("tolerance", def.Tolerance); err != nil {
			return nil, err
		}
		mode, err := o.finish(ctx)
		if err != nil {
			return nil, err
		}
		qw, err := quoteTable(wOut)
		if err != nil {
			return nil, err
		}
		qh, err := quoteTable(hOut)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		t, err := l.readColumns(ctx, ratings, rowCol, colCol, valCol)
		if err != nil {
			return nil, err
		}
		rows, err := t.ids(0)
		if err != nil {
			return nil, err
		}
		cols, err := t.ids(1)
		if err != nil {
			return nil, err
		}
		rowIDs, is := compactIDs(rows)
		colIDs, js := compactIDs(cols)
		vals := make([]float64, t.rows)
		for k := range vals {
			vals[k] = t.data[k*3+2]
		}
		v, err := hybrid.NewCSR(len(rowIDs), len(colIDs), is, js, vals)
		if err != nil {
			return nil, err
		}
		t1 := time.Now()
		res, err := hybrid.GNMF(ctx, v, opt, mode)
		if err != nil {
			return nil, err
		}
		t2 := time.Now()
		if err := l.writeFactor(ctx, qw, rowIDs, res.W, opt.Rank); err != nil {
			return nil, err
		}
		if err := l.writeFactor(ctx, qh, colIDs, res.Ht, opt.Rank); err != nil {
			// The pair is one result: without H, W goes too.
			_ = exec(l.innerContext(ctx), l, "DROP TABLE IF EXISTS "+qw)
			return nil, err
		}
		id := traces.add("ML_GNMF", res.Trace)
		return sql.RowsToRowIter(summaryRow(id, mode, res.Result, res.Change, t1.Sub(t0), t2.Sub(t1), time.Since(t2))), nil
	})
}

// compactIDs maps ids to 0..k-1 in increasing id order.
func compactIDs(ids []int64) (uniq []int64, index []int32) {
	uniq = slices.Compact(slices.Sorted(slices.Values(ids)))
	index = make([]int32, len(ids))
	for k, id := range ids {
		p, _ := slices.BinarySearch(uniq, id)
		index[k] = int32(p)
	}
	return uniq, index
}

func (l *lib) writeFactor(ctx *sql.Context, qt string, ids []int64, f []float64, rank int) error {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + qt + " (id BIGINT NOT NULL PRIMARY KEY")
	for c := 1; c <= rank; c++ {
		fmt.Fprintf(&b, ", f%d DOUBLE NOT NULL", c)
	}
	b.WriteString(")")
	_, err := l.writeTable(ctx, qt, b.String(), func(emit func(vals ...float64) error) error {
		vals := make([]float64, rank+1)
		for i, id := range ids {
			vals[0] = float64(id)
			copy(vals[1:], f[i*rank:(i+1)*rank])
			if err := emit(vals...); err != nil {
				return err
			}
		}
		return nil
	})
	return err
}
