package sqlext

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"

	"github.com/sqlearn/sqlearn/internal/compound"
	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/storage"
)

// Provider serves the stored databases to go-mysql-server.
type Provider struct {
	store *storage.Store
	// ftFiles keeps the inverted files of FULLTEXT indexes
	// (fulltextindex.go).
	ftFiles ftInvertedCache
	log     Proposer
	// reads makes local state fresh enough for a session's read
	// consistency; nil serves local state as it is.
	reads interface {
		ReadBarrier(ctx context.Context, level replication.ReadLevel) error
	}
	// leader answers requests only the leader may answer; nil on a store
	// without replication, where this node answers.
	leader leaderCaller
	// mysqlDB checks privileges for work done outside the planner.
	mysqlDB *mysql_db.MySQLDb
	// processes is the engine's process list, told of each new session.
	processes sql.ProcessList
	// runner is the engine, which runs the statements of stored functions;
	// checkRoutine checks a stored function's statements as the server
	// reads them (statementParser.checkRoutine).
	runner       sql.StatementRunner
	checkRoutine func(ctx context.Context, query string) func(*compound.Routine) error
	// prepared takes commands this node proposes, made ready to apply
	// by their proposers, to its state machine; nil prepares none.
	prepared *preparedCommands
	// importDir is the only directory server-side file statements may
	// use; empty refuses them (see fileAccessRule).
	importDir string

	// schemas caches rebuilt SQL schemas by the identity of the immutable
	// storage schema they came from.
	schemas sync.Map // *storage.Schema -> cachedSchema
	// fkRefs caches which foreign keys reference each table.
	fkRefs atomic.Pointer[fkReferences]
	// temps names the sessions' temporary tables; tempPrefix begins the
	// hidden names this node gives them (temptables.go).
	temps      tempTables
	tempPrefix string
	// indexStats keeps the cardinality of indexes (cardinality.go).
	indexStats indexStats
	// locks holds the table locks sessions take (locktables.go).
	locks tableLocks
	// persisted holds the variables SET PERSIST wrote (persist.go).
	persisted *persisted

	extMu      sync.RWMutex
	functions  map[string]sql.Function
	procedures *sql.ExternalStoredProcedureRegistry
	system     map[string]*SystemTable
	rules      []AnalyzerRule

	sessions struct {
		sync.Mutex
		byConn map[uint32]*Session
	}
	// calls holds the result sets of the CALLs clients run (callresults.go).
	calls callSinks
}

func (p *Provider) session(conn uint32) *Session {
	p.sessions.Lock()
	defer p.sessions.Unlock()
	return p.sessions.byConn[conn]
}

func (p *Provider) forgetSession(conn uint32) {
	p.sessions.Lock()
	delete(p.sessions.byConn, conn)
	p.sessions.Unlock()
}

var (
	_ sql.DatabaseProvider        = (*Provider)(nil)
	_ sql.MutableDatabaseProvider = (*Provider)(nil)
)

// NewProvider serves store, proposing writes to log.
func NewProvider(store *storage.Store, log Proposer) *Provider {
	return &Provider{store: store, log: log}
}

// Store is the storage the provider serves.
func (p *Provider) Store() *storage.Store { return p.store }

func (p *Provider) Database(ctx *sql.Context, name string) (sql.Database, error) {
	if strings.EqualFold(name, SystemDatabase) {
		return newSysDatabase(p), nil
	}
	if isPerformanceSchema(name) {
		return newPerfDatabase(), nil
	}
	if err := p.fresh(ctx); err != nil {
		return nil, err
	}
	stored, ok := p.store.Database(name)
	if !ok {
		return nil, sql.ErrDatabaseNotFound.New(name)
	}
	return &Database{p: p, name: stored}, nil
}

func (p *Provider) HasDatabase(ctx *sql.Context, name string) bool {
	if strings.EqualFold(name, SystemDatabase) || isPerformanceSchema(name) {
		return true
	}
	if p.fresh(ctx) != nil {
		return false
	}
	_, ok := p.store.Database(name)
	return ok
}

func (p *Provider) AllDatabases(ctx *sql.Context) []sql.Database {
	names := p.store.Databases()
	out := make([]sql.Database, 0, len(names)+2)
	out = append(out, newSysDatabase(p), newPerfDatabase())
	for _, n := range names {
		out = append(out, &Database{p: p, name: n})
	}
	return out
}

func (p *Provider) CreateDatabase(ctx *sql.Context, name string) error {
	if reservedDatabase(name) {
		return sql.ErrDatabaseExists.New(name)
	}
	return p.propose(ctx, storage.Op{Kind: storage.OpCreateDatabase, DB: name})
}

// reservedDatabase reports whether name is a database the server
// answers for itself, which cannot be created.
func reservedDatabase(name string) bool {
	return strings.EqualFold(name, "information_schema") || strings.EqualFold(name, "mysql") || strings.EqualFold(name, SystemDatabase) || isPerformanceSchema(name)
}

func (p *Provider) DropDatabase(ctx *sql.Context, name string) error {
	if strings.EqualFold(name, SystemDatabase) || isPerformanceSchema(name) {
		return sql.ErrDatabaseWriteLocked.New()
	}
	stored, ok := p.store.Database(name)
	if !ok {
		return sql.ErrDatabaseNotFound.New(name)
	}
	return p.propose(ctx, storage.Op{Kind: storage.OpDropDatabase, DB: stored})
}

// propose commits a command of the given ops through the log.
func (p *Provider) propose(ctx context.Context, ops ...storage.Op) error {
	if err := p.awaitWrite(ctx, ops); err != nil {
		return err
	}
	b := storage.EncodeCommand(&storage.Command{Ops: ops})
	if preparable(ops) && p.leads() {
		defer p.prepared.prepare(b)()
	}
	return translate(p.log.Propose(ctx, b))
}

// leads says whether this node's log is led here, so that what it
// proposes reaches its state machine as the bytes proposed; a follower
// forwards them, and its state machine gets the leader's copy.
func (p *Provider) leads() bool {
	l, ok := p.log.(interface{ IsLeader() bool })
	return !ok || l.IsLeader()
}

func (p *Provider) sqlSchema(ctx *sql.Context, info *storage.TableInfo) (sql.PrimaryKeySchema, error) {
	if v, ok := p.schemas.Load(info.Schema); ok {
		if c := v.(cachedSchema); c.db == info.DB && c.name == info.Name {
			return c.schema, nil
		}
	}
	s, err := sqlSchema(ctx, info.DB, info.Name, info.Schema)
	if err != nil {
		return sql.PrimaryKeySchema{}, err
	}
	p.schemas.Store(info.Schema, cachedSchema{db: info.DB, name: info.Name, schema: s})
	return s, nil
}

// cachedSchema is a table's SQL schema, whose columns name the table and
// its database as their source: a renamed table keeps its storage schema
// but needs its columns to name it anew (information_schema.COLUMNS
// finds a table's columns by their source, and found none).
type cachedSchema struct {
	db, name string
	schema   sql.PrimaryKeySchema
}

// translateStorage maps storage's errors to go-mysql-server's kinds so the
// handler reports the right MySQL codes.
func translateStorage(err error) error {
	var de *storage.DuplicateError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &de):
		return sql.NewUniqueKeyErr(de.Key, de.Index == "PRIMARY", nil)
	case errors.Is(err, storage.ErrDatabaseExists):
		return sql.ErrDatabaseExists.New(strings.TrimPrefix(err.Error(), storage.ErrDatabaseExists.Error()+": "))
	case errors.Is(err, storage.ErrDatabaseNotFound):
		return sql.ErrDatabaseNotFound.New(strings.TrimPrefix(err.Error(), storage.ErrDatabaseNotFound.Error()+": "))
	case errors.Is(err, storage.ErrTableExists):
		return sql.ErrTableAlreadyExists.New(strings.TrimPrefix(err.Error(), storage.ErrTableExists.Error()+": "))
	case errors.Is(err, storage.ErrTableNotFound):
		return sql.ErrTableNotFound.New(strings.TrimPrefix(err.Error(), storage.ErrTableNotFound.Error()+": "))
	case errors.Is(err, storage.ErrColumnNotFound):
		return sql.ErrTableColumnNotFound.New("", strings.TrimPrefix(err.Error(), storage.ErrColumnNotFound.Error()+": "))
	case errors.Is(err, storage.ErrColumnExists):
		return sql.ErrColumnExists.New(strings.TrimPrefix(err.Error(), storage.ErrColumnExists.Error()+": "))
	case errors.Is(err, storage.ErrIndexExists):
		return sql.ErrDuplicateKey.New(strings.TrimPrefix(err.Error(), storage.ErrIndexExists.Error()+": "))
	case errors.Is(err, storage.ErrIndexNotFound):
		return sql.ErrIndexNotFound.New(strings.TrimPrefix(err.Error(), storage.ErrIndexNotFound.Error()+": "))
	}
	return err
}
