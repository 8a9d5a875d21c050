package sqlext

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/storage"
)

// ServerCollation is the collation of a database created without one,
// and so of its tables and their text columns: MySQL 8.0's default,
// accent- and case-insensitive. The engine's own default
// (sql.Collation_Default, utf8mb4_0900_bin) remains what a database or
// table that recorded no collation has: those were created when it was
// the server's default, and read exactly as they did.
const ServerCollation = sql.Collation_utf8mb4_0900_ai_ci

// collationMetaKey is the database metadata key that holds its collation's
// name as a JSON string.
const collationMetaKey = "collation"

// The variables that name the server's, the database's and the
// connection's collation start at ServerCollation, as in MySQL 8.0; new
// databases take collation_server (the engine reads it for CREATE
// DATABASE without CHARACTER SET or COLLATE).
func init() {
	for _, name := range []string{"collation_server", "collation_database", "collation_connection"} {
		v, _, ok := sql.SystemVariables.GetGlobal(name)
		msv, isMySQL := v.(*sql.MysqlSystemVariable)
		if !ok || !isMySQL {
			panic("sqlext: the engine has no system variable " + name)
		}
		changed := *msv
		changed.Default = ServerCollation.Name()
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&changed})
	}
}

var _ sql.CollatedDatabaseProvider = (*Provider)(nil)

// CreateCollatedDatabase creates a database whose tables default to
// collation, the database and its collation in one log command, so that
// no node ever holds the database without it.
func (p *Provider) CreateCollatedDatabase(ctx *sql.Context, name string, collation sql.CollationID) error {
	if collation == sql.Collation_Unspecified {
		collation = sessionServerCollation(ctx)
	}
	if err := supportedCollation(collation); err != nil {
		return err
	}
	if reservedDatabase(name) {
		return sql.ErrDatabaseExists.New(name)
	}
	b, err := json.Marshal(collation.Name())
	if err != nil {
		return err
	}
	return p.propose(ctx, storage.Op{Kind: storage.OpCreateDatabase, DB: name},
		storage.Op{Kind: storage.OpPutMeta, DB: name, Name: collationMetaKey, Blob: b})
}

// sessionServerCollation is the session's collation_server.
func sessionServerCollation(ctx *sql.Context) sql.CollationID {
	if v, err := ctx.GetSessionVariable(ctx, "collation_server"); err == nil {
		if s, ok := v.(string); ok {
			if c, err := sql.ParseCollation("", s, false); err == nil && c != sql.Collation_Unspecified {
				return c
			}
		}
	}
	return ServerCollation
}

// supportedCollation refuses a collation the engine names but cannot
// compare or encode with (it lists every collation MySQL has), so that
// no table is created that could not store a value.
func supportedCollation(c sql.CollationID) error {
	if c.CharacterSet().Encoder() == nil || c.Sorter() == nil {
		return mysql.NewSQLError(erNotSupportedYet, "42000", "This version of sqlearn doesn't yet support 'collation %s'", c.Name())
	}
	return nil
}

// GetCollation is the database's collation: the one it was created or
// last altered with, or utf8mb4_0900_bin for a database created before
// databases recorded one, when that was the server's default.
func (d *Database) GetCollation(ctx *sql.Context) sql.CollationID {
	name, ok, err := metaValue[string](d, collationMetaKey)
	if err != nil || !ok {
		return sql.Collation_Default
	}
	c, err := sql.ParseCollation("", name, false)
	if err != nil || c == sql.Collation_Unspecified {
		return sql.Collation_Default
	}
	return c
}

// SetCollation records the database's collation (CREATE DATABASE and
// ALTER DATABASE ... COLLATE); its tables keep the collation they were
// created with, as in MySQL.
func (d *Database) SetCollation(ctx *sql.Context, c sql.CollationID) error {
	if c == sql.Collation_Unspecified {
		c = sessionServerCollation(ctx)
	}
	if err := supportedCollation(c); err != nil {
		return err
	}
	b, err := json.Marshal(c.Name())
	if err != nil {
		return err
	}
	return d.p.propose(ctx, storage.Op{Kind: storage.OpPutMeta, DB: d.name, Name: collationMetaKey, Blob: b})
}

// collationMessages are the engine's messages for a bad character set or
// collation, which reach the client as ER_UNKNOWN_ERROR, and MySQL's
// code, SQLSTATE and message for each.
var collationMessages = []struct {
	head, mid   string
	code        int
	state, text string
}{
	// "Unknown collation: x"
	{head: "Unknown collation: ", code: 1273, state: "HY000", text: "Unknown collation: '%[1]s'"},
	// "Unknown character set: x"
	{head: "Unknown character set: ", code: 1115, state: "42000", text: "Unknown character set: '%[1]s'"},
	// "latin1 is not a valid character set for utf8mb4_0900_ai_ci"
	{mid: " is not a valid character set for ", code: 1253, state: "42000", text: "COLLATION '%[2]s' is not valid for CHARACTER SET '%[1]s'"},
}

// collationError gives an engine error about a character set or
// collation MySQL's code and message (see collationMessages).
func collationError(se *mysql.SQLError) {
	if se.Num != mysql.ERUnknownError {
		return
	}
	for _, m := range collationMessages {
		var a, b string
		switch {
		case m.head != "" && strings.HasPrefix(se.Message, m.head):
			a = strings.TrimPrefix(se.Message, m.head)
		case m.mid != "" && strings.Contains(se.Message, m.mid):
			a, b, _ = strings.Cut(se.Message, m.mid)
		default:
			continue
		}
		se.Num, se.State, se.Message = m.code, m.state, fmt.Sprintf(m.text, a, b)
		return
	}
}

// collationVariablesRule is the rule that answers @@collation_database
// and @@character_set_database without a current database.
const collationVariablesRule analyzer.RuleId = 9955

func init() {
	beforeEveryStatement(collationVariablesRule, databaseCollationVariables)
}

// databaseCollationVariables makes @@collation_database and
// @@character_set_database name the server's collation when the session
// has no current database, as in MySQL; the engine named its own
// default (utf8mb4_0900_bin) there. With a current database the engine
// answers that database's collation.
func databaseCollationVariables(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if ctx.GetCurrentDatabase() != "" {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			v, ok := e.(*expression.SystemVar)
			if !ok || v.Scope == nil || v.Scope.IsGlobalOnly() {
				return e, transform.SameTree, nil
			}
			switch strings.ToLower(v.Name) {
			case "collation_database", "character_set_database":
			default:
				return e, transform.SameTree, nil
			}
			out := *v
			out.Collation = sessionServerCollation(ctx)
			return &out, transform.NewTree, nil
		})
	})
}

// showVariables is SHOW VARIABLES with values as MySQL shows them: a
// boolean variable as ON or OFF (VariableText), and a session's
// collation_database and character_set_database those of the current
// database (the server's without one); the engine showed the variables'
// stored values.
func showVariables(ctx *sql.Context, n *plan.ShowVariables, row sql.Row) (sql.RowIter, error) {
	var c sql.CollationID
	s, ok := ctx.Session.(*Session)
	session := !n.Global && ok
	if session {
		c = sessionServerCollation(ctx)
		if name := ctx.GetCurrentDatabase(); name != "" {
			if db, err := s.p.Database(ctx, name); err == nil {
				c = plan.GetDatabaseCollation(ctx, db)
			}
		}
	}
	iter, err := rowexec.DefaultBuilder.Build(ctx, n, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		name := fmt.Sprint(r[0])
		switch strings.ToLower(name) {
		case "collation_database":
			if session {
				r[1] = c.Name()
			}
		case "character_set_database":
			if session {
				r[1] = c.CharacterSet().String()
			}
		}
		r[1] = VariableText(name, r[1])
	}
	return sql.RowsToRowIter(rows...), nil
}

// noteCollatedCreate marks a CREATE DATABASE that names a character set
// or collation while it is planned: the engine warns that it does not
// support them (1235), which sqlearn does (see Session.Warn).
func noteCollatedCreate(s *Session, st ast.Statement) {
	d, ok := st.(*ast.DBDDL)
	s.collatedCreate = ok && strings.EqualFold(d.Action, ast.CreateStr) && len(d.CharsetCollate) > 0
}

// note adds a note of MySQL's to ctx's session as it is (Session.Warn
// takes a Note of a code IGNORE turns into a warning for the engine's).
func note(ctx *sql.Context, code int, message string) {
	w := &sql.Warning{Level: "Note", Code: code, Message: message}
	if s, ok := ctx.Session.(*Session); ok {
		s.BaseSession.Warn(w)
		return
	}
	ctx.Session.Warn(w)
}

// Warn adds a warning to the session, less the engine's note that CREATE
// DATABASE's CHARACTER SET and COLLATE are not supported. A row that
// INSERT IGNORE skips or changes is a Warning with MySQL's text, as in
// MySQL; the engine made it a Note.
func (s *Session) Warn(w *sql.Warning) {
	if w == nil {
		return
	}
	if s.collatedCreate && w.Code == erNotSupportedYet {
		return
	}
	code := w.Code
	if code == mysql.ERUnknownError {
		// The engine's conversions give their errors no code of their
		// own: known by their text, as sqlError knows them.
		code = engineMessageCode(w.Message, code)
	}
	if m, ok := databaseNote(w); ok {
		c := *w
		c.Message = m
		w = &c
	}
	if w.Level == "Note" && ignoredRowCodes[code] {
		c := *w
		c.Level, c.Code, c.Message = "Warning", code, mysqlMessage(code, w.Message)
		w = &c
	}
	s.BaseSession.Warn(w)
}

// databaseNote is MySQL's text of the notes CREATE DATABASE IF NOT
// EXISTS and DROP DATABASE IF EXISTS raise, which quotes the database's
// name; the engine's did not, and ended in a space.
func databaseNote(w *sql.Warning) (string, bool) {
	var head, tail string
	switch w.Code {
	case mysql.ERDbCreateExists:
		head, tail = "Can't create database ", "; database exists"
	case mysql.ERDbDropExists:
		head, tail = "Can't drop database ", "; database doesn't exist"
	default:
		return "", false
	}
	name, ok := strings.CutPrefix(strings.TrimSuffix(w.Message, " "), head)
	if name, ok = strings.CutSuffix(name, tail); !ok || strings.HasPrefix(name, "'") {
		return "", false
	}
	return head + "'" + name + "'" + tail, true
}

// ignoredRowCodes are the errors that IGNORE turns into warnings.
var ignoredRowCodes = map[int]bool{
	mysql.ERDupEntry: true, mysql.ERBadNullError: true, mysql.ErNoReferencedRow2: true, mysql.ERRowIsReferenced2: true,
	erCheckConstraintViolated: true, mysql.ERWarnDataOutOfRange: true, mysql.ERDataTooLong: true,
	mysql.ERTruncatedWrongValueForField: true, 1265: true, 1292: true,
}
