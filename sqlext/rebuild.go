package sqlext

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// A change of a table's primary key (ADD or DROP PRIMARY KEY, ADD COLUMN
// or MODIFY ... PRIMARY KEY, DROP COLUMN of a key column) gives every row a new
// identity, so storage cannot carry it out in place. As MySQL does (its
// ALTER TABLE by copying), such an ALTER is played whole on a draft of
// the table, with every clause's checks, and the draft then replaces the
// table in one log command (storage.OpReplaceTable), which fails if a
// write committed after the rows were read. So are an ALTER that
// computes the rows anew (draft.rebuilds), which clause by clause took
// several commands, and CHANGE of a column to a new name
// (changeColumn).

// rebuildAlter runs the clauses of one ALTER TABLE of t by a rebuild.
// The primary key of a table with foreign keys, whose checks read other
// tables, stays as it is; other rebuilds keep every key value.
func rebuildAlter(ctx *sql.Context, t *Table, clauses ...sql.Node) (sql.RowIter, error) {
	d, err := draftOf(ctx, t, clauses)
	if err != nil {
		return nil, err
	}
	if keyed, err := hasForeignKeys(ctx, t); keyed && d.rekeyed || err != nil {
		if err == nil {
			err = fkRekeyRefused()
		}
		return nil, err
	}
	if err := d.rebuild(ctx, t); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// alterPK runs ALTER TABLE ... ADD or DROP PRIMARY KEY of one of our
// tables; the engine's checks (a second primary key, a column the table
// lacks, no primary key to drop) have run.
func alterPK(ctx *sql.Context, n *plan.AlterPK) (sql.RowIter, error) {
	t, err := alteredBy(ctx, n)
	if t == nil || err != nil {
		return nil, err
	}
	return rebuildAlter(ctx, t, n)
}

// changeColumn runs MODIFY or CHANGE of a column of one of our tables
// that CHANGE gives a new name by a rebuild, which names it anew in the
// indexes too: storage's change of a column keeps the indexes naming it
// as they were, which failed the ALTER of an indexed column. Other
// changes, and a column of a table with checks (whose text the rebuild
// keeps), are left to the engine.
func changeColumn(ctx *sql.Context, n *plan.ModifyColumn) (sql.RowIter, error) {
	t, err := alteredBy(ctx, n)
	if t == nil || err != nil || n.NewColumn() == nil {
		return nil, err
	}
	if changesKey(t.sch.Schema, n) {
		return rebuildAlter(ctx, t, n)
	}
	if sameName(n.Column(), n.NewColumn().Name) {
		return nil, nil
	}
	if keyed, err := hasForeignKeys(ctx, t); keyed || err != nil {
		return nil, err
	}
	d, err := draftOf(ctx, t, []sql.Node{n})
	if err != nil || d.renamesRead {
		return nil, err
	}
	if err := d.rebuild(ctx, t); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// changesKey says whether clause, of an ALTER of a table of columns sch,
// changes the primary key.
func changesKey(sch sql.Schema, clause sql.Node) bool {
	switch c := clause.(type) {
	case *plan.AlterPK:
		return true
	case *plan.AddColumn:
		return c.Column() != nil && c.Column().PrimaryKey
	case *plan.ModifyColumn:
		// The column's PRIMARY KEY as written: the new column carries no
		// key otherwise.
		return c.NewColumn() != nil && c.NewColumn().PrimaryKey
	case *plan.DropColumn:
		i := sch.IndexOfColName(c.Column)
		return i >= 0 && sch[i].PrimaryKey
	}
	return false
}

// primaryKey plays ADD or DROP PRIMARY KEY.
func (d *draft) primaryKey(ctx *sql.Context, c *plan.AlterPK) error {
	d.rekeyed = true
	has := len(d.keys) > 0 && d.keys[0].name == "PRIMARY"
	switch c.Action {
	case plan.PrimaryKeyAction_Create:
		if has {
			return multiplePrimaryKeys()
		}
		k := draftKey{name: "PRIMARY", unique: true}
		if indexPrefixes(c.Columns, d.sch) != nil {
			return uniquePrefixRefused()
		}
		for _, col := range c.Columns {
			if d.sch.IndexOfColName(col.Name) < 0 {
				return mysql.NewSQLError(mysql.ERKeyColumnDoesNotExist, "42000", "Key column '%s' doesn't exist in table", col.Name)
			}
			k.cols = append(k.cols, col.Name)
		}
		return d.addPrimary(ctx, k)
	case plan.PrimaryKeyAction_Drop:
		if !has {
			return mysql.NewSQLError(mysql.ERCantDropFieldOrKey, "42000", "Can't DROP 'PRIMARY'; check that column/key exists")
		}
		d.keys = d.keys[1:]
	}
	return nil
}

// fkRekeyRefused refuses a new primary key for a table with foreign keys,
// whose checks read other tables.
func fkRekeyRefused() error {
	return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'changing the primary key of a table with foreign keys'")
}

func multiplePrimaryKeys() error {
	return mysql.NewSQLError(mysql.ERMultiplePriKey, "42000", "Multiple primary key defined")
}

// addPrimary makes k the primary key: its columns become NOT NULL, as in
// MySQL, so a NULL in them is ER_INVALID_USE_OF_NULL, and a key held
// twice ER_DUP_ENTRY.
func (d *draft) addPrimary(ctx *sql.Context, k draftKey) error {
	for _, name := range k.cols {
		i := d.sch.IndexOfColName(name)
		for _, r := range d.rows {
			if r[i] == nil {
				return mysql.NewSQLError(erInvalidUseOfNull, "22004", "Invalid use of NULL value")
			}
		}
		col := *d.sch[i]
		col.Nullable = false
		d.sch[i] = &col
	}
	if err := d.unique(ctx, k); err != nil {
		return err
	}
	d.keys = slices.Insert(d.keys, 0, k)
	return nil
}

// autoColumnKeyed fails as MySQL does when the AUTO_INCREMENT column is
// not the first column of some index once every clause has run.
func (d *draft) autoColumnKeyed() error {
	for _, c := range d.sch {
		if !c.AutoIncrement {
			continue
		}
		if !slices.ContainsFunc(d.keys, func(k draftKey) bool { return sameName(k.cols[0], c.Name) }) {
			return mysql.NewSQLError(mysql.ERWrongAutoKey, "42000", "Incorrect table definition; there can be only one auto column and it must be defined as a key")
		}
	}
	return nil
}

// rebuilds says whether the ALTER the draft played is carried out by a
// rebuild: one that changes the primary key must be, and one that
// computes rows anew is one log command so, where clause by clause it
// was several.
func (d *draft) rebuilds() bool {
	return d.rekeyed || d.rewrites && !d.renamesRead
}

// rebuild replaces t with the draft in one log command.
func (d *draft) rebuild(ctx *sql.Context, t *Table) error {
	if d.renamesRead {
		return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'changing the primary key in an ALTER TABLE that renames a column of a table with checks'")
	}
	if err := d.autoColumnKeyed(); err != nil {
		return err
	}
	op, err := d.replaceOp(t)
	if err != nil {
		return err
	}
	return t.refreshAfter(ctx, t.p.propose(ctx, op))
}

// replaceOp is the storage change that makes t the draft.
func (d *draft) replaceOp(t *Table) (storage.Op, error) {
	pks := sql.PrimaryKeySchema{Schema: make(sql.Schema, len(d.sch))}
	var primary []string
	if len(d.keys) > 0 && d.keys[0].name == "PRIMARY" {
		primary = d.keys[0].cols
	}
	for i, c := range d.sch {
		col := *c
		col.PrimaryKey = slices.ContainsFunc(primary, func(n string) bool { return sameName(n, c.Name) })
		col.Source = t.Name()
		pks.Schema[i] = &col
	}
	for _, name := range primary {
		pks.PkOrdinals = append(pks.PkOrdinals, pks.Schema.IndexOfColName(name))
	}
	sch, err := toStorageSchema(pks, "", d.collation)
	if err != nil {
		return storage.Op{}, err
	}
	meta, err := json.Marshal(d.meta)
	if err != nil {
		return storage.Op{}, err
	}
	sch.Meta = string(meta)
	op := storage.Op{Kind: storage.OpReplaceTable, DB: t.info.DB, Table: t.info.Name, Schema: sch,
		AutoInc: d.autoInc, Fingerprint: d.fingerprint}
	for _, k := range d.keys {
		if k.name != "PRIMARY" {
			op.Indexes = append(op.Indexes, &storage.IndexDef{Name: k.name, Columns: k.cols, Unique: k.unique, Meta: k.meta})
		}
	}
	codecs := make([]codec, len(pks.Schema))
	for i, c := range pks.Schema {
		codecs[i] = codecFor(c.Type)
	}
	op.Rows = make([]storage.Row, len(d.rows))
	for r, row := range d.rows {
		sr := make(storage.Row, len(row))
		for i, v := range row {
			if v == nil {
				continue
			}
			if sr[i], err = codecs[i].toStorage(v); err != nil {
				return storage.Op{}, err
			}
		}
		op.Rows[r] = sr
		if len(primary) == 0 {
			// Rows keep their ids; rows that had a primary key are
			// numbered in the order they were read.
			id := uint64(r + 1)
			if d.keyless {
				id = keylessRowID(d.ids[r])
			}
			op.RowIDs = append(op.RowIDs, id)
		}
	}
	return op, nil
}

// addCheck adds check to the table metadata m of table, named as MySQL
// names an unnamed one (<table>_chk_<n>).
func addCheck(m *tableMeta, table string, check *sql.CheckDefinition) error {
	taken := func(name string) bool {
		return slices.ContainsFunc(m.Checks, func(c checkMeta) bool { return strings.EqualFold(c.Name, name) })
	}
	if taken(check.Name) {
		return mysql.NewSQLError(erCheckConstraintDupName, "HY000", "Duplicate check constraint name '%s'.", check.Name)
	}
	name := check.Name
	for n := 1; name == ""; n++ {
		if candidate := checkName(table, n); !taken(candidate) {
			name = candidate
		}
	}
	m.Checks = append(m.Checks, checkMeta{Name: name, Expression: check.CheckExpression, Enforced: check.Enforced})
	return nil
}

// dropCheck takes the check called name out of the table metadata m.
func dropCheck(m *tableMeta, name string) error {
	i := slices.IndexFunc(m.Checks, func(c checkMeta) bool { return strings.EqualFold(c.Name, name) })
	if i < 0 {
		return sql.ErrUnknownConstraint.New(name)
	}
	m.Checks = slices.Delete(m.Checks, i, i+1)
	return nil
}
