package udf

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
)

// Bounds on what the node keeps about past trainings. Jobs are node-local
// and in memory: they describe work this process did, not replicated state.
const (
	maxJobs          = 256
	maxHistoryPoints = 100000
)

// Job states as sys.ML_JOBS shows them.
const (
	jobRunning = "running"
	jobDone    = "done"
	jobFailed  = "failed"
	jobKilled  = "killed"
)

type jobRegistry struct {
	now func() time.Time
	// seesAll says whether the caller may see every user's jobs (the
	// PROCESS privilege, as for SHOW PROCESSLIST); others see their own.
	seesAll func(*sql.Context) bool
	mu      struct {
		sync.Mutex
		next int64
		jobs []*job
	}
}

// job is one ML_TRAIN call. Its fields after the first block change while
// it runs and are guarded by the registry's mutex.
type job struct {
	id                             int64
	connID                         uint32
	user, handle, table, algorithm string
	start                          time.Time
	device                         string

	state, phase   string
	iteration, max int
	loss           float64
	rows           int64
	end            time.Time
	err            string
	history        []historyPoint
	droppedPoints  int
}

type historyPoint struct {
	iteration int
	loss      float64
	elapsed   time.Duration
}

func newJobRegistry() *jobRegistry {
	r := &jobRegistry{now: time.Now}
	return r
}

// begin records a new running job.
func (r *jobRegistry) begin(ctx *sql.Context, user, handle, table, algorithm, device string) *job {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mu.next++
	j := &job{id: r.mu.next, connID: ctx.Session.ID(), user: user, handle: handle, table: table,
		algorithm: algorithm, start: r.now(), device: device, state: jobRunning, phase: "reading", loss: math.NaN()}
	r.mu.jobs = append(r.mu.jobs, j)
	if len(r.mu.jobs) > maxJobs {
		// Drop the oldest finished job; running ones always stay visible.
		for i, old := range r.mu.jobs {
			if old.state != jobRunning {
				r.mu.jobs = append(r.mu.jobs[:i], r.mu.jobs[i+1:]...)
				break
			}
		}
	}
	return j
}

// setDevice records where the job's kernels run once its shape is known.
func (r *jobRegistry) setDevice(j *job, device string) {
	r.mu.Lock()
	j.device = device
	r.mu.Unlock()
}

func (r *jobRegistry) setPhase(j *job, phase string, rows int64) {
	r.mu.Lock()
	j.phase = phase
	if rows > 0 {
		j.rows = rows
	}
	r.mu.Unlock()
}

// lossless are the algorithms that fit in one step and report no loss;
// their jobs show NULL rather than a made-up zero.
var lossless = map[ml.Algorithm]bool{ml.LinearRegression: true, ml.Ridge: true, ml.NaiveBayes: true, ml.DecisionTree: true}

// progress is ml.Options.Progress for one job.
func (r *jobRegistry) progress(j *job) func(ml.Progress) {
	return func(p ml.Progress) {
		r.mu.Lock()
		defer r.mu.Unlock()
		loss := p.Loss
		if lossless[p.Algorithm] {
			loss = math.NaN()
		}
		j.iteration, j.max, j.loss = p.Iteration, p.MaxIterations, loss
		if p.Rows > 0 {
			j.rows = p.Rows
		}
		if len(j.history) < maxHistoryPoints {
			j.history = append(j.history, historyPoint{iteration: p.Iteration, loss: loss, elapsed: r.now().Sub(j.start)})
		} else {
			j.droppedPoints++
		}
	}
}

// finish records how the job ended; a cancelled context is a kill.
func (r *jobRegistry) finish(j *job, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j.end = r.now()
	j.phase = ""
	switch {
	case err == nil:
		j.state = jobDone
	case errors.Is(err, context.Canceled):
		j.state, j.err = jobKilled, "query was killed"
	default:
		j.state, j.err = jobFailed, err.Error()
	}
}

func nullable(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}

// visible returns which jobs the caller may see.
func (r *jobRegistry) visible(ctx *sql.Context) func(*job) bool {
	if r.seesAll == nil || r.seesAll(ctx) {
		return func(*job) bool { return true }
	}
	user := ctx.Session.Client().User
	return func(j *job) bool { return j.user == user }
}

func (r *jobRegistry) systemTables() []sqlext.SystemTable {
	jobs := sqlext.SystemTable{
		Name: "ML_JOBS",
		Schema: sql.Schema{
			{Name: "job_id", Type: types.Int64},
			{Name: "connection_id", Type: types.Uint32},
			{Name: "user", Type: types.LongText},
			{Name: "model_handle", Type: types.LongText},
			{Name: "train_table_name", Type: types.LongText},
			{Name: "algorithm", Type: types.LongText},
			{Name: "state", Type: types.LongText},
			{Name: "phase", Type: types.LongText, Nullable: true},
			{Name: "progress", Type: types.Float64, Nullable: true},
			{Name: "iteration", Type: types.Int64},
			{Name: "max_iterations", Type: types.Int64, Nullable: true},
			{Name: "current_loss", Type: types.Float64, Nullable: true},
			{Name: "rows_processed", Type: types.Int64},
			{Name: "elapsed_seconds", Type: types.Float64},
			{Name: "estimated_seconds_left", Type: types.Float64, Nullable: true},
			{Name: "device", Type: types.LongText},
			{Name: "started_at", Type: types.DatetimeMaxPrecision},
			{Name: "error", Type: types.LongText, Nullable: true},
		},
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			mine := r.visible(ctx)
			r.mu.Lock()
			defer r.mu.Unlock()
			now := r.now()
			rows := make([]sql.Row, 0, len(r.mu.jobs))
			for _, j := range r.mu.jobs {
				if !mine(j) {
					continue
				}
				end := now
				if j.state != jobRunning {
					end = j.end
				}
				elapsed := end.Sub(j.start).Seconds()
				var progress, left, maxIter, phase, errText any
				if j.max > 0 {
					f := math.Min(float64(j.iteration)/float64(j.max), 1)
					if j.state == jobDone {
						f = 1
					}
					progress, maxIter = f, int64(j.max)
					if j.state == jobRunning && f > 0 {
						left = elapsed * (1 - f) / f
					}
				} else if j.state == jobDone {
					progress = 1.0
				}
				if j.state == jobDone {
					left = 0.0
				}
				if j.phase != "" {
					phase = j.phase
				}
				if j.err != "" {
					errText = j.err
				}
				rows = append(rows, sql.Row{j.id, j.connID, j.user, j.handle, j.table, j.algorithm, j.state, phase,
					progress, int64(j.iteration), maxIter, nullable(j.loss), j.rows, elapsed, left, j.device,
					j.start.UTC(), errText})
			}
			return rows, nil
		},
	}
	history := sqlext.SystemTable{
		Name: "ML_TRAINING_HISTORY",
		Schema: sql.Schema{
			{Name: "job_id", Type: types.Int64},
			{Name: "model_handle", Type: types.LongText},
			{Name: "iteration", Type: types.Int64},
			{Name: "loss", Type: types.Float64, Nullable: true},
			{Name: "elapsed_seconds", Type: types.Float64},
		},
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			mine := r.visible(ctx)
			r.mu.Lock()
			defer r.mu.Unlock()
			var rows []sql.Row
			for _, j := range r.mu.jobs {
				if !mine(j) {
					continue
				}
				for _, p := range j.history {
					rows = append(rows, sql.Row{j.id, j.handle, int64(p.iteration), nullable(p.loss), p.elapsed.Seconds()})
				}
			}
			return rows, nil
		},
	}
	return []sqlext.SystemTable{jobs, history}
}
