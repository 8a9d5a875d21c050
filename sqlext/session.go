package sqlext

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/shopspring/decimal"
	"github.com/sirupsen/logrus"

	"github.com/sqlearn/sqlearn/storage"
)

// Session is a client session whose transactions buffer writes and commit
// them as one log command.
type Session struct {
	*sql.BaseSession
	p *Provider
	// ftMemo keeps the full-text searches of the running statement.
	ftMemo ftMemo
	// routines counts the stored procedures and functions running, by
	// name (see activeRoutines).
	routines map[string]int
	// loggerMu guards the engine's session logger, which a change of the
	// current database replaces: a stored function changes it while the
	// statement that calls it runs, and the wire layer's watch for a
	// closed connection reads it meanwhile.
	loggerMu sync.Mutex
	// lent is set while the session's current database is one lent for
	// binding a statement (see lendDatabase); saved is the one it had.
	lent  bool
	saved string
	// crossDBRename marks a parsed RENAME TABLE whose tables are in more
	// than one database, refused when it runs (see statementParser).
	crossDBRename bool
	// renames are that rename's tables, from and to, each as database and
	// name (see renameAcrossDatabases).
	renames [][2][2]string
	// warnings are the statement's warnings from before it was bound,
	// which the engine clears when it binds; they are given to the
	// session once the statement is planned.
	warnings []*sql.Warning
	// tableComment is the comment a parsed ALTER TABLE of options only
	// gives its table (see tablecomment.go).
	tableComment *pendingComment
	// viewCheck is the condition of a view WITH CHECK OPTION that the
	// statement being planned writes through (see viewwrites.go).
	viewCheck *viewCheck
	// alteringView marks a parsed ALTER VIEW, which rewroteAlterView
	// marks while it is parsed (see alterview.go).
	alteringView, rewroteAlterView bool
	// converting marks a parsed ALTER TABLE ... CONVERT TO CHARACTER SET
	// (see tablecharset.go).
	converting bool
	// explaining is set while the statement being planned is an EXPLAIN
	// (see setOpMax1RowRule).
	explaining bool
	// copied is the count of rows a CREATE TABLE ... SELECT answered
	// with, when copyNoted, for its OK packet to set as ROW_COUNT()
	// (tableCopy).
	copied    uint64
	copyNoted bool
	// invisible names the columns the statement being run defines as
	// INVISIBLE (noteInvisible).
	invisible map[string]bool
	// temps maps the temporary tables the session created, by database and
	// name as it names them (lower case), to their hidden names
	// (temptables.go).
	tempMu sync.Mutex
	temps  map[[2]string]string
	// collatedCreate is set while the statement being planned is a
	// CREATE DATABASE naming a character set or collation (see
	// noteCollatedCreate).
	collatedCreate bool
	// binaryResults is set while a prepared statement executes: its
	// result goes out in the binary protocol (see fixedDoubleType).
	binaryResults bool
	// counts are those of the write statement being built (rowcounts.go).
	counts *rowCounts
	// clientText is the statement the client sent last (nobackslash.go).
	clientText string
	// lockingReads says that statement holds a locking read, whose rows
	// its transaction's commit checks again (lockingreads.go).
	lockingReads bool
	// mode is the session's sql_mode, kept read (see sqlMode).
	mode atomic.Pointer[sessionMode]
	// varEpoch counts the changes of the session's variables.
	varEpoch uint64
	// procSlots are the variables of the procedure statement being
	// planned to keep, and capture receives its plan (procplans.go).
	procSlots []*varSlot
	capture   *capturedPlan
}

// warnAfterPlanning adds a warning to the statement being parsed.
func warnAfterPlanning(ctx *sql.Context, code int, format string, args ...any) {
	afterPlanning(ctx, "Warning", code, fmt.Sprintf(format, args...))
}

// noteAfterPlanning adds a note to the statement being parsed.
func noteAfterPlanning(ctx *sql.Context, code int, format string, args ...any) {
	afterPlanning(ctx, "Note", code, fmt.Sprintf(format, args...))
}

func afterPlanning(ctx *sql.Context, level string, code int, message string) {
	if s, ok := ctx.Session.(*Session); ok {
		s.warnings = append(s.warnings, &sql.Warning{Level: level, Code: code, Message: message})
	}
}

// lendDatabase makes db the session's current database until the
// statement is planned. It works around two places where the engine binds
// a statement against the current database instead of the database the
// statement names:
//   - view resolution fails with "no database selected" when the session
//     has no current database, even for a fully qualified view over
//     qualified tables (lendIfNoDatabase);
//   - triggers are bound in the current database (lendTriggerDatabase);
//   - RENAME TABLE drops its names' qualifiers (statementParser).
//
// afterPlanning gives the session its own database back once the
// statement is planned, and after every command in case planning failed.
func lendDatabase(ctx *sql.Context, db string) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.lent {
		return
	}
	s.lent, s.saved = true, ctx.GetCurrentDatabase()
	ctx.SetCurrentDatabase(db)
}

// The rules that lend a statement the database its triggers are in and
// give a lent database back (see init in analyzer.go for their order).
//
// An INSERT ... SELECT has its SELECT planned apart, which gives the
// database back before the engine binds the triggers, so the rule runs
// again just before that (triggerDatabaseAgainRule).
const (
	triggerDatabaseRule      analyzer.RuleId = 9989
	triggerDatabaseAgainRule analyzer.RuleId = 9987
	afterPlanningRule        analyzer.RuleId = 9991
)

// lendTriggerDatabase lends an INSERT, UPDATE or DELETE the database of
// the table it writes when that database has triggers. The engine binds
// every trigger of the database for a write to any of its tables, and
// binds it in the current database: a trigger written without its
// database, as mysqldump writes them, made every write to that database
// fail from a session in another database or in none. It lends a DELETE
// its table's database from a session with none (see below).
func lendTriggerDatabase(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || scope != nil {
		return n, transform.SameTree, nil
	}
	var db string
	switch n := n.(type) {
	case *plan.InsertInto:
		if n.Database() != nil {
			db = n.Database().Name()
		}
	case *plan.Update:
		db = n.Database()
	case *plan.DeleteFrom:
		db = n.Database()
	}
	if db == "" || strings.EqualFold(db, ctx.GetCurrentDatabase()) {
		return n, transform.SameTree, nil
	}
	if has, err := s.p.hasTriggers(db); err == nil && has {
		lendDatabase(ctx, db)
	} else if _, ok := n.(*plan.DeleteFrom); ok {
		// The engine's check of whether a DELETE without WHERE may run
		// as a TRUNCATE looks in the current database, and failed with
		// 1049 when there was none.
		lendIfNoDatabase(ctx, db)
	}
	return n, transform.SameTree, nil
}

// lendParsedTriggerDatabase lends statements about triggers the database
// their triggers are in:
//   - CREATE TRIGGER db.name binds its body in db, as MySQL does, where
//     the engine bound it in the current database (refusing the trigger
//     with 1046 in a session without one, or binding an unqualified table
//     of the body to another database's);
//   - DROP TABLE of a database with triggers, and SHOW TRIGGERS FROM db,
//     which read the triggers in the current database, failed with 1046
//     in a session without one.
func lendParsedTriggerDatabase(ctx *sql.Context, p *Provider, st ast.Statement) {
	if show, ok := st.(*ast.Show); ok && strings.EqualFold(show.Type, "triggers") && show.ShowTablesOpt != nil {
		if db := show.ShowTablesOpt.DbName; db != "" {
			if _, exists := p.store.Database(db); exists {
				lendDatabase(ctx, db)
			}
		}
		return
	}
	ddl, ok := st.(*ast.DDL)
	if !ok {
		return
	}
	switch {
	case ddl.Action == ast.CreateStr && ddl.TriggerSpec != nil:
		db := ddl.TriggerSpec.TrigName.Qualifier.String()
		if db == "" {
			db = ddl.Table.DbQualifier.String()
		}
		if _, exists := p.store.Database(db); exists && !strings.EqualFold(db, ctx.GetCurrentDatabase()) {
			lendDatabase(ctx, db)
		}
	case ddl.Action == ast.DropStr && len(ddl.FromTables) > 0:
		db := ddl.FromTables[0].DbQualifier.String()
		if _, exists := p.store.Database(db); exists {
			lendIfNoDatabase(ctx, db)
		}
	}
}

// sessionAfterPlanning runs Session.afterPlanning once the statement, not
// a subquery or trigger inside it, is planned.
func sessionAfterPlanning(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if s, ok := ctx.Session.(*Session); ok && scope == nil {
		s.afterPlanning(true)
	}
	return n, transform.SameTree, nil
}

// lendIfNoDatabase lends db to a session that has no current database.
func lendIfNoDatabase(ctx *sql.Context, db string) {
	if ctx.GetCurrentDatabase() == "" {
		lendDatabase(ctx, db)
	}
}

// afterPlanning gives back a lent database (undoing lendDatabase) and
// issues the warnings held for the statement. It runs once a statement is
// planned and at the end of every command, when it drops what a statement
// that failed left.
func (s *Session) afterPlanning(issue bool) {
	if s == nil {
		return
	}
	if s.lent {
		s.SetCurrentDatabase(s.saved)
		s.lent, s.saved = false, ""
	}
	if issue {
		for _, w := range s.warnings {
			s.Warn(w)
		}
	}
	s.warnings = nil
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
// Fresh brings this node's state up to what the session's read
// consistency asks a read to see (@@sqlearn_read_consistency), as every
// query's first read of a table does; procedures that read storage
// directly call it first.
func (p *Provider) Fresh(ctx *sql.Context) error { return p.fresh(ctx) }

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
//
// A commit ends an explicit transaction: COMMIT's does, and so does the
// implicit commit of a DDL statement, after which statements commit on
// their own again (with autocommit on), as in MySQL; the engine cleared
// BEGIN's mark only on COMMIT and ROLLBACK, so a ROLLBACK after DDL undid
// the statements run since. BEGIN, which commits a transaction still
// open, sets its mark after that commit.
func (s *Session) CommitTransaction(ctx *sql.Context, t sql.Transaction) error {
	s.SetIgnoreAutoCommit(false)
	tx, ok := t.(*transaction)
	if !ok || tx == nil {
		return nil
	}
	cmd := tx.command()
	if len(cmd.Ops) == 0 {
		return nil
	}
	if err := s.p.awaitWrite(ctx, cmd.Ops); err != nil {
		tx.reset()
		return err
	}
	// The encoded command holds every change now: the transaction lets
	// its rows go before the log copies the command, so that a large
	// transaction (a LOAD DATA of a big file) is not held twice over
	// while it commits. It ends here whether or not the commit succeeds.
	data := storage.EncodeCommand(cmd)
	tx.reset()
	return translate(s.p.log.Propose(ctx, data))
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

// SetUserVariable gives a user variable a value, typed as MySQL types
// it. The engine types a DECIMAL by its shortest text, without trailing
// zeros, so SET @d = 1.50 made @d a DECIMAL(2,1), written 1.5; the type
// here keeps the value's own digits (DECIMAL(3,2), 1.50).
func (s *Session) SetUserVariable(ctx *sql.Context, name string, value any, typ sql.Type) error {
	if d, ok := value.(decimal.Decimal); ok && d.Exponent() < 0 {
		if dt, ok := typ.(sql.DecimalType); ok && int32(dt.Scale()) < -d.Exponent() {
			scale := -d.Exponent()
			digits := int32(len(d.Coefficient().String()))
			if d.Coefficient().Sign() < 0 {
				digits--
			}
			if t, err := types.CreateDecimalType(uint8(max(digits, scale+1)), uint8(scale)); err == nil && scale <= 30 && max(digits, scale+1) <= 65 {
				typ = t
			}
		}
	}
	return s.BaseSession.SetUserVariable(ctx, name, value, typ)
}

// GetLogger is the engine's session logger, read under loggerMu.
func (s *Session) GetLogger() *logrus.Entry {
	s.loggerMu.Lock()
	defer s.loggerMu.Unlock()
	return s.BaseSession.GetLogger()
}

// SetCurrentDatabase changes the current database, and so the logger,
// under loggerMu.
func (s *Session) SetCurrentDatabase(name string) {
	s.loggerMu.Lock()
	defer s.loggerMu.Unlock()
	s.BaseSession.SetCurrentDatabase(name)
}
