package sqlext

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// Account locking and the password clauses of CREATE USER and ALTER
// USER, and SHOW CREATE USER.
//
// The engine parsed ACCOUNT LOCK in CREATE USER and then created the
// account unlocked; its parser refused the clause, and every other
// password clause, in ALTER USER, and refused SHOW CREATE USER. Here:
//
//   - CREATE USER creates the accounts itself (createUsers), locked when
//     the statement says so, in the same change that creates them, so
//     that no login can come between.
//   - ALTER USER with those clauses is a call (rewriteAccountStatement,
//     alterUsers): its authentication part, when it has one, runs as the
//     engine's ALTER USER, then the lock changes for every account named.
//   - SHOW CREATE USER is a query of showCreateUserFunction, the text
//     MySQL 8 writes, which CREATE USER here takes back.
//
// A locked account's logins are refused (1045, as the engine refuses
// them). The clauses this server does not enforce (a password that
// expires, password history and reuse, locking after failed logins)
// are refused with 1235 rather than accepted and ignored; the ones that
// say what it does anyway (PASSWORD EXPIRE NEVER, the DEFAULTs) are
// accepted.

const (
	alterUserProcedure     = "sqlearn_alter_user"
	showCreateUserFunction = "sqlearn_show_create_user"
)

// account is an account name as a statement writes it.
type account struct{ user, host string }

func (a account) String() string {
	return accountText(plan.UserName{Name: a.user, Host: a.host})
}

func (a account) key() mysql_db.UserPrimaryKey {
	return mysql_db.UserPrimaryKey{User: a.user, Host: a.host}
}

// readAccount reads the account toks[i:] starts with: a name, quoted or
// not, and @host when given ('%' when not).
func readAccount(toks []sqlToken, i int) (account, int, bool) {
	if i >= len(toks) {
		return account{}, i, false
	}
	t := toks[i]
	var a account
	switch {
	case t.word:
		a.user = t.text
	case strings.HasPrefix(t.text, "'") || strings.HasPrefix(t.text, `"`) || strings.HasPrefix(t.text, "`"):
		a.user = unquote(t.text)
	default:
		return account{}, i, false
	}
	a.host, i = "%", i+1
	if i < len(toks) && strings.HasPrefix(toks[i].text, "@") && !strings.HasPrefix(toks[i].text, "@@") {
		a.host, i = toks[i].name, i+1
		if a.host == "" {
			a.host = "%"
		}
	}
	return a, i, true
}

// accountClauses are the password and lock clauses of a CREATE or ALTER
// USER.
type accountClauses struct {
	lock *bool // ACCOUNT LOCK or UNLOCK, the last one written
	// refused is the first clause that asks for what this server does
	// not enforce.
	refused string
	start   int // the index of the first clause's first token
}

// clauseStarts says whether toks[i] begins a password or lock clause.
func clauseStarts(toks []sqlToken, i int) bool {
	w := strings.ToUpper(toks[i].text)
	if !toks[i].word {
		return false
	}
	switch w {
	case "ACCOUNT", "FAILED_LOGIN_ATTEMPTS", "PASSWORD_LOCK_TIME":
		return true
	case "PASSWORD":
		if i+1 < len(toks) && toks[i+1].word {
			switch strings.ToUpper(toks[i+1].text) {
			case "EXPIRE", "HISTORY", "REUSE", "REQUIRE":
				return true
			}
		}
	}
	return false
}

// readClauses reads the password and lock clauses from toks[i:] to the
// end, which must be all they are.
func readClauses(toks []sqlToken, i int) (accountClauses, error) {
	c := accountClauses{start: i}
	word := func(j int, w string) bool {
		return j < len(toks) && toks[j].word && strings.EqualFold(toks[j].text, w)
	}
	number := func(j int) (int64, bool) {
		if j >= len(toks) || !toks[j].word {
			return 0, false
		}
		n, err := strconv.ParseInt(toks[j].text, 10, 64)
		return n, err == nil && n >= 0
	}
	refuse := func(clause string) {
		if c.refused == "" {
			c.refused = clause
		}
	}
	bad := func(j int) error {
		near := ""
		if j < len(toks) {
			near = toks[j].text
		}
		return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s'", near)
	}
	// setting reads the value of clause at toks[j]: DEFAULT, or a count
	// (of days, followed by DAY, when days), refusing a count above 0,
	// which asks for what is not enforced; it gives the index after it.
	setting := func(j int, clause string, days bool) (int, error) {
		if word(j, "DEFAULT") {
			return j + 1, nil
		}
		n, ok := number(j)
		if !ok || days && !word(j+1, "DAY") {
			return j, bad(j)
		}
		if n > 0 {
			refuse(clause)
		}
		if days {
			return j + 2, nil
		}
		return j + 1, nil
	}
	var err error
	for i < len(toks) && toks[i].text != ";" {
		switch {
		case word(i, "ACCOUNT") && (word(i+1, "LOCK") || word(i+1, "UNLOCK")):
			lock := word(i+1, "LOCK")
			c.lock = &lock
			i += 2
		case word(i, "PASSWORD") && word(i+1, "EXPIRE"):
			switch {
			case word(i+2, "DEFAULT"), word(i+2, "NEVER"):
				i += 3
			case word(i+2, "INTERVAL"):
				if _, ok := number(i + 3); !ok || !word(i+4, "DAY") {
					return c, bad(i + 3)
				}
				refuse("PASSWORD EXPIRE INTERVAL")
				i += 5
			default:
				refuse("PASSWORD EXPIRE")
				i += 2
			}
		case word(i, "PASSWORD") && word(i+1, "HISTORY"):
			if i, err = setting(i+2, "PASSWORD HISTORY", false); err != nil {
				return c, err
			}
		case word(i, "PASSWORD") && word(i+1, "REUSE") && word(i+2, "INTERVAL"):
			if i, err = setting(i+3, "PASSWORD REUSE INTERVAL", true); err != nil {
				return c, err
			}
		case word(i, "PASSWORD") && word(i+1, "REQUIRE") && word(i+2, "CURRENT"):
			if word(i+3, "DEFAULT") || word(i+3, "OPTIONAL") {
				i += 4
				continue
			}
			refuse("PASSWORD REQUIRE CURRENT")
			i += 3
		case word(i, "FAILED_LOGIN_ATTEMPTS"):
			if i, err = setting(i+1, "FAILED_LOGIN_ATTEMPTS", false); err != nil {
				return c, err
			}
		case word(i, "PASSWORD_LOCK_TIME"):
			// Without FAILED_LOGIN_ATTEMPTS, which is refused, a lock
			// time has nothing to act on.
			if _, ok := number(i + 1); !ok && !word(i+1, "UNBOUNDED") {
				return c, bad(i + 1)
			}
			i += 2
		default:
			return c, bad(i)
		}
	}
	return c, nil
}

// notEnforced is the 1235 of a password clause this server does not
// enforce.
func notEnforced(clause string) error {
	return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support '%s'", clause)
}

// rewriteAccountStatement writes an ALTER USER or CREATE USER with
// password or lock clauses that the parser refused as a call of
// alterUserProcedure, which runs it or gives its error.
func rewriteAccountStatement(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 4 || !toks[0].word || !toks[1].word || !strings.EqualFold(toks[1].text, "USER") ||
		!strings.EqualFold(toks[0].text, "ALTER") && !strings.EqualFold(toks[0].text, "CREATE") {
		return "", false
	}
	end := statementEnd(toks)
	for i := 2; i < end; i++ {
		if clauseStarts(toks, i) {
			return asCall(query, toks, end, alterUserProcedure), true
		}
	}
	return "", false
}

// statementEnd is the index of the semicolon that ends the first
// statement of toks, or len(toks).
func statementEnd(toks []sqlToken) int {
	for i, t := range toks {
		if t.text == ";" {
			return i
		}
	}
	return len(toks)
}

// asCall writes the statement of query whose tokens are toks[:end] as a
// call of the system procedure proc with its text, followed by the
// statements after it.
func asCall(query string, toks []sqlToken, end int, proc string) string {
	rest, _ := statementRest(query, toks, end)
	return "CALL " + SystemDatabase + "." + proc + "(" + quoteString(query[:toks[end-1].end]) + ")" + rest
}

// alterUsers runs an account statement rewriteAccountStatement wrote as
// a call: ALTER USER [IF EXISTS] accounts [authentication] clauses, or a
// CREATE USER whose clauses the parser refused, which fails with the
// clause's error.
func (p *Provider) alterUsers(ctx *sql.Context, text string) (sql.RowIter, error) {
	toks := sqlTokens(text)
	first := -1
	for i := 2; i < len(toks); i++ {
		if clauseStarts(toks, i) {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%.80s'", text)
	}
	clauses, err := readClauses(toks, first)
	if err != nil {
		return nil, err
	}
	if clauses.refused != "" {
		return nil, notEnforced(clauses.refused)
	}
	if strings.EqualFold(toks[0].text, "CREATE") {
		// CREATE USER's clauses are all the parser's; one it refused
		// is not in the grammar.
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%.80s'", text[toks[first].start:])
	}
	i, ifExists := 2, false
	if i+1 < len(toks) && strings.EqualFold(toks[i].text, "IF") && strings.EqualFold(toks[i+1].text, "EXISTS") {
		i, ifExists = i+2, true
	}
	var accounts []account
	for {
		a, next, ok := readAccount(toks, i)
		if !ok {
			return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%.80s'", text[toks[min(i, len(toks)-1)].start:])
		}
		accounts, i = append(accounts, a), next
		if i < first && toks[i].text == "," {
			i++
			continue
		}
		break
	}
	if p.mysqlDB == nil {
		return nil, sql.ErrDatabaseNotFound.New("mysql")
	}
	if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_CreateUser) {
		return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation")
	}
	// Every account is there, or the statement changes none (IF EXISTS
	// passes over the missing ones with a note, as in MySQL).
	db := p.mysqlDB
	present, err := func() ([]account, error) {
		rd := db.Reader()
		defer rd.Close()
		var present []account
		for _, a := range accounts {
			if _, ok := rd.GetUser(a.key()); ok {
				present = append(present, a)
				continue
			}
			if !ifExists {
				return nil, mysql.NewSQLError(erCannotUser, "HY000", "Operation ALTER USER failed for %s", a)
			}
			ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erUserDoesNotExist, Message: fmt.Sprintf("Authorization ID %s does not exist.", a)})
		}
		return present, nil
	}()
	if err != nil {
		return nil, err
	}
	if i < first {
		// An authentication clause: the engine's ALTER USER of the one
		// account it takes.
		if len(accounts) > 1 {
			return nil, mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'ALTER USER of several accounts with a password'")
		}
		run := &procRun{ctx: ctx, runner: p.runner, parser: engineParser(p.runner), name: "ALTER USER", active: activeRoutines(ctx)}
		q := strings.TrimSpace(text[:toks[first].start])
		st, err := run.parse(q)
		if err != nil {
			return nil, err
		}
		if _, _, err := run.query(q, st); err != nil {
			return nil, err
		}
	}
	if clauses.lock == nil || len(present) == 0 {
		return okRows(), nil
	}
	ed := db.Editor()
	defer ed.Close()
	for _, a := range present {
		u, ok := ed.GetUser(a.key())
		if !ok {
			continue // dropped since it was read
		}
		changed := *u
		changed.Locked = *clauses.lock
		// PutUser replaces an equal entry only: the old one goes first.
		ed.RemoveUser(a.key())
		ed.PutUser(&changed)
	}
	if err := db.Persist(ctx, ed); err != nil {
		return nil, err
	}
	return okRows(), nil
}

// erUserDoesNotExist and erUserAlreadyExists are MySQL's notes for IF
// EXISTS and IF NOT EXISTS of accounts.
const (
	erUserDoesNotExist  = 3162
	erUserAlreadyExists = 3163
)

// createUsers runs CREATE USER: the engine's, with its ACCOUNT LOCK kept
// and the password clauses it does not enforce refused.
func createUsers(ctx *sql.Context, n *plan.CreateUser) (sql.RowIter, error) {
	db, ok := n.MySQLDb.(*mysql_db.MySQLDb)
	if !ok {
		return nil, sql.ErrDatabaseNotFound.New("mysql")
	}
	if o := n.PasswordOptions; o != nil {
		switch {
		case o.ExpirationTime != nil && *o.ExpirationTime > 0:
			return nil, notEnforced("PASSWORD EXPIRE INTERVAL")
		case o.History != nil && *o.History > 0:
			return nil, notEnforced("PASSWORD HISTORY")
		case o.ReuseInterval != nil && *o.ReuseInterval > 0:
			return nil, notEnforced("PASSWORD REUSE INTERVAL")
		case o.FailedAttempts != nil && *o.FailedAttempts > 0:
			return nil, notEnforced("FAILED_LOGIN_ATTEMPTS")
		}
	}
	ed := db.Editor()
	defer ed.Close()
	var made []*mysql_db.User
	for _, u := range n.Users {
		a := account{user: u.UserName.Name, host: u.UserName.Host}
		if a.host == "" {
			a.host = "%"
		}
		if _, exists := ed.GetUser(a.key()); exists {
			if n.IfNotExists {
				ctx.Session.Warn(&sql.Warning{Level: "Note", Code: erUserAlreadyExists, Message: fmt.Sprintf("Authorization ID %s already exists.", a)})
				continue
			}
			return nil, mysql.NewSQLError(erCannotUser, "HY000", "Operation CREATE USER failed for %s", a)
		}
		if len(a.user) > 32 {
			return nil, sql.ErrUserNameTooLong.New(a.user)
		}
		if len(a.host) > 255 {
			return nil, sql.ErrUserHostTooLong.New(a.host)
		}
		plugin, auth := string(mysql_db.DefaultAuthMethod), ""
		if u.Auth1 != nil {
			plugin = u.Auth1.Plugin()
			var err error
			if auth, err = u.Auth1.AuthString(); err != nil {
				return nil, err
			}
		}
		if plugin != string(mysql.MysqlNativePassword) && plugin != string(mysql.CachingSha2Password) {
			if err := db.VerifyPlugin(plugin); err != nil {
				return nil, sql.ErrUserCreationFailure.New(err)
			}
		}
		made = append(made, &mysql_db.User{User: a.user, Host: a.host, PrivilegeSet: mysql_db.NewPrivilegeSet(),
			Plugin: plugin, AuthString: auth, PasswordLastChanged: time.Now().UTC(), Locked: n.Locked, Identity: u.Identity})
	}
	for _, u := range made {
		ed.PutUser(u)
	}
	if err := db.Persist(ctx, ed); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// rewriteShowCreateUser writes SHOW CREATE USER account as a query of
// showCreateUserFunction with MySQL's column name.
func rewriteShowCreateUser(query string) (string, bool) {
	toks := sqlTokens(query)
	if len(toks) < 4 || !toks[0].word || !strings.EqualFold(toks[0].text, "SHOW") || !strings.EqualFold(toks[1].text, "CREATE") || !strings.EqualFold(toks[2].text, "USER") {
		return "", false
	}
	a, i, ok := readAccount(toks, 3)
	if !ok {
		return "", false
	}
	rest, ok := statementRest(query, toks, i)
	if !ok {
		return "", false
	}
	column := "CREATE USER for " + a.user + "@" + a.host
	return "SELECT " + showCreateUserFunction + "(" + quoteString(a.user) + ", " + quoteString(a.host) + ") AS " + quoteIdent(column) + rest, true
}

// accountFunctions are the functions the rewritten account statements
// use.
func accountFunctions(p *Provider) []sql.Function {
	return []sql.Function{
		scalar(showCreateUserFunction, 2, 2, fixedType(types.LongText), func(ctx *sql.Context, args []any) (any, error) {
			user, _ := args[0].(string)
			host, _ := args[1].(string)
			return p.showCreateUser(ctx, account{user: user, host: host})
		}),
	}
}

// showCreateUser is the CREATE USER statement that makes a, as MySQL 8
// writes it. Any account may see its own; another's needs SELECT on the
// mysql database, as in MySQL.
func (p *Provider) showCreateUser(ctx *sql.Context, a account) (string, error) {
	if p.mysqlDB == nil {
		return "", sql.ErrDatabaseNotFound.New("mysql")
	}
	u, self := p.accountAndSelf(ctx, a)
	if !self && !p.HasPrivilege(ctx, "mysql", "", sql.PrivilegeType_Select) {
		c := ctx.Session.Client()
		return "", mysql.NewSQLError(mysql.ERDBAccessDenied, "42000", "Access denied for user '%s'@'%s' to database 'mysql'", c.User, c.Address)
	}
	if u == nil {
		return "", mysql.NewSQLError(erCannotUser, "HY000", "Operation SHOW CREATE USER failed for %s", a)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE USER %s@%s IDENTIFIED WITH %s", quoteIdent(u.User), quoteIdent(u.Host), quoteString(u.Plugin))
	if u.AuthString != "" {
		b.WriteString(" AS " + quoteString(u.AuthString))
	}
	lock := "UNLOCK"
	if u.Locked {
		lock = "LOCK"
	}
	b.WriteString(" REQUIRE NONE PASSWORD EXPIRE DEFAULT ACCOUNT " + lock +
		" PASSWORD HISTORY DEFAULT PASSWORD REUSE INTERVAL DEFAULT PASSWORD REQUIRE CURRENT DEFAULT")
	return b.String(), nil
}

// accountAndSelf is the account a, nil when there is none, and whether
// the session is logged in as it.
func (p *Provider) accountAndSelf(ctx *sql.Context, a account) (*mysql_db.User, bool) {
	rd := p.mysqlDB.Reader()
	defer rd.Close()
	u, ok := rd.GetUser(a.key())
	if !ok {
		return nil, false
	}
	client := ctx.Session.Client()
	me := p.mysqlDB.GetUser(rd, client.User, client.Address, false)
	return u, me != nil && me.User == u.User && me.Host == u.Host
}

// accountExtensions are the procedure and function the rewritten account
// statements use.
func accountExtensions(p *Provider) Extensions {
	return Extensions{
		Functions:  accountFunctions(p),
		Procedures: []sql.ExternalStoredProcedureDetails{{Name: alterUserProcedure, Schema: nil, Function: p.alterUsers}},
	}
}
