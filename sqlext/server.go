package sqlext

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"

	"github.com/sqlearn/sqlearn/replication"
	"github.com/sqlearn/sqlearn/storage"
)

// Version is the MySQL version string sqlearn reports in the handshake and
// in @@version.
const Version = "8.0.33-sqlearn"

// Config configures a Server.
type Config struct {
	// Addr is where the MySQL protocol listens (host:port).
	Addr string
	// DataDir holds the Raft log and snapshots.
	DataDir string
	// RootPassword is root's password. When empty, root has none and only
	// loopback clients may connect.
	RootPassword string
	// ImportDir confines server-side file reads (Matrix Market and edge-list
	// imports, LOAD DATA INFILE), as MySQL's secure_file_priv does. Empty
	// disables them.
	ImportDir string
	// MaxConnections sets @@max_connections, the most clients connected
	// at once; 0 keeps the default, 151, as in MySQL.
	MaxConnections int
	// TLSCert and TLSKey name a PEM certificate and key; when both are
	// empty the server makes its own in DataDir on first start.
	TLSCert, TLSKey string
	// Listener, when set, is used instead of listening on Addr.
	Listener net.Listener
	// Replication holds the Raft settings; DataDir and Logger are filled in.
	Replication replication.Config
	Logger      *slog.Logger
	// FaultInjection enables sys.RAFT_ISOLATE, which cuts this node off from
	// peers; only fault tests want it.
	FaultInjection bool
	// Extensions, when set, is called once the server exists and returns
	// the SQL functions and procedures to add.
	Extensions func(*Server) Extensions
}

// DefaultConfig returns the defaults of a single-node server.
func DefaultConfig() Config {
	return Config{
		Addr:        "127.0.0.1:3306",
		DataDir:     "sqlearn-data",
		Replication: replication.DefaultConfig("sqlearn-data"),
		Logger:      slog.Default(),
	}
}

// Server is a running sqlearn server.
type Server struct {
	cfg    Config
	store  *storage.Store
	node   *replication.Node
	engine *sqle.Engine
	mysql  *server.Server
	prov   *Provider
	log    *slog.Logger
	users  *usersPersister
	done   chan struct{}
	fast   *fastPath
	// usersChanged is poked when the log changes users (for tests).
	usersChanged chan struct{}
}

// FastPathHits counts the point selects answered without the planner.
func (s *Server) FastPathHits() int64 { return s.fast.hits.Load() }

// SubqueryMemoHits counts the answers correlated subqueries took from
// their memos (subquerymemo.go), in every server of the process.
func (s *Server) SubqueryMemoHits() int64 { return memoHits.Load() }

// stateMachine applies log commands to storage. When users or grants
// change it pokes usersChanged, so every node's authentication follows the
// replicated users without blocking the log on the engine's user lock.
type stateMachine struct {
	store        *storage.Store
	usersChanged chan struct{}
	prepared     *preparedCommands
}

func (m stateMachine) Apply(index uint64, b []byte) error {
	cmd, ok := m.prepared.take(b)
	if !ok {
		var err error
		if cmd, err = storage.DecodeCommand(b); err != nil {
			return err
		}
	}
	err := m.store.Apply(index, cmd)
	dataEpoch.Add(1)
	if err != nil {
		return err
	}
	if len(cmd.Ops) == 1 && cmd.Ops[0].Kind == storage.OpSetUsers {
		m.poke()
	}
	return nil
}

func (m stateMachine) poke() {
	select {
	case m.usersChanged <- struct{}{}:
	default:
	}
}

func (m stateMachine) Snapshot() (replication.Snapshot, error) { return m.store.Snapshot(), nil }

func (m stateMachine) Restore(r io.Reader) error {
	err := m.store.Restore(r)
	dataEpoch.Add(1)
	if err != nil {
		return err
	}
	m.poke()
	return nil
}

// Open recovers state from the data dir (newest snapshot plus the log tail)
// and prepares the MySQL server; Serve starts accepting clients.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	markStarted()
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	// The engine logs through logrus: every connection at info level, which
	// MySQL servers do not do by default, so it speaks only at debug.
	if !cfg.Logger.Enabled(ctx, slog.LevelDebug) {
		logrus.SetLevel(logrus.WarnLevel)
	}
	store := storage.New(storage.Options{Compare: compareFactory})
	rc := cfg.Replication
	if rc.NodeID == "" {
		rc = replication.DefaultConfig(cfg.DataDir)
	}
	rc.DataDir, rc.Logger, rc.Errors = cfg.DataDir, cfg.Logger, storageErrors{}
	sm := stateMachine{store: store, usersChanged: make(chan struct{}, 1), prepared: &preparedCommands{}}
	node, err := replication.Open(ctx, rc, sm)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, store: store, node: node, log: cfg.Logger}
	s.prov = NewProvider(store, node)
	s.prov.prepared = sm.prepared
	s.prov.importDir = cfg.ImportDir
	s.prov.tempPrefix = tempPrefixFor(rc.NodeID)
	s.prov.reads = node
	s.prov.leader = node
	node.HandleOnLeader(allocHandler, s.prov.serveAlloc)
	s.prov.Extend(Extensions{Functions: mysqlFunctions})
	s.prov.Extend(clusterExtensions(s.prov, node, cfg.FaultInjection))
	s.prov.Extend(maintenanceExtensions(s.prov))
	s.prov.Extend(functionExtensions(s.prov))
	s.prov.Extend(accountExtensions(s.prov))
	s.prov.Extend(lockExtensions(s.prov))
	s.prov.Extend(roleExtensions(s.prov))
	s.prov.Extend(invisibleExtensions(s.prov))
	s.prov.Extend(persistExtensions(s.prov))
	s.prov.Extend(showEngineExtensions(s.prov))
	if cfg.Extensions != nil {
		s.prov.Extend(cfg.Extensions(s))
	}
	a := analyzerFor(s.prov)
	a.Catalog.StatsProvider = newStatsProvider()
	s.engine = sqle.New(a, &sqle.Config{})
	s.engine.Parser = statementParser{Parser: s.engine.Parser, p: s.prov}
	if err := sql.SystemVariables.AssignValues(map[string]interface{}{"version": Version, "version_comment": "sqlearn",
		"secure_file_priv": importDirValue(cfg.ImportDir)}); err != nil {
		node.Close()
		return nil, err
	}
	if cfg.MaxConnections > 0 {
		if err := sql.SystemVariables.AssignValues(map[string]any{"max_connections": int64(cfg.MaxConnections)}); err != nil {
			node.Close()
			return nil, err
		}
	}
	// The variables SET PERSIST wrote, over the flags' values.
	if s.prov.persisted, err = loadPersisted(cfg.DataDir); err != nil {
		node.Close()
		return nil, err
	}
	for _, err := range s.prov.persisted.apply() {
		cfg.Logger.Warn(err.Error())
	}
	if err := s.setUpUsers(ctx); err != nil {
		node.Close()
		return nil, err
	}
	s.done = make(chan struct{})
	s.usersChanged = sm.usersChanged
	go s.followUsers(sm.usersChanged)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() {
			select {
			case <-s.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		s.prov.dropLeftoverTemporaries(ctx)
	}()
	tlsConfig, err := serverTLS(cfg.DataDir, cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		node.Close()
		return nil, err
	}
	scfg := server.Config{
		Protocol:  "tcp",
		Address:   cfg.Addr,
		Listener:  cfg.Listener,
		Version:   Version,
		TLSConfig: tlsConfig,
	}
	if scfg.Listener == nil {
		l, err := net.Listen("tcp", cfg.Addr)
		if err != nil {
			node.Close()
			return nil, err
		}
		scfg.Listener = l
	}
	if cfg.RootPassword == "" {
		scfg.Listener = loopbackOnly{Listener: scfg.Listener, log: s.log}
	}
	if sp, ok := s.engine.Parser.(statementParser); ok {
		scfg.Listener = preparedRewrites{Listener: scfg.Listener, rewrite: sp.preparable}
	}
	scfg.Listener = &connLimit{Listener: scfg.Listener, log: s.log}
	s.prov.mysqlDB = s.engine.Analyzer.Catalog.MySQLDb
	s.prov.processes = s.engine.ProcessList
	s.prov.runner = s.engine
	if sp, ok := s.engine.Parser.(statementParser); ok {
		s.prov.checkRoutine = sp.checkRoutine
	}
	s.fast = &fastPath{p: s.prov, mysqlDB: s.engine.Analyzer.Catalog.MySQLDb}
	wrap := func(h mysql.Handler) (mysql.Handler, error) {
		return &errorHandler{Handler: h, log: s.log, fast: s.fast, prov: s.prov}, nil
	}
	s.mysql, err = server.NewServerWithHandler(scfg, s.engine, sql.NewContext, s.prov.SessionBuilder, nil, wrap)
	if err != nil {
		node.Close()
		return nil, err
	}
	return s, nil
}

// importDirValue is secure_file_priv's value: the directory, or NULL when
// file reads are disabled.
func importDirValue(dir string) any {
	if dir == "" {
		return nil
	}
	return dir
}

// ImportDir is the directory server-side file reads are confined to; empty
// when they are disabled.
func (s *Server) ImportDir() string { return s.cfg.ImportDir }

// Addr is the address clients connect to.
func (s *Server) Addr() net.Addr { return s.mysql.Listener.Addr() }

// Serve accepts clients until Close.
func (s *Server) Serve() error {
	err := s.mysql.Start()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Engine is the SQL engine, for in-process queries.
func (s *Server) Engine() *sqle.Engine { return s.engine }

// Provider is the database provider.
func (s *Server) Provider() *Provider { return s.prov }

// Store is the storage the server serves.
func (s *Server) Store() *storage.Store { return s.store }

// Node is the Raft node.
func (s *Server) Node() *replication.Node { return s.node }

// NewContext returns a context for in-process queries as root.
func (s *Server) NewContext(ctx context.Context) *sql.Context {
	sess := s.prov.NewSession(sql.NewBaseSessionWithClientServer("", sql.Client{User: "root", Address: "localhost"}, 0))
	return sql.NewContext(ctx, sql.WithSession(sess))
}

// Close stops accepting clients, then stops Raft.
func (s *Server) Close() error {
	var errs []error
	if s.done != nil {
		close(s.done)
	}
	if s.mysql != nil {
		errs = append(errs, s.mysql.Close())
	}
	s.engine.Close()
	errs = append(errs, s.node.Close())
	return errors.Join(errs...)
}

// setUpUsers loads the replicated users and grants and makes sure root
// exists with the configured password.
func (s *Server) setUpUsers(ctx context.Context) error {
	db := s.engine.Analyzer.Catalog.MySQLDb
	db.SetEnabled(true)
	sctx := s.NewContext(ctx)
	if blob := s.store.Users(); len(blob) > 0 {
		if err := db.LoadData(sctx, blob); err != nil {
			return fmt.Errorf("sqlext: load users: %w", err)
		}
	}
	s.users = &usersPersister{p: s.prov}
	db.SetPersister(s.users)
	ed := db.Editor()
	defer ed.Close()
	root := db.GetUser(ed, "root", "localhost", false)
	changed := false
	if root == nil {
		db.AddSuperUser(ed, "root", "localhost", s.cfg.RootPassword)
		changed = true
	} else if want := nativePasswordHash(s.cfg.RootPassword); root.AuthString != want || root.Plugin != "mysql_native_password" {
		root.AuthString, root.Plugin = want, "mysql_native_password"
		ed.PutUser(root)
		changed = true
	}
	if changed {
		if err := db.Persist(sctx, ed); err != nil {
			return err
		}
	}
	// What is loaded now is what storage holds: log entries replayed at
	// start-up that poked the reloader have nothing new to bring.
	s.users.remember(s.store.Users())
	return nil
}

func nativePasswordHash(password string) string {
	if password == "" {
		return ""
	}
	h := sha1.Sum([]byte(password))
	h2 := sha1.Sum(h[:])
	return "*" + strings.ToUpper(hex.EncodeToString(h2[:]))
}

// usersPersister stores users and grants in the replicated state, so they
// survive restarts and reach every replica.
type usersPersister struct {
	p  *Provider
	mu sync.Mutex
	// last is the blob this node last wrote; when it comes back through
	// the log there is nothing to reload.
	last []byte
}

var _ mysql_db.MySQLDbPersistence = (*usersPersister)(nil)

func (u *usersPersister) Persist(ctx *sql.Context, data []byte) error {
	blob := append([]byte(nil), data...)
	u.mu.Lock()
	u.last = blob
	u.mu.Unlock()
	return u.p.propose(ctx, storage.Op{Kind: storage.OpSetUsers, Blob: blob})
}

func (u *usersPersister) remember(blob []byte) {
	u.mu.Lock()
	u.last = blob
	u.mu.Unlock()
}

func (u *usersPersister) isOwn(blob []byte) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return bytes.Equal(u.last, blob)
}

// followUsers reloads the engine's users whenever another node changed
// them, until the server closes.
func (s *Server) followUsers(changed <-chan struct{}) {
	for {
		select {
		case <-s.done:
			return
		case <-changed:
		}
		if err := s.catchUpUsers(); err != nil {
			s.log.Error("reloading replicated users failed", "err", err)
		}
	}
}

// catchUpUsers loads the replicated users unless they are what this node
// last wrote. It reads them only while it holds the engine's user editor:
// a statement changing users holds that editor until its change is
// applied, so what is read then is never older than the engine's own
// state. Read before, a blob applied just ahead of this node's own change
// was loaded after it and undid it (a user created, then lost when the
// next GRANT persisted the engine's users). The swap is one edit:
// removing the users in one and loading in another left a moment with no
// users at all, when a client connecting to this node, root included, was
// refused ("Access denied ... to database").
func (s *Server) catchUpUsers() error {
	db := s.engine.Analyzer.Catalog.MySQLDb
	ed := db.Editor()
	defer ed.Close()
	blob := s.store.Users()
	if len(blob) == 0 || s.users.isOwn(blob) {
		return nil
	}
	return db.OverwriteUsersAndGrantData(s.NewContext(context.Background()), ed, blob)
}

// loopbackOnly refuses clients from other hosts while root has no password.
type loopbackOnly struct {
	net.Listener
	log *slog.Logger
}

func (l loopbackOnly) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if a, ok := c.RemoteAddr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
			l.log.Warn("refused a non-loopback client: root has no password", "remote", a.String())
			c.Close()
			continue
		}
		return c, nil
	}
}
