package sqlext

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// The point-select fast path answers `SELECT cols FROM t WHERE pk = value`
// straight from the primary index, skipping the engine's planner, which
// costs several times more than the lookup for such queries (see
// docs/benchmarks.md). It takes a query only when the answer cannot differ
// from the engine's: a stored table with a one-column primary key, plain
// column references, autocommit on or a transaction open (whose own
// rows it reads, by an integer key; by a text key only when the
// transaction has not changed the table), SELECT privilege granted, and a
// key that converts exactly to the column's type. Anything
// else falls through to the engine. SET sqlearn_fast_point_select = OFF
// turns it off for a session.
const FastPointSelectVar = "sqlearn_fast_point_select"

func init() {
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
		Name:    FastPointSelectVar,
		Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Both),
		Dynamic: true,
		Type:    types.NewSystemBoolType(FastPointSelectVar),
		Default: int8(1),
	}})
}

// pointShape is a parsed point select.
type pointShape struct {
	db, table, alias string
	cols             []string // nil means *
	names            []string // output names (aliases)
	keyCol           string
	keyArg           string // bind variable name, or "" for a literal
	keyLit           *sqlparser.SQLVal
}

type fastPath struct {
	p       *Provider
	mysqlDB *mysql_db.MySQLDb
	// shapes caches parsed queries: *pointShape, or nil for queries that
	// never qualify.
	shapes  sync.Map
	nShapes atomic.Int64
	hits    atomic.Int64
}

const maxCachedShapes = 4096

func (f *fastPath) shape(query string) *pointShape {
	if v, ok := f.shapes.Load(query); ok {
		s, _ := v.(*pointShape)
		return s
	}
	s := parsePointSelect(query)
	if f.nShapes.Add(1) > maxCachedShapes {
		f.shapes.Clear()
		f.nShapes.Store(0)
	}
	f.shapes.Store(query, s)
	return s
}

func parsePointSelect(query string) *pointShape {
	q := strings.TrimSpace(query)
	q = strings.TrimSuffix(q, ";")
	if strings.ContainsRune(q, ';') || len(q) < 6 || !strings.EqualFold(q[:6], "select") {
		return nil
	}
	stmt, err := sqlparser.Parse(q)
	if err != nil {
		return nil
	}
	sel, ok := stmt.(*sqlparser.Select)
	if !ok || sel.With != nil || sel.GroupBy != nil || sel.Having != nil || sel.Window != nil ||
		sel.OrderBy != nil || sel.Limit != nil || sel.Lock != "" || sel.Into != nil ||
		sel.QueryOpts != (sqlparser.QueryOpts{}) || len(sel.From) != 1 || sel.Where == nil {
		return nil
	}
	ate, ok := sel.From[0].(*sqlparser.AliasedTableExpr)
	if !ok || ate.AsOf != nil || ate.Hints != nil || len(ate.Partitions) > 0 || ate.Lateral {
		return nil
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok || !tn.SchemaQualifier.IsEmpty() {
		return nil
	}
	s := &pointShape{db: tn.DbQualifier.String(), table: tn.Name.String(), alias: ate.As.String()}
	qualifierOK := func(q sqlparser.TableName) bool {
		if q.IsEmpty() {
			return true
		}
		if !q.DbQualifier.IsEmpty() && !strings.EqualFold(q.DbQualifier.String(), s.db) {
			return false
		}
		name := q.Name.String()
		return strings.EqualFold(name, s.table) && s.alias == "" || strings.EqualFold(name, s.alias)
	}
	for _, e := range sel.SelectExprs {
		switch x := e.(type) {
		case *sqlparser.StarExpr:
			if len(sel.SelectExprs) != 1 || !qualifierOK(x.TableName) {
				return nil
			}
		case *sqlparser.AliasedExpr:
			col, ok := x.Expr.(*sqlparser.ColName)
			if !ok || col.StoredProcVal != nil || !qualifierOK(col.Qualifier) {
				return nil
			}
			name := col.Name.String()
			if !x.As.IsEmpty() {
				name = x.As.String()
			} else if x.InputExpression != "" && !strings.EqualFold(x.InputExpression, col.Name.String()) {
				// The engine names such a column by its text as written.
				name = x.InputExpression
			}
			s.cols = append(s.cols, col.Name.String())
			s.names = append(s.names, name)
		default:
			return nil
		}
	}
	cmp, ok := sel.Where.Expr.(*sqlparser.ComparisonExpr)
	if !ok || cmp.Operator != sqlparser.EqualStr || cmp.Escape != nil {
		return nil
	}
	col, val := cmp.Left, cmp.Right
	if _, isCol := col.(*sqlparser.ColName); !isCol {
		col, val = val, col
	}
	cn, ok := col.(*sqlparser.ColName)
	if !ok || cn.StoredProcVal != nil || !qualifierOK(cn.Qualifier) {
		return nil
	}
	lit, ok := val.(*sqlparser.SQLVal)
	if !ok {
		return nil
	}
	switch lit.Type {
	case sqlparser.ValArg:
		s.keyArg = strings.TrimPrefix(string(lit.Val), ":")
	case sqlparser.IntVal, sqlparser.StrVal:
		s.keyLit = lit
	default:
		return nil
	}
	s.keyCol = cn.Name.String()
	return s
}

// pointRows reads the row of table info under primary key key (stored
// form): the transaction's own when tt, its changes to the table, holds
// one under that key (the row, or none when it deleted it), else the
// committed one. ok is false when the engine must read it: a text key,
// which the transaction's changes hold by its bytes and a lookup matches
// under the column's collation.
func (f *fastPath) pointRows(info *storage.TableInfo, tt *txTable, key any) ([]storage.Row, bool) {
	if tt != nil {
		switch key.(type) {
		case int64, uint64:
		default:
			return nil, false
		}
		if c, ok := tt.changes[storage.EncodeKey([]any{key})]; ok {
			if c.row == nil {
				return nil, true
			}
			return []storage.Row{c.row}, true
		}
	}
	rows, _, err := f.p.store.Lookup(info.DB, info.Name, "", []storage.Range{{{
		Lo: storage.Cut{Kind: storage.CutBelow, Key: key}, Hi: storage.Cut{Kind: storage.CutAbove, Key: key},
	}}})
	return rows, err == nil
}

// try answers the query if it qualifies; ok is false when the engine must.
func (f *fastPath) try(ctx context.Context, c *mysql.Conn, query string, binds map[string]*querypb.BindVariable) (*sqltypes.Result, bool) {
	s := f.shape(query)
	if s == nil {
		return nil, false
	}
	sess := f.p.session(c.ConnectionID)
	if sess == nil {
		return nil, false
	}
	// In an open transaction the row is read as the engine would read it:
	// the transaction's own, or the latest committed one (isolation is
	// read committed).
	var tx *transaction
	if open := sess.GetTransaction(); open != nil {
		var ok bool
		if tx, ok = open.(*transaction); !ok {
			return nil, false
		}
	}
	sctx := sql.NewContext(ctx, sql.WithSession(sess))
	if strings.Contains(query, `\`) && noBackslashEscapes(sctx) {
		return nil, false // its literal is read otherwise (nobackslash.go)
	}
	if on, err := sess.GetSessionVariable(sctx, FastPointSelectVar); err != nil || !truthy(on) {
		return nil, false
	}
	if ac, err := sess.GetSessionVariable(sctx, "autocommit"); tx == nil && (err != nil || !truthy(ac)) {
		return nil, false
	}
	db := s.db
	if db == "" {
		db = sess.GetCurrentDatabase()
	}
	if db == "" || strings.EqualFold(db, SystemDatabase) {
		return nil, false
	}
	if _, temp := temporary(sctx, db, s.table); temp || isTempName(s.table) {
		return nil, false
	}
	info, err := f.p.store.Table(db, s.table)
	if err != nil || len(info.Schema.PK) != 1 {
		return nil, false
	}
	t, err := f.p.newTable(sctx, info)
	if err != nil {
		return nil, false
	}
	pk := info.Schema.PK[0]
	if !strings.EqualFold(info.Schema.Columns[pk].Name, s.keyCol) {
		return nil, false
	}
	proj, names := s.projection(t)
	if proj == nil {
		return nil, false
	}
	var key any
	if s.keyArg != "" {
		bv, ok := binds[s.keyArg]
		if !ok {
			return nil, false
		}
		v, err := sqltypes.BindVariableToValue(bv)
		if err != nil || v.IsNull() {
			return nil, false
		}
		if key, err = sqltypes.ToNative(v); err != nil {
			return nil, false
		}
	} else if s.keyLit.Type == sqlparser.IntVal {
		v, err := sqltypes.NewValue(sqltypes.Int64, s.keyLit.Val)
		if err != nil {
			return nil, false
		}
		if key, err = sqltypes.ToNative(v); err != nil {
			return nil, false
		}
	} else {
		key = string(s.keyLit.Val)
	}
	if b, isBytes := key.([]byte); isBytes {
		key = string(b)
	}
	if !exactKey(t.sch.Schema[pk].Type, key) {
		return nil, false
	}
	skey, ok := t.rangeKey(sctx, pk, key)
	if !ok {
		return nil, false
	}
	if f.mysqlDB.Enabled() && !f.mysqlDB.UserHasPrivileges(sctx, sql.NewPrivilegedOperation(
		sql.PrivilegeCheckSubject{Database: info.DB, Table: info.Name}, sql.PrivilegeType_Select)) {
		return nil, false
	}
	if err := f.p.fresh(sctx); err != nil || f.p.locks.held.Load() > 0 {
		return nil, false // a table lock may stop the read (awaitRead)
	}
	rows, ok := f.pointRows(info, tx.table(info.DB, info.Name), skey)
	if !ok {
		return nil, false
	}
	res := &sqltypes.Result{Fields: t.fields(sctx, proj, names, s.alias)}
	written := make([]sql.Type, len(proj)) // how each column is written
	for i, ci := range proj {
		if written[i] = t.sch.Schema[ci].Type; types.IsJSON(written[i]) {
			written[i] = jsonResult{} // as a planned SELECT writes it (jsonexact.go)
		}
	}
	for _, r := range rows {
		out := make([]sqltypes.Value, len(proj))
		for i, ci := range proj {
			v := r[ci]
			if v == nil {
				out[i] = sqltypes.NULL
				continue
			}
			sv, err := written[i].SQL(sctx, nil, t.codecs[ci].fromStore(v))
			if err != nil {
				return nil, false
			}
			out[i] = sv
		}
		res.Rows = append(res.Rows, out)
	}
	sess.ClearWarnings()
	sess.SetLastQueryInfoInt(sql.RowCount, -1)
	sess.SetLastQueryInfoInt(sql.FoundRows, int64(len(rows)))
	f.hits.Add(1)
	return res, true
}

func truthy(v any) bool {
	switch x := v.(type) {
	case int8:
		return x != 0
	case int64:
		return x != 0
	case bool:
		return x
	case string:
		return strings.EqualFold(x, "on") || x == "1"
	}
	return false
}

// projection maps the selected columns to ordinals; nil when one is a
// virtual column, which the engine computes as it reads the row: storage
// holds no value of it to answer with.
func (s *pointShape) projection(t *Table) ([]int, []string) {
	if s.cols == nil {
		proj := make([]int, len(t.sch.Schema))
		names := make([]string, len(t.sch.Schema))
		for i, c := range t.sch.Schema {
			if c.Virtual || isInvisible(c) {
				return nil, nil // SELECT * leaves an invisible column out
			}
			proj[i], names[i] = i, c.Name
		}
		return proj, names
	}
	proj := make([]int, len(s.cols))
	for i, name := range s.cols {
		if proj[i] = t.sch.Schema.IndexOfColName(name); proj[i] < 0 || t.sch.Schema[proj[i]].Virtual {
			return nil, nil
		}
	}
	return proj, s.names
}

// fields describes result columns the way the engine's handler does.
func (t *Table) fields(ctx *sql.Context, proj []int, names []string, alias string) []*querypb.Field {
	charSetResults := ctx.GetCharacterSetResults()
	out := make([]*querypb.Field, len(proj))
	for i, ci := range proj {
		c := t.sch.Schema[ci]
		f := columnField(ctx, charSetResults, c)
		f.Name, f.Table, f.OrgTable, f.Database = names[i], t.info.Name, t.info.Name, t.info.DB
		if alias != "" {
			f.Table = alias
		}
		if dt, ok := c.Type.(sql.DatetimeType); ok && types.IsTimestampType(c.Type) {
			// A TIMESTAMP(n) too, which the engine gives no decimals.
			f.Decimals = uint32(dt.Precision())
			f.ColumnLength = resultTimestampType{dt}.MaxTextResponseByteLength(ctx)
			if f.Decimals > 0 {
				f.ColumnLength = datetimeTextLength + 1 + f.Decimals
			}
		}
		out[i] = f
	}
	return out
}

// exactKey accepts only keys whose comparison with the column cannot
// involve a conversion the engine would do differently: integers (or
// strings of digits) for integer columns, strings for text columns.
func exactKey(typ sql.Type, key any) bool {
	switch {
	case types.IsInteger(typ):
		switch k := key.(type) {
		case int64, uint64:
			return true
		case string:
			if k == "" {
				return false
			}
			for i, r := range k {
				if !(r >= '0' && r <= '9' || r == '-' && i == 0 && len(k) > 1) {
					return false
				}
			}
			return true
		}
	case types.IsText(typ):
		_, ok := key.(string)
		return ok
	}
	return false
}
