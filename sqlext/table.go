package sqlext

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// Table is one stored table as go-mysql-server sees it during one query.
type Table struct {
	p      *Provider
	info   *storage.TableInfo
	sch    sql.PrimaryKeySchema
	codecs []codec
	lookup *sql.IndexLookup
	// shown is the name the table is used by: its own, or for a temporary
	// table (temp) the name its session gave it (temptables.go).
	shown string
	temp  bool
	// fkRead marks the table as a foreign key check reads it: its index
	// lookups are logged with the transaction for its commit to recheck
	// (transaction.noteLookup).
	fkRead bool
	// read marks the columns the statement reads (readColumns); nil for
	// all of them. Index lookups leave the others NULL.
	read []bool
	// ftRead is the MATCH whose rows alone the table is read for
	// (fulltextindex.go), or nil.
	ftRead *scalarFunc
}

var (
	_ sql.Table               = (*Table)(nil)
	_ sql.InsertableTable     = (*Table)(nil)
	_ sql.UpdatableTable      = (*Table)(nil)
	_ sql.DeletableTable      = (*Table)(nil)
	_ sql.ReplaceableTable    = (*Table)(nil)
	_ sql.TruncateableTable   = (*Table)(nil)
	_ sql.AutoIncrementTable  = (*Table)(nil)
	_ sql.IndexAddressable    = (*Table)(nil)
	_ sql.IndexedTable        = (*Table)(nil)
	_ sql.IndexAlterableTable = (*Table)(nil)
	_ sql.AlterableTable      = (*Table)(nil)
	_ sql.StatisticsTable     = (*Table)(nil)
	_ sql.PrimaryKeyTable     = (*Table)(nil)
	_ sql.CommentedTable      = (*Table)(nil)
)

func (p *Provider) newTable(ctx *sql.Context, info *storage.TableInfo) (*Table, error) {
	sch, err := p.sqlSchema(ctx, info)
	if err != nil {
		return nil, err
	}
	codecs := make([]codec, len(sch.Schema))
	for i, c := range sch.Schema {
		codecs[i] = codecFor(c.Type)
	}
	t := &Table{p: p, info: info, sch: sch, codecs: codecs, shown: info.Name}
	if shown, temp := p.shownName(info.DB, info.Name); temp {
		// A temporary table: its columns belong to the name it is used by.
		t.shown, t.temp = shown, true
		cols := make(sql.Schema, len(sch.Schema))
		for i, c := range sch.Schema {
			cc := *c
			cc.Source = shown
			cols[i] = &cc
		}
		t.sch = sql.NewPrimaryKeySchema(cols, sch.PkOrdinals...)
	}
	return t, nil
}

func (t *Table) Name() string                           { return t.shown }
func (t *Table) String() string                         { return t.shown }
func (t *Table) IsTemporary() bool                      { return t.temp }
func (t *Table) Schema() sql.Schema                     { return t.sch.Schema }
func (t *Table) PrimaryKeySchema() sql.PrimaryKeySchema { return t.sch }
func (t *Table) Comment() string                        { return parseTableMeta(t.info.Schema.Meta).Comment }

// Collation is the table's collation, the default of its text columns.
// A table that recorded none was created when utf8mb4_0900_bin was the
// server's default (see ServerCollation), and has it.
func (t *Table) Collation() sql.CollationID {
	if c, err := sql.ParseCollation("", parseTableMeta(t.info.Schema.Meta).Collation, false); err == nil && c != sql.Collation_Unspecified {
		return c
	}
	return sql.Collation_Default
}

func (t *Table) keyless() bool { return len(t.info.Schema.PK) == 0 }

func (t *Table) toSQL(r storage.Row) sql.Row {
	out := make(sql.Row, len(r))
	for i, v := range r {
		if v != nil {
			out[i] = t.codecs[i].fromStore(v)
		}
	}
	return out
}

// toSQLOwned is toSQL for a row the caller owns, converted in place.
func (t *Table) toSQLOwned(r storage.Row) sql.Row {
	for i, v := range r {
		if v != nil {
			r[i] = t.codecs[i].fromStore(v)
		}
	}
	return sql.Row(r)
}

// toStorage is the stored form of a row to write.
func (t *Table) toStorage(r sql.Row) (storage.Row, error) { return t.stored(r, true) }

// asRead is the stored form of a row the statement read, to find it.
func (t *Table) asRead(r sql.Row) (storage.Row, error) { return t.stored(r, false) }

func (t *Table) stored(r sql.Row, write bool) (storage.Row, error) {
	if len(r) != len(t.codecs) {
		return nil, fmt.Errorf("sqlext: table %s has %d columns, row has %d", t.info.Name, len(t.codecs), len(r))
	}
	out := make(storage.Row, len(r))
	for i, v := range r {
		convert := t.codecs[i].asRead
		if write {
			convert = t.codecs[i].toStorage
		}
		sv, err := convert(v)
		if err != nil {
			return nil, fmt.Errorf("sqlext: column %s: %w", t.sch.Schema[i].Name, err)
		}
		out[i] = sv
	}
	return out, nil
}

// partition is one storage partition as it was when the scan began: all
// partitions' cursors are opened at one instant, so a statement never sees
// half of another transaction.
type partition struct {
	n int
	c *storage.Cursor
}

func (p partition) Key() []byte { return []byte{byte(p.n)} }

// overlayPartition holds the rows the transaction had written when the
// statement began: taken then, so a statement never reads back its own
// writes (an UPDATE must not update a row twice).
type overlayPartition struct{ rows []sql.Row }

func (overlayPartition) Key() []byte { return []byte("overlay") }

// orderedPartition is a whole table's rows in primary-key order: the
// committed rows the transaction has not changed (c), and the rows it
// holds (overlay), sorted by the key, to merge with them.
type orderedPartition struct {
	c       *storage.KeyCursor
	overlay []sql.Row
}

func (orderedPartition) Key() []byte { return []byte("ordered") }

type orderedIter struct {
	t       *Table
	c       *storage.KeyCursor
	n       int
	overlay []sql.Row
	next    sql.Row // the committed row read ahead, nil for none
	done    bool    // c has given its last row
	// locked gathers the rows of a locking read (lockingreads.go).
	locked *lockedRows
}

func (it *orderedIter) Next(ctx *sql.Context) (sql.Row, error) {
	if it.next == nil && !it.done {
		r, ok := it.c.Next()
		if it.done = !ok; ok {
			it.next = it.t.toSQL(r)
			if it.locked != nil {
				id, err := it.t.p.store.Identity(it.t.info.DB, it.t.info.Name, r)
				if err != nil {
					return nil, translateStorage(err)
				}
				it.locked.add(id, r)
			}
		}
		if it.n++; it.n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	if len(it.overlay) > 0 && (it.next == nil || it.t.compareKeys(ctx, it.overlay[0], it.next) < 0) {
		r := it.overlay[0]
		it.overlay = it.overlay[1:]
		return r, nil
	}
	if it.next == nil {
		return nil, io.EOF
	}
	r := it.next
	it.next = nil
	return r, nil
}

// compareKeys orders two rows of the table by its primary key.
func (t *Table) compareKeys(ctx *sql.Context, a, b sql.Row) int {
	for _, c := range t.info.Schema.PK {
		if n, err := t.sch.Schema[c].Type.Compare(ctx, a[c], b[c]); err == nil && n != 0 {
			return n
		}
	}
	return 0
}

func (it *orderedIter) Close(ctx *sql.Context) error {
	it.locked.note(ctx, it.t)
	it.c.Close()
	return nil
}

// OrderedScanRows bounds the tables read in primary-key order.
const OrderedScanRows = 65536

// Partitions are the table's storage partitions, or for a table with a
// primary key and at most OrderedScanRows rows one partition of its rows
// in key order, the rows the statement's transaction holds among them:
// InnoDB reads a table through its primary key, and users of small tables
// rely on that order without asking for it (storage partitions rows by a
// hash of the key), as does the first error of a statement that fails on
// more than one row.
func (t *Table) Partitions(ctx *sql.Context) (sql.PartitionIter, error) {
	if err := t.p.fresh(ctx); err != nil {
		return nil, err
	}
	if err := t.p.awaitRead(ctx, t.info.DB, t.info.Name); err != nil {
		return nil, err
	}
	if t.ftRead != nil && !lockingRead(ctx) {
		return t.fulltextPartitions(ctx)
	}
	if len(t.info.Schema.PK) > 0 {
		tt := txFrom(ctx).table(t.info.DB, t.info.Name)
		var skip func(string) bool
		if tt != nil {
			skip = func(id string) bool {
				_, changed := tt.changes[id]
				return changed
			}
		}
		c, ok, err := t.p.store.ScanKeyOrderExcept(t.info.DB, t.info.Name, OrderedScanRows, skip)
		if err != nil {
			return nil, translateStorage(err)
		}
		if ok {
			p := orderedPartition{c: c}
			if tt != nil {
				p.overlay = t.overlayRows(tt, nil)
				slices.SortFunc(p.overlay, func(a, b sql.Row) int { return t.compareKeys(ctx, a, b) })
			}
			return sql.PartitionsToPartitionIter(p), nil
		}
	}
	cursors, err := t.p.store.ScanTable(t.info.DB, t.info.Name)
	if err != nil {
		return nil, translateStorage(err)
	}
	parts := make([]sql.Partition, 0, len(cursors)+1)
	for i, c := range cursors {
		parts = append(parts, partition{n: i, c: c})
	}
	if tt := txFrom(ctx).table(t.info.DB, t.info.Name); tt != nil {
		parts = append(parts, overlayPartition{rows: t.overlayRows(tt, nil)})
	}
	return sql.PartitionsToPartitionIter(parts...), nil
}

// overlayRows is the rows the transaction holds for the table, in the
// order they were first written, those keep keeps (all when nil).
func (t *Table) overlayRows(tt *txTable, keep func(storage.Row) bool) []sql.Row {
	ids := tt.liveOrder()
	rows := make([]sql.Row, 0, len(ids))
	for _, id := range ids {
		if r := tt.changes[id].row; keep == nil || keep(r) {
			rows = append(rows, t.toSQL(r))
		}
	}
	return rows
}

func (t *Table) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	switch p := part.(type) {
	case lookupPartition:
		return t.lookupRows(ctx, p.lookup)
	case overlayPartition:
		return sql.RowsToRowIter(p.rows...), nil
	case ftPartition:
		return sql.RowsToRowIter(p.rows...), nil
	case orderedPartition:
		it := &orderedIter{t: t, c: p.c, overlay: p.overlay}
		if lockingRead(ctx) {
			it.locked = &lockedRows{}
		} else {
			p.c.ReadColumns(t.read)
		}
		return it, nil
	}
	p, ok := part.(partition)
	if !ok {
		return nil, fmt.Errorf("sqlext: foreign partition %T", part)
	}
	tt := txFrom(ctx).table(t.info.DB, t.info.Name)
	track := tt != nil && tt.changers.Load() > 0
	it := &scanIter{t: t, c: p.c, tt: tt, track: track}
	if lockingRead(ctx) {
		it.locked = &lockedRows{}
	} else if !track {
		// An editor that tracks the rows it reads writes them back.
		p.c.ReadColumns(t.read)
	}
	return it, nil
}

type scanIter struct {
	t  *Table
	c  *storage.Cursor
	tt *txTable
	n  int
	// track says an editor deletes or updates the keyless rows the scan
	// reads, which then learns which of equal rows it read (lastRead).
	track bool
	// locked gathers the rows of a locking read (lockingreads.go).
	locked *lockedRows
}

func (it *scanIter) Next(ctx *sql.Context) (sql.Row, error) {
	for {
		r, id, ok := it.c.Next()
		if !ok {
			return nil, io.EOF
		}
		if it.n++; it.n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if it.tt != nil {
			if _, touched := it.tt.changes[id]; touched {
				continue
			}
		}
		if it.track {
			it.tt.lastRead.Store(&readRow{id: id, row: r})
		}
		it.locked.add(id, r)
		return it.t.toSQL(r), nil
	}
}

func (it *scanIter) Close(ctx *sql.Context) error {
	it.locked.note(ctx, it.t)
	it.c.Close()
	return nil
}

func txFrom(ctx *sql.Context) *transaction {
	if ctx == nil {
		return nil
	}
	tx, _ := ctx.GetTransaction().(*transaction)
	return tx
}

// DataLength and RowCount feed the planner and SHOW TABLE STATUS. RowCount
// excludes the caller's uncommitted changes, so it is not exact inside a
// transaction that wrote to the table.
func (t *Table) DataLength(ctx *sql.Context) (uint64, error) {
	return uint64(t.info.Rows) * uint64(8*len(t.sch.Schema)), nil
}

func (t *Table) RowCount(ctx *sql.Context) (uint64, bool, error) {
	info, err := t.p.store.Table(t.info.DB, t.info.Name)
	if err != nil {
		return 0, false, translateStorage(err)
	}
	return uint64(info.Rows), txFrom(ctx).table(t.info.DB, t.info.Name) == nil, nil
}

// Auto-increment values are handed out from storage's allocator, which runs
// ahead of committed state so concurrent transactions never share a value.

func (t *Table) PeekNextAutoIncrementValue(ctx *sql.Context) (uint64, error) {
	v, err := t.p.store.PeekAutoInc(t.info.DB, t.info.Name)
	return v, translateStorage(err)
}

func (t *Table) GetNextAutoIncrementValue(ctx *sql.Context, insertVal interface{}) (uint64, error) {
	if insertVal != nil {
		if n, ok := unsignedOf(insertVal); ok {
			return t.p.takeAutoInc(ctx, bumpAutoInc, t.info.DB, t.info.Name, n)
		}
	}
	return t.p.takeAutoInc(ctx, allocAutoInc, t.info.DB, t.info.Name, 1)
}

func unsignedOf(v any) (uint64, bool) {
	switch x := v.(type) {
	case int8:
		return uint64(x), x > 0
	case int16:
		return uint64(x), x > 0
	case int32:
		return uint64(x), x > 0
	case int64:
		return uint64(x), x > 0
	case int:
		return uint64(x), x > 0
	case uint8:
		return uint64(x), true
	case uint16:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint64:
		return x, true
	case float32:
		return uint64(x), x > 0
	case float64:
		return uint64(x), x > 0
	}
	return 0, false
}

func (t *Table) AutoIncrementSetter(ctx *sql.Context) sql.AutoIncrementSetter {
	return &autoIncSetter{t: t}
}

type autoIncSetter struct{ t *Table }

func (s *autoIncSetter) SetAutoIncrementValue(ctx *sql.Context, v uint64) error {
	return s.t.p.propose(ctx, storage.Op{Kind: storage.OpSetAutoInc, DB: s.t.info.DB, Table: s.t.info.Name, AutoInc: v})
}

func (s *autoIncSetter) AcquireAutoIncrementLock(ctx *sql.Context) (func(), error) {
	return func() {}, nil
}

func (s *autoIncSetter) Close(*sql.Context) error { return nil }

// Truncate empties the table. The engine also routes DELETE without WHERE
// here; that one must stay a transactional row delete, so it is told apart
// by the statement text, the only trace the rewrite leaves. TRUNCATE
// counts no rows affected, as in MySQL.
func (t *Table) Truncate(ctx *sql.Context) (int, error) {
	if isDelete(ctx.Query()) {
		return t.deleteAll(ctx)
	}
	return 0, t.p.propose(ctx, storage.Op{Kind: storage.OpTruncate, DB: t.info.DB, Table: t.info.Name})
}

// Schema changes. Each is its own log command; go-mysql-server commits the
// session's transaction around DDL, as MySQL does.

func (t *Table) AddColumn(ctx *sql.Context, column *sql.Column, order *sql.ColumnOrder) error {
	sc, err := columnToStorage(column)
	if err != nil {
		return err
	}
	pos := t.position(order)
	var stored []storage.Row
	var ids []string
	if perRow(column) {
		if stored, ids, err = t.storedRows(); err != nil {
			return err
		}
	}
	fill, values, err := addedValues(ctx, t.sch.Schema, column, pos, t.asSQL(stored), t.info.Rows > 0)
	if err != nil {
		return err
	}
	c := codecFor(column.Type)
	sfill, err := c.toStorage(fill)
	if err != nil {
		return err
	}
	// Each row's own value, if it has one, replaces the fill in a
	// second command, which fails if a row changed since it was read.
	var (
		old, now []storage.Row
		rowIDs   []uint64
		highest  uint64
	)
	for i, r := range stored {
		v, err := c.toStorage(values[i])
		if err != nil {
			return err
		}
		at := pos
		if at < 0 {
			at = len(r)
		}
		old = append(old, slices.Insert(slices.Clone(r), at, sfill))
		now = append(now, slices.Insert(slices.Clone(r), at, v))
		if t.keyless() {
			rowIDs = append(rowIDs, keylessRowID(ids[i]))
		}
		if n, ok := unsignedOf(values[i]); ok && column.AutoIncrement {
			highest = max(highest, n)
		}
	}
	if err := t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpAddColumn, DB: t.info.DB, Table: t.info.Name, Column: &sc, Position: pos, Fill: sfill})); err != nil {
		return err
	}
	if values == nil {
		return nil
	}
	ops := []storage.Op{
		{Kind: storage.OpDelete, DB: t.info.DB, Table: t.info.Name, Keys: ids, Rows: old},
		{Kind: storage.OpInsert, DB: t.info.DB, Table: t.info.Name, Rows: now, RowIDs: rowIDs},
	}
	if column.AutoIncrement {
		ops = append(ops, storage.Op{Kind: storage.OpSetAutoInc, DB: t.info.DB, Table: t.info.Name, AutoInc: highest + 1})
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, ops...))
}

// rowsNow is every committed row of the table, read at one instant (see
// storedRows).
func (t *Table) rowsNow() ([]sql.Row, error) {
	stored, _, err := t.storedRows()
	return t.asSQL(stored), err
}

func (t *Table) asSQL(stored []storage.Row) []sql.Row {
	rows := make([]sql.Row, len(stored))
	for i, r := range stored {
		rows[i] = t.toSQL(r)
	}
	return rows
}

// storedRows is every committed row of the table as storage holds it,
// with its identity, read at one instant; a table without a primary key
// has them in the order they were inserted.
func (t *Table) storedRows() ([]storage.Row, []string, error) {
	cursors, err := t.p.store.ScanTable(t.info.DB, t.info.Name)
	if err != nil {
		return nil, nil, translateStorage(err)
	}
	var rows []storage.Row
	var ids []string
	for _, c := range cursors {
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			rows = append(rows, r)
			ids = append(ids, id)
		}
		c.Close()
	}
	if t.keyless() {
		order := make([]int, len(ids))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(keylessRowID(ids[a]), keylessRowID(ids[b])) })
		sortedRows, sortedIDs := make([]storage.Row, len(ids)), make([]string, len(ids))
		for i, o := range order {
			sortedRows[i], sortedIDs[i] = rows[o], ids[o]
		}
		rows, ids = sortedRows, sortedIDs
	}
	return rows, ids, nil
}

// refreshAfter reloads the table's description after a schema change: the
// engine keeps using this object for the rest of the ALTER (to fill in
// expression defaults, for example) and expects it to show the new schema.
func (t *Table) refreshAfter(ctx *sql.Context, err error) error {
	if err != nil {
		return err
	}
	info, err := t.p.store.Table(t.info.DB, t.info.Name)
	if err != nil {
		return translateStorage(err)
	}
	nt, err := t.p.newTable(ctx, info)
	if err != nil {
		return err
	}
	t.info, t.sch, t.codecs, t.shown, t.temp = nt.info, nt.sch, nt.codecs, nt.shown, nt.temp
	return nil
}

func (t *Table) position(order *sql.ColumnOrder) int {
	if order == nil {
		return -1
	}
	if order.First {
		return 0
	}
	if order.AfterColumn != "" {
		if i := t.sch.Schema.IndexOfColName(order.AfterColumn); i >= 0 {
			return i + 1
		}
	}
	return -1
}

// DropColumn drops a column as MySQL does: it leaves the indexes it is
// part of, and an index left without columns goes with it. A column of
// the primary key is dropped by a rebuild of the table (dropColumn).
func (t *Table) DropColumn(ctx *sql.Context, name string) error {
	if err := dropRefused(t.sch.Schema, name); err != nil {
		return err
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpDropIndexedColumn, DB: t.info.DB, Table: t.info.Name, Name: name}))
}

// dropRefused is the error DROP COLUMN name of a table of columns sch
// fails with before anything changes, or nil: the last column, as in
// MySQL, and a column that another's generated value or default reads.
func dropRefused(sch sql.Schema, name string) error {
	i := sch.IndexOfColName(name)
	switch {
	case i < 0:
		return nil
	case len(sch) == 1:
		return mysql.NewSQLError(mysql.ERCantRemoveAllFields, "42000", "You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
	}
	return readBy(sch, i)
}

// readBy is MySQL's error for dropping or renaming column i of sch while
// another column's generated value or default expression reads it, or
// nil. (The engine named the column anew in the expressions of a
// rename, which then no longer resolved.)
func readBy(sch sql.Schema, i int) error {
	for _, c := range sch {
		switch {
		case c == sch[i]:
		case names(c.Generated, sch[i].Name):
			return mysql.NewSQLError(erDependentByGeneratedColumn, "HY000", "Column '%s' has a generated column dependency.", sch[i].Name)
		case names(c.Default, sch[i].Name):
			return dependentByDefault(sch[i].Name, c.Source)
		}
	}
	return nil
}

// renameChecked refuses RENAME COLUMN of a column of one of our tables
// that an expression reads (readBy).
func renameChecked(ctx *sql.Context, n *plan.RenameColumn) error {
	if t, err := alteredBy(ctx, n); t == nil || err != nil {
		return err
	}
	return renameRefused(n.TargetSchema(), n.ColumnName, n.NewColumnName)
}

// renameRefused is the error renaming column from of a table of columns
// sch (a clause's, whose expressions the analyzer resolved) to to fails
// with, or nil (readBy).
func renameRefused(sch sql.Schema, from, to string) error {
	if i := sch.IndexOfColName(from); i >= 0 && !sameName(from, to) {
		return readBy(sch, i)
	}
	return nil
}

// dependentByDefault is MySQL's error for dropping a column another
// column's default expression reads.
func dependentByDefault(column, table string) error {
	return mysql.NewSQLError(erDependentByDefault, "HY000", "Column '%s' of table '%s' has a default value expression dependency and cannot be dropped or renamed.", column, table)
}

// MySQL's ER_DEPENDENT_BY_GENERATED_COLUMN and
// ER_DEPENDENT_BY_DEFAULT_GENERATED_VALUE.
const (
	erDependentByGeneratedColumn = 3108
	erDependentByDefault         = 3837
)

// names says whether expression d reads the column named column.
func names(d *sql.ColumnDefaultValue, column string) bool {
	if d == nil {
		return false
	}
	found := false
	sql.Inspect(d.Expr, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *expression.GetField:
			found = found || strings.EqualFold(e.Name(), column)
		case *expression.UnresolvedColumn:
			found = found || strings.EqualFold(e.Name(), column)
		}
		return !found
	})
	return found
}

// indexRefused is the error CreateIndex fails with for def, a key of the
// columns sch, before anything changes, or nil.
func indexRefused(def sql.IndexDef, sch sql.Schema) error {
	if def.IsFullText() || def.IsSpatial() || def.IsVector() {
		return sql.ErrUnsupportedFeature.New("FULLTEXT, SPATIAL and VECTOR indexes")
	}
	if def.IsPrimary() {
		return sql.ErrUnsupportedFeature.New("adding a primary key to an existing table")
	}
	if def.IsUnique() && indexPrefixes(def.Columns, sch) != nil {
		return uniquePrefixRefused()
	}
	return nil
}

// uniquePrefixRefused is MySQL's 1089 for a unique key on a prefix of a
// column. Storage keeps each key's whole values, which for a key that
// need not be unique is a finer order of the same rows (the engine
// re-reads a lookup's conditions, PreciseMatch), but for a unique one
// would let two values of one prefix stand side by side.
func uniquePrefixRefused() error {
	return mysql.NewSQLError(erWrongSubKey, "HY000", "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys")
}

// erWrongSubKey is MySQL's ER_WRONG_SUB_KEY.
const erWrongSubKey = 1089

// indexPrefixes is the prefix length of each of a key's columns, 0 for a
// whole column, or nil when the key has no prefix. A prefix as long as
// its column, or longer (the engine refused that already), is the whole
// column, as in MySQL (SHOW INDEX has no Sub_part for it).
func indexPrefixes(cols []sql.IndexColumn, sch sql.Schema) []uint16 {
	var out []uint16
	for i, c := range cols {
		if c.Length <= 0 {
			continue
		}
		if j := sch.IndexOfColName(c.Name); j >= 0 && wholePrefix(c.Length, sch[j].Type) {
			continue
		}
		if out == nil {
			out = make([]uint16, len(cols))
		}
		out[i] = uint16(c.Length)
	}
	return out
}

// wholePrefix says whether a prefix of n characters of a column of type
// t is all of it, as MySQL takes such a prefix.
func wholePrefix(n int64, t sql.Type) bool {
	st, ok := t.(sql.StringType)
	return ok && n >= st.MaxCharacterLength()
}

// modifiedValue is v, a row's value in a column that MODIFY or CHANGE
// makes column, as the column holds it, or MySQL's error in strict mode
// for a value it cannot hold (row counts from 1). NULL in a column made
// NOT NULL is ER_INVALID_USE_OF_NULL, as MySQL answers for it.
func modifiedValue(ctx *sql.Context, column *sql.Column, v any, row int) (any, error) {
	if v == nil && !column.Nullable {
		return nil, mysql.NewSQLError(erInvalidUseOfNull, "22004", "Invalid use of NULL value")
	}
	return storedValue(ctx, column, v, row)
}

// erInvalidUseOfNull is MySQL's ER_INVALID_USE_OF_NULL.
const erInvalidUseOfNull = 1138

func (t *Table) ModifyColumn(ctx *sql.Context, name string, column *sql.Column, order *sql.ColumnOrder) error {
	idx := t.sch.Schema.IndexOfColName(name)
	if idx < 0 {
		return sql.ErrTableColumnNotFound.New(t.Name(), name)
	}
	sc, err := columnToStorage(column)
	if err != nil {
		return err
	}
	if old := t.info.Schema.Columns[idx]; order == nil && !sameName(name, sc.Name) && sc.Kind == old.Kind && sc.Nullable == old.Nullable && sc.Meta == old.Meta {
		// A new name only (RENAME COLUMN), which the indexes that name
		// the column follow; a change of the column keeps their names.
		return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpRenameColumn, DB: t.info.DB, Table: t.info.Name, Name: name, NewName: sc.Name}))
	}
	pos := t.position(order)
	if pos > idx {
		pos--
	}
	newCodec := codecFor(column.Type)
	var rows []storage.Row
	var ids []string
	for p := 0; p < storage.Partitions; p++ {
		c, err := t.p.store.Scan(t.info.DB, t.info.Name, p)
		if err != nil {
			return translateStorage(err)
		}
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			nr := append(storage.Row{}, r...)
			var v any
			if r[idx] != nil {
				v = t.codecs[idx].fromStore(r[idx])
			}
			sv, err := modifiedValue(ctx, column, v, len(rows)+1)
			if err == nil {
				nr[idx], err = newCodec.toStorage(sv)
			}
			if err != nil {
				c.Close()
				return err
			}
			rows = append(rows, nr)
			ids = append(ids, id)
		}
		c.Close()
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpModifyColumn, DB: t.info.DB, Table: t.info.Name, Name: name,
		Column: &sc, Position: pos, Rows: rows, Keys: ids}))
}

func (t *Table) CreateIndex(ctx *sql.Context, def sql.IndexDef) error {
	meta := ""
	if def.IsFullText() {
		if t.temp {
			return mysql.NewSQLError(erInnodbNoFTTempTable, "HY000", "Cannot create FULLTEXT index on temporary InnoDB table")
		}
		if err := fulltextRefused(def.Columns, t.sch.Schema); err != nil {
			return err
		}
		meta = fulltextMetaJSON(def.Comment)
	} else {
		if err := indexRefused(def, t.sch.Schema); err != nil {
			return err
		}
		meta = indexMetaJSON(def.Comment, indexPrefixes(def.Columns, t.sch.Schema))
	}
	cols := make([]string, len(def.Columns))
	for i, c := range def.Columns {
		cols[i] = c.Name
	}
	name := def.Name
	if name == "" {
		name = t.freeIndexName(cols[0])
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpCreateIndex, DB: t.info.DB, Table: t.info.Name,
		Index: &storage.IndexDef{Name: name, Columns: cols, Unique: def.IsUnique(), Meta: meta}}))
}

// freeIndexName is the name MySQL gives a key of first column col: the
// column's name, or col_2, col_3, ... when a key has it.
func (t *Table) freeIndexName(col string) string {
	taken := func(name string) bool {
		for _, x := range t.info.Indexes {
			if strings.EqualFold(x.Name, name) {
				return true
			}
		}
		return strings.EqualFold(name, "PRIMARY")
	}
	name := col
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s_%d", col, i)
	}
	return name
}

func (t *Table) DropIndex(ctx *sql.Context, name string) error {
	return t.refreshAfter(ctx, t.p.propose(ctx, storage.Op{Kind: storage.OpDropIndex, DB: t.info.DB, Table: t.info.Name, Name: name}))
}

func (t *Table) RenameIndex(ctx *sql.Context, from, to string) error {
	for _, x := range t.info.Indexes {
		if strings.EqualFold(x.Name, from) {
			def := *x
			def.Name = to
			if err := t.p.propose(ctx, storage.Op{Kind: storage.OpDropIndex, DB: t.info.DB, Table: t.info.Name, Name: from}); err != nil {
				return err
			}
			return t.p.propose(ctx, storage.Op{Kind: storage.OpCreateIndex, DB: t.info.DB, Table: t.info.Name, Index: &def})
		}
	}
	return sql.ErrIndexNotFound.New(from)
}

// expressionString names a column the way the analyzer matches index
// expressions against filters.
func (t *Table) expressionString(col int) string {
	c := t.sch.Schema[col]
	return expression.NewGetFieldWithTable(col, 0, c.Type, t.info.DB, t.Name(), c.Name, c.Nullable).String()
}

func keylessRowID(id string) uint64 {
	v, _ := binary.Uvarint([]byte(id[1:]))
	return v
}

func isDelete(q string) bool { return startsWithFold(leadingText(q), "delete") }

// leadingText is q from its first word on, without the spaces, opening
// parentheses and /* */ comments before it ("" if a comment is not
// closed).
func leadingText(q string) string {
	q = strings.TrimLeft(q, " \t\r\n(")
	for strings.HasPrefix(q, "/*") {
		end := strings.Index(q, "*/")
		if end < 0 {
			return ""
		}
		q = strings.TrimLeft(q[end+2:], " \t\r\n(")
	}
	return q
}

// startsWithFold reports whether s starts with prefix, in any case.
func startsWithFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// deleteAll deletes every row visible to the transaction.
func (t *Table) deleteAll(ctx *sql.Context) (int, error) {
	e := t.newEditor(ctx)
	if e.err != nil {
		return 0, e.err
	}
	n := 0
	for p := 0; p < storage.Partitions; p++ {
		c, err := t.p.store.Scan(t.info.DB, t.info.Name, p)
		if err != nil {
			return 0, translateStorage(err)
		}
		var ids []string
		var rows []storage.Row
		for r, id, ok := c.Next(); ok; r, id, ok = c.Next() {
			if _, touched := e.tt.changes[id]; !touched {
				ids = append(ids, id)
				rows = append(rows, r)
			}
		}
		c.Close()
		for i, id := range ids {
			e.delete(id, rows[i])
			n++
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	for _, id := range e.tt.liveOrder() {
		e.delete(id, nil)
		n++
	}
	return n, nil
}
