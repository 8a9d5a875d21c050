package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// RENAME TABLE a.t TO b.t (and ALTER TABLE a.t RENAME TO b.t) moves a
// table to another database, as in MySQL. The engine hands a rename to
// the database of its first table with bare names, so the parser notes
// the renames of a statement whose tables are in more than one database
// (bindRenameDatabase), and renameAcrossDatabases checks them all and then
// carries them out, one after another, each as a storage rename into the
// other database (the log command's new name is db.name). A table with foreign keys or
// triggers, which would be left naming the old database, is refused with
// 1235, as is a temporary table; a rename within one database is left to
// the engine (nil iterator).
func renameAcrossDatabases(ctx *sql.Context) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || !s.crossDBRename {
		return nil, nil
	}
	renames := s.renames
	s.crossDBRename, s.renames = false, nil
	p := s.p
	// Every pair is checked, against the names the pairs before it leave,
	// before any table moves: a refused statement moves nothing.
	var ops []storage.Op
	// moved holds the names the earlier pairs freed (nil) or took (the
	// table that will be there, as it is stored now).
	moved := map[[2]string]*storage.TableInfo{}
	lookup := func(db, name string) *storage.TableInfo {
		if info, ok := moved[tempKey(db, name)]; ok {
			return info
		}
		info, err := p.store.Table(db, name)
		if err != nil {
			return nil
		}
		return info
	}
	for _, r := range renames {
		from, to := r[0], r[1]
		if from[0] == "" || to[0] == "" {
			return nil, sql.ErrNoDatabaseSelected.New()
		}
		info := lookup(from[0], from[1])
		if info == nil || isTempName(from[1]) {
			return nil, sql.ErrTableNotFound.New(from[1])
		}
		// Where the table will be when this pair's rename runs.
		atDB, atName := info.DB, info.Name
		if _, ok := moved[tempKey(from[0], from[1])]; ok {
			atDB, atName = from[0], from[1]
		}
		if _, temp := temporary(ctx, from[0], from[1]); temp {
			return nil, refuseRename("of a temporary table")
		}
		toDB, ok := p.store.Database(to[0])
		if !ok {
			return nil, sql.ErrDatabaseNotFound.New(to[0])
		}
		if err := validateName(to[1]); err != nil {
			return nil, err
		}
		if lookup(toDB, to[1]) != nil {
			return nil, sql.ErrTableAlreadyExists.New(to[1])
		}
		if p.declaresForeignKeys(info.DB, info.Name) || len(p.referencing(info.DB, info.Name)) > 0 {
			return nil, refuseRename("of a table with foreign keys")
		}
		d := &Database{p: p, name: info.DB}
		triggers, err := metaValues[sql.TriggerDefinition](d, triggerPrefix)
		if err != nil {
			return nil, err
		}
		for _, tr := range triggers {
			st, err := ast.Parse(tr.CreateStatement)
			ddl, ok := st.(*ast.DDL)
			if err != nil || !ok || strings.EqualFold(ddl.Table.Name.String(), info.Name) {
				return nil, refuseRename("of a table with triggers")
			}
		}
		if p.mysqlDB != nil && p.mysqlDB.Enabled() {
			for _, need := range []struct {
				db, table string
				priv      sql.PrivilegeType
			}{{info.DB, info.Name, sql.PrivilegeType_Alter}, {info.DB, info.Name, sql.PrivilegeType_Drop}, {toDB, to[1], sql.PrivilegeType_Create}, {toDB, to[1], sql.PrivilegeType_Insert}} {
				if !p.mysqlDB.UserHasPrivileges(ctx, sql.NewPrivilegedOperation(sql.PrivilegeCheckSubject{Database: need.db, Table: need.table}, need.priv)) {
					return nil, sql.ErrTableAccessDeniedForUser.New(ctx.Session.Client().User, need.table)
				}
			}
		}
		moved[tempKey(from[0], from[1])], moved[tempKey(toDB, to[1])] = nil, info
		ops = append(ops, storage.Op{Kind: storage.OpRenameTable, DB: atDB, Table: atName, NewName: toDB + "." + to[1]})
	}
	for _, op := range ops {
		if err := p.propose(ctx, op); err != nil {
			return nil, translateStorage(err)
		}
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

func refuseRename(what string) error {
	return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of sqlearn doesn't yet support 'RENAME TABLE from one database to another %s'", what)
}
