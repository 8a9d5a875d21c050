package sqlext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/storage"
)

// bulkChunkRows bounds one log command written by BulkInsert, so no single
// Raft entry grows past a few tens of megabytes.
const bulkChunkRows = 4096

// CanRead reports whether the session's user may SELECT from a stored
// table, as the planner checks it for a query; procedures that read a
// table's storage directly ask it instead of planning a query.
func (p *Provider) CanRead(ctx *sql.Context, db, table string) bool {
	return p.HasPrivilege(ctx, db, table, sql.PrivilegeType_Select)
}

// bulkTarget resolves the table a bulk write fills, checks the caller's
// INSERT privilege and finds its AUTO_INCREMENT column (-1 without one).
func (p *Provider) bulkTarget(ctx *sql.Context, db, table string) (*storage.TableInfo, *Table, int, error) {
	info, err := p.store.Table(db, table)
	if err != nil {
		return nil, nil, 0, translateStorage(err)
	}
	if !p.HasPrivilege(ctx, info.DB, info.Name, sql.PrivilegeType_Insert) {
		return nil, nil, 0, sql.ErrTableAccessDeniedForUser.New(ctx.Session.Client().User, info.Name)
	}
	if p.declaresForeignKeys(info.DB, info.Name) {
		// These paths check no parent rows; a procedure writes only to
		// tables it has just created, which have no foreign keys.
		return nil, nil, 0, sql.ErrUnsupportedFeature.New("bulk writes to a table with FOREIGN KEY constraints (" + info.DB + "." + info.Name + ")")
	}
	t, err := p.newTable(ctx, info)
	if err != nil {
		return nil, nil, 0, err
	}
	auto := -1
	for i, c := range t.sch.Schema {
		if c.AutoIncrement {
			auto = i
		}
	}
	return info, t, auto, nil
}

// pipeline commits log commands while its caller prepares the next: the
// log write and the state machine's apply overlap the caller's work. With
// depth 1, commands are proposed one after another, so they apply in
// order; with more, up to depth are in flight at once, so the log can
// write one while the state machine applies another, and their order is
// not kept.
type pipeline struct {
	p      *Provider
	ctx    *sql.Context
	depth  int
	total  int64
	n      int // commands in flight
	err    error
	result chan proposed
}

type proposed struct {
	rows int64
	err  error
}

func newPipeline(p *Provider, ctx *sql.Context, depth int) *pipeline {
	return &pipeline{p: p, ctx: ctx, depth: depth, result: make(chan proposed, depth)}
}

// waitOne blocks until one command in flight has committed, and returns
// the first failure so far.
func (l *pipeline) waitOne() error {
	r := <-l.result
	l.n--
	if r.err == nil {
		l.total += r.rows
	} else if l.err == nil {
		l.err = r.err
	}
	return l.err
}

// submit proposes op, which writes rows rows, in the background once fewer
// than depth commands are in flight; done runs once it has committed.
func (l *pipeline) submit(op storage.Op, rows int64, done func()) error {
	for l.n >= l.depth {
		if err := l.waitOne(); err != nil {
			return err
		}
	}
	if l.err != nil {
		return l.err
	}
	l.n++
	go func() {
		err := l.p.propose(l.ctx, op)
		if done != nil {
			done()
		}
		l.result <- proposed{rows, err}
	}()
	return l.ctx.Err()
}

// finish waits for every command in flight even after an error, so that
// nothing is still being written when the caller cleans up.
func (l *pipeline) finish(err error) (int64, error) {
	for l.n > 0 {
		l.waitOne()
	}
	if err == nil {
		err = l.err
	}
	return l.total, err
}

// rowIDs reserves the ids of n rows of a keyless table.
func (p *Provider) rowIDs(ctx *sql.Context, info *storage.TableInfo, n int) ([]uint64, error) {
	first, err := p.allocate(ctx, allocRowIDs, info.DB, info.Name, uint64(n))
	if err != nil {
		return nil, err
	}
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = first + uint64(i)
	}
	return ids, nil
}

// BulkInsert appends rows to a table without the SQL planner, for
// procedures that fill a table they have just created (MAT_SAVE,
// ML_PREDICT_TABLE, edge-list imports). Each value is converted to its
// column's type as an INSERT would convert it; NULL in a NOT NULL column, a
// value out of range and a duplicate key are errors. Rows are committed
// through the log in chunks as they come, outside any transaction of the
// caller, so a failure can leave earlier chunks in place: callers that need
// all or nothing drop the table on error. It fires no triggers, and it
// refuses a table that declares foreign keys, whose parents it would not
// check. The caller needs INSERT privilege on the table.
func (p *Provider) BulkInsert(ctx *sql.Context, db, table string, rows func(emit func(sql.Row) error) error) (int64, error) {
	info, t, auto, err := p.bulkTarget(ctx, db, table)
	if err != nil {
		return 0, err
	}
	pipe := newPipeline(p, ctx, 1)
	// The first chunk grows as rows come (most callers write a row or
	// a few: a chunk's full size cost more to clear than a catalog row
	// to encode); the ones after it are made full size.
	var chunk []storage.Row
	flushed := false     // a chunk went: the next is made full size, when a row comes
	var autoFloor uint64 // the largest AUTO_INCREMENT value given so far
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		op := storage.Op{Kind: storage.OpInsert, DB: info.DB, Table: info.Name, Rows: chunk}
		if t.keyless() {
			ids, err := p.rowIDs(ctx, info, len(chunk))
			if err != nil {
				return err
			}
			op.RowIDs = ids
		}
		if err := pipe.submit(op, int64(len(chunk)), nil); err != nil {
			return err
		}
		chunk, flushed = nil, true
		return nil
	}
	err = rows(func(r sql.Row) error {
		if len(r) != len(t.sch.Schema) {
			return sql.ErrInsertIntoMismatchValueCount.New()
		}
		sr := make(storage.Row, len(r))
		for i, c := range t.sch.Schema {
			v := r[i]
			if i == auto {
				// As in BulkAppend: a new value comes after every value
				// given before it, committed or still in flight.
				if v == nil || v == int64(0) {
					firsts, err := p.allocateRuns(ctx, info.DB, info.Name, []autoRun{{floor: autoFloor, n: 1}})
					if err != nil {
						return err
					}
					v = firsts[0]
				}
				autoFloor = max(autoFloor, givenAuto(v))
			}
			if v == nil {
				if !c.Nullable {
					return sql.ErrInsertIntoNonNullableProvidedNull.New(c.Name)
				}
				continue
			}
			if s, ok := v.(ValidJSON); ok && types.IsJSON(c.Type) {
				sr[i] = string(s)
				continue
			}
			cv, inRange, err := convertForColumn(ctx, c.Type, v)
			if err != nil {
				return fmt.Errorf("column %s: %w", c.Name, err)
			}
			if inRange != sql.InRange {
				return sql.ErrValueOutOfRange.New(v, c.Type)
			}
			if sr[i], err = t.codecs[i].toStorage(cv); err != nil {
				return err
			}
		}
		if chunk == nil && flushed {
			chunk = make([]storage.Row, 0, bulkChunkRows)
		}
		chunk = append(chunk, sr)
		if len(chunk) == bulkChunkRows {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return pipe.finish(err)
}

// ValidJSON is JSON text its producer guarantees to be valid and in the
// form JSON is stored in: compact, object keys in sorted order, strings
// escaped as encoding/json escapes them but without HTML escaping, a
// whole DOUBLE with ".0" (what StoredJSON writes). BulkInsert stores it in a JSON column
// without parsing it; other JSON text is parsed and printed in that form,
// as an INSERT does, so that a row read back and written again compares
// equal to what is stored.
type ValidJSON string

// appendDepth is how many of BulkAppend's commands may be in flight. The
// log's leader writes the commands waiting for it in one batch, so more in
// flight means fewer log syncs per row: ML_PREDICT_TABLE on the bolt log
// went from a median 0.56 M rows/s with 2 to 0.71 M with 8 in alternating
// runs (docs/benchmarks-ml-sql.md); 16 measured no better.
const appendDepth = 8

// AppendOptions tunes BulkAppend.
type AppendOptions struct {
	// TrustedJSON says the text of JSON columns was encoded by the caller
	// itself in the stored form ValidJSON describes, so it is stored
	// without being parsed again.
	TrustedJSON bool
}

// BulkAppend is BulkInsert for callers that hold columns rather than rows.
// Each emitted batch has storage.ArrowSchema's layout for the table, with
// values already in storage form (what BulkInsert's conversion produces),
// and is committed as one log command while the caller builds the next;
// BulkAppend retains each batch for as long as it needs it. Two commands
// may be in flight at once, so batches need not commit in the order they
// were emitted. Values are
// checked as BulkInsert checks them: NOT NULL; the range, length and form
// of the column's SQL type, value by value only for types narrower than
// their storage kind; JSON text, which must be valid and in the stored
// form ValidJSON describes, unless opts.TrustedJSON; a JSON column may
// instead be an Arrow struct of the documents, which every node writes as
// that text when it applies the command (storage.CheckJSONStruct says
// which structs can be), so the log carries numbers as 8 bytes rather than
// their text. NULL or 0 in the
// AUTO_INCREMENT column takes the next value. Failure leaves the batches
// that committed in place, as with BulkInsert.
func (p *Provider) BulkAppend(ctx *sql.Context, db, table string, opts AppendOptions, batches func(emit func(arrow.RecordBatch) error) error) (int64, error) {
	info, t, auto, err := p.bulkTarget(ctx, db, table)
	if err != nil {
		return 0, err
	}
	cc := p.newColumnChecker(ctx, info, t, auto, opts, 0)
	pipe := newPipeline(p, ctx, appendDepth)
	err = batches(func(rec arrow.RecordBatch) error {
		if rec.NumRows() == 0 {
			return nil
		}
		out, err := cc.check(rec)
		if err != nil {
			return err
		}
		op := storage.Op{Kind: storage.OpAppend, DB: info.DB, Table: info.Name, Batch: out}
		if op.RowIDs, err = p.keylessIDs(ctx, info, t, out); err != nil {
			out.Release()
			return err
		}
		return pipe.submit(op, rec.NumRows(), out.Release)
	})
	return pipe.finish(err)
}

// ErrAppendFromUnsupported says BulkAppendFrom cannot write to a table;
// nothing was written, and BulkAppend can.
var ErrAppendFromUnsupported = errors.New("sqlext: the table cannot take rows copied by key")

// BulkAppendFrom is BulkAppend for a table whose leading columns are those
// of fromDB.fromTable, as CREATE TABLE ... LIKE makes them, with more
// after them: each batch holds only the columns after them, and its keys
// name the source rows (by storage identity, as Store.ScanIdentified gives
// them) that make up the leading columns of its rows. The log carries the
// keys, not the copied values (storage.OpAppendFrom); the copied values
// passed the same column checks on their way into the source. A table
// whose columns do not start with the source's exactly, or whose
// AUTO_INCREMENT column is among them, is refused with
// ErrAppendFromUnsupported before anything is written.
func (p *Provider) BulkAppendFrom(ctx *sql.Context, db, table, fromDB, fromTable string, opts AppendOptions, batches func(emit func(keys []string, rec arrow.RecordBatch) error) error) (int64, error) {
	info, t, auto, err := p.bulkTarget(ctx, db, table)
	if err != nil {
		return 0, err
	}
	src, err := p.store.Table(fromDB, fromTable)
	if err != nil {
		return 0, translateStorage(err)
	}
	n := len(src.Schema.Columns)
	if len(info.Schema.Columns) <= n || auto >= 0 && auto < n {
		return 0, ErrAppendFromUnsupported
	}
	for i, c := range src.Schema.Columns {
		if d := info.Schema.Columns[i]; d.Kind != c.Kind || d.Meta != c.Meta || d.Nullable != c.Nullable {
			return 0, ErrAppendFromUnsupported
		}
	}
	cc := p.newColumnChecker(ctx, info, t, auto, opts, n)
	pipe := newPipeline(p, ctx, appendDepth)
	err = batches(func(keys []string, rec arrow.RecordBatch) error {
		if rec.NumRows() == 0 {
			return nil
		}
		if len(keys) != int(rec.NumRows()) {
			return fmt.Errorf("sqlext: %d keys for %d rows", len(keys), rec.NumRows())
		}
		out, err := cc.check(rec)
		if err != nil {
			return err
		}
		op := storage.Op{Kind: storage.OpAppendFrom, DB: info.DB, Table: info.Name,
			FromDB: src.DB, FromTable: src.Name, Keys: keys, Batch: out}
		if op.RowIDs, err = p.keylessIDs(ctx, info, t, out); err != nil {
			out.Release()
			return err
		}
		return pipe.submit(op, rec.NumRows(), out.Release)
	})
	return pipe.finish(err)
}

// AwaitApplied returns once this node has applied every write committed
// before the call, its own included: a proposal forwarded from a follower
// can return before the follower applies it.
func (p *Provider) AwaitApplied(ctx *sql.Context) error {
	if p.reads == nil {
		return nil
	}
	if err := p.reads.ReadBarrier(ctx, replication.ReadWeak); err != nil {
		return readBarrierError(err)
	}
	return nil
}

// keylessIDs reserves the row ids of a batch bound for a keyless table.
func (p *Provider) keylessIDs(ctx *sql.Context, info *storage.TableInfo, t *Table, rec arrow.RecordBatch) ([]uint64, error) {
	if !t.keyless() {
		return nil, nil
	}
	return p.rowIDs(ctx, info, int(rec.NumRows()))
}

// columnChecker checks the batches of a bulk append to the columns from
// first on of a table, and fills its AUTO_INCREMENT column.
type columnChecker struct {
	p         *Provider
	ctx       *sql.Context
	info      *storage.TableInfo
	t         *Table
	auto      int
	first     int
	want      *arrow.Schema
	checks    []func(a arrow.Array) error
	autoFloor uint64
}

func (p *Provider) newColumnChecker(ctx *sql.Context, info *storage.TableInfo, t *Table, auto int, opts AppendOptions, first int) *columnChecker {
	all := storage.ArrowSchema(info.Schema)
	cc := &columnChecker{p: p, ctx: ctx, info: info, t: t, auto: auto, first: first,
		want: arrow.NewSchema(all.Fields()[first:], nil)}
	for i, c := range t.sch.Schema[first:] {
		cc.checks = append(cc.checks, columnCheck(ctx, c, first+i, t.codecs[first+i], opts))
	}
	return cc
}

// check returns rec as a batch of the checked columns' layout, with
// AUTO_INCREMENT values filled in; the caller releases it.
func (cc *columnChecker) check(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != cc.want.NumFields() {
		return nil, sql.ErrInsertIntoMismatchValueCount.New()
	}
	cols := append([]arrow.Array(nil), rec.Columns()...)
	var filled arrow.Array
	defer func() {
		if filled != nil {
			filled.Release()
		}
	}()
	want := cc.want
	for j, c := range cc.t.sch.Schema[cc.first:] {
		i := cc.first + j
		if cols[j].DataType().ID() == arrow.STRUCT && types.IsJSON(c.Type) {
			// Documents that each node writes as JSON text.
			if !c.Nullable && cols[j].NullN() > 0 {
				return nil, sql.ErrInsertIntoNonNullableProvidedNull.New(c.Name)
			}
			if err := storage.CheckJSONStruct(cols[j]); err != nil {
				return nil, fmt.Errorf("column %s: %w", c.Name, err)
			}
			fields := want.Fields()
			fields[j].Type = cols[j].DataType()
			want = arrow.NewSchema(fields, nil)
			continue
		}
		if !arrow.TypeEqual(cols[j].DataType(), cc.want.Field(j).Type) {
			return nil, fmt.Errorf("column %s: a batch of Arrow %v for storage's %v", c.Name, cols[j].DataType(), cc.want.Field(j).Type)
		}
		if i == cc.auto {
			a, floor, err := cc.p.fillAutoIncrement(cc.ctx, cc.info, cc.info.Schema.Columns[i].Kind, cols[j], cc.autoFloor)
			if err != nil {
				return nil, err
			}
			cc.autoFloor = floor
			if a != cols[j] {
				filled, cols[j] = a, a
			}
		}
		if err := cc.checks[j](cols[j]); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(want, cols, rec.NumRows()), nil
}

// fillAutoIncrement gives the NULL and 0 values of an AUTO_INCREMENT column
// of storage kind k new values, in a new array; a column without any is
// returned as it is. As when an INSERT's rows go in one by one, a row's
// new value comes after every value given in the rows before it and every
// value the table holds, so it cannot clash with a larger value given
// later in the batch or in the next one. The rows that take values form
// runs between given values, reserved in one request to the leader. floor
// is the largest value the earlier batches of the same append gave (they
// may not have reached the table yet); the batch's is returned.
func (p *Provider) fillAutoIncrement(ctx *sql.Context, info *storage.TableInfo, k storage.Kind, a arrow.Array, floor uint64) (arrow.Array, uint64, error) {
	vals := make([]any, a.Len())
	var runs []autoRun
	open := false
	for i := range vals {
		v := storage.ColumnValue(a, i)
		if v == nil || v == int64(0) || v == uint64(0) {
			if !open {
				runs = append(runs, autoRun{floor: floor})
				open = true
			}
			runs[len(runs)-1].n++
			continue
		}
		floor, open = max(floor, givenAuto(v)), false
		vals[i] = v
	}
	if len(runs) == 0 {
		return a, floor, nil
	}
	firsts, err := p.allocateRuns(ctx, info.DB, info.Name, runs)
	if err != nil {
		return nil, 0, err
	}
	b := storage.NewColumnBuilder(k)
	defer b.Release()
	run, next := -1, uint64(0)
	for i, v := range vals {
		if v == nil {
			if i == 0 || vals[i-1] != nil {
				run++
				next = firsts[run]
			}
			v = next
			if k == storage.KindInt64 {
				v = int64(next)
			}
			next++
		}
		storage.AppendValue(b, v)
	}
	return b.NewArray(), floor, nil
}

// givenAuto is an AUTO_INCREMENT value given for a row as a counter
// value: 0 for a negative or non-integer one, which raises no floor.
func givenAuto(v any) uint64 {
	switch rv := reflect.ValueOf(v); {
	case rv.CanInt():
		return uint64(max(rv.Int(), 0))
	case rv.CanUint():
		return rv.Uint()
	}
	return 0
}

// columnCheck returns the check BulkAppend makes of one column's values.
func columnCheck(ctx *sql.Context, c *sql.Column, ord int, cd codec, opts AppendOptions) func(a arrow.Array) error {
	notNull := func(a arrow.Array) error {
		if !c.Nullable && a.NullN() > 0 {
			return sql.ErrInsertIntoNonNullableProvidedNull.New(c.Name)
		}
		return nil
	}
	var each func(v any) error
	switch {
	case types.IsJSON(c.Type):
		if opts.TrustedJSON {
			break
		}
		each = func(v any) error {
			s := v.(string)
			if !json.Valid([]byte(s)) {
				return fmt.Errorf("column %s: %w", c.Name, sql.ErrInvalidJSONText.New(ord+1, "BulkAppend", s))
			}
			stored, err := cd.toStorage(cd.fromStore(s))
			if err != nil {
				return err
			}
			if stored != s {
				return fmt.Errorf("column %s: %s is not in the stored form of JSON (%s)", c.Name, s, stored)
			}
			return nil
		}
	case storedExactly(ctx, c.Type):
	default:
		each = func(v any) error {
			if c.Type.Type() == sqltypes.Decimal {
				if _, err := decimal.NewFromString(v.(string)); err != nil {
					return fmt.Errorf("column %s: %q is not a decimal", c.Name, v)
				}
			}
			cv, inRange, err := c.Type.Convert(ctx, cd.fromStore(v))
			if err != nil {
				return fmt.Errorf("column %s: %w", c.Name, err)
			}
			if inRange != sql.InRange {
				return sql.ErrValueOutOfRange.New(v, c.Type)
			}
			sv, err := cd.toStorage(cv)
			if err != nil {
				return err
			}
			if !sameStored(sv, v) {
				return fmt.Errorf("column %s: %v is not in the stored form of %s (%v)", c.Name, v, c.Type, sv)
			}
			return nil
		}
	}
	return func(a arrow.Array) error {
		if err := notNull(a); err != nil {
			return err
		}
		if each == nil {
			return nil
		}
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				continue
			}
			if err := each(storage.ColumnValue(a, i)); err != nil {
				return err
			}
		}
		return nil
	}
}

// storedExactly says whether every value of a storage kind is a value of
// the SQL type, so BulkAppend need not look at each one.
func storedExactly(ctx *sql.Context, t sql.Type) bool {
	switch t.Type() {
	case sqltypes.Int64, sqltypes.Uint64, sqltypes.Float64, sqltypes.Float32:
		return true
	case sqltypes.Text, sqltypes.Blob:
		return t.MaxTextResponseByteLength(ctx) >= types.LongText.MaxTextResponseByteLength(ctx)
	}
	return false
}

func sameStored(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	}
	return a == b
}

// StorageConverter returns what BulkInsert does to a value of a table's
// column: the SQL type's conversion, then storage's form of the result,
// which is what BulkAppend takes. NULL stays nil.
func (p *Provider) StorageConverter(ctx *sql.Context, db, table string, col int) (func(v any) (any, error), error) {
	info, err := p.store.Table(db, table)
	if err != nil {
		return nil, translateStorage(err)
	}
	t, err := p.newTable(ctx, info)
	if err != nil {
		return nil, err
	}
	if col < 0 || col >= len(t.sch.Schema) {
		return nil, sql.ErrColumnNotFound.New(fmt.Sprintf("#%d", col))
	}
	c, cd := t.sch.Schema[col], t.codecs[col]
	return func(v any) (any, error) {
		if v == nil {
			return nil, nil
		}
		cv, inRange, err := convertForColumn(ctx, c.Type, v)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		if inRange != sql.InRange {
			return nil, sql.ErrValueOutOfRange.New(v, c.Type)
		}
		return cd.toStorage(cv)
	}, nil
}
