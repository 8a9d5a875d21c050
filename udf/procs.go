package udf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/matrix"
)

// Limits of MAT_SAVE. A dense table gets one column per matrix column, and
// MySQL allows 4096 columns per table; the row id takes one.
const maxDenseCols = 4095

// saveSchema is MAT_SAVE's one-row result.
var saveSchema = sql.Schema{
	{Name: "table_name", Type: types.LongText},
	{Name: "rows_written", Type: types.Int64},
}

var importSchema = sql.Schema{
	{Name: "table_name", Type: types.LongText},
	{Name: "rows", Type: types.Int64},
	{Name: "cols", Type: types.Int64},
	{Name: "nnz", Type: types.Int64},
}

func (l *lib) procedures() []sql.ExternalStoredProcedureDetails {
	return []sql.ExternalStoredProcedureDetails{
		{Name: "mat_save", Schema: saveSchema, Function: l.matSave},
		{Name: "mat_save", Schema: saveSchema, Function: func(ctx *sql.Context, m []byte, table string) (sql.RowIter, error) {
			return l.matSave(ctx, m, table, "dense")
		}},
		{Name: "mat_import_mtx", Schema: importSchema, Function: l.matImportMTX},
	}
}

// guard runs a procedure body, maps its error and turns a panic into an
// error for this statement only.
func guard(ctx *sql.Context, fn string, body func() (sql.RowIter, error)) (it sql.RowIter, err error) {
	defer func() {
		if r := recover(); r != nil {
			ctx.GetLogger().Errorf("%s panicked: %v\n%s", fn, r, debug.Stack())
			it, err = nil, mysql.NewSQLError(mysql.ERUnknownError, "HY000", "%s: internal error: %v", fn, r)
		}
	}()
	it, err = body()
	return it, sqlError(fn, err)
}

// matSave is CALL MAT_SAVE(m, 'table', 'dense'|'triples').
func (l *lib) matSave(ctx *sql.Context, blob []byte, table, layout string) (sql.RowIter, error) {
	return guard(ctx, "MAT_SAVE", func() (sql.RowIter, error) {
		if blob == nil {
			return nil, fmt.Errorf("%w: the matrix is NULL", ErrNullValue)
		}
		m, err := matrix.Decode(blob)
		if err != nil {
			return nil, fmt.Errorf("%w: argument 1: %w", ErrNotMatrix, err)
		}
		n, err := l.save(ctx, m, table, layout)
		if err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{table, n}), nil
	})
}

// quoteTable quotes 'name' or 'db.name' as identifiers.
func quoteTable(name string) (string, error) {
	parts := strings.Split(name, ".")
	if name == "" || len(parts) > 2 {
		return "", fmt.Errorf("%w: table name '%s' must be 'table' or 'db.table'", ErrArgument, name)
	}
	for i, p := range parts {
		if p == "" {
			return "", fmt.Errorf("%w: table name '%s' has an empty part", ErrArgument, name)
		}
		parts[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return strings.Join(parts, "."), nil
}

// save writes m as a new table through SQL statements on the caller's
// behalf, so the writes take the replicated path and the caller's
// privileges apply. On any failure the new table is dropped.
func (l *lib) save(ctx *sql.Context, m *matrix.Matrix, table, layout string) (int64, error) {
	qt, err := quoteTable(table)
	if err != nil {
		return 0, err
	}
	var create string
	var rows func(emit func(vals ...float64) error) error
	switch strings.ToLower(layout) {
	case "dense":
		if m.Cols() > maxDenseCols {
			return 0, fmt.Errorf("%w: a dense table holds at most %d columns, the matrix has %d; save it as 'triples'", ErrArgument, maxDenseCols, m.Cols())
		}
		data, err := m.ToRows()
		if err != nil {
			return 0, err
		}
		var b strings.Builder
		b.WriteString("CREATE TABLE " + qt + " (i BIGINT NOT NULL PRIMARY KEY")
		for j := 1; j <= m.Cols(); j++ {
			fmt.Fprintf(&b, ", c%d DOUBLE NOT NULL", j)
		}
		b.WriteString(")")
		create = b.String()
		rows = func(emit func(vals ...float64) error) error {
			vals := make([]float64, 1+m.Cols())
			for i, row := range data {
				vals[0] = float64(i + 1)
				copy(vals[1:], row)
				if err := emit(vals...); err != nil {
					return err
				}
			}
			return nil
		}
	case "triples":
		create = "CREATE TABLE " + qt + " (i BIGINT NOT NULL, j BIGINT NOT NULL, v DOUBLE NOT NULL, PRIMARY KEY (i, j))"
		rows = func(emit func(vals ...float64) error) error {
			var err error
			m.Each(func(i, j int, v float64) {
				if err == nil {
					err = emit(float64(i+1), float64(j+1), v)
				}
			})
			return err
		}
	default:
		return 0, fmt.Errorf("%w: layout must be 'dense' or 'triples', got '%s'", ErrArgument, layout)
	}
	return l.writeTable(ctx, qt, create, rows)
}

// insertAll writes the rows through the bulk path: converted as an INSERT
// would convert them and committed through the log in chunks, without the
// SQL planner (whose per-row cost made text INSERTs the bottleneck).
func (l *lib) insertAll(ctx *sql.Context, table string, rows func(emit func(vals ...float64) error) error) (int64, error) {
	db, name, err := splitTable(ctx, strings.ReplaceAll(table, "`", ""))
	if err != nil {
		return 0, err
	}
	var n int64
	return l.srv.Provider().BulkInsert(ctx, db, name, func(emit func(sql.Row) error) error {
		return rows(func(vals ...float64) error {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			n++
			r := make(sql.Row, len(vals))
			for k, v := range vals {
				if math.IsNaN(v) {
					return fmt.Errorf("%w: row %d holds NaN, which a DOUBLE column cannot store", ErrArgument, int64(vals[0]))
				}
				r[k] = v
			}
			return emit(r)
		})
	})
}

// exec runs one statement to completion; closing the iterator is what
// commits under autocommit.
func exec(ctx *sql.Context, l *lib, q string) error {
	_, iter, _, err := l.srv.Engine().Query(ctx, q)
	if err != nil {
		return err
	}
	for {
		if _, err = iter.Next(ctx); err != nil {
			break
		}
	}
	cerr := iter.Close(ctx)
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		return err
	}
	return cerr
}

// matImportMTX is CALL MAT_IMPORT_MTX('path', 'table'): a Matrix Market
// file under the import directory becomes a triples table. The file is
// parsed in full before the table is created, so a bad file leaves nothing.
func (l *lib) matImportMTX(ctx *sql.Context, path, table string) (sql.RowIter, error) {
	return guard(ctx, "MAT_IMPORT_MTX", func() (sql.RowIter, error) {
		full, err := l.importPath(path)
		if err != nil {
			return nil, err
		}
		f, err := os.Open(full)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrImport, err)
		}
		defer f.Close()
		m, err := matrix.ReadMatrixMarket(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(full), err)
		}
		if _, err := l.save(ctx, matrix.ToCSR(m), table, "triples"); err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{table, int64(m.Rows()), int64(m.Cols()), int64(m.NNZ())}), nil
	})
}

// importPath resolves a user-supplied path inside the import directory,
// following symlinks first so that neither "..", an absolute path nor a
// link can lead outside it.
func (l *lib) importPath(p string) (string, error) {
	dir := l.srv.ImportDir()
	if dir == "" {
		return "", fmt.Errorf("%w: file imports are disabled (the server runs without --import-dir, so @@secure_file_priv is NULL)", ErrImport)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("%w: import directory: %w", ErrImport, err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", fmt.Errorf("%w: %w", ErrImport, err)
	}
	named, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrImport, err)
	}
	outsideOf := func(base, path string) bool {
		rel, err := filepath.Rel(base, path)
		return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel)
	}
	outside := func(path string) bool { return outsideOf(root, path) }
	full := filepath.Clean(p)
	if !filepath.IsAbs(p) {
		full = filepath.Join(root, p)
	}
	// Refuse by name first, so a path outside says so whether or not the
	// file exists (the directory may be named through a link, so either
	// spelling of it counts); then again after links are resolved.
	if outside(full) && outsideOf(named, filepath.Clean(p)) && (filepath.IsAbs(p) || outsideOf(named, filepath.Join(named, p))) {
		return "", fmt.Errorf("%w: '%s' is outside the import directory", ErrImport, p)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("%w: '%s': %w", ErrImport, p, errors.Unwrap(err))
	}
	if outside(real) {
		return "", fmt.Errorf("%w: '%s' is outside the import directory", ErrImport, p)
	}
	return real, nil
}
