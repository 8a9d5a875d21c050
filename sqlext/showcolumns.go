package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// showColumns is the engine's SHOW [FULL] COLUMNS (and DESCRIBE) as MySQL
// shows it: a text column's literal default as its value, q for DEFAULT
// 'q' (the engine showed the SQL literal, 'q'), and a TIME(n) column's
// as its value with n digits; the Type without the
// column's character set and collation, which FULL's Collation gives,
// and that the column's own (the engine showed the server default for
// every column), and the caller's privileges on the columns.
func showColumns(ctx *sql.Context, n *plan.ShowColumns, row sql.Row) (sql.RowIter, error) {
	rows, err := engineRows(ctx, n, row)
	if err != nil {
		return nil, err
	}
	schema := n.TargetSchema()
	def, coll, privs := 4, -1, -1 // ordinals of Default, Collation and Privileges
	if n.Full {
		def, coll, privs = 5, 2, 7
	}
	var granted string
	if rt, ok := n.Child.(*plan.ResolvedTable); ok && privs >= 0 && rt.Database() != nil {
		granted = columnPrivileges(ctx, rt.Database().Name(), rt.Name())
	}
	for i, r := range rows {
		if i >= len(schema) || len(r) <= def {
			break
		}
		col := schema[i]
		if t, ok := r[1].(string); ok {
			r[1] = bareType(t)
		}
		if d := col.Default; d != nil && d.IsLiteral() && types.IsText(col.Type) {
			if v, err := d.Eval(ctx, nil); err == nil && v != nil {
				if s, ok := v.(string); ok {
					r[def] = s
				}
			}
		}
		if d := col.Default; d != nil && d.IsLiteral() && isTimeType(col.Type) {
			if v, err := d.Eval(ctx, nil); err == nil && v != nil {
				if s, err := typedText(ctx, col.Type, v); err == nil {
					r[def] = s
				}
			}
		}
		if tc, ok := col.Type.(sql.TypeWithCollation); ok && coll >= 0 && r[coll] != nil {
			r[coll] = tc.Collation().String()
		}
		if privs >= 0 && len(r) > privs {
			r[privs] = granted
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// columnPrivileges is what SHOW FULL COLUMNS lists of the caller's
// privileges on a table's columns, as MySQL writes it
// ("select,insert,update,references" for a user who has them all); the
// engine left it empty.
func columnPrivileges(ctx *sql.Context, db, table string) string {
	s, ok := ctx.Session.(*Session)
	var out []string
	for _, p := range []struct {
		name string
		priv sql.PrivilegeType
	}{{"select", sql.PrivilegeType_Select}, {"insert", sql.PrivilegeType_Insert}, {"update", sql.PrivilegeType_Update}, {"references", sql.PrivilegeType_References}} {
		if !ok || s.p.HasPrivilege(ctx, db, table, p.priv) {
			out = append(out, p.name)
		}
	}
	return strings.Join(out, ",")
}

// bareType is a column type's text without a trailing CHARACTER SET or
// COLLATE clause (past the last parenthesis, so never inside an ENUM's
// members).
func bareType(t string) string {
	for _, clause := range []string{" COLLATE ", " CHARACTER SET "} {
		if i := strings.LastIndex(t, clause); i > strings.LastIndex(t, ")") {
			t = t[:i]
		}
	}
	return t
}

// showIndexes is the engine's SHOW INDEX with the Collation and
// Cardinality MySQL shows, and each prefix's length as its Sub_part: A
// (ascending) for every column of a B-tree index, which all of the
// table's indexes are, and the count of distinct values of the index's
// columns up to each (cardinality.go); the engine showed NULL and 0.
func showIndexes(ctx *sql.Context, n *plan.ShowIndexes, row sql.Row) (sql.RowIter, error) {
	rows, err := engineRows(ctx, n, row)
	if err != nil {
		return nil, err
	}
	var stored *Table
	if rt, ok := n.Child.(*plan.ResolvedTable); ok {
		stored = storedTable(rt.Table)
	}
	prefix := map[string][]uint16{}
	for _, x := range n.IndexesToShow {
		prefix[x.ID()] = x.PrefixLengths()
	}
	const keyName, seq, collation, cardinality, subPart = 2, 3, 5, 6, 7
	for _, r := range rows {
		if len(r) <= subPart {
			continue
		}
		r[collation] = "A"
		name, _ := r[keyName].(string)
		p, _ := r[seq].(int)
		if p >= 1 && p <= len(prefix[name]) && prefix[name][p-1] > 0 {
			r[subPart] = int64(prefix[name][p-1])
		}
		if stored != nil {
			if c, ok := stored.p.cardinality(stored.info.DB, stored.info.Name, name, p); ok {
				r[cardinality] = c
			}
		}
	}
	if stored != nil {
		rows = append(rows, fulltextIndexRows(stored, len(n.Schema()))...)
	}
	return sql.RowsToRowIter(rows...), nil
}

// engineRows is what the engine's own execution of n returns.
func engineRows(ctx *sql.Context, n sql.Node, row sql.Row) ([]sql.Row, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, n, row)
	if err != nil {
		return nil, err
	}
	return sql.RowIterToRows(ctx, iter)
}

// showIndexWhere reads SHOW INDEX FROM t WHERE cond, whose condition the
// engine dropped (it listed every key), as the same rows read from
// information_schema.STATISTICS under SHOW INDEX's column names, which
// the condition names, as MySQL 8 answers SHOW INDEX from its data
// dictionary. A table that is not there is left to the engine's 1146.
func (sp statementParser) showIndexWhere(ctx context.Context, s *ast.Show) (ast.Statement, bool, error) {
	if !strings.EqualFold(s.Type, ast.IndexStr) || s.ShowIndexFilterOpt == nil {
		return s, false, nil
	}
	sctx, ok := ctx.(*sql.Context)
	if !ok {
		return s, false, nil
	}
	db := s.Database
	if db == "" {
		db = s.Table.DbQualifier.String()
	}
	if db == "" {
		db = sctx.GetCurrentDatabase()
	}
	d, err := sp.p.Database(sctx, db)
	if err != nil {
		return s, false, nil
	}
	t, found, err := d.GetTableInsensitive(sctx, s.Table.Name.String())
	if err != nil || !found {
		return s, false, nil
	}
	q := "SELECT * FROM (SELECT TABLE_NAME AS `Table`, NON_UNIQUE AS Non_unique, INDEX_NAME AS Key_name, " +
		"SEQ_IN_INDEX AS Seq_in_index, COLUMN_NAME AS Column_name, COLLATION AS Collation, CARDINALITY AS Cardinality, " +
		"SUB_PART AS Sub_part, PACKED AS Packed, NULLABLE AS `Null`, INDEX_TYPE AS Index_type, COMMENT AS Comment, " +
		"INDEX_COMMENT AS Index_comment, IS_VISIBLE AS Visible, EXPRESSION AS Expression FROM information_schema.STATISTICS " +
		"WHERE TABLE_SCHEMA = " + quoteString(d.Name()) + " AND TABLE_NAME = " + quoteString(t.Name()) +
		") AS sqlearn_show_index WHERE " + ast.String(s.ShowIndexFilterOpt)
	st, _, err := sp.Parser.ParseOneWithOptions(ctx, q, ast.ParserOptions{})
	return st, true, err
}
