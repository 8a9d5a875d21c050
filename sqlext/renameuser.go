package sqlext

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// erCannotUser is MySQL's ER_CANNOT_USER.
const erCannotUser = 1396

// renameUsers runs RENAME USER, which the engine left unimplemented
// (1105): each account takes its new name with its password and every
// privilege and role it has or was granted, all of them or none, as in
// MySQL: a name that is not an account, or a new name that is one
// already, fails the statement with 1396 naming the account.
func renameUsers(ctx *sql.Context, n *plan.RenameUser) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.p == nil || s.p.mysqlDB == nil {
		return nil, sql.ErrDatabaseNotFound.New("mysql")
	}
	db := s.p.mysqlDB
	ed := db.Editor()
	defer ed.Close()
	fail := func(u plan.UserName) error {
		return mysql.NewSQLError(erCannotUser, "HY000", "Operation RENAME USER failed for %s", accountText(u))
	}
	taken := map[mysql_db.UserPrimaryKey]bool{}
	olds := make([]*mysql_db.User, len(n.OldName))
	for i, from := range n.OldName {
		old := db.GetUser(ed, from.Name, from.Host, false)
		if old == nil {
			return nil, fail(from)
		}
		olds[i] = old
		to := n.NewName[i]
		key := mysql_db.UserPrimaryKey{Host: to.Host, User: to.Name}
		if _, exists := ed.GetUser(key); exists || taken[key] {
			return nil, fail(from)
		}
		taken[key] = true
	}
	for i, old := range olds {
		to := n.NewName[i]
		renamed := *old
		renamed.User, renamed.Host = to.Name, to.Host
		ed.RemoveUser(mysql_db.UserPrimaryKey{Host: old.Host, User: old.User})
		ed.PutUser(&renamed)
		var edges []*mysql_db.RoleEdge
		ed.VisitRoleEdges(func(e *mysql_db.RoleEdge) {
			if e.FromUser == old.User && e.FromHost == old.Host || e.ToUser == old.User && e.ToHost == old.Host {
				edges = append(edges, e)
			}
		})
		for _, e := range edges {
			ed.RemoveRoleEdge(mysql_db.RoleEdgesPrimaryKey{FromHost: e.FromHost, FromUser: e.FromUser, ToHost: e.ToHost, ToUser: e.ToUser})
			moved := *e
			if e.FromUser == old.User && e.FromHost == old.Host {
				moved.FromUser, moved.FromHost = to.Name, to.Host
			}
			if e.ToUser == old.User && e.ToHost == old.Host {
				moved.ToUser, moved.ToHost = to.Name, to.Host
			}
			ed.PutRoleEdge(&moved)
		}
	}
	if err := db.Persist(ctx, ed); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// accountText is an account as MySQL's messages write it, 'user'@'host'.
func accountText(u plan.UserName) string {
	host := u.Host
	if u.AnyHost || host == "" {
		host = "%"
	}
	return fmt.Sprintf("'%s'@'%s'", strings.ReplaceAll(u.Name, "'", "''"), strings.ReplaceAll(host, "'", "''"))
}

// rewriteSetPassword writes SET PASSWORD [FOR account] = 'password',
// which the parser refuses, as the ALTER USER ... IDENTIFIED BY MySQL
// takes it for; without FOR the account is the session's own, the one
// its login matched. A password given by the PASSWORD() function, which
// MySQL 8 no longer has, stays refused.
func (p *Provider) rewriteSetPassword(ctx *sql.Context, q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 4 || !toks[0].word || !strings.EqualFold(toks[0].text, "SET") || !strings.EqualFold(toks[1].text, "PASSWORD") {
		return q, false
	}
	eq := -1
	for i := 2; i < len(toks); i++ {
		if toks[i].text == "=" {
			eq = i
			break
		}
	}
	if eq < 0 || eq+1 >= len(toks) || toks[eq+1].word || !strings.HasPrefix(toks[eq+1].text, "'") && !strings.HasPrefix(toks[eq+1].text, `"`) {
		return q, false
	}
	var account string
	switch {
	case eq > 3 && strings.EqualFold(toks[2].text, "FOR"):
		account = q[toks[3].start:toks[eq-1].end]
	case eq == 2:
		if ctx == nil || p.mysqlDB == nil {
			return q, false
		}
		client := ctx.Session.Client()
		ed := p.mysqlDB.Reader()
		u := p.mysqlDB.GetUser(ed, client.User, client.Address, false)
		ed.Close()
		if u == nil {
			return q, false
		}
		account = accountText(plan.UserName{Name: u.User, Host: u.Host})
	default:
		return q, false
	}
	return "ALTER USER " + account + " IDENTIFIED BY " + q[toks[eq+1].start:], true
}
