package storage

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A string column of an append's batch may arrive as an Arrow struct: each
// node writes its rows as JSON text when it applies the command (command
// format 6). A document of numbers then travels as 8 bytes a number
// instead of its text: ML_PREDICT_TABLE's class probabilities were most of
// its log's bytes. The text is the form the SQL layer stores JSON in:
// compact, object members in the bytewise order of their names, numbers
// and strings as encoding/json writes them but without HTML escaping,
// and a whole float64 with ".0" (AppendJSONDouble).
//
// A struct row that is NULL is a NULL value; a member that is NULL is JSON
// null. Members are float64 (finite), int64, uint64, large_utf8 or
// structs of the same.

// CheckJSONStruct reports why a struct array cannot be written as JSON
// text: a member type other than those above, two members of one name, or
// a number that JSON cannot hold (NaN, an infinity) in a row that is not
// NULL.
func CheckJSONStruct(a arrow.Array) error {
	s, ok := a.(*array.Struct)
	if !ok {
		return fmt.Errorf("%w: JSON from Arrow %v, not a struct", ErrBadValue, a.DataType())
	}
	if err := checkJSONType(s.DataType()); err != nil {
		return err
	}
	return checkJSONValues(s, func(i int) bool { return s.IsValid(i) })
}

func checkJSONType(dt arrow.DataType) error {
	st, ok := dt.(*arrow.StructType)
	if !ok {
		return fmt.Errorf("%w: a JSON member of Arrow %v", ErrBadValue, dt)
	}
	seen := make(map[string]bool, st.NumFields())
	for _, f := range st.Fields() {
		if seen[f.Name] {
			return fmt.Errorf("%w: two JSON members named %q", ErrBadValue, f.Name)
		}
		seen[f.Name] = true
		switch f.Type.ID() {
		case arrow.FLOAT64, arrow.INT64, arrow.UINT64, arrow.LARGE_STRING:
		case arrow.STRUCT:
			if err := checkJSONType(f.Type); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: JSON member %q of Arrow %v", ErrBadValue, f.Name, f.Type)
		}
	}
	return nil
}

// checkJSONValues finds a NaN or infinity in the rows of s that live says
// are written.
func checkJSONValues(s *array.Struct, live func(int) bool) error {
	for k := 0; k < s.NumField(); k++ {
		switch c := s.Field(k).(type) {
		case *array.Float64:
			for i, v := range c.Float64Values() {
				if (math.IsNaN(v) || math.IsInf(v, 0)) && c.IsValid(i) && live(i) {
					return fmt.Errorf("%w: JSON cannot hold %v (member %q, row %d)", ErrBadValue, v, s.DataType().(*arrow.StructType).Field(k).Name, i+1)
				}
			}
		case *array.Struct:
			if err := checkJSONValues(c, func(i int) bool { return c.IsValid(i) && live(i) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonColumns returns rec with each struct column written as JSON text,
// or rec itself (retained) when it has none; the caller releases it.
func jsonColumns(rec arrow.RecordBatch, bareWholeDoubles bool) (arrow.RecordBatch, error) {
	var cols []arrow.Array
	for i, a := range rec.Columns() {
		if a.DataType().ID() != arrow.STRUCT {
			continue
		}
		if cols == nil {
			cols = slices.Clone(rec.Columns())
			defer func() {
				for j, c := range cols {
					if c != rec.Column(j) {
						c.Release()
					}
				}
			}()
		}
		if err := CheckJSONStruct(a); err != nil {
			return nil, err
		}
		cols[i] = jsonText(a.(*array.Struct), bareWholeDoubles)
	}
	if cols == nil {
		rec.Retain()
		return rec, nil
	}
	fields := rec.Schema().Fields()
	for i, c := range cols {
		fields[i].Type = c.DataType()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows()), nil
}

// JSONText is the JSON text of each row of a struct array, as a node
// stores it; CheckJSONStruct's error for a struct it cannot write.
func JSONText(a arrow.Array) (*array.LargeString, error) {
	if err := CheckJSONStruct(a); err != nil {
		return nil, err
	}
	return jsonText(a.(*array.Struct), false), nil
}

// jsonPartRows is the fewest rows jsonText gives a goroutine of its own.
// A follower writes the text as it applies the command, one command at a
// time (the leader, ahead of applying, on a goroutine per command), so a
// large batch is split among the cores: ML_PREDICT_TABLE's applies were
// its slowest stage with the text written on one core.
const jsonPartRows = 1024

// jsonText writes each row of a checked struct array as JSON text into one
// buffer; with bareWholeDoubles, a whole float64 as an integer, as
// commands of versions 6 and 7 are applied.
func jsonText(s *array.Struct, bareWholeDoubles bool) *array.LargeString {
	n := s.Len()
	w := newJSONWriter(s, bareWholeDoubles)
	offsets := make([]int64, n+1)
	var data []byte
	if parts := min(runtime.GOMAXPROCS(0), n/jsonPartRows); parts <= 1 {
		data = w.rows(s, 0, n, offsets)
	} else {
		bufs := make([][]byte, parts)
		var wg sync.WaitGroup
		for p := range parts {
			wg.Go(func() { bufs[p] = w.rows(s, p*n/parts, (p+1)*n/parts, offsets) })
		}
		wg.Wait()
		size := 0
		for _, b := range bufs {
			size += len(b)
		}
		data = make([]byte, 0, size)
		for p, b := range bufs {
			base := int64(len(data))
			data = append(data, b...)
			for i := p*n/parts + 1; i <= (p+1)*n/parts; i++ {
				offsets[i] += base
			}
		}
	}
	var validity *memory.Buffer
	if s.NullN() > 0 {
		valid := make([]byte, bitutil.BytesForBits(int64(n)))
		for i := 0; i < n; i++ {
			if s.IsValid(i) {
				bitutil.SetBit(valid, i)
			}
		}
		validity = memory.NewBufferBytes(valid)
	}
	d := array.NewData(arrow.BinaryTypes.LargeString, n,
		[]*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, s.NullN(), 0)
	defer d.Release()
	return array.NewLargeStringData(d)
}

// rows writes rows [lo, hi) of s into a new buffer, setting offsets[i+1]
// to the end of row i in it.
func (w *jsonWriter) rows(s *array.Struct, lo, hi int, offsets []int64) []byte {
	var data []byte
	for i := lo; i < hi; i++ {
		if s.IsValid(i) {
			data = w.object(data, i)
		}
		if i == lo && hi-lo > 1 {
			// Room for every row at the first's length and an eighth more.
			data = slices.Grow(data, len(data)*(hi-lo-1)+len(data)*(hi-lo)/8)
		}
		offsets[i+1] = int64(len(data))
	}
	return data
}

// jsonWriter writes the rows of one struct array: its members in name
// order, each with its `"name":` encoded once and its values read from
// the member's typed slice. It is not changed once made, so goroutines
// share it.
type jsonWriter struct {
	members          []jsonMember
	bareWholeDoubles bool
}

type jsonMember struct {
	name  []byte      // `"name":`, led by '{' for the first member and ',' for the rest
	kind  arrow.Type  // which of the fields below holds the values
	nulls arrow.Array // the member's array, when it has NULLs
	f64   []float64
	i64   []int64
	u64   []uint64
	str   *array.LargeString
	sub   *jsonWriter
}

func newJSONWriter(s *array.Struct, bareWholeDoubles bool) *jsonWriter {
	st := s.DataType().(*arrow.StructType)
	order := make([]int, st.NumFields())
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := st.Field(a).Name, st.Field(b).Name
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	w := &jsonWriter{members: make([]jsonMember, len(order)), bareWholeDoubles: bareWholeDoubles}
	for n, k := range order {
		lead := byte(',')
		if n == 0 {
			lead = '{'
		}
		m := &w.members[n]
		m.name = append(appendJSONString([]byte{lead}, st.Field(k).Name), ':')
		c := s.Field(k)
		m.kind = c.DataType().ID()
		if c.NullN() > 0 {
			m.nulls = c
		}
		switch c := c.(type) {
		case *array.Float64:
			m.f64 = c.Float64Values()
		case *array.Int64:
			m.i64 = c.Int64Values()
		case *array.Uint64:
			m.u64 = c.Uint64Values()
		case *array.LargeString:
			m.str = c
		case *array.Struct:
			m.sub = newJSONWriter(c, bareWholeDoubles)
		}
	}
	return w
}

func (w *jsonWriter) object(b []byte, i int) []byte {
	if len(w.members) == 0 {
		return append(b, '{', '}')
	}
	for k := range w.members {
		m := &w.members[k]
		b = append(b, m.name...)
		if m.nulls != nil && m.nulls.IsNull(i) {
			b = append(b, "null"...)
			continue
		}
		switch m.kind {
		case arrow.FLOAT64:
			b = AppendJSONDouble(b, m.f64[i])
			if w.bareWholeDoubles && bytes.HasSuffix(b, []byte(".0")) {
				b = b[:len(b)-2] // the ".0" AppendJSONDouble adds
			}
		case arrow.INT64:
			b = strconv.AppendInt(b, m.i64[i], 10)
		case arrow.UINT64:
			b = strconv.AppendUint(b, m.u64[i], 10)
		case arrow.LARGE_STRING:
			b = appendJSONString(b, m.str.Value(i))
		case arrow.STRUCT:
			b = m.sub.object(b, i)
		}
	}
	return append(b, '}')
}

// AppendJSONDouble appends a finite float as a DOUBLE of a stored JSON
// document: as encoding/json writes it (the shortest text that reads back
// as the same float, in 'f' form within [1e-6, 1e21) and 'e' form outside
// it, with the exponent's leading zero trimmed: 1e-07 is 1e-7), and with
// ".0" after a whole one (2.0, -0.0), which encoding/json writes as an
// integer, so that it reads back as a DOUBLE and not an integer.
func AppendJSONDouble(b []byte, f float64) []byte {
	if i := int64(f); float64(i) == f && i > -1e15 && i < 1e15 && (i != 0 || !math.Signbit(f)) {
		// A whole value (a class label, a count) is written from the
		// integer, at a fifth of the cost.
		return append(strconv.AppendInt(b, i, 10), ".0"...)
	}
	start := len(b)
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	if bytes.IndexByte(b[start:], '.') < 0 && bytes.IndexByte(b[start:], 'e') < 0 {
		b = append(b, ".0"...)
	}
	return b
}

// appendJSONString appends s quoted as encoding/json quotes a string
// without HTML escaping: the short escapes for quote, backslash and the
// common control characters, \u00XX for the other control characters,
// \u2028 and \u2029 escaped, and each byte of invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// PrepareCommand does ahead of Store.Apply the part of applying c that
// does not depend on the store's state: each append's JSON columns sent as
// structs are written as text, so applying it has only the rows to place.
// Applying c after it changes the store exactly as applying it without.
func PrepareCommand(c *Command) error {
	for i := range c.Ops {
		op := &c.Ops[i]
		if op.Batch == nil || (op.Kind != OpAppend && op.Kind != OpAppendFrom) {
			continue
		}
		batch, err := jsonColumns(op.Batch, op.bareWholeDoubles)
		if err != nil {
			return err
		}
		op.Batch.Release()
		op.Batch = batch
	}
	return nil
}

// sendsJSONStructs says whether an append of ops has a struct column,
// which nodes before command version 6 cannot apply.
func sendsJSONStructs(ops []Op) bool {
	for i := range ops {
		if ops[i].Batch == nil {
			continue
		}
		for _, f := range ops[i].Batch.Schema().Fields() {
			if f.Type.ID() == arrow.STRUCT {
				return true
			}
		}
	}
	return false
}
