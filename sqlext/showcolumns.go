package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// showColumns is the engine's SHOW [FULL] COLUMNS (and DESCRIBE) as MySQL
// shows it: a text column's literal default as its value, q for DEFAULT
// 'q' (the engine showed the SQL literal, 'q'); the Type without the
// column's character set and collation, which FULL's Collation gives,
// and that the column's own (the engine showed the server default for
// every column).
func showColumns(ctx *sql.Context, n *plan.ShowColumns, row sql.Row) (sql.RowIter, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, n, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	schema := n.TargetSchema()
	def, coll := 4, -1 // ordinals of Default and Collation
	if n.Full {
		def, coll = 5, 2
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
		if tc, ok := col.Type.(sql.TypeWithCollation); ok && coll >= 0 && r[coll] != nil {
			r[coll] = tc.Collation().String()
		}
	}
	return sql.RowsToRowIter(rows...), nil
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
