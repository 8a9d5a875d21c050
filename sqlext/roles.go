package sqlext

import (
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// Roles: the engine makes every role granted to an account active in
// all of its sessions, which is MySQL with activate_all_roles_on_login
// ON; yet it reported the variable OFF (and let it be set), refused SET
// ROLE and SET DEFAULT ROLE (1064), and had no CURRENT_ROLE(). Here:
//
//   - activate_all_roles_on_login is ON, and read-only (1238): it says
//     what the server does.
//   - CURRENT_ROLE() lists the session's active roles, every role granted
//     to its account, as MySQL writes them (`r`@`%`,`s`@`%`), or NONE.
//   - SET ROLE ALL and SET ROLE DEFAULT (which at login, with the
//     variable ON, is every granted role) are taken, as is a SET ROLE
//     that names every granted role; one that would leave a granted role
//     inactive (NONE, some of them, ALL EXCEPT) is refused with 1235,
//     since the privileges would stay; a role not granted is MySQL's 3530.
//   - SET DEFAULT ROLE {NONE | ALL | role, ...} TO account, ... checks its
//     roles are granted (3530) and its accounts exist (1396), and is
//     taken: with activate_all_roles_on_login ON the default roles change
//     nothing at login, in MySQL as here.

const (
	setRoleProcedure     = "sqlearn_set_role"
	currentRoleFunction  = "current_role"
	erRoleNotGranted     = 3530
	activateAllRolesName = "activate_all_roles_on_login"
)

func init() {
	v, _, ok := sql.SystemVariables.GetGlobal(activateAllRolesName)
	msv, isMySQL := v.(*sql.MysqlSystemVariable)
	if !ok || !isMySQL {
		panic("sqlext: the engine has no system variable " + activateAllRolesName)
	}
	on := *msv
	on.Default, on.Dynamic = int8(1), false
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&on})
}

// rewriteSetRole writes SET ROLE ... and SET DEFAULT ROLE ... TO ...,
// which the parser refuses, as a call of setRoleProcedure.
func rewriteSetRole(query string) (string, bool) {
	toks := sqlTokens(query)
	word := func(i int, w string) bool { return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w) }
	if !word(0, "SET") || !word(1, "ROLE") && !(word(1, "DEFAULT") && word(2, "ROLE")) {
		return "", false
	}
	return asCall(query, toks, statementEnd(toks), setRoleProcedure), true
}

// grantedRoles are the roles granted to the session's account, sorted,
// and the account; nil when the session has none (no privileges are
// checked).
func (p *Provider) grantedRoles(ctx *sql.Context) ([]account, *account) {
	if p.mysqlDB == nil || !p.mysqlDB.Enabled() {
		return nil, nil
	}
	rd := p.mysqlDB.Reader()
	defer rd.Close()
	c := ctx.Session.Client()
	u := p.mysqlDB.GetUser(rd, c.User, c.Address, false)
	if u == nil {
		return nil, nil
	}
	return rolesOf(rd, u.User, u.Host), &account{user: u.User, host: u.Host}
}

// rolesOf are the roles granted to user@host, sorted.
func rolesOf(rd *mysql_db.Reader, user, host string) []account {
	var roles []account
	for _, e := range rd.GetToUserRoleEdges(mysql_db.RoleEdgesToKey{ToHost: host, ToUser: user}) {
		roles = append(roles, account{user: e.FromUser, host: e.FromHost})
	}
	slices.SortFunc(roles, func(a, b account) int {
		if c := strings.Compare(a.user, b.user); c != 0 {
			return c
		}
		return strings.Compare(a.host, b.host)
	})
	return roles
}

// quotedAccount is an account as CURRENT_ROLE() and MySQL's role
// messages write it, `user`@`host`.
func quotedAccount(a account) string { return quoteIdent(a.user) + "@" + quoteIdent(a.host) }

// currentRole is CURRENT_ROLE().
func (p *Provider) currentRole(ctx *sql.Context, _ []any) (any, error) {
	roles, _ := p.grantedRoles(ctx)
	if len(roles) == 0 {
		return "NONE", nil
	}
	names := make([]string, len(roles))
	for i, r := range roles {
		names[i] = quotedAccount(r)
	}
	return strings.Join(names, ","), nil
}

// readRoleList reads role names from toks[i:] up to stop (a word) or the
// end.
func readRoleList(toks []sqlToken, i int, stop string) ([]account, int, bool) {
	var out []account
	for i < len(toks) && !(toks[i].word && strings.EqualFold(toks[i].text, stop)) && toks[i].text != ";" {
		a, next, ok := readAccount(toks, i)
		if !ok {
			return nil, i, false
		}
		out, i = append(out, a), next
		if i < len(toks) && toks[i].text == "," {
			i++
		}
	}
	return out, i, len(out) > 0
}

// setRole runs SET ROLE and SET DEFAULT ROLE (see above).
func (p *Provider) setRole(ctx *sql.Context, text string) (sql.RowIter, error) {
	toks := sqlTokens(text)
	word := func(i int, w string) bool { return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w) }
	syntax := func(i int) error {
		near := ""
		if i < len(toks) {
			near = text[toks[i].start:]
		}
		return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%.80s'", near)
	}
	if word(1, "DEFAULT") {
		return p.setDefaultRole(ctx, toks, syntax)
	}
	granted, me := p.grantedRoles(ctx)
	notGranted := func(r account) error {
		if me == nil {
			return nil
		}
		return mysql.NewSQLError(erRoleNotGranted, "HY000", "%s is not granted to %s", quotedAccount(r), quotedAccount(*me))
	}
	partial := mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'SET ROLE that leaves a granted role inactive (every granted role is active: activate_all_roles_on_login)'")
	switch {
	case word(2, "ALL") && len(toks) == 3, word(2, "DEFAULT") && len(toks) == 3:
		return okRows(), nil
	case word(2, "NONE") && len(toks) == 3, word(2, "ALL") && word(3, "EXCEPT"):
		if word(3, "EXCEPT") {
			except, i, ok := readRoleList(toks, 4, "")
			if !ok || i != len(toks) {
				return nil, syntax(i)
			}
			for _, r := range except {
				if !slices.Contains(granted, r) {
					return nil, notGranted(r)
				}
			}
		}
		if len(granted) == 0 {
			return okRows(), nil
		}
		return nil, partial
	}
	roles, i, ok := readRoleList(toks, 2, "")
	if !ok || i != len(toks) {
		return nil, syntax(i)
	}
	for _, r := range roles {
		if !slices.Contains(granted, r) {
			return nil, notGranted(r)
		}
	}
	for _, r := range granted {
		if !slices.Contains(roles, r) {
			return nil, partial
		}
	}
	return okRows(), nil
}

// setDefaultRole runs SET DEFAULT ROLE {NONE | ALL | role, ...} TO
// account, ...: each account must exist and, for a list, hold each role;
// setting another account's needs CREATE USER.
func (p *Provider) setDefaultRole(ctx *sql.Context, toks []sqlToken, syntax func(int) error) (sql.RowIter, error) {
	word := func(i int, w string) bool { return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w) }
	var roles []account
	i := 3
	switch {
	case word(3, "NONE"), word(3, "ALL"):
		i = 4
	default:
		var ok bool
		if roles, i, ok = readRoleList(toks, 3, "TO"); !ok {
			return nil, syntax(3)
		}
	}
	if !word(i, "TO") {
		return nil, syntax(i)
	}
	accounts, end, ok := readRoleList(toks, i+1, "")
	if !ok || end != len(toks) {
		return nil, syntax(end)
	}
	if p.mysqlDB == nil {
		return okRows(), nil
	}
	_, me := p.grantedRoles(ctx)
	for _, a := range accounts {
		if (me == nil || a != *me) && !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_CreateUser) {
			return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation")
		}
	}
	rd := p.mysqlDB.Reader()
	defer rd.Close()
	for _, a := range accounts {
		if _, ok := rd.GetUser(a.key()); !ok {
			return nil, mysql.NewSQLError(erCannotUser, "HY000", "Operation SET DEFAULT ROLE failed for %s", a)
		}
		held := rolesOf(rd, a.user, a.host)
		for _, r := range roles {
			if !slices.Contains(held, r) {
				return nil, mysql.NewSQLError(erRoleNotGranted, "HY000", "%s is not granted to %s", quotedAccount(r), quotedAccount(a))
			}
		}
	}
	return okRows(), nil
}

// roleExtensions are CURRENT_ROLE() and the procedure SET ROLE and SET
// DEFAULT ROLE call.
func roleExtensions(p *Provider) Extensions {
	return Extensions{
		Functions:  []sql.Function{scalar(currentRoleFunction, 0, 0, fixedType(types.LongText), p.currentRole)},
		Procedures: []sql.ExternalStoredProcedureDetails{{Name: setRoleProcedure, Schema: nil, Function: p.setRole}},
	}
}
