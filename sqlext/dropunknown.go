package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// DROP TABLE IF EXISTS of a table in a database that does not exist
// drops nothing and notes the table (1051 "Unknown table 'db.t'"), as
// MySQL does, so that a teardown script runs on whether or not the
// database was made. The engine looked the database up first and failed
// the statement with 1049. Such tables are taken out of the statement
// with their note; a statement left with none is read as a DO 0, which
// answers OK.

const erBadTable = 1051

// dropsInUnknownDatabases takes out of st, a DROP TABLE IF EXISTS, the
// tables whose database does not exist, with their note, and says
// whether any table is left to drop. Without IF EXISTS such a table is
// MySQL's error 1051, where the engine answered 1049.
func (p *Provider) dropsInUnknownDatabases(ctx context.Context, st ast.Statement) (left bool, err error) {
	ddl, ok := st.(*ast.DDL)
	sctx, isSQL := ctx.(*sql.Context)
	if !ok || !isSQL || ddl.Action != ast.DropStr || len(ddl.FromTables) == 0 {
		return true, nil
	}
	var kept ast.TableNames
	var unknown []string
	for _, t := range ddl.FromTables {
		db := t.DbQualifier.String()
		if db == "" || p.HasDatabase(sctx, db) {
			kept = append(kept, t)
			continue
		}
		unknown = append(unknown, db+"."+t.Name.String())
	}
	switch {
	case len(unknown) == 0:
		return true, nil
	case !ddl.IfExists:
		return false, mysql.NewSQLError(erBadTable, "42S02", "Unknown table '%s'", strings.Join(unknown, ","))
	}
	noteAfterPlanning(sctx, erBadTable, "Unknown table '%s'", strings.Join(unknown, ","))
	ddl.FromTables = kept
	return len(kept) > 0, nil
}
