package sqlext

import (
	"encoding/json"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/storage"
)

// bulkChunkRows bounds one log command written by BulkInsert, so no single
// Raft entry grows past a few tens of megabytes.
const bulkChunkRows = 4096

// BulkInsert appends rows to a table without the SQL planner, for
// procedures that fill a table they have just created (MAT_SAVE,
// ML_PREDICT_TABLE, edge-list imports). Each value is converted to its
// column's type as an INSERT would convert it; NULL in a NOT NULL column, a
// value out of range and a duplicate key are errors. Rows are committed
// through the log in chunks as they come, outside any transaction of the
// caller, so a failure can leave earlier chunks in place: callers that need
// all or nothing drop the table on error. It fires no triggers and checks
// no foreign keys. The caller needs INSERT privilege on the table.
func (p *Provider) BulkInsert(ctx *sql.Context, db, table string, rows func(emit func(sql.Row) error) error) (int64, error) {
	info, err := p.store.Table(db, table)
	if err != nil {
		return 0, translateStorage(err)
	}
	if p.mysqlDB != nil && p.mysqlDB.Enabled() &&
		!p.mysqlDB.UserHasPrivileges(ctx, sql.NewPrivilegedOperation(
			sql.PrivilegeCheckSubject{Database: info.DB, Table: info.Name}, sql.PrivilegeType_Insert)) {
		return 0, sql.ErrTableAccessDeniedForUser.New(ctx.Session.Client().User, info.Name)
	}
	t, err := p.newTable(ctx, info)
	if err != nil {
		return 0, err
	}
	auto := -1
	for i, c := range t.sch.Schema {
		if c.AutoIncrement {
			auto = i
		}
	}
	// One chunk is committed while the next is converted: the log write
	// and the state machine's apply overlap the caller's work. Chunks are
	// proposed one after another, so they apply in order.
	var total, inflight int64
	pending := make(chan error, 1)
	wait := func() error {
		if inflight == 0 {
			return nil
		}
		err := <-pending
		if err == nil {
			total += inflight
		}
		inflight = 0
		return err
	}
	chunk := make([]storage.Row, 0, bulkChunkRows)
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		op := storage.Op{Kind: storage.OpInsert, DB: info.DB, Table: info.Name, Rows: chunk}
		if t.keyless() {
			first, err := p.allocate(ctx, allocRowIDs, info.DB, info.Name, uint64(len(chunk)))
			if err != nil {
				return err
			}
			op.RowIDs = make([]uint64, len(chunk))
			for i := range op.RowIDs {
				op.RowIDs[i] = first + uint64(i)
			}
		}
		if err := wait(); err != nil {
			return err
		}
		inflight = int64(len(chunk))
		go func() { pending <- p.propose(ctx, op) }()
		chunk = make([]storage.Row, 0, bulkChunkRows)
		return ctx.Err()
	}
	err = rows(func(r sql.Row) error {
		if len(r) != len(t.sch.Schema) {
			return sql.ErrInsertIntoMismatchValueCount.New()
		}
		sr := make(storage.Row, len(r))
		for i, c := range t.sch.Schema {
			v := r[i]
			if i == auto && (v == nil || v == int64(0)) {
				next, err := p.allocate(ctx, allocAutoInc, info.DB, info.Name, 1)
				if err != nil {
					return err
				}
				v = next
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
			if s, ok := v.(string); ok && types.IsJSON(c.Type) {
				// JSON text is kept as given once it is known to be JSON:
				// parsing it into a document only to print it again is
				// most of the cost of a row (ML_PREDICT_TABLE's results).
				if !json.Valid([]byte(s)) {
					return fmt.Errorf("column %s: %w", c.Name, sql.ErrInvalidJSONText.New(i+1, "BulkInsert", s))
				}
				sr[i] = s
				continue
			}
			cv, inRange, err := c.Type.Convert(ctx, v)
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
		chunk = append(chunk, sr)
		if len(chunk) == bulkChunkRows {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	// The chunk in flight is waited for even after an error, so that
	// nothing is still being written when the caller cleans up.
	if werr := wait(); err == nil {
		err = werr
	}
	return total, err
}

// ValidJSON is JSON text its producer guarantees to be valid, such as a
// document it has just encoded itself; BulkInsert stores it in a JSON
// column without checking it again.
type ValidJSON string
