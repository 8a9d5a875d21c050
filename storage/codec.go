package storage

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// The value encoding used in log commands and snapshot manifests: a one-byte
// tag, then the payload. It is documented in docs/format/command.md.
const (
	tagNull      byte = 0
	tagInt64     byte = 1 // zig-zag varint
	tagUint64    byte = 2 // uvarint
	tagFloat32   byte = 3 // 4 bytes little-endian IEEE 754
	tagFloat64   byte = 4 // 8 bytes little-endian IEEE 754
	tagString    byte = 5 // uvarint length, bytes
	tagBinary    byte = 6 // uvarint length, bytes
	tagTimestamp byte = 7 // zig-zag varint microseconds since the Unix epoch, UTC
)

type encoder struct{ buf []byte }

func (e *encoder) byte(b byte)      { e.buf = append(e.buf, b) }
func (e *encoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) varint(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *encoder) bytes(b []byte)   { e.uvarint(uint64(len(b))); e.buf = append(e.buf, b...) }
func (e *encoder) string(s string)  { e.uvarint(uint64(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) bool(b bool) {
	if b {
		e.byte(1)
	} else {
		e.byte(0)
	}
}

func (e *encoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.byte(tagNull)
	case int64:
		e.byte(tagInt64)
		e.varint(x)
	case uint64:
		e.byte(tagUint64)
		e.uvarint(x)
	case float32:
		e.byte(tagFloat32)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(x))
	case float64:
		e.byte(tagFloat64)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(x))
	case string:
		e.byte(tagString)
		e.string(x)
	case []byte:
		e.byte(tagBinary)
		e.bytes(x)
	case time.Time:
		e.byte(tagTimestamp)
		e.varint(x.UnixMicro())
	default:
		panic(fmt.Sprintf("storage: cannot encode %T", v))
	}
}

func (e *encoder) row(r Row) {
	e.uvarint(uint64(len(r)))
	for _, v := range r {
		e.value(v)
	}
}

// decoder reads the encoding above from untrusted bytes: every read checks
// bounds and the first failure sticks, so callers check err once at the end.
type decoder struct {
	buf []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.buf) < 1 {
		d.fail("truncated")
		return 0
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	return b
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// count reads a length and checks that at least min bytes per element remain,
// so a corrupt length cannot make us allocate more than the input justifies.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if d.err != nil {
		return 0
	}
	if min < 1 {
		min = 1
	}
	if n > uint64(len(d.buf)/min) {
		d.fail("length exceeds input")
		return 0
	}
	return int(n)
}

func (d *decoder) raw(n int) []byte {
	if d.err != nil || n > len(d.buf) {
		d.fail("truncated")
		return nil
	}
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b
}

// strings reads a count and that many strings, all cut from one
// allocation (an append names each of its rows by key).
func (d *decoder) strings() []string {
	m := d.count(1)
	if d.err != nil || m == 0 {
		return nil
	}
	region := d.buf
	ends := make([]int, m)
	for j := range ends {
		n := d.uvarint()
		if d.err != nil || n > uint64(len(d.buf)) {
			d.fail("truncated string")
			return nil
		}
		d.raw(int(n))
		ends[j] = len(region) - len(d.buf)
	}
	all := string(region[:ends[m-1]])
	out := make([]string, m)
	start := 0
	for j, end := range ends {
		// Past the string's length prefix.
		_, k := binary.Uvarint(region[start:end])
		out[j] = all[start+k : end]
		start = end
	}
	return out
}

func (d *decoder) bytes() []byte {
	b := d.view()
	if d.err != nil {
		return nil
	}
	return append([]byte{}, b...)
}

// view is bytes without the copy: the result aliases the input.
func (d *decoder) view() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.buf)) {
		d.fail("truncated bytes")
		return nil
	}
	return d.raw(int(n))
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.buf)) {
		d.fail("truncated string")
		return ""
	}
	return string(d.raw(int(n)))
}

func (d *decoder) bool() bool { return d.byte() != 0 }

// cut is an index range's bound: its kind, then its key (NULL for the
// kinds that have none).
func (e *encoder) cut(c Cut) {
	e.byte(byte(c.Kind))
	e.value(c.Key)
}

func (d *decoder) cut() Cut {
	k := CutKind(d.byte())
	if d.err == nil && k > CutAboveAll {
		d.fail(fmt.Sprintf("range cut kind %d", k))
	}
	return Cut{Kind: k, Key: d.value()}
}

func (d *decoder) value() any {
	switch t := d.byte(); t {
	case tagNull:
		return nil
	case tagInt64:
		return d.varint()
	case tagUint64:
		return d.uvarint()
	case tagFloat32:
		b := d.raw(4)
		if b == nil {
			return nil
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	case tagFloat64:
		b := d.raw(8)
		if b == nil {
			return nil
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case tagString:
		return d.string()
	case tagBinary:
		return d.bytes()
	case tagTimestamp:
		return time.UnixMicro(d.varint()).UTC()
	default:
		d.fail(fmt.Sprintf("unknown value tag %d", t))
		return nil
	}
}

func (d *decoder) row() Row {
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	r := make(Row, n)
	for i := range r {
		r[i] = d.value()
	}
	return r
}

func (e *encoder) schema(s *Schema) {
	e.uvarint(uint64(len(s.Columns)))
	for _, c := range s.Columns {
		e.column(&c)
	}
	e.uvarint(uint64(len(s.PK)))
	for _, p := range s.PK {
		e.uvarint(uint64(p))
	}
	e.string(s.Meta)
}

func (e *encoder) column(c *Column) {
	e.string(c.Name)
	e.byte(byte(c.Kind))
	e.bool(c.Nullable)
	e.string(c.Meta)
}

func (d *decoder) column() Column {
	var c Column
	c.Name = d.string()
	c.Kind = Kind(d.byte())
	c.Nullable = d.bool()
	c.Meta = d.string()
	if d.err == nil && !c.Kind.valid() {
		d.fail(fmt.Sprintf("column kind %d", c.Kind))
	}
	return c
}

func (d *decoder) schema() *Schema {
	s := &Schema{}
	n := d.count(4)
	for i := 0; i < n && d.err == nil; i++ {
		s.Columns = append(s.Columns, d.column())
	}
	n = d.count(1)
	for i := 0; i < n && d.err == nil; i++ {
		p := d.uvarint()
		if p >= uint64(len(s.Columns)) {
			d.fail("primary key ordinal")
			break
		}
		s.PK = append(s.PK, int(p))
	}
	s.Meta = d.string()
	if d.err == nil {
		if err := s.validate(); err != nil {
			d.fail(err.Error())
		}
	}
	return s
}

func (e *encoder) indexDef(x *IndexDef) {
	e.string(x.Name)
	e.uvarint(uint64(len(x.Columns)))
	for _, c := range x.Columns {
		e.string(c)
	}
	e.bool(x.Unique)
	e.string(x.Meta)
}

func (d *decoder) indexDef() *IndexDef {
	x := &IndexDef{Name: d.string()}
	n := d.count(1)
	for i := 0; i < n && d.err == nil; i++ {
		x.Columns = append(x.Columns, d.string())
	}
	x.Unique = d.bool()
	x.Meta = d.string()
	return x
}

// EncodeKey encodes key values into the identity string that names a row.
func EncodeKey(vals []any) string {
	var e encoder
	for _, v := range vals {
		e.value(v)
	}
	return string(e.buf)
}
