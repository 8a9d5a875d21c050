package sqlext

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// LOCK TABLES, UNLOCK TABLES and FLUSH TABLES [t, ...] WITH READ LOCK.
//
// The engine took all three and locked nothing (LOCK TABLES warned that
// the tables were not lockable, FLUSH ... WITH READ LOCK said nothing),
// so a dump that locks its tables to copy them at one moment, or a
// backup that stops writes while it copies, went on with writes going
// through. Here, as in MySQL:
//
//   - A READ lock lets every session read the table and none write it:
//     another session's write waits until the lock goes; the holder's own
//     is refused (1099).
//   - A WRITE lock lets only its holder read or write the table; other
//     sessions' reads and writes wait.
//   - FLUSH TABLES WITH READ LOCK is a read lock on everything: other
//     sessions' writes of rows and schemas wait; the holder's are refused
//     (1223). Account changes go through (accountsOnly).
//   - Locks are taken once no other session holds a conflicting one, go
//     with UNLOCK TABLES, a new LOCK TABLES, the session's end, and (table
//     locks) BEGIN / START TRANSACTION; LOCK TABLES commits the session's
//     open transaction first.
//   - A wait ends with the lock's release, the statement's KILL, or after
//     lock_wait_timeout seconds with 1205.
//
// Writes wait where they reach the log (awaitWrite): the commit of a
// transaction, and the statements that write through the log directly.
// So a statement of an explicit transaction waits, or fails with 1099 or
// 1223, at COMMIT rather than when it runs. Temporary tables are the
// session's own and never wait. Unlike MySQL, a session holding LOCK
// TABLES may still use tables it did not lock.

// tableLocks holds the locks sessions took.
type tableLocks struct {
	// held counts the locks held; while it is 0 the reads and writes that
	// ask skip the rest.
	held atomic.Int32

	mu sync.Mutex
	// released is closed, and replaced, whenever a lock goes, for waiters
	// to look again.
	released chan struct{}
	global   map[uint32]bool            // sessions holding the global read lock
	read     map[string]map[uint32]bool // by table (statsKey): sessions holding READ
	write    map[string]uint32          // by table: the session holding WRITE
}

// conflict is what stops a session from going on: wait says another
// session holds a lock in the way, err that the session's own lock
// refuses the statement.
type conflict struct {
	wait bool
	err  error
}

// await waits until check finds no lock of another session in the way,
// or gives check's error, the context's, or 1205 after
// lock_wait_timeout.
func (l *tableLocks) await(ctx context.Context, check func() conflict) error {
	var timeout <-chan time.Time
	for {
		l.mu.Lock()
		c := check()
		ch := l.released
		if ch == nil {
			ch = make(chan struct{})
			l.released = ch
		}
		l.mu.Unlock()
		if c.err != nil || !c.wait {
			return c.err
		}
		if timeout == nil {
			t := time.NewTimer(lockWaitTimeout(ctx))
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return mysql.NewSQLError(mysql.ERLockWaitTimeout, "HY000", "Lock wait timeout exceeded; try restarting transaction")
		}
	}
}

// lockWaitTimeout is the session's lock_wait_timeout.
func lockWaitTimeout(ctx context.Context) time.Duration {
	secs := int64(31536000)
	if sctx, ok := ctx.(*sql.Context); ok && sctx.Session != nil {
		if v, err := sctx.GetSessionVariable(sctx, "lock_wait_timeout"); err == nil {
			if n, _, err := types.Int64.Convert(sctx, v); err == nil {
				secs = n.(int64)
			}
		}
	}
	return time.Duration(secs) * time.Second
}

// wake tells the waiters that a lock went; l.mu is held.
func (l *tableLocks) wake() {
	if l.released != nil {
		close(l.released)
		l.released = nil
	}
}

// releaseTables drops the session's table locks; l.mu is held.
func (l *tableLocks) releaseTables(id uint32) {
	for key, holders := range l.read {
		if holders[id] {
			delete(holders, id)
			l.held.Add(-1)
			if len(holders) == 0 {
				delete(l.read, key)
			}
		}
	}
	for key, holder := range l.write {
		if holder == id {
			delete(l.write, key)
			l.held.Add(-1)
		}
	}
	l.wake()
}

// release drops every lock of the session (UNLOCK TABLES, its end).
func (l *tableLocks) release(id uint32) {
	if l.held.Load() == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.releaseTables(id)
	if l.global[id] {
		delete(l.global, id)
		l.held.Add(-1)
	}
}

// releaseTablesOf drops the session's table locks (BEGIN).
func (l *tableLocks) releaseTablesOf(id uint32) {
	if l.held.Load() == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.releaseTables(id)
}

// lockTables gives the session READ locks on reads and WRITE locks on
// writes (table keys), in place of the table locks it held, once no other
// session holds a lock in the way.
func (l *tableLocks) lockTables(ctx context.Context, id uint32, reads, writes []string) error {
	l.releaseTablesOf(id)
	return l.await(ctx, func() conflict {
		for _, key := range append(reads, writes...) {
			if w, ok := l.write[key]; ok && w != id {
				return conflict{wait: true}
			}
		}
		for _, key := range writes {
			for holder := range l.read[key] {
				if holder != id {
					return conflict{wait: true}
				}
			}
		}
		for holder := range l.global {
			if holder != id && len(writes) > 0 {
				return conflict{wait: true}
			}
		}
		// Free: take them, under the same hold of l.mu.
		if l.read == nil {
			l.read, l.write = map[string]map[uint32]bool{}, map[string]uint32{}
		}
		for _, key := range reads {
			if l.read[key] == nil {
				l.read[key] = map[uint32]bool{}
			}
			if !l.read[key][id] {
				l.read[key][id] = true
				l.held.Add(1)
			}
		}
		for _, key := range writes {
			if _, ok := l.write[key]; !ok {
				l.write[key] = id
				l.held.Add(1)
			}
		}
		return conflict{}
	})
}

// lockGlobal gives the session the global read lock once no other
// session holds a WRITE lock.
func (l *tableLocks) lockGlobal(ctx context.Context, id uint32) error {
	return l.await(ctx, func() conflict {
		for _, holder := range l.write {
			if holder != id {
				return conflict{wait: true}
			}
		}
		if l.global == nil {
			l.global = map[uint32]bool{}
		}
		if !l.global[id] {
			l.global[id] = true
			l.held.Add(1)
		}
		return conflict{}
	})
}

// awaitRead waits while another session holds a WRITE lock on db.table.
func (p *Provider) awaitRead(ctx *sql.Context, db, table string) error {
	l := &p.locks
	if l.held.Load() == 0 || isTempName(table) {
		return nil
	}
	key, id := statsKey(db, table), ctx.Session.ID()
	return l.await(ctx, func() conflict {
		if w, ok := l.write[key]; ok && w != id {
			return conflict{wait: true}
		}
		return conflict{}
	})
}

// awaitWrite waits while another session holds a lock that stops the
// command of ops, and refuses it when the session's own does.
func (p *Provider) awaitWrite(ctx context.Context, ops []storage.Op) error {
	l := &p.locks
	if l.held.Load() == 0 || len(ops) == 0 || accountsOnly(ops) {
		return nil
	}
	var id uint32
	if sctx, ok := ctx.(*sql.Context); ok && sctx.Session != nil {
		id = sctx.Session.ID()
	}
	var tables []string
	names := map[string]string{}
	for _, op := range ops {
		if op.Table != "" && isTempName(op.Table) {
			continue
		}
		if op.Table != "" {
			key := statsKey(op.DB, op.Table)
			tables = append(tables, key)
			names[key] = op.Table
		}
	}
	if len(tables) == 0 && allTemporary(ops) {
		return nil
	}
	return l.await(ctx, func() conflict {
		if l.global[id] {
			return conflict{err: mysql.NewSQLError(erCantUpdateWithReadLock, "HY000", "Can't execute the query because you have a conflicting read lock")}
		}
		for _, key := range tables {
			if l.read[key][id] {
				return conflict{err: mysql.NewSQLError(erTableNotLockedForWrite, "HY000", "Table '%s' was locked with a READ lock and can't be updated", names[key])}
			}
		}
		if len(l.global) > 0 {
			return conflict{wait: true}
		}
		for _, key := range tables {
			if w, ok := l.write[key]; ok && w != id || len(l.read[key]) > 0 {
				return conflict{wait: true}
			}
		}
		return conflict{}
	})
}

// accountsOnly says whether ops change accounts alone, which no lock
// stops: the engine makes such a change holding the accounts' write
// lock, which every login waits for, so a wait here would stop logins
// (a backup's own new connection among them) until the read lock went.
func accountsOnly(ops []storage.Op) bool {
	for _, op := range ops {
		if op.Kind != storage.OpSetUsers {
			return false
		}
	}
	return true
}

// allTemporary says whether every op is of a temporary table.
func allTemporary(ops []storage.Op) bool {
	for _, op := range ops {
		if op.Table == "" || !isTempName(op.Table) {
			return false
		}
	}
	return true
}

// MySQL's errors of table locks.
const (
	erTableNotLockedForWrite = 1099
	erCantUpdateWithReadLock = 1223
)

// lockTables runs LOCK TABLES: the session's open transaction commits,
// its earlier locks go, then it takes the new ones. Tables that are not
// the store's (views, information_schema) are passed over.
func lockTables(ctx *sql.Context, n *plan.LockTables) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.p == nil {
		return nil, errors.New("LOCK TABLES outside a sqlearn session")
	}
	if err := commitPending(ctx); err != nil {
		return nil, err
	}
	var reads, writes []string
	for _, l := range n.Locks {
		t := storedTable(tableOfNode(l.Table))
		if t == nil || isTempName(t.info.Name) {
			continue
		}
		key := statsKey(t.info.DB, t.info.Name)
		if l.Write {
			writes = append(writes, key)
		} else {
			reads = append(reads, key)
		}
	}
	if err := s.p.locks.lockTables(ctx, s.ID(), reads, writes); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(), nil
}

// tableOfNode is the table a LOCK TABLES entry names.
func tableOfNode(n sql.Node) sql.Table {
	switch n := n.(type) {
	case *plan.TableAlias:
		return tableOfNode(n.Child)
	case *plan.ResolvedTable:
		return n.Table
	case sql.Table:
		return n
	}
	return nil
}

// unlockTables runs UNLOCK TABLES.
func unlockTables(ctx *sql.Context) (sql.RowIter, error) {
	if s, ok := ctx.Session.(*Session); ok && s.p != nil {
		s.p.locks.release(s.ID())
	}
	return sql.RowsToRowIter(), nil
}

const (
	readLockProcedure    = "sqlearn_flush_read_lock"
	flushStatusProcedure = "sqlearn_flush_status"
)

// flushStatement adjusts FLUSH: WITH READ LOCK becomes a call of
// readLockProcedure and FLUSH STATUS one of flushStatusProcedure, which
// the engine refused; FLUSH LOGS (and of each log), which closes and
// reopens log files, and FLUSH HOSTS, which empties a host cache, have
// nothing to act on here (the server logs to its standard error, keeps
// no binary, relay, general or slow query log and no host cache) and
// succeed doing nothing, as the engine's FLUSH BINARY LOGS did; as does
// NO_WRITE_TO_BINLOG (LOCAL), there being no binary log to write to.
func (sp statementParser) flushStatement(ctx context.Context, f *ast.Flush) (ast.Statement, bool, error) {
	f.Type = ""
	if f.Option == nil {
		return f, false, nil
	}
	call := func(proc string, args []string) (ast.Statement, bool, error) {
		st, _, err := sp.Parser.ParseOneWithOptions(ctx, "CALL "+SystemDatabase+"."+proc+"("+strings.Join(args, ", ")+")", ast.ParserOptions{})
		if err == nil {
			authorizeOwnCalls(st)
		}
		return st, true, err
	}
	if f.Option.ReadLock {
		var names []string
		for _, t := range f.Option.Tables {
			names = append(names, quoteString(t.DbQualifier.String()), quoteString(t.Name.String()))
		}
		return call(readLockProcedure, names)
	}
	switch strings.ToLower(f.Option.Name) {
	case "status":
		return call(flushStatusProcedure, nil)
	case "logs", "error logs", "general logs", "slow logs", "relay logs", "hosts":
		f.Option.Name = "binary logs"
	}
	return f, false, nil
}

// flushReadLock runs FLUSH TABLES [db, table, ...] WITH READ LOCK, which
// needs the RELOAD privilege (and, naming tables, LOCK TABLES on them):
// named tables are READ locks, as LOCK TABLES ... READ; none, the global
// read lock.
func (p *Provider) flushReadLock(ctx *sql.Context, names ...string) (sql.RowIter, error) {
	if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_Reload) {
		return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the RELOAD privilege(s) for this operation")
	}
	if err := commitPending(ctx); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		if err := p.locks.lockGlobal(ctx, ctx.Session.ID()); err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(), nil
	}
	var reads []string
	for i := 0; i+1 < len(names); i += 2 {
		db := names[i]
		if db == "" {
			db = ctx.GetCurrentDatabase()
		}
		info, err := p.store.Table(db, names[i+1])
		if err != nil {
			return nil, sql.ErrTableNotFound.New(names[i+1])
		}
		if !p.HasPrivilege(ctx, info.DB, info.Name, sql.PrivilegeType_LockTables) {
			c := ctx.Session.Client()
			return nil, mysql.NewSQLError(erTableAccessDenied, "42000", "LOCK TABLES command denied to user '%s'@'%s' for table '%s'", c.User, c.Address, info.Name)
		}
		reads = append(reads, statsKey(info.DB, info.Name))
	}
	if err := p.locks.lockTables(ctx, ctx.Session.ID(), reads, nil); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(), nil
}

// flushStatus runs FLUSH STATUS, which needs the RELOAD privilege: the
// session's counters start again from 0, as in MySQL. The server's
// global counters already hold every session's counts.
func (p *Provider) flushStatus(ctx *sql.Context) (sql.RowIter, error) {
	if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_Reload) {
		return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the RELOAD privilege(s) for this operation")
	}
	for name, v := range ctx.Session.GetAllStatusVariables(ctx) {
		if _, counter := v.Value().(uint64); counter {
			if err := ctx.Session.SetStatusVariable(ctx, name, uint64(0)); err != nil {
				return nil, err
			}
		}
	}
	return sql.RowsToRowIter(), nil
}

// lockExtensions are the procedures FLUSH ... WITH READ LOCK and FLUSH
// STATUS call.
func lockExtensions(p *Provider) Extensions {
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{
		{Name: readLockProcedure, Schema: nil, Function: p.flushReadLock},
		{Name: flushStatusProcedure, Schema: nil, Function: p.flushStatus},
	}}
}
