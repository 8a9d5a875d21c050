package sqlext

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// sqlearn has no full-text search and no R-tree. A FULLTEXT or SPATIAL
// index, as schemas and dumps declare them, is not created: CREATE
// TABLE, CREATE FULLTEXT (SPATIAL) INDEX and ALTER TABLE ... ADD FULLTEXT
// (SPATIAL) go through without it, each with warning 1235 naming the
// index, so that such a schema loads. MATCH ... AGAINST then finds no
// index, MySQL's 1191; a spatial query reads the table, and answers as
// it would with the index. The engine refused the statement (1105), and
// CREATE TABLE left the table behind without its indexes.

// withoutFulltext is n without its FULLTEXT and SPATIAL indexes, each
// noted with a warning, or n when it has none.
func withoutFulltext(ctx *sql.Context, n *plan.CreateTable) (*plan.CreateTable, error) {
	defs := n.Indexes()
	kept := make(sql.IndexDefs, 0, len(defs))
	for _, d := range defs {
		if d.IsFullText() || d.IsSpatial() {
			indexNotCreated(ctx, d.Constraint, d.Name, d.Columns)
			continue
		}
		kept = append(kept, d)
	}
	if len(kept) == len(defs) {
		return n, nil
	}
	return n.WithIndexDefs(kept)
}

// indexNotCreated warns that the FULLTEXT or SPATIAL (kind) index
// name, or the one named after its first column, was not made, once a
// statement: an ALTER of several clauses plays them on a copy first.
func indexNotCreated(ctx *sql.Context, kind sql.IndexConstraint, name string, cols []sql.IndexColumn) {
	if name == "" && len(cols) > 0 {
		name = cols[0].Name
	}
	what := "FULLTEXT"
	if kind == sql.IndexConstraint_Spatial {
		what = "SPATIAL"
	}
	msg := fmt.Sprintf("This version of MySQL doesn't yet support '%s indexes: `%s` was not created'", what, name)
	for _, w := range ctx.Session.Warnings() {
		if w.Code == erNotSupportedYet && w.Message == msg {
			return
		}
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: erNotSupportedYet, Message: msg})
}

// fulltextAlter answers CREATE FULLTEXT (SPATIAL) INDEX and a one-clause
// ALTER TABLE ... ADD FULLTEXT (SPATIAL): the index is not made.
func fulltextAlter(ctx *sql.Context, n *plan.AlterIndex) (sql.RowIter, bool) {
	if n.Action != plan.IndexAction_Create || n.Constraint != sql.IndexConstraint_Fulltext && n.Constraint != sql.IndexConstraint_Spatial {
		return nil, false
	}
	indexNotCreated(ctx, n.Constraint, n.IndexName, n.Columns)
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), true
}

// erFTMatchingKeyNotFound is MySQL's ER_FT_MATCHING_KEY_NOT_FOUND.
const erFTMatchingKeyNotFound = 1191

// noFulltextIndex is MATCH ... AGAINST's error: no FULLTEXT index
// matches its columns, as none is ever made.
func noFulltextIndex() error {
	return mysql.NewSQLError(erFTMatchingKeyNotFound, "HY000", "Can't find FULLTEXT index matching the column list")
}
