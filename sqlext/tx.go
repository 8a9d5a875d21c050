package sqlext

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// change is a transaction's view of one row identity: the row it now holds
// (nil when deleted) and whether the identity existed in committed state
// when the transaction first touched it (then commit must delete it).
type change struct {
	row   storage.Row
	base  bool
	rowID uint64
	// old is the committed row as the transaction first read it; commit
	// fails if it changed meanwhile, so concurrent updates cannot be lost.
	old storage.Row
}

type undoRec struct {
	t    *txTable
	id   string
	prev *change
	// byTrigger says a BEFORE trigger's body made the change.
	byTrigger bool
}

// txTable is a transaction's pending changes to one table.
type txTable struct {
	db, name string
	keyless  bool
	changes  map[string]*change
	order    []string
	// content indexes the keyless rows inserted by this transaction.
	content map[string][]string
	// unique maps each unique key (index name + encoded key) of the live
	// rows in changes to their identity; rebuilt after an undo.
	unique      map[string]string
	uniqueStale bool
	uniq        []uniqueIndex
	// lastRead is the stored row a DELETE or UPDATE of a keyless table
	// read last, with its identity (scanIter), while changers (their
	// open editors) is above zero: the row it then changes among rows of
	// the same content (editor.identityOf).
	lastRead atomic.Pointer[readRow]
	changers atomic.Int32
	// points are the point indexes lookups have asked for (pending).
	points   map[string]*pointIndex
	pointsMu sync.Mutex
	// writes counts the changes made to the table's rows and taken
	// back, so that a reader can tell they moved (memoSubquery).
	writes atomic.Uint64
	// auto is what the running statement took from the table's
	// AUTO_INCREMENT counter (guarded by the transaction's mu).
	auto autoTaken
}

// autoTaken is the last run of a table's AUTO_INCREMENT values a statement
// took: it moved the counter's next value from from to to. written says a
// row of the statement reached the table. A statement that fails before
// any row does gives the run back (editor.DiscardChanges), as InnoDB
// takes a value only when a row is written: a value that does not fit
// its column, a NULL in a NOT NULL column or a CHECK that fails leaves no
// gap, a duplicate key does.
type autoTaken struct {
	from, to uint64
	written  bool
}

// tookAuto records that the statement moved t's counter from before to
// after. A run that does not follow the one recorded (another session took
// values in between) replaces it: only values no one else was given can
// be given back.
func (tx *transaction) tookAuto(db, name string, before, after uint64) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	t := tx.tables[tableKey(db, name)]
	if t == nil || after <= before {
		return
	}
	if t.auto.to == before && t.auto.from < t.auto.to {
		t.auto.to = after
		return
	}
	t.auto.from, t.auto.to = before, after
}

// readRow is a stored row and its identity.
type readRow struct {
	id  string
	row storage.Row
}

// transaction buffers a session's writes until commit. Reads merge it over
// the committed state, which gives read-committed isolation: each statement
// sees the latest committed data plus the transaction's own changes.
type transaction struct {
	mu         sync.Mutex
	readOnly   bool
	tables     map[string]*txTable
	order      []*txTable
	undo       undoLog
	savepoints map[string]int
	// freshFor is the statement (process id) whose read barrier ran.
	freshFor uint64
	// checks are the foreign key lookups the transaction made, as the
	// OpCheckLookup ops its command starts with; checked holds their
	// keys, so a lookup repeated (a parent that many new rows reference)
	// is logged once, as first read.
	checks  []storage.Op
	checked map[string]bool
	// rowChecks are the OpCheckRows among checks, by table (tableKey),
	// which the rows of locking reads join (noteRows).
	rowChecks map[string]int
	// inBeforeTrigger counts the BEFORE triggers whose bodies are
	// running (triggerWrites).
	inBeforeTrigger int
}

var _ sql.Transaction = (*transaction)(nil)

func newTransaction(readOnly bool) *transaction {
	return &transaction{readOnly: readOnly, tables: make(map[string]*txTable)}
}

// reset empties the transaction after commit or rollback.
func (tx *transaction) reset() {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	for _, t := range tx.tables {
		// A statement's editor still holds its txTable while the
		// statement commits: the rows go from it too, and an editor
		// used after the commit finds the table empty.
		t.changes, t.order, t.unique = make(map[string]*change), nil, make(map[string]string)
		t.dropPoints()
		if t.keyless {
			t.content = make(map[string][]string)
		}
	}
	tx.tables = make(map[string]*txTable)
	tx.order, tx.undo, tx.savepoints = nil, nil, nil
	tx.checks, tx.checked, tx.rowChecks = nil, nil, nil
}

// noteLookup logs a foreign key lookup of committed rows: at commit they
// must still be exactly ids. A lookup that a rolled-back statement made
// stays logged; it can only make the commit fail where it need not.
func (tx *transaction) noteLookup(db, table, index string, ranges []storage.Range, ids []string) {
	if tx == nil {
		return
	}
	key := fmt.Sprintf("%s\x00%s\x00%v", tableKey(db, table), index, ranges)
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.checked[key] {
		return
	}
	if tx.checked == nil {
		tx.checked = make(map[string]bool)
	}
	tx.checked[key] = true
	tx.checks = append(tx.checks, storage.Op{Kind: storage.OpCheckLookup, DB: db, Table: table, Name: index,
		Ranges: ranges, Keys: slices.Clone(ids)})
}

// noteRows logs rows of table, committed rows as a locking read found
// them (ids their identities), which it keeps: at commit each must still
// hold what it held. A row read again keeps what it held when first read.
func (tx *transaction) noteRows(db, table string, ids []string, rows []storage.Row) {
	if tx == nil || len(ids) == 0 {
		return
	}
	tk := tableKey(db, table)
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.checked == nil {
		tx.checked = make(map[string]bool)
	}
	if tx.rowChecks == nil {
		tx.rowChecks = make(map[string]int)
	}
	at, ok := tx.rowChecks[tk]
	if !ok {
		at = len(tx.checks)
		tx.rowChecks[tk] = at
		tx.checks = append(tx.checks, storage.Op{Kind: storage.OpCheckRows, DB: db, Table: table})
	}
	op := &tx.checks[at]
	for i, id := range ids {
		key := "row\x00" + tk + "\x00" + id
		if tx.checked[key] {
			continue
		}
		tx.checked[key] = true
		op.Keys = append(op.Keys, id)
		op.Rows = append(op.Rows, rows[i])
	}
}

func (tx *transaction) String() string   { return "sqlearn transaction" }
func (tx *transaction) IsReadOnly() bool { return tx.readOnly }

func tableKey(db, table string) string { return strings.ToLower(db) + "\x00" + strings.ToLower(table) }

// table returns the pending changes of a table, or nil when there are none.
func (tx *transaction) table(db, name string) *txTable {
	if tx == nil {
		return nil
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	return tx.tables[tableKey(db, name)]
}

func (tx *transaction) tableForWrite(db, name string, keyless bool, uniq []uniqueIndex) *txTable {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	k := tableKey(db, name)
	t := tx.tables[k]
	if t == nil {
		t = &txTable{db: db, name: name, keyless: keyless, changes: make(map[string]*change), unique: make(map[string]string), uniq: uniq}
		if keyless {
			t.content = make(map[string][]string)
		}
		tx.tables[k] = t
		tx.order = append(tx.order, t)
	}
	return t
}

// set records a new state for an identity, keeping what undo needs.
func (tx *transaction) set(t *txTable, id string, c *change) {
	prev, had := t.changes[id]
	if !had {
		prev = nil
		t.order = append(t.order, id)
	}
	tx.undo = append(tx.undo, undoRec{t: t, id: id, prev: prev, byTrigger: tx.inBeforeTrigger > 0})
	t.writes.Add(1)
	dataEpoch.Add(1)
	if prev != nil && prev.row != nil {
		if !t.uniqueStale {
			t.removeUnique(id, prev.row)
		}
		if t.keyless {
			t.removeContent(id, prev.row)
		}
	}
	var prevRow, nextRow storage.Row
	if prev != nil {
		prevRow = prev.row
	}
	if c != nil {
		nextRow = c.row
	}
	t.movePoints(id, prevRow, nextRow)
	if c == nil {
		delete(t.changes, id)
	} else {
		t.changes[id] = c
		if c.row != nil {
			if !t.uniqueStale {
				t.addUnique(id, c.row)
			}
			if t.keyless {
				ck := storage.EncodeKey(c.row)
				t.content[ck] = append(t.content[ck], id)
			}
		}
	}
}

func (t *txTable) removeContent(id string, r storage.Row) {
	ck := storage.EncodeKey(r)
	ids := t.content[ck]
	for i, x := range ids {
		if x == id {
			ids = append(ids[:i:i], ids[i+1:]...)
			break
		}
	}
	if len(ids) == 0 {
		delete(t.content, ck)
	} else {
		t.content[ck] = ids
	}
}

func (tx *transaction) mark() int { return len(tx.undo) }

func (tx *transaction) rollbackTo(mark int) {
	tx.undo[mark:].undo()
	tx.undo = tx.undo[:mark]
}

// undoLog is a run of a transaction's undo records, oldest first.
type undoLog []undoRec

// undo takes back the changes of l, newest first. The indexes of the
// tables' pending rows are built again once a table, after: per change,
// a failed statement that had written n rows of a keyless table took
// time in n² to take them back (two minutes for 20,000).
func (l undoLog) undo() {
	touched := map[*txTable]bool{}
	for i := len(l) - 1; i >= 0; i-- {
		u := l[i]
		if u.prev == nil {
			delete(u.t.changes, u.id)
		} else {
			u.t.changes[u.id] = u.prev
		}
		touched[u.t] = true
	}
	for t := range touched {
		t.writes.Add(1)
		dataEpoch.Add(1)
		t.uniqueStale = true
		t.dropPoints()
		if t.keyless {
			t.rebuildContent()
		}
	}
}

// rollbackRowTo undoes the changes made since mark but those of BEFORE
// triggers' bodies: a row that INSERT or UPDATE IGNORE passes over is
// taken back with what its write cascaded to other tables, and what its
// triggers wrote stays, as in MySQL.
func (tx *transaction) rollbackRowTo(mark int) {
	var taken undoLog
	kept := tx.undo[:mark]
	for _, u := range tx.undo[mark:] {
		if u.byTrigger {
			kept = append(kept, u)
		} else {
			taken = append(taken, u)
		}
	}
	taken.undo()
	tx.undo = kept
}

// triggerWrites runs f, a BEFORE trigger's body, with the changes it
// makes marked as the trigger's (rollbackRowTo).
func triggerWrites(ctx *sql.Context, f func() (sql.Row, error)) (sql.Row, error) {
	if tx := txFrom(ctx); tx != nil {
		tx.inBeforeTrigger++
		defer func() { tx.inBeforeTrigger-- }()
	}
	return f()
}

func (t *txTable) rebuildContent() {
	t.content = make(map[string][]string)
	for _, id := range t.liveOrder() {
		c := t.changes[id]
		ck := storage.EncodeKey(c.row)
		t.content[ck] = append(t.content[ck], id)
	}
}

// liveOrder lists the identities whose pending state is a row, in the order
// they were first touched.
func (t *txTable) liveOrder() []string {
	out := make([]string, 0, len(t.changes))
	seen := make(map[string]bool, len(t.changes))
	for _, id := range t.order {
		if seen[id] {
			continue
		}
		seen[id] = true
		if c, ok := t.changes[id]; ok && c.row != nil {
			out = append(out, id)
		}
	}
	return out
}

// command turns the pending changes into one log command: all deletes, then
// all inserts, so an update (delete + insert of one identity) applies in
// order.
func (tx *transaction) command() *storage.Command {
	cmd := &storage.Command{}
	var inserts []storage.Op
	for _, t := range tx.order {
		var del []string
		var expect []storage.Row
		var rows []storage.Row
		var rowIDs []uint64
		seen := make(map[string]bool, len(t.changes))
		for _, id := range t.order {
			if seen[id] {
				continue
			}
			seen[id] = true
			c, ok := t.changes[id]
			if !ok {
				continue
			}
			if c.base {
				del = append(del, id)
				expect = append(expect, c.old)
			}
			if c.row != nil {
				rows = append(rows, c.row)
				if t.keyless {
					rowIDs = append(rowIDs, c.rowID)
				}
			}
		}
		if len(del) > 0 {
			cmd.Ops = append(cmd.Ops, storage.Op{Kind: storage.OpDelete, DB: t.db, Table: t.name, Keys: del, Rows: expect})
		}
		if len(rows) > 0 {
			inserts = append(inserts, storage.Op{Kind: storage.OpInsert, DB: t.db, Table: t.name, Rows: rows, RowIDs: rowIDs})
		}
	}
	cmd.Ops = append(cmd.Ops, inserts...)
	// A transaction that wrote nothing needs no checks, but for those of
	// its locking reads when it ran a write that changed no row: the
	// write it meant (v = what it read + 1) may be what another wrote.
	if len(tx.checks) > 0 && (len(cmd.Ops) > 0 || tx.rowChecks != nil && len(tx.order) > 0) {
		// The checks come first: they compare with the committed rows
		// as they were before this transaction's changes.
		cmd.Ops = append(slices.Clip(tx.checks), cmd.Ops...)
	}
	return cmd
}

// Proposer appends an encoded command to the replicated log and returns
// once it is durable and applied, with the state machine's error.
type Proposer interface {
	Propose(ctx context.Context, cmd []byte) error
}

// uniqueIndex is a secondary unique index by column ordinals, with the
// collation of each text column (0 for others): keys equal under it are
// one key ('x' and 'X' under utf8mb4_0900_ai_ci).
type uniqueIndex struct {
	name  string
	cols  []int
	colls []sql.CollationID
}

type uniqueHolder struct {
	id  string
	key string
	row storage.Row
}

func (u *uniqueIndex) key(r storage.Row) (string, bool) {
	vals := make([]any, len(u.cols))
	for i, c := range u.cols {
		vals[i] = r[c]
	}
	return u.keyOf(vals)
}

// keyOf is the key of the index's column values vals (in stored form), as
// key gives it; false when one is NULL, which no key holds.
func (u *uniqueIndex) keyOf(vals []any) (string, bool) {
	for i, v := range vals {
		if v == nil {
			return "", false
		}
		if s, ok := v.(string); ok && i < len(u.colls) && u.colls[i] != 0 {
			var w strings.Builder
			if writeWeights(&w, u.colls[i], s) == nil {
				vals[i] = []byte(w.String())
			}
		}
	}
	return u.name + "\x00" + storage.EncodeKey(vals), true
}

// pointIndex finds the live rows of a transaction's table by the whole
// key of one of the table's indexes, for lookups of one key (see
// Table.keyOverlay). A txTable builds one for an index when a lookup
// first asks, and keeps it up to date with each change after.
type pointIndex struct {
	uniqueIndex
	ids map[string][]string // key (uniqueIndex.key) to identities
}

func (x *pointIndex) add(id string, r storage.Row) {
	if k, ok := x.key(r); ok {
		x.ids[k] = append(x.ids[k], id)
	}
}

func (x *pointIndex) remove(id string, r storage.Row) {
	k, ok := x.key(r)
	if !ok {
		return
	}
	ids := slices.DeleteFunc(x.ids[k], func(s string) bool { return s == id })
	if len(ids) == 0 {
		delete(x.ids, k)
		return
	}
	x.ids[k] = ids
}

// pending gives the identities of the live rows that hold key vals of
// index u, building the index's pointIndex when it has none.
func (t *txTable) pending(u uniqueIndex, vals []any) []string {
	t.pointsMu.Lock()
	defer t.pointsMu.Unlock()
	x := t.points[u.name]
	if x == nil {
		x = &pointIndex{uniqueIndex: u, ids: make(map[string][]string)}
		for _, id := range t.liveOrder() {
			x.add(id, t.changes[id].row)
		}
		if t.points == nil {
			t.points = make(map[string]*pointIndex)
		}
		t.points[u.name] = x
	}
	k, ok := x.keyOf(vals)
	if !ok {
		return nil
	}
	return x.ids[k]
}

// movePoints keeps the point indexes built so far up to date with a
// change of id from prev to next (nil for no row).
func (t *txTable) movePoints(id string, prev, next storage.Row) {
	t.pointsMu.Lock()
	defer t.pointsMu.Unlock()
	for _, x := range t.points {
		if prev != nil {
			x.remove(id, prev)
		}
		if next != nil {
			x.add(id, next)
		}
	}
}

// dropPoints forgets the point indexes, which undo would have to take
// back change by change: the next lookup builds them anew.
func (t *txTable) dropPoints() {
	t.pointsMu.Lock()
	t.points = nil
	t.pointsMu.Unlock()
}

// uniqueConflict looks for another pending row holding one of r's unique
// secondary keys.
func (t *txTable) uniqueConflict(r storage.Row, id, self string) (string, uniqueHolder, bool) {
	if len(t.uniq) == 0 {
		return "", uniqueHolder{}, false
	}
	if t.uniqueStale {
		t.rebuildUnique()
	}
	for i := range t.uniq {
		k, ok := t.uniq[i].key(r)
		if !ok {
			continue
		}
		if other, ok := t.unique[k]; ok && other != id && other != self {
			c := t.changes[other]
			return t.uniq[i].name, uniqueHolder{id: other, key: fmt.Sprint(c.row), row: c.row}, true
		}
	}
	return "", uniqueHolder{}, false
}

func (t *txTable) rebuildUnique() {
	t.unique = make(map[string]string)
	for _, id := range t.liveOrder() {
		t.addUnique(id, t.changes[id].row)
	}
	t.uniqueStale = false
}

func (t *txTable) addUnique(id string, r storage.Row) {
	for i := range t.uniq {
		if k, ok := t.uniq[i].key(r); ok {
			t.unique[k] = id
		}
	}
}

func (t *txTable) removeUnique(id string, r storage.Row) {
	for i := range t.uniq {
		if k, ok := t.uniq[i].key(r); ok && t.unique[k] == id {
			delete(t.unique, k)
		}
	}
}
