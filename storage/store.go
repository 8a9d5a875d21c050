package storage

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Options configures a Store.
type Options struct {
	// Compare gives each column's value ordering; NaturalCompare when nil.
	Compare CompareFactory
}

type database struct {
	name   string
	tables map[string]*Table // keyed by lower-case name
	meta   map[string][]byte // opaque per-database metadata by key
}

func newDatabase(name string) *database {
	return &database{name: name, tables: make(map[string]*Table), meta: make(map[string][]byte)}
}

// Store holds every database and table. Writes arrive only through Apply;
// reads may run concurrently with each other and with Apply.
type Store struct {
	cf CompareFactory
	mu struct {
		sync.RWMutex
		dbs   map[string]*database // keyed by lower-case name
		users []byte
		// applied is the log index of the last applied command, kept so a
		// snapshot records where it stands.
		applied uint64
	}
	// schemaGen counts schema changes (every DDL command and every
	// restore), so a reader can cache what it derives from the schemas.
	schemaGen atomic.Uint64
	// alloc hands out auto-increment values and keyless row ids to open
	// transactions before they commit; it runs ahead of the applied state.
	alloc struct {
		sync.Mutex
		next map[string]uint64
	}
}

// New returns an empty store.
func New(opts Options) *Store {
	s := &Store{cf: opts.Compare}
	if s.cf == nil {
		s.cf = NaturalCompare
	}
	s.mu.dbs = make(map[string]*database)
	s.alloc.next = make(map[string]uint64)
	return s
}

func lower(s string) string { return strings.ToLower(s) }

// SchemaGeneration changes whenever a database, table, index or table
// metadata changes. Something derived from the schemas after reading a
// generation is current for as long as the generation stays the same.
func (s *Store) SchemaGeneration() uint64 { return s.schemaGen.Load() }

// TableInfo describes a table at one moment. Its fields must not be changed.
type TableInfo struct {
	DB, Name  string
	Schema    *Schema
	Indexes   []*IndexDef
	AutoInc   uint64
	Rows      int
	DataBytes int64
}

// Databases lists database names in sorted order.
func (s *Store) Databases() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.mu.dbs))
	for _, d := range s.mu.dbs {
		out = append(out, d.name)
	}
	sort.Strings(out)
	return out
}

// Database returns the stored spelling of a database name.
func (s *Store) Database(name string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.mu.dbs[lower(name)]
	if !ok {
		return "", false
	}
	return d.name, true
}

// Tables lists the table names of a database in sorted order.
func (s *Store) Tables(db string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.mu.dbs[lower(db)]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrDatabaseNotFound, db)
	}
	out := make([]string, 0, len(d.tables))
	for _, t := range d.tables {
		out = append(out, t.name)
	}
	sort.Strings(out)
	return out, nil
}

func (s *Store) table(db, name string) (*Table, error) {
	d, ok := s.mu.dbs[lower(db)]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrDatabaseNotFound, db)
	}
	t, ok := d.tables[lower(name)]
	if !ok {
		return nil, fmt.Errorf("%w: %s.%s", ErrTableNotFound, db, name)
	}
	return t, nil
}

func (t *Table) info() *TableInfo {
	defs := make([]*IndexDef, len(t.indexes))
	for i, x := range t.indexes {
		defs[i] = x.def
	}
	return &TableInfo{DB: t.db, Name: t.name, Schema: t.schema, Indexes: defs, AutoInc: t.autoInc, Rows: t.nrows}
}

// Table describes a table.
func (s *Store) Table(db, name string) (*TableInfo, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, name)
	if err != nil {
		return nil, err
	}
	return t.info(), nil
}

// Meta returns the metadata of a database whose keys start with prefix.
func (s *Store) Meta(db, prefix string) (map[string][]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.mu.dbs[lower(db)]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrDatabaseNotFound, db)
	}
	out := make(map[string][]byte)
	for k, v := range d.meta {
		if strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out, nil
}

// Users returns the opaque users blob last stored by OpSetUsers.
func (s *Store) Users() []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mu.users
}

// AppliedIndex is the log index of the last command applied.
func (s *Store) AppliedIndex() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mu.applied
}

// Get returns the live row with the given identity.
func (s *Store) Get(db, table, id string) (Row, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, false, err
	}
	l, ok := t.locs.get(id)
	if !ok {
		return nil, false, nil
	}
	return t.rowAt(l), true, nil
}

// Identity returns the identity of a stored row of a table with a primary
// key. Keyless tables use IdentitiesByContent.
func (s *Store) Identity(db, table string, r Row) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return "", err
	}
	if t.primary == nil {
		return "", fmt.Errorf("storage: %s.%s has no primary key", db, table)
	}
	return EncodeKey(t.primary.key(r)), nil
}

// IdentitiesByContent lists the identities of the stored rows equal to r in
// a keyless table.
func (s *Store) IdentitiesByContent(db, table string, r Row) ([]string, error) {
	for {
		s.mu.RLock()
		t, err := s.table(db, table)
		if err != nil {
			s.mu.RUnlock()
			return nil, err
		}
		if t.primary != nil || t.content != nil {
			ids := append([]string(nil), t.content[EncodeKey(r)]...)
			s.mu.RUnlock()
			return ids, nil
		}
		s.mu.RUnlock()
		// The first lookup builds the index, under the write lock; a
		// schema change in between can reset it, hence the loop.
		s.mu.Lock()
		if t, err = s.table(db, table); err == nil {
			t.contentIndex()
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
}

// KeylessIdentity is the identity a keyless row gets from its row id.
func KeylessIdentity(rowID uint64) string { return (&Table{}).identity(nil, rowID) }

// PrimaryIdentity is the identity of a row of a table with a primary key.
func PrimaryIdentity(s *Schema, r Row) string {
	vals := make([]any, len(s.PK))
	for i, p := range s.PK {
		vals[i] = r[p]
	}
	return EncodeKey(vals)
}

// Conflict checks a prospective row against the committed unique keys,
// ignoring the rows whose identities are in skip (rows the caller's
// transaction deleted). It returns the first conflict and the row holding it.
func (s *Store) Conflict(db, table string, r Row, self string, skip func(id string) bool) (*DuplicateError, Row, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, nil, err
	}
	check := func(x *index, name string) (*DuplicateError, Row) {
		var hit string
		x.equal(x.key(r), func(id string) bool {
			if id == self || (skip != nil && skip(id)) {
				return true
			}
			hit = id
			return false
		})
		if hit == "" {
			return nil, nil
		}
		return &DuplicateError{Index: name, Key: t.keyString(x, r), Existing: hit}, t.rowAt(t.locs.at(hit))
	}
	if t.primary != nil {
		if d, row := check(t.primary, "PRIMARY"); d != nil {
			return d, row, nil
		}
	}
	for _, x := range t.indexes {
		if x.unique {
			if d, row := check(x, x.def.Name); d != nil {
				return d, row, nil
			}
		}
	}
	return nil, nil, nil
}

// Lookup returns the rows whose key in the named index ("" for the primary
// key) falls in any of the ranges, with their identities. The rows are
// the caller's to change.
func (s *Store) Lookup(db, table, indexName string, ranges []Range) ([]Row, []string, error) {
	return s.lookup(db, table, indexName, ranges, true, nil)
}

// LookupColumns is Lookup reading only the columns need marks (all of
// them when need is nil); the others are nil in the rows it gives. When
// the index holds every column needed, the rows are made from the index
// alone (see Table.lookup).
func (s *Store) LookupColumns(db, table, indexName string, ranges []Range, need []bool) ([]Row, []string, error) {
	return s.lookup(db, table, indexName, ranges, true, need)
}

// LookupIdentities is Lookup without the rows, for callers that only ask
// which rows match (reading a row copies its binary values).
func (s *Store) LookupIdentities(db, table, indexName string, ranges []Range) ([]string, error) {
	_, ids, err := s.lookup(db, table, indexName, ranges, false, nil)
	return ids, err
}

func (s *Store) lookup(db, table, indexName string, ranges []Range, withRows bool, need []bool) ([]Row, []string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return nil, nil, err
	}
	return t.lookup(indexName, ranges, withRows, need)
}

// indexOf is the index named of the table db.table (indexNamed), with
// the table; the caller holds s.mu.
func (s *Store) indexOf(db, table, name string) (*Table, *index, error) {
	t, err := s.table(db, table)
	if err != nil {
		return nil, nil, err
	}
	x, err := t.indexNamed(name)
	return t, x, err
}

// indexNamed is the table's index named name, the primary key for "" or
// PRIMARY.
func (t *Table) indexNamed(name string) (*index, error) {
	var x *index
	if name == "" || strings.EqualFold(name, "PRIMARY") {
		x = t.primary
	} else {
		for _, ix := range t.indexes {
			if strings.EqualFold(ix.def.Name, name) {
				x = ix
			}
		}
	}
	if x == nil {
		return nil, fmt.Errorf("%w: %s on %s.%s", ErrIndexNotFound, name, t.db, t.name)
	}
	return x, nil
}

// RangeFilter tests whether a row (in stored form) lies in one of ranges
// of the table's index indexName, comparing as Lookup does (text by its
// collation): for rows a lookup does not read, such as a transaction's
// own.
func (s *Store) RangeFilter(db, table, indexName string, ranges []Range) (func(Row) bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, x, err := s.indexOf(db, table, indexName)
	if err != nil {
		return nil, err
	}
	cols, cmps := x.cols, x.cmps
	vals := make([]any, len(cols))
	return func(r Row) bool {
		for i, c := range cols {
			vals[i] = r[c]
		}
		for _, rg := range ranges {
			if rg.contains(vals, cmps) {
				return true
			}
		}
		return false
	}, nil
}

// lookup answers Store.Lookup for a table its caller holds the lock of:
// the identities, and with them the rows when withRows, reading the
// columns need marks (all of them when need is nil).
//
// A lookup of a table whose primary key is one integer column that needs
// no column but the index's and the primary key reads neither the row's
// place nor its batch: the key is in the index entry and the primary key
// in the row's identity (t.covers). This is what a join or a semi join on
// keys reads.
func (t *Table) lookup(indexName string, ranges []Range, withRows bool, need []bool) ([]Row, []string, error) {
	x, err := t.indexNamed(indexName)
	if err != nil {
		return nil, nil, err
	}
	var rows []Row
	var ids []string
	var seen map[string]bool
	if len(ranges) > 1 {
		seen = map[string]bool{}
	}
	keep := func(id string) bool {
		if seen != nil {
			if seen[id] {
				return false
			}
			seen[id] = true
		}
		ids = append(ids, id)
		return true
	}
	if withRows && t.covers(x, need) {
		for _, r := range ranges {
			x.scanCovered(r, len(t.schema.Columns), t.primary.cols[0], func(id string, row Row) bool {
				if keep(id) {
					rows = append(rows, row)
				}
				return true
			})
		}
		return rows, ids, nil
	}
	for _, r := range ranges {
		if withRows && x.keys != nil && t.intKeyed() {
			// The entry's primary key finds the row's place without
			// reading the identity's bytes.
			x.scanKeys(r, func(e intEntry) bool {
				if keep(e.id) {
					rows = append(rows, t.rowColumns(t.locs.atInt(e.pk), need))
				}
				return true
			})
			continue
		}
		x.scan(r, func(id string) bool {
			if keep(id) && withRows {
				rows = append(rows, t.rowColumns(t.locs.at(id), need))
			}
			return true
		})
	}
	return rows, ids, nil
}

// AllocAutoInc reserves n consecutive auto-increment values for a table and
// returns the first. Values are never handed out twice, even if the
// transaction that took them rolls back (as in InnoDB).
func (s *Store) AllocAutoInc(db, table string, n uint64) (uint64, error) {
	return s.allocate("a:"+lower(db)+"."+lower(table), db, table, n, func(t *Table) uint64 { return max(t.autoInc, 1) })
}

// PeekAutoInc returns the next auto-increment value without reserving it.
func (s *Store) PeekAutoInc(db, table string) (uint64, error) {
	return s.allocate("a:"+lower(db)+"."+lower(table), db, table, 0, func(t *Table) uint64 { return max(t.autoInc, 1) })
}

// ReturnAutoInc gives back the values a failed statement reserved: the
// table's next value moves back from to to from, unless another request
// has reserved since (the next value is no longer to), in which case the
// values stay used, as a gap. InnoDB reserves a value only when a row
// reaches the table, so a statement refused before that leaves none.
func (s *Store) ReturnAutoInc(db, table string, from, to uint64) bool {
	key := "a:" + lower(db) + "." + lower(table)
	s.alloc.Lock()
	defer s.alloc.Unlock()
	if from >= to || s.alloc.next[key] != to {
		return false
	}
	s.alloc.next[key] = from
	return true
}

// AllocRowIDs reserves n row ids for a keyless table.
func (s *Store) AllocRowIDs(db, table string, n uint64) (uint64, error) {
	return s.allocate("r:"+lower(db)+"."+lower(table), db, table, n, func(t *Table) uint64 { return max(t.nextRowID, 1) })
}

// RaiseAutoInc makes a table's next auto-increment value at least n+1,
// as a row given the value n does, and returns the next value before and
// after.
func (s *Store) RaiseAutoInc(db, table string, n uint64) (before, after uint64, err error) {
	key := "a:" + lower(db) + "." + lower(table)
	floor, err := s.autoIncFloor(db, table)
	if err != nil {
		return 0, 0, err
	}
	s.alloc.Lock()
	defer s.alloc.Unlock()
	before = max(s.alloc.next[key], floor)
	after = before
	if n >= before && n < ^uint64(0) {
		after = n + 1
	}
	s.alloc.next[key] = after
	return before, after, nil
}

func (s *Store) autoIncFloor(db, table string) (uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.table(db, table)
	if err != nil {
		return 0, err
	}
	return max(t.autoInc, 1), nil
}

func (s *Store) allocate(key, db, table string, n uint64, applied func(*Table) uint64) (uint64, error) {
	s.mu.RLock()
	t, err := s.table(db, table)
	var floor uint64
	if err == nil {
		floor = applied(t)
	}
	s.mu.RUnlock()
	if err != nil {
		return 0, err
	}
	s.alloc.Lock()
	defer s.alloc.Unlock()
	next := max(s.alloc.next[key], floor)
	s.alloc.next[key] = next + n
	return next, nil
}

// resetAlloc forgets reservations for a table whose counters were reset.
func (s *Store) resetAlloc(db, table string) {
	s.alloc.Lock()
	delete(s.alloc.next, "a:"+lower(db)+"."+lower(table))
	delete(s.alloc.next, "r:"+lower(db)+"."+lower(table))
	s.alloc.Unlock()
}
