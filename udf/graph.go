package udf

import (
	"bufio"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/optimizer"
	"github.com/sqlearn/sqlearn/optimizer/hybrid"
)

var loadEdgesSchema = sql.Schema{
	{Name: "table_name", Type: types.LongText},
	{Name: "edges", Type: types.Int64},
	{Name: "parse_ms", Type: types.Float64},
	{Name: "write_ms", Type: types.Float64},
}

// iterativeSchema is the one-row result of ML_PAGERANK and ML_GNMF; the
// per-iteration trace is in sys.la_iteration_trace under run_id.
var iterativeSchema = sql.Schema{
	{Name: "run_id", Type: types.Int64},
	{Name: "mode", Type: types.LongText},
	{Name: "iterations", Type: types.Int64},
	{Name: "converged", Type: types.Boolean},
	{Name: "full_iterations", Type: types.Int64},
	{Name: "incremental_iterations", Type: types.Int64},
	{Name: "reorganisations", Type: types.Int64},
	{Name: "final_value", Type: types.Float64},
	{Name: "read_ms", Type: types.Float64},
	{Name: "compute_ms", Type: types.Float64},
	{Name: "write_ms", Type: types.Float64},
}

func (l *lib) graphProcedures() []sql.ExternalStoredProcedureDetails {
	return []sql.ExternalStoredProcedureDetails{
		{Name: "load_edges", Schema: loadEdgesSchema, Function: l.loadEdges},
		{Name: "ml_pagerank", Schema: iterativeSchema, Function: l.pageRank},
		{Name: "ml_pagerank", Schema: iterativeSchema, Function: func(ctx *sql.Context, edges, src, dst, out string) (sql.RowIter, error) {
			return l.pageRank(ctx, edges, src, dst, out, "")
		}},
	}
}

// loadEdges is CALL LOAD_EDGES('path', 'db.table'): a SNAP edge list
// (plain or gzip; '#' comments; two whitespace-separated integer ids a
// line) under the import directory becomes a table (src BIGINT, dst
// BIGINT). The file is parsed in full before the table is created.
func (l *lib) loadEdges(ctx *sql.Context, path, table string) (sql.RowIter, error) {
	return guard(ctx, "LOAD_EDGES", func() (sql.RowIter, error) {
		qt, err := quoteTable(table)
		if err != nil {
			return nil, err
		}
		full, err := l.importPath(path)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		src, dst, err := readEdgeFile(ctx, full)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(full), err)
		}
		t1 := time.Now()
		create := "CREATE TABLE " + qt + " (src BIGINT NOT NULL, dst BIGINT NOT NULL)"
		n, err := l.writeTable(ctx, qt, create, func(emit func(vals ...float64) error) error {
			for k := range src {
				if err := emit(float64(src[k]), float64(dst[k])); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{table, n, millis(t1.Sub(t0)), millis(time.Since(t1))}), nil
	})
}

// maxExactID is the largest id that survives the float64 values the
// table writer and the columnar reader carry.
const maxExactID = 1 << 53

func readEdgeFile(ctx *sql.Context, path string) (src, dst []int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrImport, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	// Gzip by content rather than by name: the two magic bytes.
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: gzip: %w", ErrArgument, err)
		}
		defer z.Close()
		r = z
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if line%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fs := strings.Fields(text)
		if len(fs) != 2 {
			return nil, nil, fmt.Errorf("%w: line %d: want two vertex ids, got %d fields: %.80q", ErrArgument, line, len(fs), text)
		}
		var ids [2]int64
		for i, s := range fs {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v <= -maxExactID || v >= maxExactID {
				return nil, nil, fmt.Errorf("%w: line %d: vertex id %.40q is not an integer of at most 53 bits", ErrArgument, line, s)
			}
			ids[i] = v
		}
		src, dst = append(src, ids[0]), append(dst, ids[1])
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: line %d: %w", ErrArgument, line+1, err)
	}
	return src, dst, nil
}

// pageRank is CALL sys.ML_PAGERANK('db.edges', 'src', 'dst', 'db.out',
// JSON_OBJECT('damping', 0.85, 'tolerance', 1e-6, 'max_iterations', 100,
// 'mode', 'hybrid')), networkx's pagerank over the edge table, writing
// (vertex, rank) to a new table.
func (l *lib) pageRank(ctx *sql.Context, edges, srcCol, dstCol, out, opts string) (sql.RowIter, error) {
	return guard(ctx, "ML_PAGERANK", func() (sql.RowIter, error) {
		o, err := parseOptions(opts)
		if err != nil {
			return nil, err
		}
		def := hybrid.DefaultPageRankOptions()
		var opt hybrid.PageRankOptions
		if opt.Damping, err = o.number("damping", def.Damping); err != nil {
			return nil, err
		}
		if opt.Tolerance, err = o.number("tolerance", def.Tolerance); err != nil {
			return nil, err
		}
		if opt.MaxIterations, err = o.integer("max_iterations", def.MaxIterations, 1, 1_000_000); err != nil {
			return nil, err
		}
		mode, err := o.finish(ctx)
		if err != nil {
			return nil, err
		}
		qt, err := quoteTable(out)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		t, err := l.readColumns(ctx, edges, srcCol, dstCol)
		if err != nil {
			return nil, err
		}
		src, err := t.ids(0)
		if err != nil {
			return nil, err
		}
		dst, err := t.ids(1)
		if err != nil {
			return nil, err
		}
		g, err := hybrid.NewGraph(src, dst)
		if err != nil {
			return nil, err
		}
		t1 := time.Now()
		res, err := runPageRank(ctx, g, opt, mode)
		if err != nil {
			return nil, err
		}
		t2 := time.Now()
		create := "CREATE TABLE " + qt + " (vertex BIGINT NOT NULL PRIMARY KEY, `rank` DOUBLE NOT NULL)"
		if _, err := l.writeTable(ctx, qt, create, func(emit func(vals ...float64) error) error {
			for i, v := range res.Vertices {
				if err := emit(float64(v), res.Ranks[i]); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		id := traces.add("ML_PAGERANK", res.Trace)
		return sql.RowsToRowIter(summaryRow(id, mode, res.Result, res.Change, t1.Sub(t0), t2.Sub(t1), time.Since(t2))), nil
	})
}

func summaryRow(id int64, mode hybrid.Mode, r hybrid.Result, final float64, read, compute, write time.Duration) sql.Row {
	return sql.Row{id, mode.String(), int64(r.Iterations), r.Converged, int64(r.Full), int64(r.Incremental),
		int64(r.Reorganisations), final, millis(read), millis(compute), millis(write)}
}

// pageRankScript is sys.ML_PAGERANK: an LA program, so it runs through the
// optimizer like any LA_RUN, which routes its product to the hybrid
// runtime.
//
//go:embed pagerank.la
var pageRankScript string

// runPageRank runs pageRankScript on g.
func runPageRank(ctx *sql.Context, g *hybrid.Graph, opt hybrid.PageRankOptions, mode hybrid.Mode) (hybrid.PageRankResult, error) {
	if !(opt.Damping >= 0 && opt.Damping <= 1) {
		return hybrid.PageRankResult{}, fmt.Errorf("%w: damping %g is outside [0, 1]", ErrArgument, opt.Damping)
	}
	if !(opt.Tolerance > 0) {
		return hybrid.PageRankResult{}, fmt.Errorf("%w: tolerance %g must be positive", ErrArgument, opt.Tolerance)
	}
	n := len(g.Vertices)
	m, err := matrix.NewCSR(n, n, g.M.Ptr, g.M.Ind, g.M.Val)
	if err != nil {
		return hybrid.PageRankResult{}, err
	}
	d := make([]float64, n)
	for _, v := range g.Dangling {
		d[v] = 1
	}
	dm, err := matrix.NewDense(n, 1, d)
	if err != nil {
		return hybrid.PageRankResult{}, err
	}
	env := optimizer.Inputs{"M": m, "D": dm, "damping": scalarMatrix(opt.Damping), "tol": scalarMatrix(opt.Tolerance),
		"max_iterations": scalarMatrix(float64(opt.MaxIterations))}
	opts, err := laOptions(ctx)
	if err != nil {
		return hybrid.PageRankResult{}, err
	}
	// The residual bound the hybrid package's own PageRank measured best:
	// a tenth of networkx's stopping threshold, absolute.
	opts.IterationMode, opts.IterationBudget, opts.IterationResidual = mode, 0, 0.1*float64(n)*opt.Tolerance
	t0 := time.Now()
	r, err := optimizer.Run(ctx, pageRankScript, env, opts)
	if err != nil {
		return hybrid.PageRankResult{}, err
	}
	ranks, _ := r.Value.DenseValues()
	out := hybrid.PageRankResult{Vertices: g.Vertices, Ranks: ranks}
	out.X, out.Elapsed = ranks, time.Since(t0)
	k, _ := matrix.Get(r.Vars["k"], 0, 0)
	out.Change, _ = matrix.Get(r.Vars["change"], 0, 0)
	out.Iterations, out.Converged = int(k), out.Change < float64(n)*opt.Tolerance
	for _, t := range r.Iterations {
		out.Trace = append(out.Trace, t.Steps...)
	}
	for _, st := range out.Trace {
		if st.Mode == hybrid.ModeIncremental {
			out.Incremental++
		} else {
			out.Full++
		}
		if st.Reorganised {
			out.Reorganisations++
		}
	}
	return out, nil
}

func scalarMatrix(v float64) *matrix.Matrix {
	m, _ := matrix.NewDense(1, 1, []float64{v})
	return m
}

// readColumns reads numeric columns of a table (columnar when the table
// allows it, else through the engine).
func (l *lib) readColumns(ctx *sql.Context, table string, cols ...string) (*table, error) {
	qt, err := quoteTable(table)
	if err != nil {
		return nil, err
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		if c == "" {
			return nil, fmt.Errorf("%w: empty column name", ErrArgument)
		}
		quoted[i] = "`" + strings.ReplaceAll(c, "`", "``") + "`"
	}
	return l.readQuery(ctx, "SELECT "+strings.Join(quoted, ", ")+" FROM "+qt)
}

// ids takes column c of t as integer ids.
func (t *table) ids(c int) ([]int64, error) {
	out := make([]int64, t.rows)
	nc := len(t.names)
	for r := range out {
		v := t.data[r*nc+c]
		if v != math.Trunc(v) || math.Abs(v) >= maxExactID {
			return nil, fmt.Errorf("%w: column %s row %d holds %v, not an integer id", ErrArgument, t.names[c], r+1, v)
		}
		out[r] = int64(v)
	}
	return out, nil
}
