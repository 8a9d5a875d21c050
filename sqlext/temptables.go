package sqlext

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/storage"
)

// CREATE TEMPORARY TABLE makes a table that only its session sees, that
// hides a table of the same name for that session, and that goes when
// the session ends, as in MySQL. It is stored as an ordinary table of the
// same database under a hidden name (tempTablePrefix, this node's tag,
// the connection and a counter), so that everything a table supports
// works on it unchanged: transactions, indexes, ALTER. The session maps
// the names it uses to the hidden ones; the hidden tables are left out of
// SHOW TABLES and information_schema, refused by their own names, dropped
// when the session closes, and dropped at the next start when the server
// stopped before it could (sessions do not outlive the process).
//
// As the tables are ordinary ones, they are written through the log like
// any other: durable until dropped, and replicated in a cluster, where
// other nodes keep them hidden as well.
const tempTablePrefix = "#sqltmp_"

// tempTables is the provider's record of the temporary tables of its
// sessions: each hidden table's shown name, by database and hidden name
// (tempKey).
type tempTables struct {
	sync.Mutex
	shown map[[2]string]string
	seq   uint64
}

// tempPrefixFor is the prefix of the hidden names this node gives: the
// common prefix and a tag of the node's id, so that a node drops only its
// own leftovers at start.
func tempPrefixFor(nodeID string) string {
	h := fnv.New32a()
	h.Write([]byte(nodeID))
	return fmt.Sprintf("%s%08x_", tempTablePrefix, h.Sum32())
}

// isTempName reports whether a stored table name is a hidden one.
func isTempName(name string) bool { return strings.HasPrefix(name, tempTablePrefix) }

// tempKey is the session's key of a table it names.
func tempKey(db, name string) [2]string {
	return [2]string{strings.ToLower(db), strings.ToLower(name)}
}

// temporary is the hidden name of the session's temporary table db.name.
func temporary(ctx *sql.Context, db, name string) (string, bool) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return "", false
	}
	s.tempMu.Lock()
	defer s.tempMu.Unlock()
	hidden, ok := s.temps[tempKey(db, name)]
	return hidden, ok
}

// shownName is the name a stored table is shown by: the name its session
// gave a temporary table, or its own.
func (p *Provider) shownName(db, name string) (string, bool) {
	if !isTempName(name) {
		return name, false
	}
	p.temps.Lock()
	defer p.temps.Unlock()
	shown, ok := p.temps.shown[tempKey(db, name)]
	if !ok {
		return name, true
	}
	return shown, true
}

// CreateTemporaryTable creates the session's temporary table name.
func (d *Database) CreateTemporaryTable(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, collation sql.CollationID) error {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return sql.ErrTemporaryTableNotSupported.New()
	}
	if err := validateName(name); err != nil {
		return err
	}
	if _, exists := temporary(ctx, d.name, name); exists {
		return sql.ErrTableAlreadyExists.New(name)
	}
	st, err := toStorageSchema(schema, "", collation)
	if err != nil {
		return err
	}
	p := d.p
	p.temps.Lock()
	p.temps.seq++
	hidden := fmt.Sprintf("%s%d_%d", p.tempPrefix, s.ID(), p.temps.seq)
	if p.temps.shown == nil {
		p.temps.shown = make(map[[2]string]string)
	}
	p.temps.shown[tempKey(d.name, hidden)] = name
	p.temps.Unlock()
	if err := p.propose(ctx, storage.Op{Kind: storage.OpCreateTable, DB: d.name, Table: hidden, Schema: st}); err != nil {
		p.forgetTemp(d.name, hidden)
		return err
	}
	s.tempMu.Lock()
	if s.temps == nil {
		s.temps = make(map[[2]string]string)
	}
	s.temps[tempKey(d.name, name)] = hidden
	s.tempMu.Unlock()
	return nil
}

// GetAllTemporaryTables lists the session's temporary tables of this
// database.
func (d *Database) GetAllTemporaryTables(ctx *sql.Context) ([]sql.Table, error) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return nil, nil
	}
	s.tempMu.Lock()
	var hidden []string
	for k, h := range s.temps {
		if k[0] == strings.ToLower(d.name) {
			hidden = append(hidden, h)
		}
	}
	s.tempMu.Unlock()
	var out []sql.Table
	for _, h := range hidden {
		if info, err := d.p.store.Table(d.name, h); err == nil {
			t, err := d.p.newTable(ctx, info)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// dropTemporary drops the session's temporary table name, if it has one.
func (d *Database) dropTemporary(ctx *sql.Context, name string) (bool, error) {
	hidden, ok := temporary(ctx, d.name, name)
	if !ok {
		return false, nil
	}
	if _, err := d.p.store.Table(d.name, hidden); err == nil {
		if err := d.p.propose(ctx, storage.Op{Kind: storage.OpDropTable, DB: d.name, Table: hidden}); err != nil {
			return true, err
		}
	}
	s := ctx.Session.(*Session)
	s.tempMu.Lock()
	delete(s.temps, tempKey(d.name, name))
	s.tempMu.Unlock()
	d.p.forgetTemp(d.name, hidden)
	return true, nil
}

// renameTemporary renames the session's temporary table oldName, if it
// has one: only the name the session knows it by changes.
func (d *Database) renameTemporary(ctx *sql.Context, oldName, newName string) (bool, error) {
	hidden, ok := temporary(ctx, d.name, oldName)
	if !ok {
		return false, nil
	}
	if err := validateName(newName); err != nil {
		return true, err
	}
	if _, exists := temporary(ctx, d.name, newName); exists {
		return true, sql.ErrTableAlreadyExists.New(newName)
	}
	s := ctx.Session.(*Session)
	s.tempMu.Lock()
	delete(s.temps, tempKey(d.name, oldName))
	s.temps[tempKey(d.name, newName)] = hidden
	s.tempMu.Unlock()
	d.p.temps.Lock()
	d.p.temps.shown[tempKey(d.name, hidden)] = newName
	d.p.temps.Unlock()
	return true, nil
}

func (p *Provider) forgetTemp(db, hidden string) {
	p.temps.Lock()
	delete(p.temps.shown, tempKey(db, hidden))
	p.temps.Unlock()
}

// dropSessionTemporaries drops the temporary tables of a session that has
// ended. A table that cannot be dropped now (no leader) is dropped at the
// node's next start.
func (p *Provider) dropSessionTemporaries(s *Session) {
	s.tempMu.Lock()
	temps := s.temps
	s.temps = nil
	s.tempMu.Unlock()
	if len(temps) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for k, hidden := range temps {
		if info, err := p.store.Table(k[0], hidden); err == nil {
			_ = p.propose(ctx, storage.Op{Kind: storage.OpDropTable, DB: info.DB, Table: info.Name})
		}
		p.forgetTemp(k[0], hidden)
	}
}

// dropLeftoverTemporaries drops the hidden tables this node's sessions
// left when the server stopped, retrying while the log takes no writes
// (a cluster without a leader yet), until done or ctx ends.
func (p *Provider) dropLeftoverTemporaries(ctx context.Context) {
	for {
		failed := false
		for _, db := range p.store.Databases() {
			names, err := p.store.Tables(db)
			if err != nil {
				continue
			}
			for _, name := range names {
				if !strings.HasPrefix(name, p.tempPrefix) {
					continue
				}
				if err := p.propose(ctx, storage.Op{Kind: storage.OpDropTable, DB: db, Table: name}); err != nil {
					failed = true
				}
			}
		}
		if !failed {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}
