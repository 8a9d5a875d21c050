package storage

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Errors returned by storage. Callers test them with errors.Is.
var (
	ErrDatabaseExists   = errors.New("storage: database exists")
	ErrDatabaseNotFound = errors.New("storage: database not found")
	ErrTableExists      = errors.New("storage: table exists")
	ErrTableNotFound    = errors.New("storage: table not found")
	ErrColumnExists     = errors.New("storage: column exists")
	ErrColumnNotFound   = errors.New("storage: column not found")
	ErrIndexExists      = errors.New("storage: index exists")
	ErrIndexNotFound    = errors.New("storage: index not found")
	ErrDuplicateKey     = errors.New("storage: duplicate key")
	ErrBadValue         = errors.New("storage: value does not fit column")
	ErrNotNull          = errors.New("storage: NULL in a NOT NULL column")
	ErrCorrupt          = errors.New("storage: corrupt encoding")
	ErrFormatVersion    = errors.New("storage: unsupported format version")
	ErrBadSchema        = errors.New("storage: invalid schema")
	ErrConflict         = errors.New("storage: conflicting concurrent change")
)

// Kind is the physical type of a column. Values of each kind have exactly one
// Go representation inside storage, listed beside each constant.
type Kind uint8

const (
	KindInt64     Kind = iota + 1 // int64
	KindUint64                    // uint64
	KindFloat32                   // float32
	KindFloat64                   // float64
	KindString                    // string
	KindBinary                    // []byte
	KindTimestamp                 // time.Time, microsecond precision, UTC
)

func (k Kind) String() string {
	switch k {
	case KindInt64:
		return "int64"
	case KindUint64:
		return "uint64"
	case KindFloat32:
		return "float32"
	case KindFloat64:
		return "float64"
	case KindString:
		return "string"
	case KindBinary:
		return "binary"
	case KindTimestamp:
		return "timestamp"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

func (k Kind) valid() bool { return k >= KindInt64 && k <= KindTimestamp }

// Column describes one column. Meta is opaque to storage.
type Column struct {
	Name     string
	Kind     Kind
	Nullable bool
	Meta     string
}

// Schema is a table's column list plus the ordinals of its primary key
// columns; an empty PK means the table is keyless and rows are identified by
// a hidden row id.
type Schema struct {
	Columns []Column
	PK      []int
	Meta    string
}

// IndexDef declares a secondary index over column names.
type IndexDef struct {
	Name    string
	Columns []string
	Unique  bool
	Meta    string
}

// Row is one row of storage values, one per column, nil for NULL.
type Row []any

// CompareFunc orders two non-NULL values of one column.
type CompareFunc func(a, b any) int

// CompareFactory gives the ordering for a column. It lets the caller bring
// collations without storage knowing about them. It must be deterministic:
// replicas rebuild indexes with it.
type CompareFactory func(c Column) CompareFunc

// NaturalCompare orders values of a kind by their natural (binary) order.
func NaturalCompare(c Column) CompareFunc {
	switch c.Kind {
	case KindInt64:
		return func(a, b any) int { return cmp.Compare(a.(int64), b.(int64)) }
	case KindUint64:
		return func(a, b any) int { return cmp.Compare(a.(uint64), b.(uint64)) }
	case KindFloat32:
		return func(a, b any) int { return cmp.Compare(a.(float32), b.(float32)) }
	case KindFloat64:
		return func(a, b any) int { return cmp.Compare(a.(float64), b.(float64)) }
	case KindString:
		return func(a, b any) int { return strings.Compare(a.(string), b.(string)) }
	case KindBinary:
		return func(a, b any) int { return bytes.Compare(a.([]byte), b.([]byte)) }
	case KindTimestamp:
		return func(a, b any) int { return a.(time.Time).Compare(b.(time.Time)) }
	}
	panic(fmt.Sprintf("storage: no comparison for kind %v", c.Kind))
}

// CheckValue reports whether v is a valid value of column c.
func CheckValue(c *Column, v any) error {
	if v == nil {
		if !c.Nullable {
			return fmt.Errorf("%w: column %q", ErrNotNull, c.Name)
		}
		return nil
	}
	ok := false
	switch c.Kind {
	case KindInt64:
		_, ok = v.(int64)
	case KindUint64:
		_, ok = v.(uint64)
	case KindFloat32:
		_, ok = v.(float32)
	case KindFloat64:
		_, ok = v.(float64)
	case KindString:
		_, ok = v.(string)
	case KindBinary:
		_, ok = v.([]byte)
	case KindTimestamp:
		_, ok = v.(time.Time)
	}
	if !ok {
		return fmt.Errorf("%w: column %q of kind %v got %T", ErrBadValue, c.Name, c.Kind, v)
	}
	return nil
}

func (s *Schema) validate() error {
	if len(s.Columns) == 0 {
		return fmt.Errorf("%w: no columns", ErrBadSchema)
	}
	seen := make(map[string]bool, len(s.Columns))
	for _, c := range s.Columns {
		if !c.Kind.valid() {
			return fmt.Errorf("%w: column %q has kind %v", ErrBadSchema, c.Name, c.Kind)
		}
		l := strings.ToLower(c.Name)
		if seen[l] {
			return fmt.Errorf("%w: column %q repeated", ErrBadSchema, c.Name)
		}
		seen[l] = true
	}
	for _, p := range s.PK {
		if p < 0 || p >= len(s.Columns) {
			return fmt.Errorf("%w: primary key ordinal %d out of range", ErrBadSchema, p)
		}
	}
	return nil
}

// ColumnIndex returns the ordinal of the named column (case-insensitive) or -1.
func (s *Schema) ColumnIndex(name string) int {
	for i, c := range s.Columns {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

func (s *Schema) clone() *Schema {
	c := &Schema{Columns: append([]Column(nil), s.Columns...), PK: append([]int(nil), s.PK...), Meta: s.Meta}
	return c
}
