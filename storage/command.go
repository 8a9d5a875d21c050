package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// OpKind names one change inside a Command.
type OpKind uint8

const (
	OpCreateDatabase OpKind = iota + 1
	OpDropDatabase
	OpCreateTable  // Schema, Indexes
	OpDropTable    //
	OpRenameTable  // NewName
	OpAddColumn    // Column, Position (-1 appends), Fill (value for existing rows)
	OpDropColumn   // Name
	OpCreateIndex  // Index
	OpDropIndex    // Name
	OpInsert       // Rows (RowIDs parallel to Rows for keyless tables); duplicate keys fail the command
	OpDelete       // Keys: row identities; unknown keys are ignored. Rows, when given, are the rows as the writer read them: if any now differs or is gone, the command fails with ErrConflict
	OpTruncate     //
	OpSetAutoInc   // AutoInc: the next value; never moves below the highest stored value
	OpSetUsers     // Blob: opaque users and grants
	OpSetTableMeta // Name: new Schema.Meta
	OpRenameColumn // Name -> NewName
	OpPutMeta      // Name: key, Blob: value; per-database metadata such as view definitions
	OpDeleteMeta   // Name: key
	OpModifyColumn // Column replaces the column Name, Position (-1 keeps it) moves it; Rows/Keys carry every converted row by identity
	OpAppend       // Batch (ArrowSchema's layout; RowIDs parallel to its rows for keyless tables); the same change as OpInsert of its rows
	// OpDropIndexedColumn drops the column Name as MySQL does: it leaves
	// every index it is part of, and an index left without columns is
	// dropped. OpDropColumn refuses a column an index uses; it keeps that
	// meaning for the commands logged before this op existed.
	OpDropIndexedColumn
	// OpAppendFrom appends rows made of the stored rows of FromDB.FromTable
	// that Keys name, in order, followed by Batch's columns (RowIDs for a
	// keyless table, as with OpAppend); see appendFrom.
	OpAppendFrom
	// OpCheckLookup fails its command with ErrConflict unless the live
	// rows that Ranges select in index Name (PRIMARY for the primary key)
	// are exactly those Keys names, in any order, before the command's
	// changes apply. A transaction logs one for each foreign key lookup
	// it made, so that a parent row deleted, or a child row added, by a
	// transaction that committed after the lookup fails it instead of
	// leaving an orphan. It changes nothing.
	OpCheckLookup
	// OpReplaceTable replaces the table with one of Schema and Indexes
	// holding Rows (RowIDs parallel to them when Schema has no primary
	// key), in one step: an ALTER TABLE that changes several things, or
	// the primary key, computed whole. It fails with ErrConflict unless
	// the table's rows still have Fingerprint, those it was computed
	// from. AutoInc is the next auto-increment value, never below a
	// stored one.
	OpReplaceTable
	// OpOptimize rewrites the table's storage without changing its rows:
	// each partition's batches with deleted rows are folded and its tail
	// sealed, so that every row is in an Arrow batch (OPTIMIZE TABLE).
	OpOptimize
	// OpCheckRows fails its command with ErrConflict unless each row that
	// Keys names is live and holds what Rows holds for it, before the
	// command's changes apply. A transaction logs one for the rows its
	// locking reads (SELECT ... FOR UPDATE, LOCK IN SHARE MODE) found, so
	// that a row another transaction changed or deleted after the read
	// fails it, rather than the change being lost under this one's. It
	// changes nothing.
	OpCheckRows
)

// Op is one change. Fields not used by its Kind are zero.
type Op struct {
	Kind     OpKind
	DB       string
	Table    string
	Name     string
	NewName  string
	Schema   *Schema
	Indexes  []*IndexDef
	Column   *Column
	Position int
	Fill     any
	Index    *IndexDef
	Rows     []Row
	RowIDs   []uint64
	Keys     []string
	AutoInc  uint64
	Blob     []byte
	Batch    arrow.RecordBatch
	// FromDB and FromTable name the source of an OpAppendFrom.
	FromDB, FromTable string
	// Ranges are an OpCheckLookup's.
	Ranges []Range
	// Fingerprint is an OpReplaceTable's: the rows it was computed from.
	Fingerprint uint64

	// bareWholeDoubles says that the op came in a command of version 6 or
	// 7, whose JSON structs are written with a whole float64 member as an
	// integer (2, not 2.0), as they were when the command was logged.
	bareWholeDoubles bool
}

// Command is the unit of replication: a transaction's changes, applied
// atomically by Store.Apply.
type Command struct {
	Ops []Op
}

// commandVersion is the first byte of an encoded command. It only moves
// forward; decoders reject versions they do not know. Version 2 added
// OpAppend, version 3 OpDropIndexedColumn, version 4 OpAppendFrom, version 5
// a database created with its metadata in one command, version 6 appends
// whose batches send JSON columns as structs (jsonColumns), version 7
// OpCheckLookup, version 8 such structs written with a whole float64
// member as a DOUBLE (2.0, where 6 and 7 write 2), version 9
// OpReplaceTable, version 10 OpOptimize, version 11 OpCheckRows. A
// command is written with the
// oldest version that has all of its ops (opVersion), so nodes that know
// only an older version can apply the commands that need nothing newer.
const (
	commandVersion       = 11
	commandVersionBefore = 1
)

// opVersion is the command version that introduced an op kind.
func opVersion(k OpKind) byte {
	switch k {
	case OpAppend:
		return 2
	case OpDropIndexedColumn:
		return 3
	case OpAppendFrom:
		return 4
	case OpCheckLookup:
		return 7
	case OpReplaceTable:
		return 9
	case OpOptimize:
		return 10
	case OpCheckRows:
		return 11
	}
	return commandVersionBefore
}

// EncodeCommand serialises a command for the log (docs/format/command.md).
func EncodeCommand(c *Command) []byte {
	size := 64
	version := byte(commandVersionBefore)
	for i := range c.Ops {
		version = max(version, opVersion(c.Ops[i].Kind))
		switch op := &c.Ops[i]; op.Kind {
		case OpAppend:
			size += recordBytes(op.Batch) + 16*len(op.RowIDs)
		case OpAppendFrom:
			size += recordBytes(op.Batch) + 16*len(op.RowIDs) + len(op.FromDB) + len(op.FromTable) + 20
			for _, k := range op.Keys {
				size += len(k) + 2
			}
		}
	}
	if sendsJSONStructs(c.Ops) {
		version = max(version, 8)
	}
	if createsWithMeta(c.Ops) {
		// Nodes before version 5 refuse a schema change that shares its
		// command: they must refuse this one as a version they do not know.
		version = max(version, 5)
	}
	e := encoder{buf: make([]byte, 0, size)}
	e.byte(version)
	e.uvarint(uint64(len(c.Ops)))
	for i := range c.Ops {
		op := &c.Ops[i]
		e.byte(byte(op.Kind))
		e.string(op.DB)
		e.string(op.Table)
		switch op.Kind {
		case OpCreateDatabase, OpDropDatabase, OpDropTable, OpTruncate, OpOptimize:
		case OpCreateTable:
			e.tableDef(op.Schema, op.Indexes)
		case OpRenameTable:
			e.string(op.NewName)
		case OpAddColumn:
			e.column(op.Column)
			e.varint(int64(op.Position))
			e.value(op.Fill)
		case OpDropColumn, OpDropIndexedColumn, OpDropIndex, OpSetTableMeta:
			e.string(op.Name)
		case OpRenameColumn:
			e.string(op.Name)
			e.string(op.NewName)
		case OpModifyColumn:
			e.string(op.Name)
			e.column(op.Column)
			e.varint(int64(op.Position))
			e.uvarint(uint64(len(op.Rows)))
			for _, r := range op.Rows {
				e.row(r)
			}
			e.uvarint(uint64(len(op.Keys)))
			for _, k := range op.Keys {
				e.string(k)
			}
		case OpCreateIndex:
			e.indexDef(op.Index)
		case OpInsert:
			e.rowsWithIDs(op.Rows, op.RowIDs)
		case OpAppendFrom:
			e.string(op.FromDB)
			e.string(op.FromTable)
			e.uvarint(uint64(len(op.Keys)))
			for _, k := range op.Keys {
				e.string(k)
			}
			fallthrough
		case OpAppend:
			e.record(op.Batch)
			e.uvarint(uint64(len(op.RowIDs)))
			for _, id := range op.RowIDs {
				e.uvarint(id)
			}
		case OpDelete, OpCheckRows:
			e.uvarint(uint64(len(op.Keys)))
			for _, k := range op.Keys {
				e.string(k)
			}
			e.uvarint(uint64(len(op.Rows)))
			for _, r := range op.Rows {
				e.row(r)
			}
		case OpSetAutoInc:
			e.uvarint(op.AutoInc)
		case OpSetUsers:
			e.bytes(op.Blob)
		case OpPutMeta:
			e.string(op.Name)
			e.bytes(op.Blob)
		case OpDeleteMeta:
			e.string(op.Name)
		case OpCheckLookup:
			e.string(op.Name)
			e.uvarint(uint64(len(op.Ranges)))
			for _, r := range op.Ranges {
				e.uvarint(uint64(len(r)))
				for _, c := range r {
					e.cut(c.Lo)
					e.cut(c.Hi)
				}
			}
			e.uvarint(uint64(len(op.Keys)))
			for _, k := range op.Keys {
				e.string(k)
			}
		case OpReplaceTable:
			e.tableDef(op.Schema, op.Indexes)
			e.rowsWithIDs(op.Rows, op.RowIDs)
			e.uvarint(op.AutoInc)
			e.uvarint(op.Fingerprint)
		default:
			panic(fmt.Sprintf("storage: encode op kind %d", op.Kind))
		}
	}
	return e.buf
}

// DecodeCommand parses bytes written by EncodeCommand; corrupt input gives
// ErrCorrupt, never a panic.
func DecodeCommand(b []byte) (*Command, error) {
	d := decoder{buf: b}
	version := d.byte()
	if d.err == nil && (version < commandVersionBefore || version > commandVersion) {
		return nil, fmt.Errorf("%w: command version %d", ErrFormatVersion, version)
	}
	n := d.count(3)
	c := &Command{Ops: make([]Op, 0, n)}
	for i := 0; i < n && d.err == nil; i++ {
		op := Op{Kind: OpKind(d.byte())}
		if d.err == nil && opVersion(op.Kind) > version {
			d.fail(fmt.Sprintf("op kind %d in a version %d command", op.Kind, version))
			break
		}
		op.DB = d.string()
		op.Table = d.string()
		switch op.Kind {
		case OpCreateDatabase, OpDropDatabase, OpDropTable, OpTruncate, OpOptimize:
		case OpCreateTable:
			op.Schema, op.Indexes = d.tableDef()
		case OpRenameTable:
			op.NewName = d.string()
		case OpAddColumn:
			col := d.column()
			op.Column = &col
			op.Position = int(d.varint())
			op.Fill = d.value()
		case OpDropColumn, OpDropIndexedColumn, OpDropIndex, OpSetTableMeta:
			op.Name = d.string()
		case OpRenameColumn:
			op.Name = d.string()
			op.NewName = d.string()
		case OpModifyColumn:
			op.Name = d.string()
			col := d.column()
			op.Column = &col
			op.Position = int(d.varint())
			m := d.count(1)
			for j := 0; j < m && d.err == nil; j++ {
				op.Rows = append(op.Rows, d.row())
			}
			m = d.count(1)
			for j := 0; j < m && d.err == nil; j++ {
				op.Keys = append(op.Keys, d.string())
			}
		case OpCreateIndex:
			op.Index = d.indexDef()
		case OpInsert:
			op.Rows, op.RowIDs = d.rowsWithIDs()
		case OpAppendFrom:
			op.FromDB = d.string()
			op.FromTable = d.string()
			op.Keys = d.strings()
			fallthrough
		case OpAppend:
			raw := d.view()
			if d.err == nil {
				rec, err := decodeRecord(raw)
				if err != nil {
					d.err = err
					break
				}
				op.Batch = rec
				if structs := sendsJSONStructs([]Op{op}); structs && version < 6 {
					d.fail(fmt.Sprintf("a struct column in a version %d command", version))
				} else if structs && version < 8 {
					op.bareWholeDoubles = true
				}
			}
			m := d.count(1)
			for j := 0; j < m && d.err == nil; j++ {
				op.RowIDs = append(op.RowIDs, d.uvarint())
			}
		case OpDelete, OpCheckRows:
			m := d.count(1)
			op.Keys = make([]string, 0, m)
			for j := 0; j < m && d.err == nil; j++ {
				op.Keys = append(op.Keys, d.string())
			}
			m = d.count(1)
			for j := 0; j < m && d.err == nil; j++ {
				op.Rows = append(op.Rows, d.row())
			}
			if d.err == nil && len(op.Rows) != 0 && len(op.Rows) != len(op.Keys) {
				d.fail("delete expectations do not match its keys")
			}
			if d.err == nil && op.Kind == OpCheckRows && len(op.Rows) != len(op.Keys) {
				d.fail("a row check without a row for each key")
			}
		case OpSetAutoInc:
			op.AutoInc = d.uvarint()
		case OpSetUsers:
			op.Blob = d.bytes()
		case OpPutMeta:
			op.Name = d.string()
			op.Blob = d.bytes()
		case OpDeleteMeta:
			op.Name = d.string()
		case OpCheckLookup:
			op.Name = d.string()
			m := d.count(1)
			for j := 0; j < m && d.err == nil; j++ {
				cols := d.count(2)
				r := make(Range, 0, cols)
				for k := 0; k < cols && d.err == nil; k++ {
					r = append(r, ColumnRange{Lo: d.cut(), Hi: d.cut()})
				}
				op.Ranges = append(op.Ranges, r)
			}
			op.Keys = d.strings()
		case OpReplaceTable:
			op.Schema, op.Indexes = d.tableDef()
			op.Rows, op.RowIDs = d.rowsWithIDs()
			op.AutoInc = d.uvarint()
			op.Fingerprint = d.uvarint()
		default:
			d.fail(fmt.Sprintf("op kind %d", op.Kind))
		}
		c.Ops = append(c.Ops, op)
	}
	if d.err == nil && len(d.buf) != 0 {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return nil, d.err
	}
	return c, nil
}

// tableDef writes a table's schema and its indexes.
func (e *encoder) tableDef(s *Schema, indexes []*IndexDef) {
	e.schema(s)
	e.uvarint(uint64(len(indexes)))
	for _, x := range indexes {
		e.indexDef(x)
	}
}

func (d *decoder) tableDef() (*Schema, []*IndexDef) {
	s := d.schema()
	var indexes []*IndexDef
	m := d.count(3)
	for j := 0; j < m && d.err == nil; j++ {
		indexes = append(indexes, d.indexDef())
	}
	return s, indexes
}

// rowsWithIDs writes rows and then row ids (those of a keyless table's
// rows, or none).
func (e *encoder) rowsWithIDs(rows []Row, ids []uint64) {
	e.uvarint(uint64(len(rows)))
	for _, r := range rows {
		e.row(r)
	}
	e.uvarint(uint64(len(ids)))
	for _, id := range ids {
		e.uvarint(id)
	}
}

func (d *decoder) rowsWithIDs() ([]Row, []uint64) {
	m := d.count(1)
	rows := make([]Row, 0, m)
	for j := 0; j < m && d.err == nil; j++ {
		rows = append(rows, d.row())
	}
	var ids []uint64
	m = d.count(1)
	for j := 0; j < m && d.err == nil; j++ {
		ids = append(ids, d.uvarint())
	}
	return rows, ids
}
