package sqlext

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/storage"
)

// columnMeta is what sqlext keeps in storage.Column.Meta to rebuild a
// sql.Column: the SQL type and expressions as SQL text.
type columnMeta struct {
	Type      string `json:"type"`
	Default   string `json:"default,omitempty"`
	Comment   string `json:"comment,omitempty"`
	Extra     string `json:"extra,omitempty"`
	Generated string `json:"generated,omitempty"`
	Virtual   bool   `json:"virtual,omitempty"`
	OnUpdate  string `json:"on_update,omitempty"`
}

type tableMeta struct {
	Comment   string      `json:"comment,omitempty"`
	Collation string      `json:"collation,omitempty"`
	Checks    []checkMeta `json:"checks,omitempty"`
	// ForeignKeys are the keys this table declares (it is the child).
	ForeignKeys []fkMeta `json:"foreign_keys,omitempty"`
	// Created is when CREATE TABLE ran, in Unix seconds, on the node that
	// planned it; the log carries it to every node.
	Created int64 `json:"created,omitempty"`
}

type indexMeta struct {
	Comment string   `json:"comment,omitempty"`
	Prefix  []uint16 `json:"prefix,omitempty"`
	// Fulltext marks a FULLTEXT index (fulltext.go), which the engine
	// does not see.
	Fulltext bool `json:"fulltext,omitempty"`
}

// kindOf maps a SQL type to the storage kind that holds its values.
func kindOf(t sql.Type) (storage.Kind, error) {
	switch t.Type() {
	case sqltypes.Int8, sqltypes.Int16, sqltypes.Int24, sqltypes.Int32, sqltypes.Int64, sqltypes.Year, sqltypes.Time:
		return storage.KindInt64, nil
	case sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64, sqltypes.Bit, sqltypes.Enum, sqltypes.Set:
		return storage.KindUint64, nil
	case sqltypes.Float32:
		return storage.KindFloat32, nil
	case sqltypes.Float64:
		return storage.KindFloat64, nil
	case sqltypes.Decimal, sqltypes.Char, sqltypes.VarChar, sqltypes.Text, sqltypes.TypeJSON:
		return storage.KindString, nil
	case sqltypes.Binary, sqltypes.VarBinary, sqltypes.Blob, sqltypes.Geometry:
		// A spatial value is kept as MySQL keeps it: its SRID, then WKB.
		return storage.KindBinary, nil
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		return storage.KindTimestamp, nil
	}
	return 0, sql.ErrUnsupportedFeature.New(fmt.Sprintf("column type %s", t.String()))
}

// codec converts one column's values between go-mysql-server's Go
// representation and storage's.
type codec struct {
	// toStorage is the stored form of a value written to the column.
	toStorage func(v any) (any, error)
	// asRead is the stored form of a value read from the column; it
	// differs from toStorage where a write changes a value (CHAR's
	// trailing spaces), so a row read before that change finds itself.
	asRead    func(v any) (any, error)
	fromStore func(v any) any
}

func codecFor(t sql.Type) codec {
	kind, _ := kindOf(t)
	c := codec{toStorage: genericToStorage(kind)}
	c.asRead = c.toStorage
	switch t.Type() {
	case sqltypes.Int8:
		c.fromStore = func(v any) any { return int8(v.(int64)) }
	case sqltypes.Int16, sqltypes.Year:
		c.fromStore = func(v any) any { return int16(v.(int64)) }
	case sqltypes.Int24, sqltypes.Int32:
		c.fromStore = func(v any) any { return int32(v.(int64)) }
	case sqltypes.Uint8:
		c.fromStore = func(v any) any { return uint8(v.(uint64)) }
	case sqltypes.Uint16, sqltypes.Enum:
		c.fromStore = func(v any) any { return uint16(v.(uint64)) }
	case sqltypes.Uint24, sqltypes.Uint32:
		c.fromStore = func(v any) any { return uint32(v.(uint64)) }
	case sqltypes.Time:
		c.fromStore = func(v any) any { return types.Timespan(v.(int64)) }
	case sqltypes.Decimal:
		c.fromStore = func(v any) any {
			d, err := decimal.NewFromString(v.(string))
			if err != nil {
				panic(fmt.Sprintf("sqlext: stored decimal %q does not parse: %v", v, err))
			}
			return d
		}
	case sqltypes.Geometry:
		c.fromStore = func(v any) any {
			g, _, err := types.GeometryType{}.Convert(context.Background(), v)
			if err != nil {
				panic(fmt.Sprintf("sqlext: stored spatial value does not parse: %v", err))
			}
			return g
		}
	case sqltypes.TypeJSON:
		c.fromStore = func(v any) any {
			doc, err := parseStoredJSON([]byte(v.(string)))
			if err != nil {
				panic(fmt.Sprintf("sqlext: stored JSON does not parse: %v", err))
			}
			return types.JSONDocument{Val: doc}
		}
	default:
		c.fromStore = func(v any) any { return v }
	}
	if t.Type() == sqltypes.Char {
		c.toStorage = trimmingPad(c.toStorage)
	}
	return c
}

// trimmingPad stores a CHAR value without its trailing spaces, as MySQL
// does: it pads CHAR values to the column's length and removes the padding
// when it reads them back, so 'x ' and 'x' are one value of a CHAR column,
// read as 'x'. Rows stored with their spaces before this read as they
// were (codec.asRead keeps them), so a write can still find them.
func trimmingPad(store func(any) (any, error)) func(any) (any, error) {
	return func(v any) (any, error) {
		sv, err := store(v)
		if s, ok := sv.(string); ok {
			return strings.TrimRight(s, " "), err
		}
		return sv, err
	}
}

func genericToStorage(kind storage.Kind) func(v any) (any, error) {
	return func(v any) (any, error) {
		switch x := v.(type) {
		case nil:
			return nil, nil
		case int8:
			return int64(x), nil
		case int16:
			return int64(x), nil
		case int32:
			return int64(x), nil
		case int64:
			if kind == storage.KindUint64 {
				return uint64(x), nil
			}
			return x, nil
		case int:
			return int64(x), nil
		case uint8:
			return uint64(x), nil
		case uint16:
			return uint64(x), nil
		case uint32:
			return uint64(x), nil
		case uint64:
			if kind == storage.KindInt64 {
				return int64(x), nil
			}
			return x, nil
		case float32, float64:
			return x, nil
		case decimal.Decimal:
			return x.String(), nil
		case string:
			if kind == storage.KindBinary {
				return []byte(x), nil
			}
			return x, nil
		case []byte:
			if kind == storage.KindString {
				return string(x), nil
			}
			return x, nil
		case time.Time:
			return x.UTC(), nil
		case types.Timespan:
			return int64(x), nil
		case sql.JSONWrapper:
			return storedJSON(x)
		case types.GeometryValue:
			return x.Serialize(), nil
		case sql.AnyWrapper:
			u, err := x.UnwrapAny(nil)
			if err != nil {
				return nil, err
			}
			return genericToStorage(kind)(u)
		}
		return nil, fmt.Errorf("sqlext: cannot store a %T value", v)
	}
}

// toStorageSchema turns a SQL schema into storage's, keeping what is needed
// to rebuild it in each column's Meta.
func toStorageSchema(s sql.PrimaryKeySchema, comment string, collation sql.CollationID) (*storage.Schema, error) {
	out := &storage.Schema{PK: append([]int(nil), s.PkOrdinals...)}
	for _, c := range s.Schema {
		kind, err := kindOf(c.Type)
		if err != nil {
			return nil, err
		}
		m := columnMeta{Type: typeText(c.Type), Comment: c.Comment, Extra: c.Extra, Virtual: c.Virtual}
		if _, err := parseColumnType(m.Type); err != nil {
			// Refused before anything is written: a type whose text does
			// not parse back would make the table unreadable.
			return nil, fmt.Errorf("sqlext: column %s has a type that cannot be stored (%s): %w", c.Name, m.Type, err)
		}
		if c.Default != nil {
			m.Default = defaultText(c)
		}
		if c.Generated != nil {
			m.Generated = c.Generated.String()
		}
		if c.OnUpdate != nil {
			m.OnUpdate = c.OnUpdate.String()
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		meta := string(b)
		if c.AutoIncrement {
			meta = storage.AutoIncrementMeta + meta
		}
		out.Columns = append(out.Columns, storage.Column{Name: c.Name, Kind: kind, Nullable: c.Nullable, Meta: meta})
	}
	tm, _ := json.Marshal(tableMeta{Comment: comment, Collation: collation.Name(), Created: time.Now().Unix()})
	out.Meta = string(tm)
	return out, nil
}

// typeText is a type as SQL text that parses back to the same type. The
// engine writes the members of an ENUM or SET between quotes as they are,
// so a member holding a quote or a backslash did not parse back.
func typeText(t sql.Type) string {
	if st, ok := t.(sql.SpatialColumnType); ok {
		// A spatial type's SRID, which the engine's text leaves out
		// (spatialSRID reads it back).
		if srid, defined := st.GetSpatialTypeSRID(); defined {
			return fmt.Sprintf("%s %s %d", t.String(), sridWord, srid)
		}
	}
	return memberText(t, t.String())
}

// sridWord joins a spatial type's text to its SRID in typeText.
const sridWord = "srid"

// spatialSRID reads a spatial type's text as typeText writes it, SRID
// and all; ok is false for any other text.
func spatialSRID(text string) (sql.Type, bool, error) {
	base, n, ok := strings.Cut(strings.ToLower(strings.TrimSpace(text)), " "+sridWord+" ")
	if !ok {
		return nil, false, nil
	}
	srid, err := strconv.ParseUint(strings.TrimSpace(n), 10, 32)
	if err != nil {
		return nil, true, err
	}
	t, err := planbuilder.ParseColumnTypeString(base)
	if err != nil {
		return nil, true, err
	}
	st, ok := t.(sql.SpatialColumnType)
	if !ok {
		return nil, true, fmt.Errorf("%s is not a spatial type", base)
	}
	return st.SetSRID(uint32(srid)), true, nil
}

// memberText is text, the engine's text of type t (String, or
// StringWithTableCollation), with an ENUM's or SET's members quoted so
// that they parse back.
func memberText(t sql.Type, text string) string {
	var kind string
	var members []string
	switch t := t.(type) {
	case sql.EnumType:
		kind, members = "enum", t.Values()
	case sql.SetType:
		kind, members = "set", t.Values()
	default:
		return text
	}
	plain := kind + "('" + strings.Join(members, "','") + "')"
	if !strings.HasPrefix(text, plain) {
		return text
	}
	quoted := make([]string, len(members))
	for i, m := range members {
		quoted[i] = quoteString(m)
	}
	return kind + "(" + strings.Join(quoted, ",") + ")" + text[len(plain):]
}

// quoteString is s as a MySQL string literal.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", "''").Replace(s) + "'"
}

func columnToStorage(c *sql.Column) (storage.Column, error) {
	s, err := toStorageSchema(sql.NewPrimaryKeySchema(sql.Schema{c}), "", sql.Collation_Default)
	if err != nil {
		return storage.Column{}, err
	}
	return s.Columns[0], nil
}

// sqlSchema rebuilds the SQL schema from storage's description.
func sqlSchema(ctx *sql.Context, db, table string, s *storage.Schema) (sql.PrimaryKeySchema, error) {
	cols := make(sql.Schema, len(s.Columns))
	pk := make(map[int]bool, len(s.PK))
	for _, p := range s.PK {
		pk[p] = true
	}
	for i, sc := range s.Columns {
		meta := sc.Meta
		auto := strings.HasPrefix(meta, storage.AutoIncrementMeta)
		meta = strings.TrimPrefix(meta, storage.AutoIncrementMeta)
		var m columnMeta
		if err := json.Unmarshal([]byte(meta), &m); err != nil {
			return sql.PrimaryKeySchema{}, fmt.Errorf("sqlext: column %s.%s metadata: %w", table, sc.Name, err)
		}
		typ, err := parseColumnType(m.Type)
		if err != nil {
			return sql.PrimaryKeySchema{}, fmt.Errorf("sqlext: column %s.%s type %q: %w", table, sc.Name, m.Type, err)
		}
		// A type's text names its collation only when that is not the
		// default one, and the parser leaves a collation it is not told
		// unspecified, which the engine takes for none at all: LIKE on
		// such a column matched nothing.
		if tc, ok := typ.(sql.TypeWithCollation); ok && tc.Collation() == sql.Collation_Unspecified {
			if typ, err = tc.WithNewCollation(sql.Collation_Default); err != nil {
				return sql.PrimaryKeySchema{}, fmt.Errorf("sqlext: column %s.%s type %q: %w", table, sc.Name, m.Type, err)
			}
		}
		col := &sql.Column{Name: sc.Name, Type: typ, Nullable: sc.Nullable, Source: table, DatabaseSource: db,
			PrimaryKey: pk[i], AutoIncrement: auto, Comment: m.Comment, Extra: m.Extra, Virtual: m.Virtual}
		col.Default = parseDefault(ctx, m.Default, typ, sc.Nullable)
		col.Generated = parseDefault(ctx, m.Generated, typ, sc.Nullable)
		if col.Generated != nil && (col.Extra == "" || col.Extra == invisibleWord) {
			// SHOW COLUMNS and information_schema.COLUMNS show this, and
			// mysqldump leaves the columns it marks out of its INSERTs,
			// whose values a restore would refuse.
			hidden := col.Extra != ""
			col.Extra = "STORED GENERATED"
			if col.Virtual {
				col.Extra = "VIRTUAL GENERATED"
			}
			if hidden {
				markInvisible(col)
			}
		}
		col.OnUpdate = parseDefault(ctx, m.OnUpdate, typ, sc.Nullable)
		cols[i] = col
	}
	return sql.NewPrimaryKeySchema(cols, s.PK...), nil
}

// parseDefault rebuilds a column's default, generated or ON UPDATE
// expression from its SQL text. One that names columns (a generated
// column, DEFAULT (a + 1)) cannot be built without the table around it:
// it is left unresolved, and the engine resolves it against the table
// whenever it plans a statement over it, as it does for its own tables.
func parseDefault(ctx *sql.Context, text string, typ sql.Type, nullable bool) *sql.ColumnDefaultValue {
	if text == "" {
		return nil
	}
	if d, err := planbuilder.StringToColumnDefaultValue(ctx, text); err == nil {
		if v, err := sql.NewColumnDefaultValue(d.Expr, typ, d.IsLiteral(), d.IsParenthesized(), nullable); err == nil {
			return v
		}
	}
	return sql.NewUnresolvedColumnDefaultValue(text)
}

func parseTableMeta(meta string) tableMeta {
	var m tableMeta
	_ = json.Unmarshal([]byte(meta), &m)
	return m
}

// compareFactory orders storage values the way MySQL orders the column:
// natural order for numbers, times and binary strings, the column's
// collation for other strings.
func compareFactory(c storage.Column) storage.CompareFunc {
	if c.Kind != storage.KindString {
		return storage.NaturalCompare(c)
	}
	var m columnMeta
	if err := json.Unmarshal([]byte(strings.TrimPrefix(c.Meta, storage.AutoIncrementMeta)), &m); err != nil {
		return storage.NaturalCompare(c)
	}
	typ, err := parseColumnType(m.Type)
	if err != nil {
		return storage.NaturalCompare(c)
	}
	if typ.Type() == sqltypes.Decimal {
		// Decimals are stored as their exact text; order them as numbers.
		return func(a, b any) int {
			da, _ := decimal.NewFromString(a.(string))
			db, _ := decimal.NewFromString(b.(string))
			return da.Cmp(db)
		}
	}
	st, ok := typ.(sql.StringType)
	if !ok || st.Collation() == sql.Collation_binary || strings.HasSuffix(st.Collation().Name(), "_bin") {
		return storage.NaturalCompare(c)
	}
	ctx := sql.NewEmptyContext()
	return func(a, b any) int {
		r, err := typ.Compare(ctx, a, b)
		if err != nil {
			panic(fmt.Sprintf("sqlext: compare %q with %q: %v", a, b, err))
		}
		return r
	}
}
