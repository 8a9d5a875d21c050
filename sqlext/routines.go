package sqlext

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// Views and stored procedures are kept as SQL text in the database's
// replicated metadata, under these key prefixes.
const (
	viewPrefix = "view/"
	procPrefix = "proc/"
)

var (
	_ sql.ViewDatabase            = (*Database)(nil)
	_ sql.StoredProcedureDatabase = (*Database)(nil)
)

func (d *Database) putMeta(ctx *sql.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return d.p.propose(ctx, storage.Op{Kind: storage.OpPutMeta, DB: d.name, Name: key, Blob: b})
}

func (d *Database) deleteMeta(ctx *sql.Context, key string) error {
	return d.p.propose(ctx, storage.Op{Kind: storage.OpDeleteMeta, DB: d.name, Name: key})
}

// metaValues decodes every metadata value under prefix into T, in key order.
func metaValues[T any](d *Database, prefix string) ([]T, error) {
	m, err := d.p.store.Meta(d.name, prefix)
	if err != nil {
		return nil, translateStorage(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		var v T
		if err := json.Unmarshal(m[k], &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func metaValue[T any](d *Database, key string) (T, bool, error) {
	var v T
	m, err := d.p.store.Meta(d.name, key)
	if err != nil {
		return v, false, translateStorage(err)
	}
	b, ok := m[key]
	if !ok {
		return v, false, nil
	}
	return v, true, json.Unmarshal(b, &v)
}

func (d *Database) CreateView(ctx *sql.Context, name, selectStatement, createViewStmt string) error {
	key := viewPrefix + strings.ToLower(name)
	if _, ok, _ := metaValue[sql.ViewDefinition](d, key); ok {
		return sql.ErrExistingView.New(d.name, name)
	}
	return d.putMeta(ctx, key, sql.ViewDefinition{Name: name, TextDefinition: selectStatement,
		CreateViewStatement: createViewStmt, SqlMode: sqlMode(ctx).String()})
}

func (d *Database) DropView(ctx *sql.Context, name string) error {
	key := viewPrefix + strings.ToLower(name)
	if _, ok, _ := metaValue[sql.ViewDefinition](d, key); !ok {
		return sql.ErrViewDoesNotExist.New(d.name, name)
	}
	return d.deleteMeta(ctx, key)
}

func (d *Database) GetViewDefinition(ctx *sql.Context, name string) (sql.ViewDefinition, bool, error) {
	def, ok, err := metaValue[sql.ViewDefinition](d, viewPrefix+strings.ToLower(name))
	if ok && err == nil {
		lendIfNoDatabase(ctx, d.name)
	}
	return def, ok, err
}

func (d *Database) AllViews(ctx *sql.Context) ([]sql.ViewDefinition, error) {
	defs, err := metaValues[sql.ViewDefinition](d, viewPrefix)
	for i := range defs {
		defs[i] = engineReadableView(defs[i])
	}
	return defs, err
}

func (d *Database) GetStoredProcedure(ctx *sql.Context, name string) (sql.StoredProcedureDetails, bool, error) {
	return metaValue[sql.StoredProcedureDetails](d, procPrefix+strings.ToLower(name))
}

func (d *Database) GetStoredProcedures(ctx *sql.Context) ([]sql.StoredProcedureDetails, error) {
	return metaValues[sql.StoredProcedureDetails](d, procPrefix)
}

func (d *Database) SaveStoredProcedure(ctx *sql.Context, spd sql.StoredProcedureDetails) error {
	key := procPrefix + strings.ToLower(spd.Name)
	if _, ok, _ := metaValue[sql.StoredProcedureDetails](d, key); ok {
		return sql.ErrStoredProcedureAlreadyExists.New(spd.Name)
	}
	return d.putMeta(ctx, key, spd)
}

func (d *Database) DropStoredProcedure(ctx *sql.Context, name string) error {
	key := procPrefix + strings.ToLower(name)
	if _, ok, _ := metaValue[sql.StoredProcedureDetails](d, key); !ok {
		return sql.ErrStoredProcedureDoesNotExist.New(name)
	}
	return d.deleteMeta(ctx, key)
}

const triggerPrefix = "trigger/"

var _ sql.TriggerDatabase = (*Database)(nil)

// Triggers are returned in creation order, which decides firing order.
func (d *Database) GetTriggers(ctx *sql.Context) ([]sql.TriggerDefinition, error) {
	defs, err := metaValues[sql.TriggerDefinition](d, triggerPrefix)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].CreatedAt.Before(defs[j].CreatedAt) })
	return defs, nil
}

func (d *Database) CreateTrigger(ctx *sql.Context, def sql.TriggerDefinition) error {
	def.CreateStatement = withoutVersionComment(def.CreateStatement)
	return d.putMeta(ctx, triggerPrefix+strings.ToLower(def.Name), def)
}

// withoutVersionComment is a statement without the executable comments
// dumps wrap around CREATE TRIGGER, each kept for its text:
// mariadb-dump and mysqldump write /*!50003 CREATE*/ /*!50017
// DEFINER=...*/ /*!50003 TRIGGER ... */. The engine keeps the text as the
// client sent it, so a trigger restored from a dump was dumped again
// inside more such comments, and the text with its comments cut at the
// ends only could not be read again: every later statement that read
// the database's triggers failed.
func withoutVersionComment(stmt string) string {
	if !strings.Contains(stmt, "/*!") {
		return stmt
	}
	var b strings.Builder
	inComment := false
	for i := 0; i < len(stmt); {
		switch c := stmt[i]; {
		case c == '\'' || c == '"' || c == '`':
			j := quotedEnd(stmt, i)
			b.WriteString(stmt[i:j])
			i = j
		case strings.HasPrefix(stmt[i:], "/*!") && !inComment:
			i += len("/*!")
			for i < len(stmt) && stmt[i] >= '0' && stmt[i] <= '9' {
				i++
			}
			if i < len(stmt) && stmt[i] == ' ' {
				i++
			}
			inComment = true
		case strings.HasPrefix(stmt[i:], "*/") && inComment:
			i += len("*/")
			inComment = false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return strings.TrimSpace(b.String())
}

func (d *Database) DropTrigger(ctx *sql.Context, name string) error {
	key := triggerPrefix + strings.ToLower(name)
	if _, ok, _ := metaValue[sql.TriggerDefinition](d, key); !ok {
		return sql.ErrTriggerDoesNotExist.New(name)
	}
	return d.deleteMeta(ctx, key)
}
