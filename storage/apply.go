package storage

import (
	"fmt"
	"slices"
	"strings"
)

// Apply applies a command at the given log index. It is all or nothing: on
// error the state is as before. DDL ops must come alone in their command, so
// that only row changes need undoing.
func (s *Store) Apply(index uint64, c *Command) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if index > s.mu.applied {
		s.mu.applied = index
	}
	ddl := false
	for i := range c.Ops {
		switch c.Ops[i].Kind {
		case OpInsert, OpAppend, OpAppendFrom, OpDelete, OpSetAutoInc, OpCheckLookup, OpCheckRows:
		default:
			ddl = true
		}
	}
	if ddl {
		defer s.schemaGen.Add(1)
		if createsWithMeta(c.Ops) {
			return s.applyCreateWithMeta(c.Ops)
		}
		if len(c.Ops) != 1 {
			return fmt.Errorf("storage: a schema change must be the only op of its command")
		}
		return s.applyDDL(&c.Ops[0])
	}
	u := &undo{}
	defer func() {
		// A row this store cannot hold fails its command on every node
		// alike, where a panic would stop the server, and again each time
		// it replays the log.
		if r := recover(); r != nil {
			u.rollback()
			err = fmt.Errorf("%w: the command could not be applied: %v", ErrBadValue, r)
		}
	}()
	for i := range c.Ops {
		if err := s.applyRows(&c.Ops[i], u); err != nil {
			u.rollback()
			return err
		}
	}
	return nil
}

// createsWithMeta reports whether ops create a database and then put
// metadata of that database (its collation, say): the one schema change
// that may share its command, so that a database never exists without
// what it was created with.
func createsWithMeta(ops []Op) bool {
	if len(ops) < 2 || ops[0].Kind != OpCreateDatabase {
		return false
	}
	for _, op := range ops[1:] {
		if op.Kind != OpPutMeta || lower(op.DB) != lower(ops[0].DB) {
			return false
		}
	}
	return true
}

// applyCreateWithMeta applies what createsWithMeta accepts, all or
// nothing.
func (s *Store) applyCreateWithMeta(ops []Op) error {
	if err := s.applyDDL(&ops[0]); err != nil {
		return err
	}
	for i := range ops[1:] {
		if err := s.applyDDL(&ops[1+i]); err != nil {
			delete(s.mu.dbs, lower(ops[0].DB))
			return err
		}
	}
	return nil
}

// undo records how to reverse the row changes of a failing command.
type undo struct {
	steps    []func()
	counters map[*Table][2]uint64
}

func (u *undo) touch(t *Table) {
	if u.counters == nil {
		u.counters = make(map[*Table][2]uint64)
	}
	if _, ok := u.counters[t]; !ok {
		u.counters[t] = [2]uint64{t.autoInc, t.nextRowID}
	}
}

func (u *undo) rollback() {
	for i := len(u.steps) - 1; i >= 0; i-- {
		u.steps[i]()
	}
	for t, c := range u.counters {
		t.autoInc, t.nextRowID = c[0], c[1]
	}
}

func (s *Store) applyRows(op *Op, u *undo) error {
	t, err := s.table(op.DB, op.Table)
	if err != nil {
		return err
	}
	switch op.Kind {
	case OpCheckLookup:
		return t.checkLookup(op)
	case OpCheckRows:
		return t.checkRows(op)
	}
	t.mark.writes++
	u.touch(t)
	switch op.Kind {
	case OpInsert:
		return t.insertRows(op.Rows, op.RowIDs, u)
	case OpAppend, OpAppendFrom:
		if op.Batch == nil {
			return fmt.Errorf("%w: append to %s without a batch", ErrBadValue, t.name)
		}
		batch, err := jsonColumns(op.Batch, op.bareWholeDoubles)
		if err != nil {
			return err
		}
		defer batch.Release()
		if op.Kind == OpAppendFrom {
			return s.appendFrom(t, op, batch, u)
		}
		return t.appendRecord(batch, op.RowIDs, u, 0)
	case OpDelete:
		for i, id := range op.Keys {
			l, ok := t.locs.get(id)
			if !ok {
				if len(op.Rows) > 0 {
					return fmt.Errorf("%w: a row of %s read by this transaction was deleted by another", ErrConflict, t.name)
				}
				continue
			}
			r := t.rowAt(l)
			if len(op.Rows) > 0 && EncodeKey(r) != EncodeKey(op.Rows[i]) {
				return fmt.Errorf("%w: a row of %s read by this transaction was changed by another", ErrConflict, t.name)
			}
			t.delete(id)
			u.steps = append(u.steps, func() { t.insert(r, id) })
		}
	case OpSetAutoInc:
		// Never at or below a stored value, as in InnoDB.
		next := op.AutoInc
		if t.autoCol >= 0 {
			rows, _ := t.allRows()
			for _, r := range rows {
				if v, ok := autoValue(r[t.autoCol]); ok && v >= next {
					next = v + 1
				}
			}
		}
		t.autoInc = next
	}
	return nil
}

// checkLookup fails with ErrConflict unless op's lookup finds exactly the
// rows op names.
func (t *Table) checkLookup(op *Op) error {
	_, ids, err := t.lookup(op.Name, op.Ranges, false, nil)
	if err != nil {
		return err
	}
	if len(ids) == len(op.Keys) {
		want := make(map[string]bool, len(op.Keys))
		for _, k := range op.Keys {
			want[k] = true
		}
		same := true
		for _, id := range ids {
			same = same && want[id]
		}
		if same {
			return nil
		}
	}
	return fmt.Errorf("%w: a row of %s that a foreign key check of this transaction read (or found missing) was changed by another; retry the transaction", ErrConflict, t.name)
}

// checkRows fails with ErrConflict unless each row op names holds what
// op says it holds.
func (t *Table) checkRows(op *Op) error {
	for i, id := range op.Keys {
		l, ok := t.locs.get(id)
		if !ok || EncodeKey(t.rowAt(l)) != EncodeKey(op.Rows[i]) {
			return fmt.Errorf("%w: a row of %s that a locking read of this transaction found was changed or deleted by another; retry the transaction", ErrConflict, t.name)
		}
	}
	return nil
}

// insertRows inserts rows one by one; rowIDs are the keyless rows' ids.
func (t *Table) insertRows(rows []Row, rowIDs []uint64, u *undo) error {
	keyless := t.primary == nil
	if keyless && len(rowIDs) != len(rows) {
		return fmt.Errorf("%w: keyless insert into %s needs one row id per row", ErrBadValue, t.name)
	}
	for i, r := range rows {
		var rid uint64
		if keyless {
			rid = rowIDs[i]
		}
		id := t.identity(r, rid)
		if err := t.checkInsert(r, id); err != nil {
			return err
		}
		t.insert(r, id)
		if keyless && rid >= t.nextRowID {
			t.nextRowID = rid + 1
		}
		u.steps = append(u.steps, func() { t.delete(id) })
	}
	return nil
}

func (s *Store) applyDDL(op *Op) error {
	switch op.Kind {
	case OpCreateDatabase:
		if _, ok := s.mu.dbs[lower(op.DB)]; ok {
			return fmt.Errorf("%w: %s", ErrDatabaseExists, op.DB)
		}
		s.mu.dbs[lower(op.DB)] = newDatabase(op.DB)
		return nil
	case OpDropDatabase:
		d, ok := s.mu.dbs[lower(op.DB)]
		if !ok {
			return fmt.Errorf("%w: %s", ErrDatabaseNotFound, op.DB)
		}
		for _, t := range d.tables {
			t.release()
		}
		delete(s.mu.dbs, lower(op.DB))
		return nil
	case OpSetUsers:
		s.mu.users = op.Blob
		return nil
	case OpPutMeta, OpDeleteMeta:
		d, ok := s.mu.dbs[lower(op.DB)]
		if !ok {
			return fmt.Errorf("%w: %s", ErrDatabaseNotFound, op.DB)
		}
		if op.Kind == OpDeleteMeta {
			delete(d.meta, op.Name)
		} else {
			d.meta[op.Name] = op.Blob
		}
		return nil
	case OpCreateTable:
		d, ok := s.mu.dbs[lower(op.DB)]
		if !ok {
			return fmt.Errorf("%w: %s", ErrDatabaseNotFound, op.DB)
		}
		if _, ok := d.tables[lower(op.Table)]; ok {
			return fmt.Errorf("%w: %s.%s", ErrTableExists, op.DB, op.Table)
		}
		t, err := s.newTableOf(d.name, op.Table, op.Schema, op.Indexes)
		if err != nil {
			return err
		}
		d.tables[lower(op.Table)] = t
		s.resetAlloc(d.name, op.Table)
		return nil
	}
	t, err := s.table(op.DB, op.Table)
	if err != nil {
		return err
	}
	t.mark.writes++
	switch op.Kind {
	case OpDropTable:
		t.release()
		delete(s.mu.dbs[lower(op.DB)].tables, lower(op.Table))
		s.resetAlloc(op.DB, op.Table)
	case OpRenameTable:
		dstDB, newName := op.DB, op.NewName
		if i := strings.IndexByte(newName, '.'); i >= 0 {
			dstDB, newName = newName[:i], newName[i+1:]
		}
		d, ok := s.mu.dbs[lower(dstDB)]
		if !ok {
			return fmt.Errorf("%w: %s", ErrDatabaseNotFound, dstDB)
		}
		if _, ok := d.tables[lower(newName)]; ok {
			return fmt.Errorf("%w: %s.%s", ErrTableExists, dstDB, newName)
		}
		delete(s.mu.dbs[lower(op.DB)].tables, lower(op.Table))
		t.db, t.name = d.name, newName
		d.tables[lower(newName)] = t
	case OpOptimize:
		t.optimize()
	case OpTruncate:
		t.release()
		t.reset(t.schema, s.cf)
		t.autoInc, t.nextRowID = 0, 0
		s.resetAlloc(op.DB, op.Table)
	case OpSetTableMeta:
		sch := t.schema.clone()
		sch.Meta = op.Name
		t.schema = sch
	case OpAddColumn, OpDropColumn, OpDropIndexedColumn, OpRenameColumn, OpModifyColumn:
		return s.alterColumns(t, op)
	case OpReplaceTable:
		return s.replaceTable(t, op)
	case OpCreateIndex:
		if err := t.checkIndexName(op.Index.Name); err != nil {
			return err
		}
		return t.addIndex(op.Index)
	case OpDropIndex:
		for i, x := range t.indexes {
			if strings.EqualFold(x.def.Name, op.Name) {
				t.indexes = append(t.indexes[:i:i], t.indexes[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("%w: %s on %s", ErrIndexNotFound, op.Name, t.name)
	default:
		return fmt.Errorf("storage: unknown op kind %d", op.Kind)
	}
	return nil
}

// newTableOf makes an empty table of schema sch with indexes.
func (s *Store) newTableOf(db, name string, sch *Schema, indexes []*IndexDef) (*Table, error) {
	if sch == nil {
		return nil, fmt.Errorf("%w: missing", ErrBadSchema)
	}
	if err := sch.validate(); err != nil {
		return nil, err
	}
	t := newTable(db, name, sch.clone(), s.cf)
	t.autoCol = autoColumn(sch)
	for _, x := range indexes {
		if err := t.checkIndexName(x.Name); err != nil {
			return nil, err
		}
		if err := t.addIndex(x); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *Table) checkIndexName(name string) error {
	if strings.EqualFold(name, "PRIMARY") {
		return fmt.Errorf("%w: %s", ErrIndexExists, name)
	}
	for _, x := range t.indexes {
		if strings.EqualFold(x.def.Name, name) {
			return fmt.Errorf("%w: %s", ErrIndexExists, name)
		}
	}
	return nil
}

// withoutColumn is the index definitions with the column name taken out
// of each; an index it was the only column of is left out. A unique index
// that loses a column may then hold duplicates, which the rebuild reports.
func withoutColumn(defs []*IndexDef, name string) []*IndexDef {
	out := make([]*IndexDef, 0, len(defs))
	for _, d := range defs {
		cols := make([]string, 0, len(d.Columns))
		for _, c := range d.Columns {
			if !strings.EqualFold(c, name) {
				cols = append(cols, c)
			}
		}
		switch {
		case len(cols) == 0:
		case len(cols) == len(d.Columns):
			out = append(out, d)
		default:
			nd := *d
			nd.Columns = cols
			out = append(out, &nd)
		}
	}
	return out
}

// autoColumn finds the auto-increment column from its Meta marker. The
// marker is the one piece of column metadata storage reads: a Meta starting
// with "auto_increment;" so that counters survive restarts and replicas.
func autoColumn(s *Schema) int {
	for i, c := range s.Columns {
		if strings.HasPrefix(c.Meta, AutoIncrementMeta) {
			return i
		}
	}
	return -1
}

// AutoIncrementMeta prefixes the Meta of a column whose values feed the
// table's auto-increment counter.
const AutoIncrementMeta = "auto_increment;"

// alterColumns rebuilds the table under a new column list, carrying the
// rows across. The rebuild validates every row before the table changes.
func (s *Store) alterColumns(t *Table, op *Op) error {
	sch := t.schema.clone()
	rows, ids := t.allRows()
	n := len(sch.Columns)
	var newRows []Row
	defs := make([]*IndexDef, len(t.indexes))
	for i, x := range t.indexes {
		defs[i] = x.def
	}
	switch op.Kind {
	case OpAddColumn:
		if sch.ColumnIndex(op.Column.Name) >= 0 {
			return fmt.Errorf("%w: %s", ErrColumnExists, op.Column.Name)
		}
		pos := op.Position
		if pos < 0 || pos > n {
			pos = n
		}
		cols := append([]Column{}, sch.Columns[:pos]...)
		cols = append(cols, *op.Column)
		sch.Columns = append(cols, sch.Columns[pos:]...)
		for i := range sch.PK {
			if sch.PK[i] >= pos {
				sch.PK[i]++
			}
		}
		if err := CheckValue(op.Column, op.Fill); err != nil && len(rows) > 0 {
			return err
		}
		newRows = make([]Row, len(rows))
		for i, r := range rows {
			nr := make(Row, 0, n+1)
			nr = append(nr, r[:pos]...)
			nr = append(nr, op.Fill)
			newRows[i] = append(nr, r[pos:]...)
		}
	case OpDropColumn, OpDropIndexedColumn:
		c := sch.ColumnIndex(op.Name)
		if c < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, op.Name)
		}
		if n == 1 {
			return fmt.Errorf("%w: cannot drop the only column %s", ErrBadSchema, op.Name)
		}
		for _, p := range sch.PK {
			if p == c {
				return fmt.Errorf("%w: cannot drop primary key column %s", ErrBadSchema, op.Name)
			}
		}
		if op.Kind == OpDropIndexedColumn {
			defs = withoutColumn(defs, sch.Columns[c].Name)
		} else {
			for _, x := range t.indexes {
				for _, ic := range x.cols {
					if ic == c {
						return fmt.Errorf("%w: column %s is used by index %s", ErrBadSchema, op.Name, x.def.Name)
					}
				}
			}
		}
		sch.Columns = append(sch.Columns[:c:c], sch.Columns[c+1:]...)
		for i := range sch.PK {
			if sch.PK[i] > c {
				sch.PK[i]--
			}
		}
		newRows = make([]Row, len(rows))
		for i, r := range rows {
			newRows[i] = append(append(Row{}, r[:c]...), r[c+1:]...)
		}
	case OpRenameColumn:
		c := sch.ColumnIndex(op.Name)
		if c < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, op.Name)
		}
		if o := sch.ColumnIndex(op.NewName); o >= 0 && o != c {
			return fmt.Errorf("%w: %s", ErrColumnExists, op.NewName)
		}
		old := sch.Columns[c].Name
		sch.Columns[c].Name = op.NewName
		// The new table's indexes name the column anew; the old table's
		// stay as they are, should the command fail.
		for i, def := range defs {
			if !slices.ContainsFunc(def.Columns, func(n string) bool { return strings.EqualFold(n, old) }) {
				continue
			}
			renamed := *def
			renamed.Columns = slices.Clone(def.Columns)
			for j, name := range renamed.Columns {
				if strings.EqualFold(name, old) {
					renamed.Columns[j] = op.NewName
				}
			}
			defs[i] = &renamed
		}
		newRows = rows
	case OpModifyColumn:
		c := sch.ColumnIndex(op.Name)
		if c < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, op.Name)
		}
		// The converted rows were read before this command was proposed;
		// if the table changed since, the command fails and is retried.
		if len(op.Rows) != len(rows) || len(op.Keys) != len(op.Rows) {
			return fmt.Errorf("%w: table %s changed during ALTER TABLE; retry", ErrConflict, t.name)
		}
		byID := make(map[string]Row, len(op.Rows))
		for i, id := range op.Keys {
			byID[id] = op.Rows[i]
		}
		newRows = make([]Row, len(rows))
		for i, id := range ids {
			r, ok := byID[id]
			if !ok {
				return fmt.Errorf("%w: table %s changed during ALTER TABLE; retry", ErrConflict, t.name)
			}
			newRows[i] = r
		}
		sch.Columns[c] = *op.Column
		if op.Position >= 0 && op.Position != c {
			// from[k] is the old ordinal of the column that ends at k.
			from := make([]int, 0, n)
			for i := 0; i < n; i++ {
				if i != c {
					from = append(from, i)
				}
			}
			pos := min(op.Position, len(from))
			from = append(from[:pos], append([]int{c}, from[pos:]...)...)
			to := make([]int, n)
			cols := make([]Column, n)
			for k, old := range from {
				to[old], cols[k] = k, sch.Columns[old]
			}
			sch.Columns = cols
			for i, r := range newRows {
				nr := make(Row, n)
				for k, old := range from {
					nr[k] = r[old]
				}
				newRows[i] = nr
			}
			for i := range sch.PK {
				sch.PK[i] = to[sch.PK[i]]
			}
		}
	}
	if err := sch.validate(); err != nil {
		return err
	}
	// Build the new table aside so a failure leaves the old one untouched.
	nt := newTable(t.db, t.name, sch, s.cf)
	nt.autoCol = autoColumn(sch)
	for _, def := range defs {
		if err := nt.addIndex(def); err != nil {
			return err
		}
	}
	for i, r := range newRows {
		id := ids[i]
		if nt.primary != nil {
			id = nt.identity(r, 0)
		}
		if err := nt.checkInsert(r, id); err != nil {
			return err
		}
		nt.insert(r, id)
	}
	nt.autoInc = max(nt.autoInc, t.autoInc)
	nt.nextRowID = t.nextRowID
	t.release()
	*t = *nt
	return nil
}
