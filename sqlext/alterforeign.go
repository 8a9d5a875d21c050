package sqlext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"
)

// An ALTER TABLE of several clauses on a table with foreign keys, or one
// that adds or drops a foreign key or renames the table, is checked whole
// on a draft too (alterWhole): MySQL refuses the whole statement when one
// clause fails, and the engine, running the clauses one by one, left the
// ones before the failing clause done (ADD COLUMN y, DROP COLUMN pid
// added y before refusing pid). The draft follows the table's keys and
// refuses what MySQL refuses: a column or index a foreign key needs, a
// change of a key column's type its other side cannot match, a foreign
// key to drop that is not there, a new one whose columns, parent or rows
// do not hold, and a new name that is taken. The clauses then run with
// new foreign keys and the rename last, as the engine needs the table
// under its old name and the new key's columns in place.

// MySQL's codes for the foreign-key checks of ALTER TABLE.
const (
	erKeyColumnDoesNotExist = 1072 // ER_KEY_COLUMN_DOES_NOT_EXITS
	erCantDropFieldOrKey    = 1091 // ER_CANT_DROP_FIELD_OR_KEY
	erRowNoParent           = 1452 // ER_NO_REFERENCED_ROW_2
	erDropIndexFK           = 1553 // ER_DROP_INDEX_FK
	erFKNoIndexParent       = 1822 // ER_FK_NO_INDEX_PARENT
	erFKCannotOpenParent    = 1824 // ER_FK_CANNOT_OPEN_PARENT
	erFKDupName             = 1826 // ER_FK_DUP_NAME
	erFKColumnCannotDrop    = 1828 // ER_FK_COLUMN_CANNOT_DROP
	erFKColumnCannotDropRef = 1829 // ER_FK_COLUMN_CANNOT_DROP_CHILD
	erFKColumnNotNull       = 1830 // ER_FK_COLUMN_NOT_NULL
	erFKNoColumnParent      = 3734 // ER_FK_NO_COLUMN_PARENT
	erFKIncompatible        = 3780 // ER_FK_INCOMPATIBLE_COLUMNS
)

// lastClause says whether an ALTER's clause runs after the others: a new
// foreign key (its columns may come from an earlier clause) and RENAME
// TO (the other clauses name the table by its old name).
func lastClause(n sql.Node) bool {
	switch n.(type) {
	case *plan.CreateForeignKey, *plan.RenameTable:
		return true
	}
	return false
}

// keyClauseTable is the table of ours a foreign-key or RENAME TO clause of
// an ALTER alters, when it alters exactly one.
func keyClauseTable(ctx *sql.Context, c sql.Node) (*Table, error) {
	var prov sql.DatabaseProvider
	var db, name string
	switch x := c.(type) {
	case *plan.CreateForeignKey:
		prov, db, name = x.DbProvider, x.FkDef.Database, x.FkDef.Table
	case *plan.DropForeignKey:
		prov, db, name = x.DbProvider, x.Database(), x.Table
	case *plan.RenameTable:
		if len(x.OldNames) != 1 || len(x.NewNames) != 1 || x.Db == nil {
			return nil, nil
		}
		if s, ok := ctx.Session.(*Session); ok && s.crossDBRename {
			return nil, nil // renameAcrossDatabases moves it
		}
		return tableIn(ctx, x.Db, x.OldNames[0])
	default:
		return nil, nil
	}
	if prov == nil {
		return nil, nil
	}
	d, err := prov.Database(ctx, db)
	if err != nil {
		return nil, nil
	}
	return tableIn(ctx, d, name)
}

func tableIn(ctx *sql.Context, d sql.Database, name string) (*Table, error) {
	tbl, found, err := d.GetTableInsensitive(ctx, name)
	if err != nil || !found {
		return nil, err
	}
	return storedTable(tbl), nil
}

// draftKeys gives the draft the foreign keys the table declares and those
// of other tables that reference it.
func (d *draft) draftKeys(ctx *sql.Context, t *Table) error {
	declared, err := t.GetDeclaredForeignKeys(ctx)
	if err != nil {
		return err
	}
	referenced, err := t.GetReferencedForeignKeys(ctx)
	if err != nil {
		return err
	}
	d.p, d.db, d.fks = t.p, t.info.DB, declared
	for _, fk := range referenced {
		if !fk.IsSelfReferential() {
			d.refs = append(d.refs, fk)
		}
	}
	return nil
}

// parentKeys are the keys whose parent is the draft's table: other
// tables' and its own.
func (d *draft) parentKeys() []sql.ForeignKeyConstraint {
	out := slices.Clone(d.refs)
	for _, fk := range d.fks {
		if d.selfParent(fk) {
			out = append(out, fk)
		}
	}
	return out
}

func (d *draft) selfParent(fk sql.ForeignKeyConstraint) bool {
	return sameName(fk.ParentDatabase, d.db) && sameName(fk.ParentTable, d.name)
}

func hasName(names []string, name string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return sameName(n, name) })
}

// fkDropRefused refuses DROP COLUMN of a column a foreign key needs, with
// MySQL's codes and texts.
func (d *draft) fkDropRefused(name string) error {
	for _, fk := range d.fks {
		if hasName(fk.Columns, name) {
			return mysql.NewSQLError(erFKColumnCannotDrop, "HY000", "Cannot drop column '%s': needed in a foreign key constraint '%s'", name, fk.Name)
		}
	}
	for _, fk := range d.parentKeys() {
		if hasName(fk.ParentColumns, name) {
			return mysql.NewSQLError(erFKColumnCannotDropRef, "HY000", "Cannot drop column '%s': needed in a foreign key constraint '%s' of table '%s'", name, fk.Name, fk.Table)
		}
	}
	return nil
}

// fkIndexDropRefused refuses DROP INDEX of the last index that holds a
// foreign key's columns first (its own on the child, the referenced ones
// on the parent), as InnoDB needs one for each side.
func (d *draft) fkIndexDropRefused(name string) error {
	dropped := slices.IndexFunc(d.keys, func(k draftKey) bool { return sameName(k.name, name) })
	if dropped < 0 {
		return nil
	}
	served := func(cols []string, skip int) bool {
		for i, k := range d.keys {
			if i != skip && columnsLead(k.cols, cols) {
				return true
			}
		}
		return false
	}
	needed := func(cols []string) bool { return served(cols, -1) && !served(cols, dropped) }
	for _, fk := range d.fks {
		if needed(fk.Columns) {
			return fkIndexNeeded(name)
		}
	}
	for _, fk := range d.parentKeys() {
		if needed(fk.ParentColumns) {
			return fkIndexNeeded(name)
		}
	}
	return nil
}

func fkIndexNeeded(name string) error {
	return mysql.NewSQLError(erDropIndexFK, "HY000", "Cannot drop index '%s': needed in a foreign key constraint", name)
}

// columnsLead says whether cols are the first columns of an index's.
func columnsLead(index, cols []string) bool {
	if len(cols) == 0 || len(cols) > len(index) {
		return false
	}
	for i, c := range cols {
		if !sameName(index[i], c) {
			return false
		}
	}
	return true
}

// fkModifyRefused refuses a new definition of a key column that the
// column on the key's other side cannot be compared with, as the engine
// does when it runs the clause.
func (d *draft) fkModifyRefused(ctx *sql.Context, col *sql.Column, old string) error {
	sides := []struct {
		keys  []sql.ForeignKeyConstraint
		child bool
	}{{d.fks, true}, {d.parentKeys(), false}}
	for _, side := range sides {
		for _, fk := range side.keys {
			mine, theirs, db, table := fk.Columns, fk.ParentColumns, fk.ParentDatabase, fk.ParentTable
			if !side.child {
				mine, theirs, db, table = fk.ParentColumns, fk.Columns, fk.Database, fk.Table
			}
			for i, c := range mine {
				if !sameName(c, old) {
					continue
				}
				other, err := d.columnOf(ctx, db, table, theirs[i])
				if err != nil {
					return err
				}
				if other == nil {
					continue
				}
				child, parent, childName, parentName := col, other, c, theirs[i]
				if !side.child {
					child, parent, childName, parentName = other, col, theirs[i], c
				}
				if err := fkComparable(ctx, fk, child, parent, childName, parentName); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fkComparable refuses a child and parent column the engine's check of a
// foreign key finds of types that cannot match.
func fkComparable(ctx *sql.Context, fk sql.ForeignKeyConstraint, child, parent *sql.Column, childName, parentName string) error {
	def := sql.ForeignKeyConstraint{Columns: []string{"c"}, ParentColumns: []string{"p"}}
	err := plan.ValidateForeignKeyDefinition(ctx, def, map[string]*sql.Column{"c": child}, map[string]*sql.Column{"p": parent})
	if sql.ErrForeignKeyColumnTypeMismatch.Is(err) {
		return mysql.NewSQLError(erFKIncompatible, "HY000", "Referencing column '%s' and referenced column '%s' in foreign key constraint '%s' are incompatible.", childName, parentName, fk.Name)
	}
	return err
}

// columnOf is a column of the draft's table as the clauses leave it, or
// of another stored table; nil when there is no such table or column.
func (d *draft) columnOf(ctx *sql.Context, db, table, name string) (*sql.Column, error) {
	sch := d.sch
	if !sameName(db, d.db) || !sameName(table, d.name) {
		t, err := d.other(ctx, db, table)
		if t == nil || err != nil {
			return nil, err
		}
		sch = t.sch.Schema
	}
	if i := sch.IndexOfColName(name); i >= 0 {
		return sch[i], nil
	}
	return nil, nil
}

func (d *draft) other(ctx *sql.Context, db, table string) (*Table, error) {
	info, err := d.p.store.Table(db, table)
	if err != nil {
		return nil, nil
	}
	return d.p.newTable(ctx, info)
}

// renameKeyColumn carries a column's new name into the keys that name it.
func (d *draft) renameKeyColumn(from, to string) {
	rename := func(cols []string) {
		for i, c := range cols {
			if sameName(c, from) {
				cols[i] = to
			}
		}
	}
	for i := range d.fks {
		rename(d.fks[i].Columns)
		if d.selfParent(d.fks[i]) {
			rename(d.fks[i].ParentColumns)
		}
	}
	for i := range d.refs {
		rename(d.refs[i].ParentColumns)
	}
}

// dropForeignKey refuses a key the table does not declare.
func (d *draft) dropForeignKey(name string) error {
	i := slices.IndexFunc(d.fks, func(fk sql.ForeignKeyConstraint) bool { return sameName(fk.Name, name) })
	if i < 0 {
		return mysql.NewSQLError(erCantDropFieldOrKey, "42000", "Can't DROP '%s'; check that column/key exists", name)
	}
	d.fks = slices.Delete(d.fks, i, i+1)
	d.dropped = append(d.dropped, name)
	return nil
}

// addForeignKey checks a new foreign key against the draft as the
// engine's creation of it will, and MySQL's: its columns, its parent
// table, columns and index, the columns' types and, with
// foreign_key_checks on, that every row's key has a parent row.
func (d *draft) addForeignKey(ctx *sql.Context, def sql.ForeignKeyConstraint) error {
	def.Columns, def.ParentColumns = slices.Clone(def.Columns), slices.Clone(def.ParentColumns)
	if def.Name == "" {
		def.Name = d.nextKeyName()
	} else if slices.ContainsFunc(d.fks, func(fk sql.ForeignKeyConstraint) bool { return sameName(fk.Name, def.Name) }) ||
		d.p.foreignKeyNamed(d.db, def.Name) && !slices.ContainsFunc(d.dropped, func(n string) bool { return sameName(n, def.Name) }) {
		return mysql.NewSQLError(erFKDupName, "HY000", "Duplicate foreign key constraint name '%s'", def.Name)
	}
	children := make([]int, len(def.Columns))
	for i, c := range def.Columns {
		if children[i] = d.sch.IndexOfColName(c); children[i] < 0 {
			return mysql.NewSQLError(erKeyColumnDoesNotExist, "42000", "Key column '%s' doesn't exist in table", c)
		}
		col := d.sch[children[i]]
		if !col.Nullable && (def.OnDelete == sql.ForeignKeyReferentialAction_SetNull || def.OnUpdate == sql.ForeignKeyReferentialAction_SetNull) {
			return mysql.NewSQLError(erFKColumnNotNull, "HY000", "Column '%s' cannot be NOT NULL: needed in a foreign key constraint '%s' SET NULL", col.Name, def.Name)
		}
	}
	if !foreignKeyChecks(ctx) {
		d.fks = append(d.fks, def)
		return nil
	}
	self := d.selfParent(def)
	var parentSch sql.Schema
	var parentKeys [][]string
	var parentRows []sql.Row
	if self {
		parentSch, parentRows = d.sch, d.rows
		for _, k := range d.keys {
			parentKeys = append(parentKeys, k.cols)
		}
	} else {
		pt, err := d.other(ctx, def.ParentDatabase, def.ParentTable)
		if err != nil {
			return err
		}
		if pt == nil {
			return mysql.NewSQLError(erFKCannotOpenParent, "HY000", "Failed to open the referenced table '%s'", def.ParentTable)
		}
		parentSch = pt.sch.Schema
		if pk := pt.info.Schema.PK; len(pk) > 0 {
			var cols []string
			for _, c := range pk {
				cols = append(cols, pt.info.Schema.Columns[c].Name)
			}
			parentKeys = append(parentKeys, cols)
		}
		for _, x := range pt.info.Indexes {
			parentKeys = append(parentKeys, x.Columns)
		}
		stored, _, err := pt.storedRows()
		if err != nil {
			return err
		}
		parentRows = pt.asSQL(stored)
	}
	parents := make([]int, len(def.ParentColumns))
	for i, c := range def.ParentColumns {
		if parents[i] = parentSch.IndexOfColName(c); parents[i] < 0 {
			return mysql.NewSQLError(erFKNoColumnParent, "HY000", "Failed to add the foreign key constraint. Missing column '%s' for constraint '%s' in the referenced table '%s'", c, def.Name, def.ParentTable)
		}
		if err := fkComparable(ctx, def, d.sch[children[i]], parentSch[parents[i]], def.Columns[i], c); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(parentKeys, func(cols []string) bool { return columnsLead(cols, def.ParentColumns) }) {
		return mysql.NewSQLError(erFKNoIndexParent, "HY000", "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", def.Name, def.ParentTable)
	}
	if err := d.rowsHaveParents(ctx, def, children, parents, parentSch, parentRows); err != nil {
		return err
	}
	d.fks = append(d.fks, def)
	return nil
}

// rowsHaveParents fails with MySQL's 1452 when a row's key, all of it
// given, matches no parent row. Keys compare as the parent's columns
// compare them (under their collations).
func (d *draft) rowsHaveParents(ctx *sql.Context, def sql.ForeignKeyConstraint, children, parents []int, parentSch sql.Schema, parentRows []sql.Row) error {
	var cmpErr error
	compare := func(a, b []any) int {
		for i, p := range parents {
			n, err := parentSch[p].Type.Compare(ctx, a[i], b[i])
			if err != nil && cmpErr == nil {
				cmpErr = err
			}
			if n != 0 {
				return n
			}
		}
		return 0
	}
	key := func(r sql.Row, cols []int, convert bool) ([]any, bool) {
		k := make([]any, len(cols))
		for i, c := range cols {
			if r[c] == nil {
				return nil, false
			}
			k[i] = r[c]
			if convert {
				v, _, err := parentSch[parents[i]].Type.Convert(ctx, r[c])
				if err != nil {
					return nil, false
				}
				k[i] = v
			}
		}
		return k, true
	}
	var have [][]any
	for _, r := range parentRows {
		if k, ok := key(r, parents, false); ok {
			have = append(have, k)
		}
	}
	slices.SortFunc(have, compare)
	for _, r := range d.rows {
		k, given := key(r, children, true)
		if !given {
			if slices.ContainsFunc(children, func(c int) bool { return r[c] == nil }) {
				continue // a key with a NULL in it needs no parent
			}
		} else if _, found := slices.BinarySearchFunc(have, k, compare); found {
			continue
		}
		return mysql.NewSQLError(erRowNoParent, "23000", "Cannot add or update a child row: a foreign key constraint fails (%s)", fkDescription(d.db, d.name, def))
	}
	return cmpErr
}

// fkDescription is the key as MySQL's 1451 and 1452 write it.
func fkDescription(db, table string, fk sql.ForeignKeyConstraint) string {
	quote := func(names []string) string {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = "`" + n + "`"
		}
		return strings.Join(q, ", ")
	}
	text := fmt.Sprintf("`%s`.`%s`, CONSTRAINT `%s` FOREIGN KEY (%s) REFERENCES `%s` (%s)",
		db, table, fk.Name, quote(fk.Columns), fk.ParentTable, quote(fk.ParentColumns))
	// InnoDB writes the actions other than RESTRICT, its default.
	for _, a := range []struct {
		on     string
		action sql.ForeignKeyReferentialAction
	}{{"DELETE", fk.OnDelete}, {"UPDATE", fk.OnUpdate}} {
		switch a.action {
		case sql.ForeignKeyReferentialAction_Cascade, sql.ForeignKeyReferentialAction_SetNull, sql.ForeignKeyReferentialAction_NoAction:
			text += " ON " + a.on + " " + string(a.action)
		}
	}
	return text
}

// nextKeyName is the name the engine gives a foreign key added without
// one: the table's name, _ibfk_ and one more than the highest number
// its keys have.
func (d *draft) nextKeyName() string {
	prefix := strings.ToLower(d.name) + "_ibfk_"
	highest := 0
	for _, fk := range d.fks {
		var n int
		if rest, ok := strings.CutPrefix(fk.Name, prefix); ok {
			if _, err := fmt.Sscanf(rest, "%d", &n); err == nil && n > highest {
				highest = n
			}
		}
	}
	return fmt.Sprintf("%s%d", prefix, highest+1)
}

// renameTable refuses RENAME TO a name another table has.
func (d *draft) renameTable(ctx *sql.Context, to string) error {
	if sameName(to, d.name) {
		return nil
	}
	if err := validateName(to); err != nil {
		return err
	}
	if _, err := d.p.store.Table(d.db, to); err == nil {
		return mysql.NewSQLError(mysql.ERTableExists, "42S01", "Table '%s' already exists", to)
	}
	if _, temp := temporary(ctx, d.db, to); temp {
		return mysql.NewSQLError(mysql.ERTableExists, "42S01", "Table '%s' already exists", to)
	}
	return nil
}

// foreignKeyChecks is the session's foreign_key_checks.
func foreignKeyChecks(ctx *sql.Context) bool {
	v, err := ctx.GetSessionVariable(ctx, "foreign_key_checks")
	return err != nil || truthy(v)
}
