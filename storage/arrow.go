package storage

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowType maps a column kind to its Arrow type. Strings and binaries use
// the 64-bit-offset variants so a batch of large BLOBs cannot overflow.
func arrowType(k Kind) arrow.DataType {
	switch k {
	case KindInt64:
		return arrow.PrimitiveTypes.Int64
	case KindUint64:
		return arrow.PrimitiveTypes.Uint64
	case KindFloat32:
		return arrow.PrimitiveTypes.Float32
	case KindFloat64:
		return arrow.PrimitiveTypes.Float64
	case KindString:
		return arrow.BinaryTypes.LargeString
	case KindBinary:
		return arrow.BinaryTypes.LargeBinary
	case KindTimestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	}
	panic(fmt.Sprintf("storage: no arrow type for kind %v", k))
}

func arrowSchema(s *Schema) *arrow.Schema {
	fields := make([]arrow.Field, len(s.Columns))
	for i, c := range s.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: arrowType(c.Kind), Nullable: c.Nullable}
	}
	return arrow.NewSchema(fields, nil)
}

// buildRecord seals rows into an immutable record batch.
func buildRecord(mem memory.Allocator, sch *arrow.Schema, rows []Row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	for i, f := range b.Fields() {
		f.Reserve(len(rows))
		appendColumn(f, rows, i)
	}
	return b.NewRecordBatch()
}

func appendColumn(f array.Builder, rows []Row, col int) {
	switch fb := f.(type) {
	case *array.Int64Builder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(int64))
			}
		}
	case *array.Uint64Builder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(uint64))
			}
		}
	case *array.Float32Builder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(float32))
			}
		}
	case *array.Float64Builder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(float64))
			}
		}
	case *array.LargeStringBuilder:
		// The values' bytes in one allocation rather than by doubling.
		size := 0
		for _, r := range rows {
			if v, ok := r[col].(string); ok {
				size += len(v)
			}
		}
		fb.ReserveData(size)
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(string))
			}
		}
	case *array.BinaryBuilder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.([]byte))
			}
		}
	case *array.TimestampBuilder:
		for _, r := range rows {
			if v := r[col]; v == nil {
				fb.AppendNull()
			} else {
				fb.Append(arrow.Timestamp(v.(time.Time).UnixMicro()))
			}
		}
	default:
		panic(fmt.Sprintf("storage: no append for builder %T", f))
	}
}

// columnValue reads one value out of an Arrow column as a storage value.
// Binary values are copied: callers may keep or change them.
func columnValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch c := a.(type) {
	case *array.Int64:
		return c.Value(i)
	case *array.Uint64:
		return c.Value(i)
	case *array.Float32:
		return c.Value(i)
	case *array.Float64:
		return c.Value(i)
	case *array.LargeString:
		return c.Value(i)
	case *array.LargeBinary:
		return append([]byte{}, c.Value(i)...)
	case *array.Timestamp:
		return time.UnixMicro(int64(c.Value(i))).UTC()
	}
	panic(fmt.Sprintf("storage: no reader for arrow array %T", a))
}
