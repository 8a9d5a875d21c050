package sqlext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// FOREIGN KEY constraints are kept in the declaring (child) table's
// replicated metadata (tableMeta.ForeignKeys). The engine validates a
// definition, creates the child's index when it has none, checks existing
// rows, and enforces the constraint on every INSERT, UPDATE and DELETE
// with MySQL's referential actions; it does so through the editor that
// GetForeignKeyEditor returns, inside the statement's transaction, so a
// cascade is rolled back with the statement that caused it.
var _ sql.ForeignKeyTable = (*Table)(nil)

// fkMeta is one foreign key as the child table's metadata stores it. The
// child's own database and table are not stored: they are the table's,
// whatever it is named now.
type fkMeta struct {
	Name          string   `json:"name"`
	Columns       []string `json:"columns"`
	ParentDB      string   `json:"parent_db"`
	ParentTable   string   `json:"parent_table"`
	ParentColumns []string `json:"parent_columns"`
	OnUpdate      string   `json:"on_update,omitempty"`
	OnDelete      string   `json:"on_delete,omitempty"`
	// Resolved is false for a key added while foreign_key_checks was off:
	// the engine validates it when it is first used with checks on.
	Resolved bool `json:"resolved"`
}

func fkConstraint(info *storage.TableInfo, m fkMeta) sql.ForeignKeyConstraint {
	return sql.ForeignKeyConstraint{
		Name:           m.Name,
		Database:       info.DB,
		Table:          info.Name,
		Columns:        m.Columns,
		ParentDatabase: m.ParentDB,
		ParentTable:    m.ParentTable,
		ParentColumns:  m.ParentColumns,
		OnUpdate:       referentialAction(m.OnUpdate),
		OnDelete:       referentialAction(m.OnDelete),
		IsResolved:     m.Resolved,
	}
}

func referentialAction(s string) sql.ForeignKeyReferentialAction {
	if s == "" {
		return sql.ForeignKeyReferentialAction_DefaultAction
	}
	return sql.ForeignKeyReferentialAction(s)
}

func toFKMeta(fk sql.ForeignKeyConstraint) fkMeta {
	m := fkMeta{
		Name:          fk.Name,
		Columns:       slices.Clone(fk.Columns),
		ParentDB:      fk.ParentDatabase,
		ParentTable:   fk.ParentTable,
		ParentColumns: slices.Clone(fk.ParentColumns),
		Resolved:      fk.IsResolved,
	}
	if fk.OnUpdate != sql.ForeignKeyReferentialAction_DefaultAction {
		m.OnUpdate = string(fk.OnUpdate)
	}
	if fk.OnDelete != sql.ForeignKeyReferentialAction_DefaultAction {
		m.OnDelete = string(fk.OnDelete)
	}
	return m
}

// currentMeta is the table's metadata as stored now. The engine may hold
// two Table values of one table through a statement (RENAME TABLE of a
// table whose key references itself updates the key through both), so
// changes to the keys start from the stored state, not this value's.
func (t *Table) currentMeta() tableMeta {
	if info, err := t.p.store.Table(t.info.DB, t.info.Name); err == nil {
		return parseTableMeta(info.Schema.Meta)
	}
	return parseTableMeta(t.info.Schema.Meta)
}

// GetDeclaredForeignKeys answers from the stored state (fkReferences), not
// this value's, for the reason currentMeta gives.
func (t *Table) GetDeclaredForeignKeys(*sql.Context) ([]sql.ForeignKeyConstraint, error) {
	return cloneFKs(t.p.fkReferences().byChild[fkKey(t.info.DB, t.info.Name)]), nil
}

func (t *Table) GetReferencedForeignKeys(*sql.Context) ([]sql.ForeignKeyConstraint, error) {
	return cloneFKs(t.p.referencing(t.info.DB, t.info.Name)), nil
}

// cloneFKs copies cached keys, their column lists included, for the
// engine, which may change what it is given.
func cloneFKs(fks []sql.ForeignKeyConstraint) []sql.ForeignKeyConstraint {
	out := slices.Clone(fks)
	for i := range out {
		out[i].Columns = slices.Clone(out[i].Columns)
		out[i].ParentColumns = slices.Clone(out[i].ParentColumns)
	}
	return out
}

// AddForeignKey stores a key the engine has validated. MySQL's foreign key
// names are unique within a database.
func (t *Table) AddForeignKey(ctx *sql.Context, fk sql.ForeignKeyConstraint) error {
	if t.p.foreignKeyNamed(t.info.DB, fk.Name) {
		return sql.ErrForeignKeyDuplicateName.New(fk.Name)
	}
	m := t.currentMeta()
	m.ForeignKeys = append(m.ForeignKeys, toFKMeta(fk))
	return t.setMeta(ctx, m)
}

func (t *Table) DropForeignKey(ctx *sql.Context, name string) error {
	m := t.currentMeta()
	i := slices.IndexFunc(m.ForeignKeys, func(k fkMeta) bool { return strings.EqualFold(k.Name, name) })
	if i < 0 {
		return sql.ErrForeignKeyNotFound.New(name, t.info.Name)
	}
	m.ForeignKeys = slices.Delete(m.ForeignKeys, i, i+1)
	return t.setMeta(ctx, m)
}

// UpdateForeignKey replaces the key named name: the engine renames keys and
// their parent tables with RENAME TABLE, and marks a key resolved.
func (t *Table) UpdateForeignKey(ctx *sql.Context, name string, fk sql.ForeignKeyConstraint) error {
	m := t.currentMeta()
	i := slices.IndexFunc(m.ForeignKeys, func(k fkMeta) bool { return strings.EqualFold(k.Name, name) })
	if i < 0 {
		return sql.ErrForeignKeyNotFound.New(name, t.info.Name)
	}
	if !strings.EqualFold(name, fk.Name) && t.p.foreignKeyNamed(t.info.DB, fk.Name) {
		return sql.ErrForeignKeyDuplicateName.New(fk.Name)
	}
	m.ForeignKeys[i] = toFKMeta(fk)
	return t.setMeta(ctx, m)
}

func (t *Table) CreateIndexForForeignKey(ctx *sql.Context, def sql.IndexDef) error {
	return t.CreateIndex(ctx, def)
}

// GetForeignKeyEditor is the statement's editor of this table, with
// lookups that return exactly the rows asked for: the engine acts on every
// row a foreign key lookup returns (a cascade deletes them) without
// filtering them again, where a lookup for a query may return more.
//
// The engine reads through it only to check a foreign key: a child's
// parent row, or a parent's child rows. No lock holds those rows until
// the transaction commits, as InnoDB's would, so each lookup is logged
// with the transaction, and its commit fails with a retryable conflict
// (1213) if another transaction has changed what the lookup found since:
// a parent deleted after a child's check found it, or a child added after
// a parent's delete found none.
func (t *Table) GetForeignKeyEditor(ctx *sql.Context) sql.ForeignKeyEditor {
	return fkEditor{t.newEditor(ctx).changing()}
}

type fkEditor struct{ *editor }

func (e fkEditor) IndexedAccess(ctx *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	c := *e.t
	c.lookup = &lookup
	c.fkRead = true
	return exactLookup{&c}
}

func (e fkEditor) GetIndexes(ctx *sql.Context) ([]sql.Index, error) { return e.t.GetIndexes(ctx) }
func (e fkEditor) PreciseMatch() bool                               { return true }

// exactLookup answers an index lookup with only the rows inside its ranges.
type exactLookup struct{ *Table }

func (l exactLookup) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	p, ok := part.(lookupPartition)
	if !ok {
		return l.Table.PartitionRows(ctx, part)
	}
	x, ok := p.lookup.Index.(*index)
	if !ok {
		return nil, sql.ErrIndexNotFound.New(p.lookup.Index.ID())
	}
	iter, err := l.lookupRows(ctx, p.lookup)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	ranges, ok := p.lookup.Ranges.(sql.MySQLRangeCollection)
	if !ok {
		return nil, fmt.Errorf("sqlext: lookup on %s with ranges of type %T", p.lookup.Index.ID(), p.lookup.Ranges)
	}
	kept := rows[:0]
	for _, r := range rows {
		in, err := inRanges(ranges, x.cols, r)
		if err != nil {
			return nil, err
		}
		if in {
			kept = append(kept, r)
		}
	}
	return sql.RowsToRowIter(kept...), nil
}

// inRanges reports whether row's values in cols fall inside one of ranges.
func inRanges(ranges sql.MySQLRangeCollection, cols []int, row sql.Row) (bool, error) {
	for _, rang := range ranges {
		in := true
		for i, expr := range rang {
			if i >= len(cols) {
				break
			}
			v := row[cols[i]]
			point := sql.NullRangeColumnExpr(expr.Typ)
			if v != nil {
				point = sql.ClosedRangeColumnExpr(v, v, expr.Typ)
			}
			ok, err := expr.IsSupersetOf(point)
			if err != nil {
				return false, err
			}
			if !ok {
				in = false
				break
			}
		}
		if in {
			return true, nil
		}
	}
	return false, nil
}

// fkReferences maps each table, by lower-case database and table name,
// to the foreign keys it declares and to those that reference it, as of
// one schema generation of the store. Every INSERT, UPDATE and DELETE
// asks for its table's, so it is built once per schema change, not per
// statement.
type fkReferences struct {
	gen      uint64
	byChild  map[[2]string][]sql.ForeignKeyConstraint
	byParent map[[2]string][]sql.ForeignKeyConstraint
	names    map[[2]string]bool // by database and key name
}

func fkKey(db, table string) [2]string {
	return [2]string{strings.ToLower(db), strings.ToLower(table)}
}

func (p *Provider) fkReferences() *fkReferences {
	gen := p.store.SchemaGeneration()
	if r := p.fkRefs.Load(); r != nil && r.gen == gen {
		return r
	}
	r := &fkReferences{gen: gen, byChild: map[[2]string][]sql.ForeignKeyConstraint{},
		byParent: map[[2]string][]sql.ForeignKeyConstraint{}, names: map[[2]string]bool{}}
	for _, db := range p.store.Databases() {
		tables, err := p.store.Tables(db)
		if err != nil {
			continue
		}
		for _, name := range tables {
			info, err := p.store.Table(db, name)
			if err != nil {
				continue
			}
			for _, m := range parseTableMeta(info.Schema.Meta).ForeignKeys {
				fk := fkConstraint(info, m)
				r.byChild[fkKey(db, name)] = append(r.byChild[fkKey(db, name)], fk)
				r.byParent[fkKey(m.ParentDB, m.ParentTable)] = append(r.byParent[fkKey(m.ParentDB, m.ParentTable)], fk)
				r.names[fkKey(db, m.Name)] = true
			}
		}
	}
	p.fkRefs.Store(r)
	return r
}

// referencing lists the foreign keys whose parent is db.table.
func (p *Provider) referencing(db, table string) []sql.ForeignKeyConstraint {
	return p.fkReferences().byParent[fkKey(db, table)]
}

// foreignKeyNamed reports whether a table of db declares a key named name.
func (p *Provider) foreignKeyNamed(db, name string) bool {
	return p.fkReferences().names[fkKey(db, name)]
}

// declaresForeignKeys reports whether appends to db.table must be checked
// against a parent, which the bulk paths do not do.
func (p *Provider) declaresForeignKeys(db, table string) bool {
	return len(p.fkReferences().byChild[fkKey(db, table)]) > 0
}

// foreignKeyText gives a row a foreign key refuses MySQL's text, which
// names the key's database, tables and columns: `Cannot add or update a
// child row: a foreign key constraint fails (`db`.`c`, CONSTRAINT `k`
// FOREIGN KEY (`pid`) REFERENCES `p` (`id`))`, and the same for a parent
// row (1451). The engine's text named the key and its tables in words
// of its own and the key's value.
func (p *Provider) foreignKeyText(current string, err *error) {
	if *err == nil {
		return
	}
	var parent, key, holder string
	if _, e := fmt.Sscanf((*err).Error(), "cannot truncate table %s as it is referenced in foreign key %s on table %s", &parent, &key, &holder); e == nil {
		// TRUNCATE of a parent: MySQL's 1701 describes the key.
		if fk, ok := p.foreignKeyOf(current, holder, key); ok {
			// Its parent named with its database, as MySQL names it here.
			qualified := fk
			qualified.ParentTable = fk.ParentDatabase + "`.`" + fk.ParentTable
			*err = mysql.NewSQLError(erTruncateIllegalFK, "42000", "Cannot truncate a table referenced in a foreign key constraint (%s)", fkDescription(fk.Database, fk.Table, qualified))
		}
		return
	}
	child, name, table, ok := fkViolation((*err).Error())
	if !ok {
		return
	}
	fk, ok := p.foreignKeyOf(current, table, name)
	switch {
	case !ok:
	case child:
		*err = mysql.NewSQLError(erRowNoParent, "23000", "Cannot add or update a child row: a foreign key constraint fails (%s)", fkDescription(fk.Database, fk.Table, fk))
	default:
		*err = mysql.NewSQLError(erRowIsReferenced, "23000", "Cannot delete or update a parent row: a foreign key constraint fails (%s)", fkDescription(fk.Database, fk.Table, fk))
	}
}

// erTruncateIllegalFK is MySQL's ER_TRUNCATE_ILLEGAL_FK.
const erTruncateIllegalFK = 1701

// erRowIsReferenced is MySQL's ER_ROW_IS_REFERENCED_2.
const erRowIsReferenced = 1451

// fkViolation reads the engine's message for a row a foreign key refuses:
// whether the row is a child (not a parent), the key's name and its
// table's.
func fkViolation(msg string) (child bool, name, table string, ok bool) {
	for _, head := range []struct {
		text  string
		child bool
	}{
		{"cannot add or update a child row - Foreign key violation on fk: `", true},
		{"cannot delete or update a parent row - Foreign key violation on fk: `", false},
	} {
		i := strings.Index(msg, head.text)
		if i < 0 {
			continue
		}
		name, rest, ok1 := strings.Cut(msg[i+len(head.text):], "`, table: `")
		table, _, ok2 := strings.Cut(rest, "`, referenced table: `")
		return head.child, name, table, ok1 && ok2
	}
	return false, "", "", false
}

// foreignKeyOf finds the key named name that table declares, in the
// current database first.
func (p *Provider) foreignKeyOf(current, table, name string) (sql.ForeignKeyConstraint, bool) {
	refs := p.fkReferences()
	find := func(fks []sql.ForeignKeyConstraint) (sql.ForeignKeyConstraint, bool) {
		for _, fk := range fks {
			if strings.EqualFold(fk.Name, name) {
				return fk, true
			}
		}
		return sql.ForeignKeyConstraint{}, false
	}
	if fk, ok := find(refs.byChild[fkKey(current, table)]); ok {
		return fk, true
	}
	for key, fks := range refs.byChild {
		if key[1] == strings.ToLower(table) {
			if fk, ok := find(fks); ok {
				return fk, true
			}
		}
	}
	return sql.ForeignKeyConstraint{}, false
}
