package sqlext

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// Session is a client session whose transactions buffer writes and commit
// them as one log command.
type Session struct {
	*sql.BaseSession
	p *Provider
	// lent is set while the session's current database is one lent for
	// binding a statement (see lendDatabase); saved is the one it had.
	lent  bool
	saved string
	// crossDBRename marks a parsed RENAME TABLE whose tables are in more
	// than one database, refused when it runs (see renameParser).
	crossDBRename bool
}

// lendDatabase makes db the session's current database until the
// statement is planned. It works around two places where the engine binds
// a statement against the current database instead of the database the
// statement names:
//   - view resolution fails with "no database selected" when the session
//     has no current database, even for a fully qualified view over
//     qualified tables (lendViewDatabase);
//   - RENAME TABLE drops its names' qualifiers (renameParser).
//
// returnLentDatabase gives the session its own database back once the
// statement is planned, and after every command in case planning failed.
func lendDatabase(ctx *sql.Context, db string) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.lent {
		return
	}
	s.lent, s.saved = true, ctx.GetCurrentDatabase()
	ctx.SetCurrentDatabase(db)
}

// lendViewDatabase lends a view's database to a session that has none.
func lendViewDatabase(ctx *sql.Context, db string) {
	if ctx.GetCurrentDatabase() == "" {
		lendDatabase(ctx, db)
	}
}

// returnLentDatabase undoes lendDatabase.
func (s *Session) returnLentDatabase() {
	if s != nil && s.lent {
		s.SetCurrentDatabase(s.saved)
		s.lent, s.saved = false, ""
	}
}

var _ sql.TransactionSession = (*Session)(nil)

// NewSession wraps a base session.
func (p *Provider) NewSession(base *sql.BaseSession) *Session {
	return &Session{BaseSession: base, p: p}
}

// SessionBuilder builds sessions for the MySQL server.
func (p *Provider) SessionBuilder(ctx context.Context, conn *mysql.Conn, addr string) (sql.Session, error) {
	var host, user string
	if u, ok := conn.UserData.(sql.MysqlConnectionUser); ok {
		host, user = u.Host, u.User
	}
	client := sql.Client{Address: host, User: user, Capabilities: conn.Capabilities}
	s := p.NewSession(sql.NewBaseSessionWithClientServer(addr, client, conn.ConnectionID))
	p.sessions.Lock()
	if p.sessions.byConn == nil {
		p.sessions.byConn = make(map[uint32]*Session)
	}
	p.sessions.byConn[conn.ConnectionID] = s
	p.sessions.Unlock()
	// The engine marks a connection ready (its user, host and database
	// in SHOW PROCESSLIST) only when the client names a database; any
	// other connection stayed an "unauthenticated user" in Connect state.
	if p.processes != nil {
		p.processes.ConnectionReady(s)
	}
	return s, nil
}

func (s *Session) StartTransaction(ctx *sql.Context, c sql.TransactionCharacteristic) (sql.Transaction, error) {
	return newTransaction(c == sql.ReadOnly), nil
}

// fresh runs the read barrier of the session's consistency level once per
// statement, when the statement first touches a table: statements that
// read no table (SET, CALL of an administrative procedure) work even on a
// node that has lost its leader.
func (p *Provider) fresh(ctx *sql.Context) error {
	if p.reads == nil {
		return nil
	}
	tx := txFrom(ctx)
	if tx != nil {
		tx.mu.Lock()
		done := tx.freshFor == ctx.Pid() && ctx.Pid() != 0
		tx.mu.Unlock()
		if done {
			return nil
		}
	}
	if err := p.reads.ReadBarrier(ctx, readLevel(ctx)); err != nil {
		return readBarrierError(err)
	}
	if tx != nil {
		tx.mu.Lock()
		tx.freshFor = ctx.Pid()
		tx.mu.Unlock()
	}
	return nil
}

// CommitTransaction sends the transaction's changes through the log and
// returns once they are durable and applied. A transaction that wrote
// nothing costs nothing.
func (s *Session) CommitTransaction(ctx *sql.Context, t sql.Transaction) error {
	tx, ok := t.(*transaction)
	if !ok || tx == nil {
		return nil
	}
	cmd := tx.command()
	if len(cmd.Ops) == 0 {
		return nil
	}
	err := s.p.log.Propose(ctx, storage.EncodeCommand(cmd))
	tx.reset()
	return translate(err)
}

func (s *Session) Rollback(ctx *sql.Context, t sql.Transaction) error {
	if tx, ok := t.(*transaction); ok && tx != nil {
		tx.reset()
	}
	return nil
}

func (s *Session) CreateSavepoint(ctx *sql.Context, t sql.Transaction, name string) error {
	tx, ok := t.(*transaction)
	if !ok {
		return nil
	}
	if tx.savepoints == nil {
		tx.savepoints = make(map[string]int)
	}
	tx.savepoints[name] = tx.mark()
	return nil
}

func (s *Session) RollbackToSavepoint(ctx *sql.Context, t sql.Transaction, name string) error {
	tx, ok := t.(*transaction)
	if !ok {
		return nil
	}
	m, ok := tx.savepoints[name]
	if !ok {
		return sql.ErrSavepointDoesNotExist.New(name)
	}
	tx.rollbackTo(m)
	for n, v := range tx.savepoints {
		if v > m {
			delete(tx.savepoints, n)
		}
	}
	return nil
}

func (s *Session) ReleaseSavepoint(ctx *sql.Context, t sql.Transaction, name string) error {
	tx, ok := t.(*transaction)
	if !ok {
		return nil
	}
	if _, ok := tx.savepoints[name]; !ok {
		return sql.ErrSavepointDoesNotExist.New(name)
	}
	delete(tx.savepoints, name)
	return nil
}
