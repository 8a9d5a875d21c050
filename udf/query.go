package udf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
)

// fastScans counts queries served by the columnar path, for tests.
var fastScans atomic.Int64

// lib holds what the functions that run SQL need from the server.
type lib struct {
	srv *sqlext.Server
}

// innerContext gives a statement run on behalf of a function its own
// session, as the caller's user in the caller's database. A separate session
// matters: the engine commits a session's transaction when a statement's
// iterator closes, and that must not happen to the caller's statement
// halfway through. Cancelling the caller (KILL QUERY) cancels it too.
func (l *lib) innerContext(ctx *sql.Context) *sql.Context {
	base := sql.NewBaseSessionWithClientServer(ctx.Session.Address(), ctx.Session.Client(), ctx.Session.ID())
	sess := l.srv.Provider().NewSession(base)
	sess.SetCurrentDatabase(ctx.GetCurrentDatabase())
	return sql.NewContext(ctx, sql.WithSession(sess))
}

// table is a query result read as float64s, row-major.
type table struct {
	names []string
	rows  int
	data  []float64
	// filled, when set, is a matrix whose values data may be writing in
	// place; it is the result if data still is its whole storage.
	filled *matrix.Matrix
	vals   []float64
}

// readQuery runs a SELECT and returns its result as numbers. A plain read
// of stored numeric columns is served from storage's columnar scan; any
// other query runs through the engine. Without ORDER BY the rows come as
// the engine gives them: in key order from a table with a primary key of
// at most sqlext.OrderedScanRows rows, else in storage order (partition
// by partition); ORDER BY the primary key gives key order on either path.
func (l *lib) readQuery(ctx *sql.Context, q string) (*table, error) {
	if plan, ok := l.plainScan(ctx, q); ok {
		fastScans.Add(1)
		// The engine still plans the query, so the caller's privileges,
		// names and types are checked exactly as for a client's SELECT.
		if _, err := l.srv.Engine().AnalyzeQuery(l.innerContext(ctx), q); err != nil {
			return nil, err
		}
		return l.scanColumns(ctx, plan)
	}
	return l.runQuery(ctx, q)
}

// scanPlan is a query the columnar path can serve.
type scanPlan struct {
	db, table string
	cols      []int
	names     []string
	orderBy   int // column ordinal of the single-column primary key, or -1
}

// plainScan recognises SELECT c1, c2, ... FROM t [ORDER BY pk [ASC]] over
// numeric columns of a stored table. Both paths read committed rows only:
// the query runs in a session of its own (see innerContext), so the
// caller's uncommitted changes are not part of it either way.
func (l *lib) plainScan(ctx *sql.Context, q string) (*scanPlan, bool) {
	stmt, err := sqlparser.Parse(q)
	if err != nil {
		return nil, false
	}
	sel, ok := stmt.(*sqlparser.Select)
	if !ok || sel.With != nil || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil ||
		sel.Window != nil || sel.Limit != nil || sel.Lock != "" || sel.Into != nil ||
		sel.QueryOpts.Distinct || len(sel.From) != 1 || len(sel.OrderBy) > 1 {
		return nil, false
	}
	ate, ok := sel.From[0].(*sqlparser.AliasedTableExpr)
	if !ok || ate.AsOf != nil || ate.Hints != nil || len(ate.Partitions) > 0 {
		return nil, false
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok {
		return nil, false
	}
	p := &scanPlan{db: tn.DbQualifier.String(), table: tn.Name.String(), orderBy: -1}
	if p.db == "" {
		p.db = ctx.GetCurrentDatabase()
	}
	info, err := l.srv.Store().Table(p.db, p.table)
	if err != nil {
		return nil, false
	}
	alias := ate.As.String()
	sqlTypes, ok := l.columnTypes(ctx, p.db, p.table)
	if !ok {
		return nil, false
	}
	column := func(e sqlparser.Expr) (int, bool) {
		cn, ok := e.(*sqlparser.ColName)
		if !ok {
			return 0, false
		}
		if qual := cn.Qualifier.Name.String(); qual != "" && !strings.EqualFold(qual, p.table) && !strings.EqualFold(qual, alias) {
			return 0, false
		}
		i := info.Schema.ColumnIndex(cn.Name.String())
		if i < 0 {
			return 0, false
		}
		switch info.Schema.Columns[i].Kind {
		case storage.KindInt64, storage.KindUint64, storage.KindFloat32, storage.KindFloat64:
		default:
			return 0, false
		}
		// BIT, YEAR, TIME and ENUM are stored in numeric kinds too, but
		// their values are not the numbers a matrix wants; only plain
		// integer and floating-point columns take the fast path.
		if t := sqlTypes[strings.ToLower(info.Schema.Columns[i].Name)]; t == nil || !(types.IsInteger(t) || types.IsFloat(t)) {
			return 0, false
		}
		return i, true
	}
	for _, se := range sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, false
		}
		i, ok := column(ae.Expr)
		if !ok {
			return nil, false
		}
		p.cols = append(p.cols, i)
		name := info.Schema.Columns[i].Name
		if !ae.As.IsEmpty() {
			name = ae.As.String()
		}
		p.names = append(p.names, name)
	}
	if len(sel.OrderBy) == 0 && len(info.Schema.PK) > 0 && info.Rows <= sqlext.OrderedScanRows {
		// The engine reads such a table in key order (sqlext's
		// Table.Partitions); so does this path, or the engine serves it.
		if len(info.Schema.PK) != 1 {
			return nil, false
		}
		i, ok := column(&sqlparser.ColName{Name: sqlparser.NewColIdent(info.Schema.Columns[info.Schema.PK[0]].Name)})
		if !ok {
			return nil, false
		}
		p.orderBy = i
	}
	if len(sel.OrderBy) == 1 {
		o := sel.OrderBy[0]
		i, ok := column(o.Expr)
		if !ok || strings.EqualFold(o.Direction, sqlparser.DescScr) || len(info.Schema.PK) != 1 || info.Schema.PK[0] != i {
			return nil, false
		}
		p.orderBy = i
	}
	return p, true
}

// columnTypes gives the SQL types of a table's columns by lower-case name,
// as the engine sees them.
func (l *lib) columnTypes(ctx *sql.Context, db, table string) (map[string]sql.Type, bool) {
	d, err := l.srv.Provider().Database(ctx, db)
	if err != nil {
		return nil, false
	}
	t, ok, err := d.GetTableInsensitive(ctx, table)
	if err != nil || !ok {
		return nil, false
	}
	out := make(map[string]sql.Type)
	for _, c := range t.Schema() {
		out[strings.ToLower(c.Name)] = c.Type
	}
	return out, true
}

// scanColumns serves a plainScan from storage's columnar read.
func (l *lib) scanColumns(ctx *sql.Context, p *scanPlan) (*table, error) {
	cols := p.cols
	if p.orderBy >= 0 {
		cols = append(append([]int(nil), cols...), p.orderBy)
	}
	nc := len(p.cols)
	info, err := l.srv.Store().Table(p.db, p.table)
	if err != nil {
		return nil, err
	}
	limit := matrix.MaxElements()
	t := &table{names: p.names}
	// Without reordering, the rows can be written straight into the
	// matrix's own encoding, sized for the rows storage reported; if the
	// scan sees a different count the data moves to an ordinary buffer.
	if p.orderBy < 0 && info.Rows > 0 && int64(info.Rows)*int64(nc) <= limit {
		if m, vals, ok, err := matrix.NewDenseEncoded(info.Rows, nc); err == nil && ok {
			t.data, t.filled, t.vals = vals[:0], m, vals
		}
	}
	if t.data == nil {
		t.data = make([]float64, 0, min(int64(info.Rows*nc), limit))
	}
	var keys []float64
	err = l.srv.Store().ScanFloat64(ctx, p.db, p.table, cols, func(n int, vals [][]float64) error {
		if int64(t.rows+n)*int64(nc) > limit {
			return fmt.Errorf("%w: the result has more than %d values", matrix.ErrTooLarge, limit)
		}
		base := len(t.data)
		if need := base + n*nc; need <= cap(t.data) {
			t.data = t.data[:need]
		} else {
			t.data = append(t.data, make([]float64, n*nc)...)
		}
		interleave(t.data[base:], vals[:nc], n)
		if p.orderBy >= 0 {
			keys = append(keys, vals[nc][:n]...)
		}
		t.rows += n
		return nil
	})
	if err != nil {
		if errors.Is(err, storage.ErrNullValue) {
			return nil, fmt.Errorf("%w: %w", ErrNullValue, err)
		}
		return nil, err
	}
	if p.orderBy >= 0 && t.rows > 0 {
		// The sorted copy is written straight into the matrix's encoding.
		var out []float64
		if m, vals, ok, err := matrix.NewDenseEncoded(t.rows, nc); err == nil && ok {
			out, t.filled, t.vals = vals, m, vals
		} else {
			out = make([]float64, len(t.data))
		}
		sortRows(out, t.data, nc, keys)
		t.data = out
	}
	return t, nil
}

// sortRows reorders row-major rows by key. Keys are primary-key values, so
// they are distinct and the order is total.
func sortRows(out, data []float64, nc int, keys []float64) {
	perm := make([]int32, len(keys))
	for i := range perm {
		perm[i] = int32(i)
	}
	sort.Slice(perm, func(a, b int) bool { return keys[perm[a]] < keys[perm[b]] })
	for r, src := range perm {
		copy(out[r*nc:(r+1)*nc], data[int(src)*nc:(int(src)+1)*nc])
	}
}

// runQuery runs any SELECT through the engine and converts each value.
func (l *lib) runQuery(ctx *sql.Context, q string) (*table, error) {
	ictx := l.innerContext(ctx)
	sch, iter, _, err := l.srv.Engine().Query(ictx, q)
	if err != nil {
		return nil, err
	}
	defer iter.Close(ictx)
	t := &table{names: make([]string, len(sch))}
	for i, c := range sch {
		t.names[i] = c.Name
	}
	nc := len(sch)
	limit := matrix.MaxElements()
	for {
		row, err := iter.Next(ictx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if t.rows%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if int64(t.rows+1)*int64(nc) > limit {
			return nil, fmt.Errorf("%w: the result has more than %d values", matrix.ErrTooLarge, limit)
		}
		for k, v := range row {
			f, err := number(v)
			if err != nil {
				return nil, fmt.Errorf("%w: column %q of row %d: %w", ErrArgument, t.names[k], t.rows+1, err)
			}
			t.data = append(t.data, f)
		}
		t.rows++
	}
	return t, nil
}

// number converts one query value; NULL and text are errors, since a matrix
// has no place for them.
func number(v any) (float64, error) {
	if v == nil {
		return 0, ErrNullValue
	}
	if f, ok := numeric(v); ok {
		return f, nil
	}
	return 0, fmt.Errorf("%s is not a number", typeName(v))
}

// queryMatrix is a SELECT's result as a dense matrix, one row per result
// row: MAT_FROM_QUERY, and query("...") in LA scripts.
func (l *lib) queryMatrix(ctx *sql.Context, q string) (*matrix.Matrix, error) {
	t, err := l.readQuery(ctx, q)
	if err != nil {
		return nil, err
	}
	if t.rows == 0 {
		return nil, fmt.Errorf("%w: the query returned no rows", ErrArgument)
	}
	if t.filled != nil && len(t.data) == len(t.vals) && &t.data[0] == &t.vals[0] {
		return t.filled, nil
	}
	return matrix.NewDense(t.rows, len(t.names), t.data)
}

func (l *lib) querySpecs() []*spec {
	return []*spec{
		{name: "MAT_FROM_QUERY", min: 1, max: 1, ret: blob, volatile: true,
			desc: "MAT_FROM_QUERY('SELECT x1, x2 FROM t ORDER BY id'): a dense matrix with one row per result row. Without ORDER BY, rows come in storage order, which is unspecified.",
			eval: func(c *call) (any, error) {
				q, err := c.str(0)
				if err != nil {
					return nil, err
				}
				return encode(l.queryMatrix(c.ctx, q))
			}},
		{name: "MAT_FROM_TRIPLES", min: 3, max: 3, ret: blob, volatile: true,
			desc: "MAT_FROM_TRIPLES('SELECT i, j, v FROM t', rows, cols): a sparse matrix from 1-based (row, column, value) triples; duplicates are summed.",
			eval: func(c *call) (any, error) {
				q, err := c.str(0)
				if err != nil {
					return nil, err
				}
				n, err := c.ints(1, 2)
				if err != nil {
					return nil, err
				}
				r, k := n[0], n[1]
				t, err := l.readQuery(c.ctx, q)
				if err != nil {
					return nil, err
				}
				if len(t.names) != 3 {
					return nil, fmt.Errorf("%w: the query must return 3 columns (i, j, v), it returns %d", ErrArgument, len(t.names))
				}
				is, js, vs := make([]int, t.rows), make([]int, t.rows), make([]float64, t.rows)
				for n := 0; n < t.rows; n++ {
					i, j := t.data[3*n], t.data[3*n+1]
					if i != math.Trunc(i) || j != math.Trunc(j) || i < 1 || j < 1 || i > float64(r) || j > float64(k) {
						return nil, fmt.Errorf("%w: triple %d has index (%v, %v) outside 1..%d × 1..%d", matrix.ErrIndexOutOfRange, n+1, i, j, r, k)
					}
					is[n], js[n], vs[n] = int(i)-1, int(j)-1, t.data[3*n+2]
				}
				return encode(matrix.FromTriples(r, k, is, js, vs))
			}},
	}
}

// interleave writes n rows of the column slices src into dst row-major.
// Row by row, the writes are sequential and each column stream is read in
// order, which the prefetcher follows; large batches are split across the
// cores, since first touches of a large fresh buffer dominate.
func interleave(dst []float64, src [][]float64, n int) {
	nc := len(src)
	fill := func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := dst[r*nc : r*nc+nc]
			for k := range row {
				row[k] = src[k][r]
			}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n*nc < 1<<16 {
		fill(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += step {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fill(lo, hi)
		}(lo, min(lo+step, n))
	}
	wg.Wait()
}
