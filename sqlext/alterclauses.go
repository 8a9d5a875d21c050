package sqlext

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/storage"
)

// alterWhole runs an ALTER TABLE of several clauses on one of our
// tables whole or not at all, as MySQL does. The engine plans such a
// statement as a block of one node per clause and runs them in turn,
// each its own log command, so a clause that failed left the ones
// before it done: ADD COLUMN c1 ..., ADD COLUMN c2 ... AFTER c1 whose
// second value did not fit left c1 added, and DROP COLUMN a, DROP
// COLUMN id dropped a before refusing id. Here the clauses are first
// played on a draft of the table (its columns, its rows as values and
// its keys) with every check their execution makes; only when the
// whole statement passes are they run, in order. Clauses of other
// kinds, a table with foreign keys (whose clauses check and change
// other tables) and other engines' tables are left to the engine.
//
// An ALTER that changes the primary key, or computes the rows anew, is
// carried out as one rebuild of the table (draft.rebuilds). Otherwise
// each clause is still its own log command, since storage takes one
// schema change per command: a node that stops between two of them
// leaves the first clauses done (see docs/sql/compatibility.md).
func alterWhole(ctx *sql.Context, n *plan.Block, row sql.Row) (sql.RowIter, error) {
	if n.Pref != nil {
		return nil, nil // a stored routine's body
	}
	if len(n.Children()) == 0 {
		// ALTER TABLE t COMMENT = '...' (tablecomment.go).
		if iter, ok, err := tableCommentOf(ctx); ok || err != nil {
			n.SetSchema(types.OkResultSchema)
			return iter, err
		}
	}
	t, ok, err := alteredTable(ctx, n.Children())
	if err != nil || !ok {
		return nil, err
	}
	keyed, err := hasForeignKeys(ctx, t)
	if err != nil {
		return nil, err
	}
	d, err := draftOf(ctx, t, n.Children())
	if err != nil {
		return nil, err
	}
	if keyed && d.rekeyed {
		return nil, fkRekeyRefused()
	}
	var first, last []sql.Node
	for _, c := range n.Children() {
		if lastClause(c) {
			last = append(last, c)
		} else {
			first = append(first, c)
		}
	}
	// A new foreign key goes before RENAME TO, which must come last.
	slices.SortStableFunc(last, func(a, b sql.Node) int {
		_, ra := a.(*plan.RenameTable)
		_, rb := b.(*plan.RenameTable)
		switch {
		case ra == rb:
			return 0
		case rb:
			return -1
		}
		return 1
	})
	// A table with foreign keys keeps them only if its clauses run one
	// by one; a rebuild would leave the tables that reference it.
	if d.rebuilds() && !keyed {
		if err := d.rebuild(ctx, t); err != nil {
			return nil, err
		}
		first = nil
	}
	b := newExecBuilder()
	for _, c := range append(first, last...) {
		iter, err := b.Build(ctx, c, row)
		if err != nil {
			return nil, err
		}
		if _, err := sql.RowIterToRows(ctx, iter); err != nil {
			return nil, err
		}
	}
	n.SetSchema(types.OkResultSchema)
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// createCheck runs ALTER TABLE ... ADD CHECK on one of our tables. The
// engine checked the rows already there through the table as the
// statement found it, which after an earlier clause of the same ALTER
// had added or dropped a column read rows of another length (a Go
// panic, answered as an error) or the wrong column. Here the rows are
// read as they are and the check's columns found by name.
func createCheck(ctx *sql.Context, n *plan.CreateCheck) (sql.RowIter, error) {
	t, err := alteredBy(ctx, n)
	if t == nil || err != nil {
		return nil, err
	}
	rows, err := t.rowsNow()
	if err != nil {
		return nil, err
	}
	if err := checkHolds(ctx, n.Check, t.sch.Schema, rows); err != nil {
		return nil, err
	}
	def, err := plan.NewCheckDefinition(ctx, n.Check)
	if err != nil {
		return nil, err
	}
	if err := t.CreateCheck(ctx, def); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// checkHolds fails with MySQL's ER_CHECK_CONSTRAINT_VIOLATED when an
// enforced check is false for one of rows, laid out as sch.
func checkHolds(ctx *sql.Context, check *sql.CheckConstraint, sch sql.Schema, rows []sql.Row) error {
	if check == nil || !check.Enforced {
		return nil
	}
	e, err := boundByName(check.Expr, sch)
	if err != nil {
		return err
	}
	for _, r := range rows {
		res, err := sql.EvaluateCondition(ctx, e, r)
		if err != nil {
			return err
		}
		if sql.IsFalse(res) {
			return sql.ErrCheckConstraintViolated.New(check.Name)
		}
	}
	return nil
}

// dropColumn refuses DROP COLUMN of one of our tables as its execution
// would (dropRefused), before the engine's checks, which answered a
// column another's default reads with a text of its own under
// ER_UNKNOWN_ERROR. A column of the primary key leaves it, by a rebuild
// of the table; the engine runs the others.
func dropColumn(ctx *sql.Context, n *plan.DropColumn) (sql.RowIter, error) {
	t, err := alteredBy(ctx, n)
	if t == nil || err != nil {
		return nil, err
	}
	if err := dropRefused(n.TargetSchema(), n.Column); err != nil {
		return nil, err
	}
	k := &draft{name: t.Name()}
	if err := k.draftKeys(ctx, t); err != nil {
		return nil, err
	}
	if err := k.fkDropRefused(n.Column); err != nil {
		return nil, err
	}
	if changesKey(t.sch.Schema, n) || inPrefixedKey(t, n.Column) {
		return rebuildAlter(ctx, t, n)
	}
	return nil, nil
}

// inPrefixedKey says whether column is part of a key of t with a prefix
// of a column: the key's meta holds its prefixes by position, which a
// rebuild moves with the columns left (draftKey.without) and storage's
// drop of the column alone does not.
func inPrefixedKey(t *Table, column string) bool {
	for _, x := range t.info.Indexes {
		var m indexMeta
		if json.Unmarshal([]byte(x.Meta), &m) == nil && m.Prefix != nil && slices.ContainsFunc(x.Columns, func(c string) bool { return sameName(c, column) }) {
			return true
		}
	}
	return false
}

// alteredTable is the one table of ours that every clause of an ALTER
// TABLE alters, when every clause is of a kind draft.play knows.
func alteredTable(ctx *sql.Context, clauses []sql.Node) (*Table, bool, error) {
	var t *Table
	for _, c := range clauses {
		var ct *Table
		var err error
		switch x := c.(type) {
		case *plan.CreateForeignKey, *plan.DropForeignKey, *plan.RenameTable:
			ct, err = keyClauseTable(ctx, c)
		case *plan.AlterIndex:
			if x.Action == plan.IndexAction_DisableEnableKeys {
				return nil, false, nil
			}
			ct, err = alteredBy(ctx, c)
		default:
			if !alterClause(c) {
				return nil, false, nil
			}
			ct, err = alteredBy(ctx, c)
		}
		if ct == nil || err != nil || t != nil && (ct.info.DB != t.info.DB || ct.info.Name != t.info.Name) {
			return nil, false, err
		}
		t = ct
	}
	return t, t != nil, nil
}

// hasForeignKeys says whether t declares a foreign key or is the parent
// of one.
func hasForeignKeys(ctx *sql.Context, t *Table) (bool, error) {
	declared, err := t.GetDeclaredForeignKeys(ctx)
	if err != nil {
		return false, err
	}
	referenced, err := t.GetReferencedForeignKeys(ctx)
	return len(declared) > 0 || len(referenced) > 0, err
}

// alterClause says whether n is a clause of ALTER TABLE of a kind
// draft.play knows.
func alterClause(n sql.Node) bool {
	switch n.(type) {
	case *plan.AddColumn, *plan.DropColumn, *plan.ModifyColumn, *plan.RenameColumn,
		*plan.AlterDefaultSet, *plan.AlterDefaultDrop, *plan.AlterAutoIncrement,
		*plan.AlterPK, *plan.CreateCheck, *plan.DropCheck, *plan.AlterIndex:
		return true
	}
	return false
}

// commitPending commits the session's transaction before a clause of
// ALTER TABLE runs, as MySQL commits implicitly before such a
// statement. The engine commits only after it, by when the rows the
// transaction had written no longer fit a table that had gained or lost
// a column: the ALTER failed with 1105, done, and the rows were lost.
func commitPending(ctx *sql.Context) error {
	tx := txFrom(ctx)
	ts, ok := ctx.Session.(sql.TransactionSession)
	if tx == nil || !ok {
		return nil
	}
	return ts.CommitTransaction(ctx, tx)
}

// draft is a table as the clauses of an ALTER played so far leave it.
type draft struct {
	name string
	// collation is the table's, which a text column declared without
	// one takes.
	collation sql.CollationID
	sch       sql.Schema
	rows      []sql.Row
	keys      []draftKey
	// ids are the rows' identities in storage and fingerprint what the
	// rows sum to (storage.Fingerprint), for a rebuild of the table.
	ids         []string
	fingerprint uint64
	keyless     bool
	// meta is the table's metadata with the checks the clauses leave,
	// and autoInc its next auto-increment value.
	meta    tableMeta
	autoInc uint64
	// rekeyed says a clause changed the primary key, which only a
	// rebuild of the table carries out; rewrites that a clause computes
	// the rows anew, which a rebuild does in one log command where the
	// clauses one by one take several; renamesRead that a clause renames
	// a column an expression may read, which the engine's execution of
	// the clauses follows and a rebuild does not.
	rekeyed, rewrites, renamesRead bool
	// p and db are the table's provider and database; fks are the
	// foreign keys the table declares as the clauses leave them (dropped
	// names those the clauses drop), refs those of other tables that
	// reference it (alterforeign.go).
	p       *Provider
	db      string
	fks     []sql.ForeignKeyConstraint
	refs    []sql.ForeignKeyConstraint
	dropped []string
}

// draftKey is an index of a draft, the primary key named PRIMARY.
type draftKey struct {
	name   string
	cols   []string
	unique bool
	meta   string
}

// without is k without column, and without its prefix in k's meta.
func (k draftKey) without(column string) draftKey {
	i := slices.IndexFunc(k.cols, func(c string) bool { return sameName(c, column) })
	if i < 0 {
		return k
	}
	k.cols = slices.Delete(slices.Clone(k.cols), i, i+1)
	var m indexMeta
	if json.Unmarshal([]byte(k.meta), &m) == nil && i < len(m.Prefix) {
		prefix := slices.Delete(slices.Clone(m.Prefix), i, i+1)
		if !slices.ContainsFunc(prefix, func(n uint16) bool { return n > 0 }) {
			prefix = nil
		}
		m.Prefix = prefix
		b, _ := json.Marshal(m)
		k.meta = string(b)
	}
	return k
}

// draftOf commits the session's pending writes, then plays clauses, of
// one ALTER of t, on a draft of t.
func draftOf(ctx *sql.Context, t *Table, clauses []sql.Node) (*draft, error) {
	if err := commitPending(ctx); err != nil {
		return nil, err
	}
	d, err := newDraft(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := d.draftKeys(ctx, t); err != nil {
		return nil, err
	}
	for _, c := range clauses {
		if err := d.play(ctx, c); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func newDraft(ctx *sql.Context, t *Table) (*draft, error) {
	stored, ids, err := t.storedRows()
	if err != nil {
		return nil, err
	}
	d := &draft{name: t.Name(), collation: t.Collation(), sch: t.sch.Schema.Copy(), rows: t.asSQL(stored),
		ids: ids, fingerprint: storage.Fingerprint(stored, ids), keyless: t.keyless(),
		meta: parseTableMeta(t.info.Schema.Meta), autoInc: t.info.AutoInc}
	if pk := t.info.Schema.PK; len(pk) > 0 {
		k := draftKey{name: "PRIMARY", unique: true}
		for _, c := range pk {
			k.cols = append(k.cols, t.info.Schema.Columns[c].Name)
		}
		d.keys = append(d.keys, k)
		d.inKeyOrder(ctx, pk)
	}
	for _, x := range t.info.Indexes {
		d.keys = append(d.keys, draftKey{name: x.Name, cols: slices.Clone(x.Columns), unique: x.Unique, meta: x.Meta})
	}
	return d, nil
}

// inKeyOrder puts the rows in primary-key order, the order in which MySQL
// copies a table's rows: it numbers the row an error names ("at row 2"),
// and makes the later of two rows that a new unique key finds holding one
// key the one named. Storage reads them partition by partition.
func (d *draft) inKeyOrder(ctx *sql.Context, pk []int) {
	order := make([]int, len(d.rows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		for _, c := range pk {
			if n, err := d.sch[c].Type.Compare(ctx, d.rows[a][c], d.rows[b][c]); err == nil && n != 0 {
				return n
			}
		}
		return 0
	})
	rows, ids := make([]sql.Row, len(order)), make([]string, len(order))
	for i, o := range order {
		rows[i], ids[i] = d.rows[o], d.ids[o]
	}
	d.rows, d.ids = rows, ids
}

// play applies one clause to the draft, failing as its execution on the
// table would.
func (d *draft) play(ctx *sql.Context, clause sql.Node) error {
	switch c := clause.(type) {
	case *plan.AddColumn:
		return d.add(ctx, c)
	case *plan.DropColumn:
		// The clause's own schema holds the expressions the analyzer
		// resolved, which dropRefused reads.
		if err := dropRefused(c.TargetSchema(), c.Column); err != nil {
			return err
		}
		if err := d.fkDropRefused(c.Column); err != nil {
			return err
		}
		return d.drop(ctx, c.Column)
	case *plan.ModifyColumn:
		return d.modify(ctx, c)
	case *plan.RenameColumn:
		if err := renameRefused(c.TargetSchema(), c.ColumnName, c.NewColumnName); err != nil {
			return err
		}
		if i := d.sch.IndexOfColName(c.ColumnName); i >= 0 {
			d.rename(i, c.NewColumnName)
		}
	case *plan.AlterDefaultSet:
		if i := d.sch.IndexOfColName(c.ColumnName); i >= 0 {
			col := *d.sch[i]
			col.Default = c.Default
			d.sch[i] = &col
		}
	case *plan.AlterDefaultDrop:
		if i := d.sch.IndexOfColName(c.ColumnName); i >= 0 {
			col := *d.sch[i]
			col.Default = nil
			d.sch[i] = &col
		}
	case *plan.AlterIndex:
		return d.index(ctx, c)
	case *plan.AlterPK:
		return d.primaryKey(ctx, c)
	case *plan.CreateCheck:
		if err := checkHolds(ctx, c.Check, d.sch, d.rows); err != nil {
			return err
		}
		def, err := plan.NewCheckDefinition(ctx, c.Check)
		if err != nil {
			return err
		}
		return addCheck(&d.meta, d.name, def)
	case *plan.DropCheck:
		if err := dropCheck(&d.meta, c.Name); err != nil && !c.IfExists {
			return err
		}
	case *plan.AlterAutoIncrement:
		d.autoInc = c.AutoVal
	case *plan.CreateForeignKey:
		return d.addForeignKey(ctx, *c.FkDef)
	case *plan.DropForeignKey:
		return d.dropForeignKey(c.Name)
	case *plan.RenameTable:
		return d.renameTable(ctx, c.NewNames[0])
	}
	return nil
}

func (d *draft) add(ctx *sql.Context, c *plan.AddColumn) error {
	col := c.Column()
	if col.PrimaryKey && len(d.keys) > 0 && d.keys[0].name == "PRIMARY" {
		return multiplePrimaryKeys()
	}
	if o := c.Order(); o != nil && !o.First && d.sch.IndexOfColName(o.AfterColumn) < 0 {
		return unknownColumn(o.AfterColumn, d.name)
	}
	if d.sch.IndexOfColName(col.Name) >= 0 {
		return duplicateColumn(col.Name)
	}
	if err := c.ValidateDefaultPosition(c.TargetSchema()); err != nil {
		return err
	}
	if err := collateAsTable(col, d.collation); err != nil {
		return err
	}
	pos := d.position(c.Order())
	fill, values, err := addedValues(ctx, d.sch, col, pos, d.rows, len(d.rows) > 0)
	if err != nil {
		return err
	}
	if pos < 0 {
		pos = len(d.sch)
	}
	for i, r := range d.rows {
		v := fill
		if values != nil {
			v = values[i]
		}
		d.rows[i] = slices.Insert(r, pos, v)
	}
	d.rewrites = d.rewrites || values != nil
	d.sch = slices.Insert(d.sch, pos, col)
	if col.PrimaryKey {
		d.rekeyed = true
		return d.addPrimary(ctx, draftKey{name: "PRIMARY", cols: []string{col.Name}, unique: true})
	}
	return nil
}

// position is where a column placed by order goes (-1: last), as
// Table.position reads it.
func (d *draft) position(order *sql.ColumnOrder) int {
	switch {
	case order == nil:
		return -1
	case order.First:
		return 0
	case order.AfterColumn != "":
		if i := d.sch.IndexOfColName(order.AfterColumn); i >= 0 {
			return i + 1
		}
	}
	return -1
}

func (d *draft) drop(ctx *sql.Context, name string) error {
	i := d.sch.IndexOfColName(name)
	if i < 0 {
		return nil
	}
	d.sch = slices.Delete(d.sch, i, i+1)
	for r := range d.rows {
		d.rows[r] = slices.Delete(d.rows[r], i, i+1)
	}
	// The column leaves its indexes (storage's OpDropIndexedColumn); a
	// unique one left with columns must still hold each key once.
	keys := d.keys[:0]
	for _, k := range d.keys {
		had := len(k.cols)
		k = k.without(name)
		if k.name == "PRIMARY" && len(k.cols) < had {
			d.rekeyed = true
		}
		if len(k.cols) == 0 {
			continue
		}
		if k.unique && len(k.cols) < had {
			if err := d.unique(ctx, k); err != nil {
				return err
			}
		}
		keys = append(keys, k)
	}
	d.keys = keys
	return nil
}

func (d *draft) modify(ctx *sql.Context, c *plan.ModifyColumn) error {
	i := d.sch.IndexOfColName(c.Column())
	if i < 0 {
		return unknownColumn(c.Column(), d.name)
	}
	if err := c.ValidateDefaultPosition(c.TargetSchema()); err != nil {
		return err
	}
	col := c.NewColumn()
	if err := collateAsTable(col, d.collation); err != nil {
		return err
	}
	if err := d.fkModifyRefused(ctx, col, c.Column()); err != nil {
		return err
	}
	// PRIMARY KEY written in MODIFY adds a key, which a table that has
	// one refuses, as MySQL does, even when the key is this column.
	newKey := col.PrimaryKey
	if newKey && len(d.keys) > 0 && d.keys[0].name == "PRIMARY" {
		return multiplePrimaryKeys()
	}
	for r, row := range d.rows {
		v, err := modifiedValue(ctx, col, row[i], r+1)
		if err != nil {
			return err
		}
		row[i] = v
	}
	// Table.ModifyColumn's place: found before the column leaves its own.
	pos := d.position(c.Order())
	if pos > i {
		pos--
	}
	if err := renameRefused(c.TargetSchema(), c.Column(), col.Name); err != nil {
		return err
	}
	d.rename(i, col.Name)
	d.sch[i] = col
	d.rewrites = d.rewrites || len(d.rows) > 0
	if pos >= 0 && pos != i {
		d.sch = slices.Insert(slices.Delete(d.sch, i, i+1), pos, col)
		for r, row := range d.rows {
			v := row[i]
			d.rows[r] = slices.Insert(slices.Delete(row, i, i+1), pos, v)
		}
	}
	for _, k := range d.keys {
		if k.unique && slices.ContainsFunc(k.cols, func(n string) bool { return sameName(n, col.Name) }) {
			if err := d.unique(ctx, k); err != nil {
				return err
			}
		}
	}
	if newKey {
		// MODIFY ... PRIMARY KEY makes the column the table's key, as
		// ADD COLUMN ... PRIMARY KEY does.
		d.rekeyed = true
		return d.addPrimary(ctx, draftKey{name: "PRIMARY", cols: []string{col.Name}, unique: true})
	}
	return nil
}

// rename names column i anew, in the indexes too. A rebuild does not
// carry a new name into the text of the table's checks (the engine's
// execution of the clause does not either), so it is not for an ALTER
// that renames a column of a table with checks.
func (d *draft) rename(i int, to string) {
	from := d.sch[i].Name
	if !sameName(from, to) && len(d.meta.Checks) > 0 {
		d.renamesRead = true
	}
	col := *d.sch[i]
	col.Name = to
	d.sch[i] = &col
	d.renameKeyColumn(from, to)
	for k := range d.keys {
		for j, c := range d.keys[k].cols {
			if sameName(c, from) {
				d.keys[k].cols[j] = to
			}
		}
	}
}

func (d *draft) index(ctx *sql.Context, c *plan.AlterIndex) error {
	switch c.Action {
	case plan.IndexAction_Create:
		if c.Constraint == sql.IndexConstraint_Spatial {
			indexNotCreated(ctx, c.Constraint, c.IndexName, c.Columns) // see fulltext.go
			return nil
		}
		def := sql.IndexDef{Name: c.IndexName, Columns: c.Columns, Constraint: c.Constraint, Storage: c.Using, Comment: c.Comment}
		meta := ""
		if def.IsFullText() {
			if err := fulltextRefused(c.Columns, d.sch); err != nil {
				return err
			}
			meta = fulltextMetaJSON(c.Comment)
		} else {
			if err := indexRefused(def, d.sch); err != nil {
				return err
			}
			meta = indexMetaJSON(c.Comment, indexPrefixes(c.Columns, d.sch))
		}
		k := draftKey{name: c.IndexName, unique: def.IsUnique(), meta: meta}
		for _, col := range c.Columns {
			k.cols = append(k.cols, col.Name)
		}
		if len(k.cols) == 0 {
			return nil
		}
		if k.name == "" {
			k.name = d.indexName(k.cols[0])
		}
		if k.unique {
			if err := d.unique(ctx, k); err != nil {
				return err
			}
		}
		d.keys = append(d.keys, k)
	case plan.IndexAction_Drop:
		if err := d.fkIndexDropRefused(c.IndexName); err != nil {
			return err
		}
		d.keys = slices.DeleteFunc(d.keys, func(k draftKey) bool { return sameName(k.name, c.IndexName) })
	case plan.IndexAction_Rename:
		for i := range d.keys {
			if sameName(d.keys[i].name, c.PreviousIndexName) {
				d.keys[i].name = c.IndexName
			}
		}
	}
	return nil
}

// indexName is the name the engine gives an index created without one
// (rowexec's generateIndexName): its first column's, numbered from _2
// when taken.
func (d *draft) indexName(first string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(d.keys, func(k draftKey) bool { return sameName(k.name, n) })
	}
	name := first
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s_%d", first, i)
	}
	return name
}

// unique fails with MySQL's ER_DUP_ENTRY when two rows hold one key of
// k; a key with a NULL in it is no key.
func (d *draft) unique(ctx *sql.Context, k draftKey) error {
	cols := make([]int, len(k.cols))
	for j, name := range k.cols {
		if cols[j] = d.sch.IndexOfColName(name); cols[j] < 0 {
			return nil
		}
	}
	var keyed []sql.Row
	for _, r := range d.rows {
		if !slices.ContainsFunc(cols, func(c int) bool { return r[c] == nil }) {
			keyed = append(keyed, r)
		}
	}
	var cmpErr error
	compare := func(a, b sql.Row) int {
		for _, c := range cols {
			n, err := d.sch[c].Type.Compare(ctx, a[c], b[c])
			if err != nil && cmpErr == nil {
				cmpErr = err
			}
			if n != 0 {
				return n
			}
		}
		return 0
	}
	// Of two rows holding one key, the later is the one named, as when
	// MySQL copies the rows in order.
	slices.SortStableFunc(keyed, compare)
	for i := 1; i < len(keyed); i++ {
		if compare(keyed[i-1], keyed[i]) == 0 {
			parts := make([]string, len(cols))
			for j, c := range cols {
				text, _, err := wireText(ctx, d.sch[c].Type, keyed[i][c])
				if err != nil {
					return err
				}
				parts[j] = string(text)
			}
			return sql.NewUniqueKeyErr(duplicateKeyText(strings.Join(parts, "-"), d.name, k.name), k.name == "PRIMARY", nil)
		}
	}
	return cmpErr
}
