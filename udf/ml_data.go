package udf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/storage"
)

// mlColumn is one column of a stored table as the ML routines see it.
type mlColumn struct {
	name string
	ord  int
	typ  sql.Type
	// kind is the ml kind the column can feed, or 0 when its type cannot
	// be a feature (dates, times, BLOB, JSON, SET, spatial).
	kind ml.Kind
}

// mlTable is a stored table's layout, read once per call.
type mlTable struct {
	db, name string // stored spellings
	cols     []mlColumn
	pk       []int
	intKey   bool // the key is one int64 column
	rows     int
}

// featureKind decides what a SQL type can feed: numbers (DECIMAL, BIT and
// YEAR too) are numeric, character strings and ENUM are categorical.
// Temporal values would need a calendar encoding that models do not store,
// so they are left out rather than silently turned into epoch numbers.
func featureKind(t sql.Type) ml.Kind {
	switch t.Type() {
	case sqltypes.Int8, sqltypes.Int16, sqltypes.Int24, sqltypes.Int32, sqltypes.Int64,
		sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64,
		sqltypes.Float32, sqltypes.Float64, sqltypes.Decimal, sqltypes.Bit, sqltypes.Year:
		return ml.Numeric
	case sqltypes.Char, sqltypes.VarChar, sqltypes.Text, sqltypes.Enum:
		return ml.Categorical
	}
	return 0
}

// openTable checks that the caller may read db.table, the way a SELECT
// would, and describes it. The engine's analysis of the SELECT gives the
// MySQL errors for a missing database, table or privilege.
func (m *mlLib) openTable(ctx *sql.Context, qualified string) (*mlTable, error) {
	db, name, err := splitTable(ctx, qualified)
	if err != nil {
		return nil, err
	}
	if err := m.srv.Provider().Fresh(ctx); err != nil {
		return nil, err
	}
	info, err := m.srv.Store().Table(db, name)
	if err != nil || !m.srv.Provider().CanRead(ctx, info.DB, info.Name) {
		// The error a query of it would give: no such database or table,
		// or no privilege. Planning one costs a session and a third of a
		// small model's training, so a readable stored table skips it.
		if _, err := m.srv.Engine().AnalyzeQuery(m.innerContext(ctx), "SELECT * FROM "+ident(db)+"."+ident(name)); err != nil {
			return nil, err
		}
		if info == nil {
			return nil, fmt.Errorf("%w: %s.%s is not a stored table", ErrArgument, db, name)
		}
	}
	typesByName, ok := m.columnTypes(ctx, db, name)
	if !ok {
		return nil, fmt.Errorf("%w: %s.%s is not a stored table", ErrArgument, db, name)
	}
	t := &mlTable{db: info.DB, name: info.Name, pk: info.Schema.PK, rows: info.Rows,
		intKey: len(info.Schema.PK) == 1 && info.Schema.Columns[info.Schema.PK[0]].Kind == storage.KindInt64}
	for i, c := range info.Schema.Columns {
		typ := typesByName[strings.ToLower(c.Name)]
		if typ == nil {
			return nil, fmt.Errorf("%w: column %q of %s.%s has no SQL type", ErrArgument, c.Name, db, name)
		}
		t.cols = append(t.cols, mlColumn{name: c.Name, ord: i, typ: typ, kind: featureKind(typ)})
	}
	return t, nil
}

func (t *mlTable) qualified() string { return t.db + "." + t.name }

// column finds a column by name, case-insensitively as MySQL does.
func (t *mlTable) column(name string) (*mlColumn, error) {
	for i := range t.cols {
		if strings.EqualFold(t.cols[i].name, name) {
			return &t.cols[i], nil
		}
	}
	return nil, fmt.Errorf("%w: column '%s' does not exist in %s", ErrArgument, name, t.qualified())
}

// readColumns converts the chosen columns of every live row into ml
// columns, straight from storage's cursors: each value is converted once
// into a float64 or string slice, with no SQL row built on the way. Rows
// come in primary-key order when the table has one, so the same table
// trains the same model on every node and after every restart, whatever
// the physical layout; keyless tables come in storage order.
func (m *mlLib) readColumns(ctx *sql.Context, t *mlTable, cols []*mlColumn) ([]ml.Column, error) {
	conv := make([]func(v any) (float64, string, error), len(cols))
	for k, c := range cols {
		conv[k] = valueReader(c)
	}
	out := make([]ml.Column, len(cols))
	for k, c := range cols {
		out[k] = ml.Column{Name: c.name, Kind: c.kind}
		if c.kind == ml.Numeric {
			out[k].Num = make([]float64, 0, t.rows)
		} else {
			out[k].Str = make([]string, 0, t.rows)
		}
	}
	var keys []storage.Row
	var ints []int64 // the keys, when the key is one integer column
	keep := len(t.pk) > 0
	n := 0
	err := m.srv.Store().ScanRecords(ctx, t.db, t.name, func(rec arrow.RecordBatch) error {
		for k, c := range cols {
			if err := appendArray(&out[k], rec.Column(c.ord), conv[k], n); err != nil {
				return err
			}
		}
		rows := int(rec.NumRows())
		switch {
		case t.intKey:
			ints = append(ints, rec.Column(t.pk[0]).(*array.Int64).Int64Values()...)
		case keep:
			for i := 0; i < rows; i++ {
				key := make(storage.Row, len(t.pk))
				for j, p := range t.pk {
					key[j] = storage.ColumnValue(rec.Column(p), i)
				}
				keys = append(keys, key)
			}
		}
		n += rows
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case t.intKey:
		if perm := keyOrder(ints); perm != nil {
			permuteColumns(out, perm)
		}
	case keep:
		orderByKey(t, out, keys)
	}
	return out, nil
}

// appendArray appends the values of a stored column to col, converted by
// conv; base is the number of rows col already holds, for messages. A
// DOUBLE column without NULLs is copied as it is and a string column read
// without boxing.
func appendArray(col *ml.Column, a arrow.Array, conv func(v any) (float64, string, error), base int) error {
	n := a.Len()
	if a.NullN() > 0 && col.Null == nil {
		col.Null = make([]bool, base, base+n)
	}
	if col.Null != nil {
		for i := 0; i < n; i++ {
			col.Null = append(col.Null, a.IsNull(i))
		}
	}
	if f, ok := a.(*array.Float64); ok && col.Kind == ml.Numeric && a.NullN() == 0 {
		col.Num = append(col.Num, f.Float64Values()...)
		return nil
	}
	if str, ok := a.(*array.LargeString); ok && col.Kind != ml.Numeric {
		for i := 0; i < n; i++ {
			col.Str = append(col.Str, str.Value(i))
		}
		return nil
	}
	for i := 0; i < n; i++ {
		var f float64
		var s string
		if !a.IsNull(i) {
			var err error
			if f, s, err = conv(storage.ColumnValue(a, i)); err != nil {
				return fmt.Errorf("%w: column '%s' row %d: %w", ErrArgument, col.Name, base+i+1, err)
			}
		}
		if col.Kind == ml.Numeric {
			col.Num = append(col.Num, f)
		} else {
			col.Str = append(col.Str, s)
		}
	}
	return nil
}

// orderByKey permutes the columns into primary-key order.
func orderByKey(t *mlTable, cols []ml.Column, keys []storage.Row) {
	perm := make([]int, len(keys))
	for i := range perm {
		perm[i] = i
	}
	cmps := make([]storage.CompareFunc, len(t.pk))
	for i, p := range t.pk {
		cmps[i] = storage.NaturalCompare(storage.Column{Kind: storageKind(keys, i), Name: t.cols[p].name})
	}
	slices.SortFunc(perm, func(a, b int) int {
		for i, cmp := range cmps {
			if c := cmp(keys[a][i], keys[b][i]); c != 0 {
				return c
			}
		}
		return 0
	})
	permuteColumns(cols, perm)
}

// keyOrder returns the order of rows that sorts their distinct integer keys
// ascending, or nil when they already are. It is a least-significant-digit
// radix sort by byte that skips the bytes every key shares (most of them,
// for keys from a counter): a few linear passes, where a comparison sort
// makes n log n indirect comparisons.
func keyOrder(keys []int64) []int {
	if slices.IsSorted(keys) {
		return nil
	}
	n := len(keys)
	u := make([]uint64, n)
	for i, k := range keys {
		u[i] = uint64(k) ^ 1<<63 // signed order as unsigned order
	}
	ord, tmp := make([]int, n), make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	for shift := 0; shift < 64; shift += 8 {
		var start [257]int
		for _, v := range u {
			start[(v>>shift)&0xff+1]++
		}
		if start[(u[0]>>shift)&0xff+1] == n {
			continue // one byte value throughout: this pass would change nothing
		}
		for d := 1; d < len(start); d++ {
			start[d] += start[d-1]
		}
		for _, i := range ord {
			d := (u[i] >> shift) & 0xff
			tmp[start[d]] = i
			start[d]++
		}
		ord, tmp = tmp, ord
	}
	return ord
}

// permuteColumns reorders every column's rows by perm.
func permuteColumns(cols []ml.Column, perm []int) {
	for k := range cols {
		c := &cols[k]
		if c.Num != nil {
			c.Num = permute(c.Num, perm)
		}
		if c.Str != nil {
			c.Str = permute(c.Str, perm)
		}
		if c.Null != nil {
			c.Null = permute(c.Null, perm)
		}
	}
}

// storageKind is the kind of the values of key part i (keys are NOT NULL).
func storageKind(keys []storage.Row, i int) storage.Kind {
	if len(keys) == 0 {
		return storage.KindInt64
	}
	switch keys[0][i].(type) {
	case uint64:
		return storage.KindUint64
	case float32:
		return storage.KindFloat32
	case float64:
		return storage.KindFloat64
	case string:
		return storage.KindString
	case []byte:
		return storage.KindBinary
	case int64:
		return storage.KindInt64
	}
	return storage.KindTimestamp
}

func permute[T any](v []T, perm []int) []T {
	out := make([]T, len(v))
	for i, p := range perm {
		out[i] = v[p]
	}
	return out
}

// valueReader converts one column's non-NULL storage values.
func valueReader(c *mlColumn) func(v any) (float64, string, error) {
	if c.kind == ml.Numeric {
		return func(v any) (float64, string, error) {
			switch x := v.(type) {
			case int64:
				return float64(x), "", nil
			case uint64:
				return float64(x), "", nil
			case float64:
				return x, "", nil
			case float32:
				return float64(x), "", nil
			case string: // DECIMAL
				f, err := strconv.ParseFloat(x, 64)
				return f, "", err
			}
			return 0, "", fmt.Errorf("unexpected stored %T", v)
		}
	}
	if et, ok := c.typ.(sql.EnumType); ok {
		return func(v any) (float64, string, error) {
			idx, ok := v.(uint64)
			if !ok {
				return 0, "", fmt.Errorf("unexpected stored %T", v)
			}
			s, _ := et.At(int(idx))
			return 0, s, nil
		}
	}
	return func(v any) (float64, string, error) {
		s, ok := v.(string)
		if !ok {
			return 0, "", fmt.Errorf("unexpected stored %T", v)
		}
		return 0, s, nil
	}
}

// dataset builds the training or scoring set: the target (when named)
// and every usable feature column allowed by the include and exclude
// lists. Columns whose type cannot be a feature are skipped and reported
// in ignored; naming one in include is an error.
func (m *mlLib) dataset(ctx *sql.Context, t *mlTable, target string, include, exclude []string) (d *ml.Dataset, features []*mlColumn, ignored []string, err error) {
	var tcol *mlColumn
	if target != "" {
		if tcol, err = t.column(target); err != nil {
			return nil, nil, nil, err
		}
		if tcol.kind == 0 {
			return nil, nil, nil, fmt.Errorf("%w: target column '%s' is %s", ErrNoFeature, tcol.name, tcol.typ)
		}
	}
	for _, name := range append(append([]string(nil), include...), exclude...) {
		if _, err := t.column(name); err != nil {
			return nil, nil, nil, err
		}
	}
	inList := func(list []string, name string) bool {
		return slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, name) })
	}
	for i := range t.cols {
		c := &t.cols[i]
		switch {
		case c == tcol, inList(exclude, c.name):
			continue
		case len(include) > 0 && !inList(include, c.name):
			continue
		case c.kind == 0 && inList(include, c.name):
			return nil, nil, nil, fmt.Errorf("%w: column '%s' is %s; only numeric, string and ENUM columns can be features", ErrNoFeature, c.name, c.typ)
		case c.kind == 0:
			ignored = append(ignored, c.name)
			continue
		}
		features = append(features, c)
	}
	read := features
	if tcol != nil {
		read = append(append([]*mlColumn(nil), features...), tcol)
	}
	cols, err := m.readColumns(ctx, t, read)
	if err != nil {
		return nil, nil, nil, err
	}
	d = &ml.Dataset{Features: cols[:len(features)]}
	if tcol != nil {
		d.Target = &cols[len(features)]
	}
	return d, features, ignored, nil
}
