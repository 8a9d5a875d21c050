package sqlext

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// editor applies one statement's row changes to the session transaction.
// Nothing reaches storage until the transaction commits.
type editor struct {
	ctx  *sql.Context
	t    *Table
	tx   *transaction
	tt   *txTable
	mark int
	err  error
	// changer says the editor updates or deletes rows it finds by what
	// the statement read, which a scan of a keyless table then records
	// (txTable.changers, lastRead), until Close.
	changer bool
	// counts are the statement's, when the editor writes its table
	// (rowcounts.go).
	counts *rowCounts
	// replacing marks a REPLACE's editor; replaced says it has deleted a
	// row for the row it is inserting.
	replacing, replaced bool
	// updates counts the rows Update changed.
	updates int
	// deleted holds the rows a DELETE of named tables deleted.
	deleted map[string]bool
}

var _ sql.TableEditor = (*editor)(nil)

func (t *Table) newEditor(ctx *sql.Context) *editor {
	e := &editor{ctx: ctx, t: t, tx: txFrom(ctx), counts: countsFor(ctx, t)}
	switch {
	case e.tx == nil:
		e.err = fmt.Errorf("sqlext: write outside a transaction")
	case e.tx.readOnly:
		e.err = sql.ErrReadOnlyTransaction.New()
	default:
		e.tt = e.tx.tableForWrite(t.info.DB, t.info.Name, t.keyless(), t.uniqueIndexes())
	}
	return e
}

func (t *Table) Inserter(ctx *sql.Context) sql.RowInserter { return t.newEditor(ctx) }
func (t *Table) Updater(ctx *sql.Context) sql.RowUpdater   { return t.newEditor(ctx).changing() }
func (t *Table) Deleter(ctx *sql.Context) sql.RowDeleter   { return t.newEditor(ctx).changing() }

// changing marks e as a changer of the rows its statement reads.
func (e *editor) changing() *editor {
	if e.tt != nil && e.t.keyless() {
		e.changer = true
		e.tt.changers.Add(1)
	}
	return e
}
func (t *Table) Replacer(ctx *sql.Context) sql.RowReplacer {
	e := t.newEditor(ctx)
	e.replacing = true
	return e
}

// uniqueIndexes lists the secondary unique indexes by column ordinals,
// and the primary key (as PRIMARY) when it has a text column: a
// transaction's rows are told apart by their keys' bytes, which keys
// equal under a collation ('a' and 'A') are not.
func (t *Table) uniqueIndexes() []uniqueIndex {
	var out []uniqueIndex
	add := func(name string, cols []int) {
		u := t.keyOf(name, cols)
		if name != "PRIMARY" || slices.ContainsFunc(u.colls, func(c sql.CollationID) bool { return c != 0 }) {
			out = append(out, u)
		}
	}
	add("PRIMARY", t.info.Schema.PK)
	for _, x := range t.info.Indexes {
		if !x.Unique {
			continue
		}
		cols := make([]int, len(x.Columns))
		for j, c := range x.Columns {
			cols[j] = t.info.Schema.ColumnIndex(c)
		}
		add(x.Name, cols)
	}
	return out
}

// keyOf is the index name of columns cols, with the collation of each of
// its text columns.
func (t *Table) keyOf(name string, cols []int) uniqueIndex {
	u := uniqueIndex{name: name, cols: cols}
	for _, i := range cols {
		var coll sql.CollationID
		if i >= 0 && types.IsText(t.sch.Schema[i].Type) {
			coll = t.sch.Schema[i].Type.(sql.TypeWithCollation).Collation()
		}
		u.colls = append(u.colls, coll)
	}
	return u
}

// keyer is the keys of index x, as a transaction's point index reads them.
func (t *Table) keyer(x *index) uniqueIndex { return t.keyOf(x.name, x.cols) }

func (e *editor) StatementBegin(ctx *sql.Context) {
	if e.tx != nil {
		e.mark = e.tx.mark()
	}
	if e.tt != nil {
		e.tx.mu.Lock()
		e.tt.auto = autoTaken{}
		e.tx.mu.Unlock()
	}
}

// DiscardChanges takes back the statement's changes since
// StatementBegin. For a row that INSERT IGNORE or UPDATE IGNORE passes
// over (the engine marks each row so), what its BEFORE triggers wrote
// stays, as in MySQL.
func (e *editor) DiscardChanges(ctx *sql.Context, err error) error {
	if e.tx != nil && e.err == nil {
		if errors.As(err, new(sql.IgnorableError)) {
			e.tx.rollbackRowTo(e.mark)
		} else {
			e.tx.rollbackTo(e.mark)
		}
	}
	if e.tt != nil {
		e.tx.mu.Lock()
		run := e.tt.auto
		e.tt.auto = autoTaken{}
		e.tx.mu.Unlock()
		if !run.written && run.from < run.to {
			// Failing to give the values back leaves a gap, nothing worse.
			_ = e.t.p.returnAutoInc(ctx, e.t.info.DB, e.t.info.Name, run)
		}
	}
	return nil
}

func (e *editor) StatementComplete(ctx *sql.Context) error { return nil }
func (e *editor) Close(*sql.Context) error {
	if e.changer {
		e.changer = false
		e.tt.changers.Add(-1)
	}
	return nil
}

func (e *editor) Insert(ctx *sql.Context, row sql.Row) error {
	if e.err != nil {
		return e.err
	}
	sr, err := e.t.toStorage(row)
	if err != nil {
		return err
	}
	e.reached()
	if err := e.insert(sr); err != nil {
		return err
	}
	e.replaced = false
	return nil
}

// reached notes that a row of the statement reached the table, which
// keeps the AUTO_INCREMENT values it took even if it fails.
func (e *editor) reached() {
	e.tx.mu.Lock()
	e.tt.auto.written = true
	e.tx.mu.Unlock()
}

func (e *editor) insert(sr storage.Row) error {
	var id string
	var rowID uint64
	if e.t.keyless() {
		var err error
		if rowID, err = e.t.p.allocate(e.ctx, allocRowIDs, e.t.info.DB, e.t.info.Name, 1); err != nil {
			return translateStorage(err)
		}
		id = storage.KeylessIdentity(rowID)
	} else {
		id = storage.PrimaryIdentity(e.t.info.Schema, sr)
	}
	if err := e.checkUnique(sr, id, ""); err != nil {
		return err
	}
	c := &change{row: sr, rowID: rowID}
	if prev, ok := e.tt.changes[id]; ok {
		c.base, c.old = prev.base, prev.old
	}
	e.tx.set(e.tt, id, c)
	return nil
}

// checkUnique finds a row, other than self, that already holds one of sr's
// unique keys, among the transaction's own rows and the committed rows it
// has not touched. Of several, it is the one holding the first key in the
// table's order, the primary key first, as InnoDB finds it: that is the
// row ON DUPLICATE KEY UPDATE changes and REPLACE removes first.
func (e *editor) checkUnique(sr storage.Row, id, self string) error {
	if !e.t.keyless() && id != self {
		if c, ok := e.tt.changes[id]; ok && c.row != nil {
			return e.t.duplicate(e.ctx, "PRIMARY", sr, e.t.toSQL(c.row))
		}
	}
	name, other, pending := e.tt.uniqueConflict(sr, id, self)
	if pending && name == "PRIMARY" {
		return e.t.duplicate(e.ctx, name, sr, e.t.toSQL(other.row))
	}
	dup, existing, err := e.t.p.store.Conflict(e.t.info.DB, e.t.info.Name, sr, self, func(x string) bool {
		_, touched := e.tt.changes[x]
		return touched
	})
	if err != nil {
		return translateStorage(err)
	}
	if pending && (dup == nil || e.t.keyRank(name) <= e.t.keyRank(dup.Index)) {
		return e.t.duplicate(e.ctx, name, sr, e.t.toSQL(other.row))
	}
	if dup != nil {
		return e.t.duplicate(e.ctx, dup.Index, sr, e.t.toSQL(existing))
	}
	return nil
}

// duplicate is the engine's error for a row that collides with existing
// on the primary key or the unique index named index, holding MySQL's
// text of the key ("'1-2024-01-01' for key 't.PRIMARY'", the values as a
// client reads them, joined by -), which sqlError and Session.Warn make
// MySQL's message: Duplicate entry '1-2024-01-01' for key 't.PRIMARY'.
func (t *Table) duplicate(ctx *sql.Context, index string, sr storage.Row, existing sql.Row) error {
	cols := t.info.Schema.PK
	if index != "PRIMARY" {
		cols = nil
		for _, u := range t.uniqueIndexes() {
			if strings.EqualFold(u.name, index) {
				cols = u.cols
			}
		}
	}
	row := t.toSQL(sr)
	parts := make([]string, 0, len(cols))
	for _, c := range cols {
		if c < 0 || c >= len(row) {
			continue
		}
		text, null, err := wireText(ctx, t.sch.Schema[c].Type, row[c])
		if err != nil || null {
			text = []byte("NULL")
		}
		parts = append(parts, string(text))
	}
	return sql.NewUniqueKeyErr(duplicateKeyText(strings.Join(parts, "-"), t.Name(), index), index == "PRIMARY", existing)
}

// duplicateKeyText is a duplicate key as the engine's error holds it.
func duplicateKeyText(entry, table, index string) string {
	return fmt.Sprintf("'%s' for key '%s.%s'", entry, table, index)
}

// identityOf finds the identity of a row read earlier in this statement.
func (e *editor) identityOf(sr storage.Row) (string, bool, error) {
	if !e.t.keyless() {
		return storage.PrimaryIdentity(e.t.info.Schema, sr), true, nil
	}
	ck := storage.EncodeKey(sr)
	// The row just read, when it is this one: another of the same
	// content that the scan has yet to reach would leave the scan (which
	// skips rows the transaction changed) and keep this one.
	if last := e.tt.lastRead.Load(); last != nil && storage.EncodeKey(last.row) == ck {
		if _, touched := e.tt.changes[last.id]; !touched {
			return last.id, true, nil
		}
	}
	if ids := e.tt.content[ck]; len(ids) > 0 {
		return ids[0], true, nil
	}
	ids, err := e.t.p.store.IdentitiesByContent(e.t.info.DB, e.t.info.Name, sr)
	if err != nil {
		return "", false, translateStorage(err)
	}
	for _, id := range ids {
		if _, touched := e.tt.changes[id]; !touched {
			return id, true, nil
		}
	}
	return "", false, nil
}

// copies counts the rows of a keyless table that hold sr: those the
// transaction wrote and the committed ones it has not touched.
func (e *editor) copies(sr storage.Row) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n := len(e.tt.content[storage.EncodeKey(sr)])
	ids, err := e.t.p.store.IdentitiesByContent(e.t.info.DB, e.t.info.Name, sr)
	if err != nil {
		return 0, translateStorage(err)
	}
	for _, id := range ids {
		if _, touched := e.tt.changes[id]; !touched {
			n++
		}
	}
	return max(n, 1), nil
}

func (e *editor) Delete(ctx *sql.Context, row sql.Row) error {
	if e.err != nil {
		return e.err
	}
	sr, err := e.t.asRead(row)
	if err != nil {
		return err
	}
	id, ok, err := e.identityOf(sr)
	if err != nil || !ok {
		return err
	}
	if e.counts != nil && e.counts.anyTable {
		// A DELETE of a join passes a row once for each row of the
		// other tables it matches: it is deleted, and counted, once.
		if e.deleted[id] {
			return nil
		}
		if e.deleted == nil {
			e.deleted = map[string]bool{}
		}
		e.deleted[id] = true
		e.counts.deleted++
	}
	e.delete(id, sr)
	// The engine counts a REPLACE's row as one insert and at most one
	// delete; MySQL counts every row deleted.
	if e.replacing {
		if e.replaced && e.counts != nil {
			e.counts.deletes++
		}
		e.replaced = true
	}
	return nil
}

// delete removes a row the statement read as old.
func (e *editor) delete(id string, old storage.Row) {
	c := &change{base: true, old: old}
	if prev, ok := e.tt.changes[id]; ok {
		c.base, c.old = prev.base, prev.old
	} else {
		c.old = e.asStored(id, old)
	}
	if c.base {
		e.tx.set(e.tt, id, c)
	} else {
		e.tx.set(e.tt, id, nil)
	}
}

func (e *editor) Update(ctx *sql.Context, old, new sql.Row) error {
	written, same, err := e.update(old, new)
	if err != nil || !written {
		return err
	}
	if same {
		// The row is stored as it was (a CHAR given trailing spaces):
		// MySQL counts it unchanged, where the engine, which compared
		// the rows under NO PAD collations, counted it changed.
		if e.counts != nil {
			if equal, err := old.Equals(ctx, new, e.t.sch.Schema); err == nil && !equal {
				e.counts.same++
			}
		}
		return nil
	}
	e.updates++
	// ON DUPLICATE KEY UPDATE, and caseWriter, write such rows; the
	// engine counts them unchanged.
	if e.counts != nil {
		if quiet, err := quietChange(ctx, old, new, e.t.sch.Schema); err == nil && quiet {
			e.counts.quiet++
		}
	}
	return nil
}

// update writes new in place of old, and says whether it found old and
// whether new is stored as old was.
func (e *editor) update(old, new sql.Row) (written, same bool, err error) {
	if e.err != nil {
		return false, false, e.err
	}
	so, err := e.t.asRead(old)
	if err != nil {
		return false, false, err
	}
	sn, err := e.t.toStorage(new)
	if err != nil {
		return false, false, err
	}
	if err := e.t.nullRefused(sn); err != nil {
		return false, false, err
	}
	oldID, ok, err := e.identityOf(so)
	if err != nil || !ok {
		return false, false, err
	}
	same = slices.EqualFunc(so, sn, sameStored)
	if e.t.keyless() {
		e.delete(oldID, so)
		return true, same, e.insert(sn)
	}
	newID := storage.PrimaryIdentity(e.t.info.Schema, sn)
	if err := e.checkUnique(sn, newID, oldID); err != nil {
		return false, false, err
	}
	if newID != oldID {
		e.delete(oldID, so)
		return true, same, e.insert(sn)
	}
	c := &change{row: sn, base: true}
	if prev, ok := e.tt.changes[oldID]; ok {
		c.base, c.old = prev.base, prev.old
	} else {
		c.old = e.asStored(oldID, so)
	}
	e.tx.set(e.tt, oldID, c)
	return true, same, nil
}

// asStored is a row the statement read with the values storage holds in
// its virtual columns. The engine computes those as it reads a row, while
// storage holds NULL (rows written by the bulk paths, or before the column
// was added) or what was computed when the row was written; the commit
// checks that the row is still as it was read, which must compare the
// stored values. A row storage no longer holds is returned as read: the
// commit reports the conflict.
func (e *editor) asStored(id string, old storage.Row) storage.Row {
	if !e.t.hasVirtual() {
		return old
	}
	cur, ok, err := e.t.p.store.Get(e.t.info.DB, e.t.info.Name, id)
	if err != nil || !ok || len(cur) != len(old) {
		return old
	}
	out := append(storage.Row(nil), old...)
	for i, c := range e.t.sch.Schema {
		if c.Virtual {
			out[i] = cur[i]
		}
	}
	return out
}

// hasVirtual reports whether the table has a virtual generated column.
func (t *Table) hasVirtual() bool {
	for _, c := range t.sch.Schema {
		if c.Virtual {
			return true
		}
	}
	return false
}

// nullRefused is MySQL's 1048 for a NULL in a NOT NULL column of sr, or
// nil. The engine checks an UPDATE's rows but not those ON DUPLICATE KEY
// UPDATE changes, which storage then refused only when the transaction
// committed, with an error of its own (1105): inside a transaction the
// NULL was read back until then.
func (t *Table) nullRefused(sr storage.Row) error {
	for i, c := range t.info.Schema.Columns {
		if sr[i] == nil && !c.Nullable {
			return mysql.NewSQLError(mysql.ERBadNullError, "23000", "Column '%s' cannot be null", c.Name)
		}
	}
	return nil
}

// keyRank is the place of the unique key called name in the table's
// order: 0 for the primary key, then the secondary indexes as declared.
func (t *Table) keyRank(name string) int {
	if name == "PRIMARY" {
		return 0
	}
	for i, x := range t.info.Indexes {
		if strings.EqualFold(x.Name, name) {
			return i + 1
		}
	}
	return len(t.info.Indexes) + 1
}
