package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// The insert fast path commits `INSERT INTO t [(cols)] VALUES (...)` of one
// row straight through the log, skipping the planner, when nothing the
// planner would do can matter: autocommit with no transaction open, no
// triggers in the database, every omitted column either auto-increment or
// nullable without a default, no generated columns, and every value a
// literal or parameter that converts to its column's type without error or
// loss. Anything else, and any value the conversion rejects, goes to the
// engine, which then reports the error as it always does. It shares the
// sqlearn_fast_point_select switch.

// insertShape is a parsed single-row INSERT.
type insertShape struct {
	db, table string
	cols      []string // nil: all columns in order
	vals      []*sqlparser.SQLVal
	nulls     []bool
}

func parseInsert(query string) *insertShape {
	q := strings.TrimSuffix(strings.TrimSpace(query), ";")
	if strings.ContainsRune(q, ';') || len(q) < 6 || !strings.EqualFold(q[:6], "insert") {
		return nil
	}
	stmt, err := sqlparser.Parse(q)
	if err != nil {
		return nil
	}
	ins, ok := stmt.(*sqlparser.Insert)
	if !ok || ins.Action != sqlparser.InsertStr || ins.Ignore != "" || ins.With != nil || len(ins.Partitions) > 0 ||
		len(ins.Returning) > 0 || len(ins.OnDup) > 0 || !ins.Table.SchemaQualifier.IsEmpty() {
		return nil
	}
	av, ok := ins.Rows.(*sqlparser.AliasedValues)
	if !ok || !av.As.IsEmpty() || len(av.Columns) > 0 || len(av.Values) != 1 {
		return nil
	}
	s := &insertShape{db: ins.Table.DbQualifier.String(), table: ins.Table.Name.String()}
	for _, c := range ins.Columns {
		s.cols = append(s.cols, c.String())
	}
	for _, e := range av.Values[0] {
		switch v := e.(type) {
		case *sqlparser.SQLVal:
			switch v.Type {
			case sqlparser.IntVal, sqlparser.FloatVal, sqlparser.StrVal, sqlparser.ValArg:
			default:
				return nil
			}
			s.vals = append(s.vals, v)
			s.nulls = append(s.nulls, false)
		case *sqlparser.NullVal:
			s.vals = append(s.vals, nil)
			s.nulls = append(s.nulls, true)
		default:
			return nil
		}
	}
	if s.cols != nil && len(s.cols) != len(s.vals) {
		return nil
	}
	return s
}

// tryInsert commits the statement if it qualifies; ok is false when the
// engine must run it.
func (f *fastPath) tryInsert(ctx context.Context, c *mysql.Conn, query string, binds map[string]*querypb.BindVariable) (*sqltypes.Result, error, bool) {
	v, cached := f.shapes.Load("insert:" + query)
	if !cached {
		v = parseInsert(query)
		if f.nShapes.Add(1) > maxCachedShapes {
			f.shapes.Clear()
			f.nShapes.Store(0)
		}
		f.shapes.Store("insert:"+query, v)
	}
	s, _ := v.(*insertShape)
	if s == nil {
		return nil, nil, false
	}
	sess := f.p.session(c.ConnectionID)
	if sess == nil || sess.GetTransaction() != nil {
		return nil, nil, false
	}
	sctx := sql.NewContext(ctx, sql.WithSession(sess))
	if on, err := sess.GetSessionVariable(sctx, FastPointSelectVar); err != nil || !truthy(on) {
		return nil, nil, false
	}
	if ac, err := sess.GetSessionVariable(sctx, "autocommit"); err != nil || !truthy(ac) {
		return nil, nil, false
	}
	db := s.db
	if db == "" {
		db = sess.GetCurrentDatabase()
	}
	if db == "" || strings.EqualFold(db, SystemDatabase) {
		return nil, nil, false
	}
	info, err := f.p.store.Table(db, s.table)
	if err != nil {
		return nil, nil, false
	}
	if triggers, err := f.p.store.Meta(info.DB, triggerPrefix); err != nil || len(triggers) > 0 {
		return nil, nil, false
	}
	t, err := f.p.newTable(sctx, info)
	if err != nil {
		return nil, nil, false
	}
	sch := t.sch.Schema
	// Which statement value goes to which column.
	src := make([]int, len(sch))
	for i := range src {
		src[i] = -1
	}
	if s.cols == nil {
		if len(s.vals) != len(sch) {
			return nil, nil, false
		}
		for i := range src {
			src[i] = i
		}
	} else {
		for k, name := range s.cols {
			i := sch.IndexOfColName(name)
			if i < 0 || src[i] >= 0 {
				return nil, nil, false
			}
			src[i] = k
		}
	}
	auto := -1
	row := make(storage.Row, len(sch))
	for i, col := range sch {
		if col.Generated != nil {
			return nil, nil, false
		}
		if col.AutoIncrement {
			auto = i
		}
		k := src[i]
		if k < 0 {
			if col.AutoIncrement || col.Nullable && col.Default == nil {
				continue
			}
			return nil, nil, false
		}
		if s.nulls[k] {
			if !col.Nullable && !col.AutoIncrement {
				return nil, nil, false
			}
			continue
		}
		val, ok := literalValue(s.vals[k], binds)
		if !ok {
			return nil, nil, false
		}
		sv, ok := convertExact(sctx, col.Type, val)
		if !ok {
			return nil, nil, false
		}
		if row[i], err = t.codecs[i].toStorage(sv); err != nil {
			return nil, nil, false
		}
	}
	if f.mysqlDB.Enabled() && !f.mysqlDB.UserHasPrivileges(sctx, sql.NewPrivilegedOperation(
		sql.PrivilegeCheckSubject{Database: info.DB, Table: info.Name}, sql.PrivilegeType_Insert)) {
		return nil, nil, false
	}
	// insertID is what the OK packet reports: the generated value, or an
	// explicit one given for the auto-increment column (as the engine
	// does); only a generated one becomes LAST_INSERT_ID().
	var insertID uint64
	generated := false
	if auto >= 0 {
		given, _ := unsignedOf(row[auto])
		if row[auto] == nil || given == 0 {
			id, err := f.p.allocate(sctx, allocAutoInc, info.DB, info.Name, 1)
			if err != nil {
				return nil, err, true
			}
			sv, ok := convertExact(sctx, sch[auto].Type, id)
			if !ok {
				return nil, nil, false
			}
			if row[auto], err = t.codecs[auto].toStorage(sv); err != nil {
				return nil, nil, false
			}
			insertID, generated = id, true
		} else if _, err := f.p.allocate(sctx, bumpAutoInc, info.DB, info.Name, given); err != nil {
			return nil, err, true
		} else {
			insertID = given
		}
	}
	op := storage.Op{Kind: storage.OpInsert, DB: info.DB, Table: info.Name, Rows: []storage.Row{row}}
	if t.keyless() {
		id, err := f.p.allocate(sctx, allocRowIDs, info.DB, info.Name, 1)
		if err != nil {
			return nil, err, true
		}
		op.RowIDs = []uint64{id}
	}
	sess.ClearWarnings()
	if err := f.p.propose(sctx, op); err != nil {
		return nil, err, true
	}
	if generated {
		sess.SetLastQueryInfoInt(sql.LastInsertId, int64(insertID))
	}
	sess.SetLastQueryInfoInt(sql.RowCount, 1)
	f.inserts.Add(1)
	return &sqltypes.Result{RowsAffected: 1, InsertID: insertID}, nil, true
}

func literalValue(v *sqlparser.SQLVal, binds map[string]*querypb.BindVariable) (any, bool) {
	switch v.Type {
	case sqlparser.IntVal:
		n, err := sqltypes.NewValue(sqltypes.Int64, v.Val)
		if err != nil {
			return nil, false
		}
		out, err := sqltypes.ToNative(n)
		return out, err == nil
	case sqlparser.FloatVal, sqlparser.StrVal:
		return string(v.Val), true
	case sqlparser.ValArg:
		bv, ok := binds[strings.TrimPrefix(string(v.Val), ":")]
		if !ok {
			return nil, false
		}
		val, err := sqltypes.BindVariableToValue(bv)
		if err != nil || val.IsNull() {
			return nil, false
		}
		out, err := sqltypes.ToNative(val)
		if err != nil {
			return nil, false
		}
		if b, ok := out.([]byte); ok {
			return string(b), true
		}
		return out, true
	}
	return nil, false
}

// convertExact converts a value to a column type when the conversion can
// neither fail nor change the value's meaning: numbers into numeric
// columns (checked to round-trip), strings into text columns. Everything
// else is left to the engine, whose rules for other pairs (a string into
// a number, a date) come with warnings and modes.
func convertExact(ctx *sql.Context, typ sql.Type, v any) (any, bool) {
	switch {
	case types.IsInteger(typ), types.IsFloat(typ), types.IsDecimal(typ):
		switch v.(type) {
		case int64, uint64, float64:
		case string:
			if !types.IsDecimal(typ) && !types.IsFloat(typ) {
				return nil, false
			}
		default:
			return nil, false
		}
	case types.IsText(typ):
		if _, ok := v.(string); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	out, inRange, err := typ.Convert(ctx, v)
	if err != nil || inRange != sql.InRange {
		return nil, false
	}
	if cmp, err := typ.Compare(ctx, v, out); err != nil || cmp != 0 {
		return nil, false
	}
	return out, true
}
