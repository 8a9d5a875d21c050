package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// erNoSuchUser is MySQL's ER_NO_SUCH_USER: a routine's definer is not an
// account.
const erNoSuchUser = 1449

// asDefiner gives the session the account of routine's definer until
// restore is called, as MySQL runs the body of a routine of SQL SECURITY
// DEFINER (the default): the privileges of its statements are the
// definer's, and CURRENT_USER() names the definer. A routine of SQL
// SECURITY INVOKER, or one whose definer is the caller, changes nothing.
//
// The engine checks privileges against the session's account, whose
// privilege set it keeps with the session; both are swapped and put back.
func (r *procRun) asDefiner(routine *compound.Routine) (restore func(), err error) {
	nothing := func() {}
	if routine.Invoker || routine.DefinerUser == "" {
		return nothing, nil
	}
	sess := r.ctx.Session
	caller := sess.Client()
	if caller.User == routine.DefinerUser && caller.Address == routine.DefinerHost {
		return nothing, nil
	}
	if s, ok := sess.(*Session); ok && s.p != nil && s.p.mysqlDB != nil && s.p.mysqlDB.Enabled() {
		if !accountExists(s.p.mysqlDB, routine.DefinerUser, routine.DefinerHost) {
			return nil, procErr(erNoSuchUser, "HY000", "The user specified as a definer ('%s'@'%s') does not exist", routine.DefinerUser, routine.DefinerHost)
		}
	}
	privs, counter := sess.GetPrivilegeSet()
	sess.SetClient(sql.Client{User: routine.DefinerUser, Address: routine.DefinerHost, Capabilities: caller.Capabilities})
	// A counter the grant tables never reach makes the engine compute
	// the definer's privileges afresh.
	sess.SetPrivilegeSet(privs, ^uint64(0))
	return func() {
		sess.SetClient(caller)
		sess.SetPrivilegeSet(privs, counter)
	}, nil
}

// accountExists says whether user@host is an account of the grant tables.
func accountExists(db *mysql_db.MySQLDb, user, host string) bool {
	rd := db.Reader()
	defer rd.Close()
	u := db.GetUser(rd, user, host, false)
	return u != nil && u.User == user
}
