package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// worldReadable are the databases every user may read without a grant:
// performance_schema's variable and status tables, which MySQL lets every
// user read, and sys, whose tables show each user the models and jobs
// that are theirs (see udf).
var worldReadable = []string{PerformanceSchema, SystemDatabase}

// SetPrivilegeSet caches the privileges the engine worked out for the
// session's user, with SELECT on the world-readable databases added. The
// engine asks the session for them before every check, so this is where
// every user gets them; the stored grants, and so SHOW GRANTS, are not
// changed.
func (s *Session) SetPrivilegeSet(ps sql.PrivilegeSet, counter uint64) {
	if set, ok := ps.(mysql_db.PrivilegeSet); ok {
		for _, db := range worldReadable {
			set.AddDatabase(db, sql.PrivilegeType_Select)
		}
	}
	s.BaseSession.SetPrivilegeSet(ps, counter)
}

// HasPrivilege says whether the caller holds priv on table db.table, as
// the planner checks it for a statement (always, when the server checks
// no privileges); work done outside the planner asks it.
func (p *Provider) HasPrivilege(ctx *sql.Context, db, table string, priv sql.PrivilegeType) bool {
	return p.mysqlDB == nil || !p.mysqlDB.Enabled() || p.mysqlDB.UserHasPrivileges(ctx, sql.NewPrivilegedOperation(
		sql.PrivilegeCheckSubject{Database: db, Table: table}, priv))
}

// HasGlobalPrivilege says whether the caller holds priv globally (always,
// when the server checks no privileges).
func (p *Provider) HasGlobalPrivilege(ctx *sql.Context, priv sql.PrivilegeType) bool {
	if p.mysqlDB == nil || !p.mysqlDB.Enabled() {
		return true
	}
	set := p.mysqlDB.UserActivePrivilegeSet(ctx)
	return set.Has(priv) || set.Has(sql.PrivilegeType_Super)
}

// authorizeOwnCalls leaves a call of a procedure that authorizes the
// statement it stands for itself (SHOW ENGINE asks for the PROCESS
// privilege, ALTER USER for CREATE USER, FLUSH ... WITH READ LOCK and
// FLUSH STATUS for RELOAD, SET DEFAULT ROLE of another account for
// CREATE USER, SET ROLE for nothing, ALTER COLUMN ... SET VISIBLE for what
// its ALTER TABLE needs, RESET PERSIST for SUPER, as MySQL's statements
// do) to
// that procedure, rather than asking for EXECUTE on the system database,
// as the engine asks of other calls.
func authorizeOwnCalls(st ast.Statement) {
	if c, ok := st.(*ast.Call); ok && (c.ProcName.Name.EqualString(showEngineProcedure) || c.ProcName.Name.EqualString(alterUserProcedure) ||
		c.ProcName.Name.EqualString(readLockProcedure) || c.ProcName.Name.EqualString(flushStatusProcedure) ||
		c.ProcName.Name.EqualString(setRoleProcedure) || c.ProcName.Name.EqualString(visibilityProcedure) ||
		c.ProcName.Name.EqualString(resetPersistProcedure)) {
		c.Auth = ast.AuthInformation{AuthType: ast.AuthType_IGNORE}
	}
}

// authorizeOwnGrants lets every user see their own grants, as MySQL
// does: the engine asks for SELECT on the mysql database for any SHOW
// GRANTS, which it needs only to show another account's.
func authorizeOwnGrants(st ast.Statement) {
	if g, ok := st.(*ast.ShowGrants); ok && (g.For == nil || g.CurrentUser) {
		g.Auth = ast.AuthInformation{AuthType: ast.AuthType_IGNORE}
	}
}
