package sqlext

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// Database is one stored database.
type Database struct {
	eventless
	p    *Provider
	name string
}

var (
	_ sql.Database         = (*Database)(nil)
	_ sql.TableCreator     = (*Database)(nil)
	_ sql.TableDropper     = (*Database)(nil)
	_ sql.TableRenamer     = (*Database)(nil)
	_ sql.CollatedDatabase = (*Database)(nil)

	_ sql.TemporaryTableCreator  = (*Database)(nil)
	_ sql.TemporaryTableDatabase = (*Database)(nil)
)

func (d *Database) Name() string { return d.name }

func (d *Database) GetTableInsensitive(ctx *sql.Context, name string) (sql.Table, bool, error) {
	joined := strings.HasPrefix(name, joinTableMark)
	t, err := d.table(ctx, strings.TrimPrefix(name, joinTableMark))
	switch {
	case err != nil || t == nil:
		return nil, false, err
	case joined && t.keyless():
		// A multiple-table UPDATE's table (joinupdate.go).
		return joinTable{t}, true, nil
	}
	return t, true, nil
}

// table is the table called name, or nil.
func (d *Database) table(ctx *sql.Context, name string) (*Table, error) {
	info := d.tableInfo(ctx, name)
	if info == nil {
		return nil, nil
	}
	return d.p.newTable(ctx, info)
}

// tableInfo describes the table called name, or is nil.
func (d *Database) tableInfo(ctx *sql.Context, name string) *storage.TableInfo {
	if hidden, ok := temporary(ctx, d.name, name); ok {
		name = hidden
	} else if isTempName(name) {
		return nil
	}
	info, err := d.p.store.Table(d.name, name)
	if err != nil {
		return nil
	}
	return info
}

func (d *Database) GetTableNames(ctx *sql.Context) ([]string, error) {
	names, err := d.p.store.Tables(d.name)
	out := names[:0]
	for _, n := range names {
		if !isTempName(n) {
			out = append(out, n)
		}
	}
	return out, err
}

// CreateTable creates a table. The Database is not an
// sql.IndexedTableCreator: the engine gives that interface no table
// options, so a table with a separate PRIMARY KEY clause (as SHOW CREATE
// TABLE and mysqldump write it) lost its COMMENT.
func (d *Database) CreateTable(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, collation sql.CollationID, comment string) error {
	if err := validateName(name); err != nil {
		return err
	}
	if _, err := d.p.store.Table(d.name, name); err == nil {
		return sql.ErrTableAlreadyExists.New(name)
	}
	s, err := toStorageSchema(schema, comment, collation)
	if err != nil {
		return err
	}
	return d.p.propose(ctx, storage.Op{Kind: storage.OpCreateTable, DB: d.name, Table: name, Schema: s})
}

func (d *Database) DropTable(ctx *sql.Context, name string) error {
	if temp, err := d.dropTemporary(ctx, name); temp {
		return err
	}
	info, err := d.p.store.Table(d.name, name)
	if err != nil {
		return sql.ErrTableNotFound.New(name)
	}
	return d.p.propose(ctx, storage.Op{Kind: storage.OpDropTable, DB: d.name, Table: info.Name})
}

func (d *Database) RenameTable(ctx *sql.Context, oldName, newName string) error {
	if temp, err := d.renameTemporary(ctx, oldName, newName); temp {
		return err
	}
	info, err := d.p.store.Table(d.name, oldName)
	if err != nil {
		return sql.ErrTableNotFound.New(oldName)
	}
	if err := validateName(newName); err != nil {
		return err
	}
	return d.p.propose(ctx, storage.Op{Kind: storage.OpRenameTable, DB: d.name, Table: info.Name, NewName: newName})
}

// validateName rejects table names MySQL would reject.
func validateName(name string) error {
	if name == "" || len(name) > 64 || strings.HasSuffix(name, " ") || isTempName(name) {
		return sql.ErrInvalidValue.New(name, "table name")
	}
	return nil
}

func indexMetaJSON(comment string, prefix []uint16) string {
	b, _ := json.Marshal(indexMeta{Comment: comment, Prefix: prefix})
	return string(b)
}

// knownEngines are the storage engines MySQL names; a table created with
// one is stored here like any other.
var knownEngines = map[string]bool{
	"innodb": true, "myisam": true, "memory": true, "heap": true, "csv": true, "archive": true,
	"blackhole": true, "mrg_myisam": true, "merge": true, "federated": true, "ndb": true, "ndbcluster": true,
}

// unknownEngine refuses a CREATE TABLE naming a storage engine MySQL does
// not know, with its 1286, as under its default NO_ENGINE_SUBSTITUTION;
// the engine took any name.
func unknownEngine(n *plan.CreateTable) error {
	name, _ := n.TableOpts["engine"].(string)
	name = strings.Trim(name, "`'\"")
	if name == "" || knownEngines[strings.ToLower(name)] {
		return nil
	}
	return mysql.NewSQLError(erUnknownStorageEngine, "42000", "Unknown storage engine '%s'", name)
}

// existingTable says whether a CREATE TABLE IF NOT EXISTS names a table
// that is there, and then notes it as MySQL does (1050, "Table 't'
// already exists"); the engine let it pass without a word.
func existingTable(ctx *sql.Context, n *plan.CreateTable) bool {
	if !n.IfNotExists() || n.Db == nil {
		return false
	}
	if _, ok, err := n.Db.GetTableInsensitive(ctx, n.Name()); err != nil || !ok {
		return false
	}
	ctx.Session.Warn(&sql.Warning{Level: "Note", Code: mysql.ERTableExists, Message: fmt.Sprintf("Table '%s' already exists", n.Name())})
	return true
}
