package udf

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer"
	"github.com/sqlearn/sqlearn/optimizer/lang"
)

// RedundancyEliminationVar is the session switch for the LA optimiser's
// redundancy elimination, read by LA_RUN, LA_EXPLAIN and the SELECT rule.
const RedundancyEliminationVar = "la_redundancy_elimination"

// laJSONLimit bounds the matrices LA_RUN also returns as JSON text: beyond
// it the text would dwarf the LONGBLOB beside it, so only the blob is sent.
const laJSONLimit = 1 << 16

// laRunSchema is LA_RUN's result: one row per print line and per saved
// table, in script order, then the script's final value if it has one.
var laRunSchema = sql.Schema{
	{Name: "kind", Type: types.LongText},
	{Name: "name", Type: types.LongText, Nullable: true},
	{Name: "value", Type: types.LongText, Nullable: true},
	{Name: "matrix", Type: types.LongBlob, Nullable: true},
}

// laExplainSchema follows optimizer.Columns.
var laExplainSchema = func() sql.Schema {
	kinds := map[string]sql.Type{
		"step": types.Int64, "unit": types.Int64, "calls": types.Int64,
		"est_ms": types.Float64, "measured_ms": types.Float64,
	}
	var s sql.Schema
	for _, name := range optimizer.Columns() {
		t, ok := kinds[name]
		if !ok {
			t = types.LongText
		}
		s = append(s, &sql.Column{Name: name, Type: t, Nullable: true})
	}
	return s
}()

// eliminationOn reads the session switch; the engine stores a boolean
// system variable as an integer. A session without it (an engine built
// before the variable existed) gets the default, on.
func eliminationOn(ctx *sql.Context) bool {
	v, err := ctx.GetSessionVariable(ctx, RedundancyEliminationVar)
	if err != nil {
		return true
	}
	n, ok := numeric(v)
	return !ok || n != 0
}

// laOptions are the optimiser options a statement runs with.
func laOptions(ctx *sql.Context) (optimizer.Options, error) {
	opts := optimizer.DefaultOptions()
	opts.RedundancyElimination = eliminationOn(ctx)
	if m, err := (options{}).mode(ctx); err == nil {
		opts.IterationMode = m
	}
	devices, err := sessionDevices(ctx)
	if err != nil {
		return opts, err
	}
	opts.Devices = devices
	return opts, nil
}

func (l *lib) laProcedures() []sql.ExternalStoredProcedureDetails {
	explain := func(ctx *sql.Context, script, mode string) (sql.RowIter, error) {
		return l.laExplain(ctx, "LA_EXPLAIN", script, mode)
	}
	return []sql.ExternalStoredProcedureDetails{
		{Name: "la_run", Schema: laRunSchema, Function: l.laRun},
		{Name: "la_explain", Schema: laExplainSchema, Function: func(ctx *sql.Context, script string) (sql.RowIter, error) {
			return explain(ctx, script, "")
		}},
		{Name: "la_explain", Schema: laExplainSchema, Function: explain},
		{Name: "la_explain_analyze", Schema: laExplainSchema, Function: func(ctx *sql.Context, script string) (sql.RowIter, error) {
			return l.laExplain(ctx, "LA_EXPLAIN_ANALYZE", script, "analyze")
		}},
	}
}

// laRun is CALL LA_RUN('script').
func (l *lib) laRun(ctx *sql.Context, script string) (sql.RowIter, error) {
	it, err := guard(ctx, "LA_RUN", func() (sql.RowIter, error) {
		opts, err := laOptions(ctx)
		if err != nil {
			return nil, err
		}
		env := &sessionEnv{l: l, ctx: ctx}
		res, err := optimizer.Run(ctx, script, env, opts)
		if err != nil {
			return nil, laError("LA_RUN", err)
		}
		for _, t := range res.Iterations {
			traces.add("LA_RUN "+t.Label, t.Steps)
		}
		rows := env.out
		if res.Value != nil {
			var js any
			if int64(res.Value.Rows())*int64(res.Value.Cols()) <= laJSONLimit {
				js = matrix.ToJSON(res.Value)
			}
			rows = append(rows, sql.Row{"result", nil, js, matrix.Encode(res.Value)})
		}
		return sql.RowsToRowIter(rows...), nil
	})
	return it, err
}

// laExplain is CALL LA_EXPLAIN('script'[, 'ANALYZE']).
func (l *lib) laExplain(ctx *sql.Context, fn, script, mode string) (sql.RowIter, error) {
	return guard(ctx, fn, func() (sql.RowIter, error) {
		var analyze bool
		switch strings.ToUpper(strings.TrimSpace(mode)) {
		case "":
		case "ANALYZE":
			analyze = true
		default:
			return nil, fmt.Errorf("%w: mode must be 'ANALYZE' or '', got '%s'", ErrArgument, mode)
		}
		opts, err := laOptions(ctx)
		if err != nil {
			return nil, err
		}
		env := &sessionEnv{l: l, ctx: ctx}
		ex, err := optimizer.Explain(ctx, script, env, opts, analyze)
		if err != nil {
			return nil, laError(fn, err)
		}
		rows := make([]sql.Row, len(ex.Rows))
		for i, r := range ex.Rows {
			vals := r.Values()
			for k, v := range vals {
				if n, ok := v.(int); ok {
					vals[k] = int64(n)
				}
			}
			rows[i] = vals
		}
		return sql.RowsToRowIter(rows...), nil
	})
}

// laError translates what Run and Explain return. Syntax errors become
// MySQL's parse error, with the script position; cancellation (KILL QUERY)
// becomes MySQL's interruption error; the rest goes through sqlError.
func laError(fn string, err error) error {
	var se *lang.SyntaxError
	switch {
	case errors.As(err, &se):
		return mysql.NewSQLError(mysql.ERParseError, mysql.SSClientError,
			"%s: syntax error at line %d, column %d: %s", fn, se.Pos.Line, se.Pos.Col, se.Msg)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return mysql.NewSQLError(mysql.ERQueryInterrupted, "70100", "Query execution was interrupted")
	}
	// An engine error from query() or save() arrives wrapped with its
	// script position; it keeps the engine's code (1146 for a missing
	// table) and the position stays in the message.
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		if se := sql.CastSQLError(e); se.Num != mysql.ERUnknownError {
			return mysql.NewSQLError(se.Num, se.State, "%s: %s", fn, packagePrefix.ReplaceAllString(err.Error(), "$1"))
		}
	}
	return sqlError(fn, err)
}

// sessionEnv is what an LA script sees of the caller's session: its user
// variables, SELECTs run as MAT_FROM_QUERY runs them, and tables written as
// MAT_SAVE writes them. It belongs to one CALL.
type sessionEnv struct {
	l   *lib
	ctx *sql.Context
	out []sql.Row
}

var _ optimizer.Env = (*sessionEnv)(nil)

func (e *sessionEnv) Query(ctx context.Context, q string) (*matrix.Matrix, error) {
	return e.l.queryMatrix(e.sqlContext(ctx), q)
}

// sqlContext keeps the session of the CALL while honouring the context the
// interpreter passes down.
func (e *sessionEnv) sqlContext(ctx context.Context) *sql.Context {
	if ctx == context.Context(e.ctx) {
		return e.ctx
	}
	return e.ctx.WithContext(ctx)
}

// Var reads @name: a matrix BLOB, or a number as a 1x1 matrix (so that
// @iters can be a plain integer). Anything else is not a matrix and reads as
// undefined.
func (e *sessionEnv) Var(name string) (*matrix.Matrix, bool) {
	_, v, err := e.ctx.GetUserVariable(e.ctx, name)
	if err != nil || v == nil {
		return nil, false
	}
	m, err := matrixValue(e.ctx, v)
	return m, err == nil
}

func (e *sessionEnv) Save(ctx context.Context, m *matrix.Matrix, table string) error {
	layout := "dense"
	if m.IsSparse() || m.Cols() > maxDenseCols {
		layout = "triples"
	}
	n, err := e.l.save(e.sqlContext(ctx), m, table, layout)
	if err != nil {
		return err
	}
	e.out = append(e.out, sql.Row{"save", table, fmt.Sprintf("%d rows (%s, %dx%d)", n, layout, m.Rows(), m.Cols()), nil})
	return nil
}

func (e *sessionEnv) Print(line string) {
	e.out = append(e.out, sql.Row{"print", nil, line, nil})
}

// matrixValue reads a SQL value as a matrix: a matrix BLOB, or a number as
// a 1x1 matrix.
func matrixValue(ctx *sql.Context, v any) (*matrix.Matrix, error) {
	if f, ok := numeric(v); ok {
		return matrix.NewDense(1, 1, []float64{f})
	}
	b, ok := bytesOf(ctx, v)
	if !ok {
		return nil, fmt.Errorf("%w: a %s is not a matrix BLOB", ErrNotMatrix, typeName(v))
	}
	m, err := matrix.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotMatrix, err)
	}
	return m, nil
}
