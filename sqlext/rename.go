package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// renameParser is the engine's parser, with RENAME TABLE (and ALTER TABLE
// ... RENAME) bound in the database its names are qualified with. The
// engine binds the statement against the current database and drops the
// qualifiers, so RENAME TABLE d.a TO d.b failed with "no database selected"
// without a current database and looked for a in the current one when
// there was one. The parser lends the named database for the statement
// (lendDatabase). A rename from one database to another is refused when
// it runs (refuseCrossDatabaseRename), as storage renames a table only
// within its database: an error from the parser would reach the client as
// a syntax error, or not at all.
type renameParser struct{ sql.Parser }

func (p renameParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	st, pre, rest, err := p.Parser.Parse(ctx, query, multi)
	if err == nil {
		bindRenameDatabase(ctx, st)
	}
	return st, pre, rest, err
}

func (p renameParser) ParseWithOptions(ctx context.Context, query string, delim rune, multi bool, opts ast.ParserOptions) (ast.Statement, string, string, error) {
	st, pre, rest, err := p.Parser.ParseWithOptions(ctx, query, delim, multi, opts)
	if sctx, ok := ctx.(*sql.Context); ok && err == nil {
		bindRenameDatabase(sctx, st)
	}
	return st, pre, rest, err
}

func (p renameParser) ParseOneWithOptions(ctx context.Context, query string, opts ast.ParserOptions) (ast.Statement, int, error) {
	st, n, err := p.Parser.ParseOneWithOptions(ctx, query, opts)
	if sctx, ok := ctx.(*sql.Context); ok && err == nil {
		bindRenameDatabase(sctx, st)
	}
	return st, n, err
}

// erNotSupportedYet is MySQL's ER_NOT_SUPPORTED_YET.
const erNotSupportedYet = 1235

// refuseCrossDatabaseRename fails a rename whose tables the parser found
// in more than one database.
func refuseCrossDatabaseRename(ctx *sql.Context) error {
	if s, ok := ctx.Session.(*Session); ok && s.crossDBRename {
		s.crossDBRename = false
		return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of sqlearn doesn't yet support 'RENAME TABLE from one database to another'")
	}
	return nil
}

// bindRenameDatabase lends a rename the database its tables are in (the
// first one's, when they are in several); a name without a qualifier is
// in the current database.
func bindRenameDatabase(ctx *sql.Context, st ast.Statement) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return
	}
	s.crossDBRename = false
	var names ast.TableNames
	switch st := st.(type) {
	case *ast.DDL:
		if st.Action == ast.RenameStr {
			names = append(append(names, st.FromTables...), st.ToTables...)
		}
	case *ast.AlterTable:
		for _, d := range st.Statements {
			if d.Action == ast.RenameStr {
				names = append(append(names, d.FromTables...), d.ToTables...)
			}
		}
	}
	current := ctx.GetCurrentDatabase()
	db := ""
	for _, n := range names {
		d := n.DbQualifier.String()
		if d == "" {
			d = current
		}
		if d == "" {
			return // the engine reports that no database is selected
		}
		if db == "" {
			db = d
		} else if !strings.EqualFold(db, d) {
			s.crossDBRename = true
		}
	}
	if db != "" && !strings.EqualFold(db, current) {
		lendDatabase(ctx, db)
	}
}
