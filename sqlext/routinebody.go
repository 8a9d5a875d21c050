package sqlext

import (
	"context"
	"errors"
	"strings"
	"sync"
	"unicode"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/sqlearn/sqlearn/internal/compound"
)

// The engine plans a CREATE PROCEDURE, and every CALL, from the
// procedure's text. Its parser refuses statements a body may hold (GET
// DIAGNOSTICS) and its planner refuses others (a handler FOR 1062 or FOR
// SQLSTATE '23000'), so both are given the procedure with an empty body:
// internal/compound reads the body, checks it as MySQL does when the
// procedure is created, and routinerun.go runs it. The text the engine
// stores, shows and reads the body from is the statement as written.

// stubBody is the body the engine is given.
const stubBody = "BEGIN END"

// parseProcedure parses query with parse when it is a CREATE PROCEDURE,
// its body given as stubBody; ok is false for any other statement. pre
// is the statement as written, and the statement's body positions are
// the written body's. check, when not nil, checks the body's statements.
func parseProcedure(query string, parse func(string) (ast.Statement, string, string, error), check func(*compound.Routine) error, definer string) (st ast.Statement, pre, rest string, ok bool, err error) {
	if !containsFold(query, "procedure") {
		return nil, "", "", false, nil // the common case, decided without reading the statement
	}
	r, isProc, err := readProcedure(query)
	if !isProc {
		return nil, "", "", false, nil
	}
	if err == nil && r.IfNotExists {
		// The engine's parser has no IF NOT EXISTS here; the CREATE
		// reads it from the statement's text (createProcedure).
		query = withoutIfNotExists(query, r)
		r, _, err = readProcedure(query)
	}
	if err == nil && check != nil {
		err = check(r)
	}
	if err != nil {
		return nil, "", "", true, routineError(err)
	}
	stub := query[:r.Start] + stubBody + query[r.End:]
	st, pre, rest, err = parse(stub)
	if err != nil {
		return nil, "", "", true, err
	}
	ddl, isDDL := st.(*ast.DDL)
	if !isDDL || ddl.ProcedureSpec == nil {
		return st, pre, rest, true, nil
	}
	at := ddl.SubStatementPositionStart
	if k := strings.Index(stub, pre); k >= 0 && r.Start-k >= 0 && strings.HasPrefix(pre[r.Start-k:], stubBody) {
		// Where the stub lies is known; the parser counts one byte short
		// after a COMMENT's string.
		at = r.Start - k
		ddl.SubStatementPositionStart = at
	}
	if at < 0 || at+len(stubBody) > len(pre) || pre[at:at+len(stubBody)] != stubBody {
		return nil, "", "", true, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%s'", query[r.Start:])
	}
	pre = pre[:at] + query[r.Start:r.End] + pre[at+len(stubBody):]
	ddl.SubStatementPositionEnd = at + r.End - r.Start
	if definer != "" && !r.HasDefiner {
		// MySQL records the creating account as the definer of a
		// procedure that names none, and writes it in the text it keeps.
		created := r.Created - (len(query) - len(strings.TrimLeftFunc(query, unicode.IsSpace)))
		if created >= len("CREATE") && created <= at && strings.EqualFold(pre[created-len("CREATE"):created], "CREATE") {
			insert := " DEFINER=" + definer
			pre = pre[:created] + insert + pre[created:]
			ddl.SubStatementPositionStart += len(insert)
			ddl.SubStatementPositionEnd += len(insert)
			ddl.ProcedureSpec.Definer = definer
		}
	}
	return st, pre, rest, true, nil
}

// definerOf is the account running ctx's statement, as a DEFINER clause
// names it (`user`@`host`); empty when unknown.
func definerOf(ctx context.Context) string {
	sctx, ok := ctx.(*sql.Context)
	if !ok || sctx.Session == nil {
		return ""
	}
	c := sctx.Session.Client()
	if c.User == "" {
		return ""
	}
	return quoteIdent(c.User) + "@" + quoteIdent(c.Address)
}

// readProcedure is compound.Procedure(query), from the routines read
// before when query is one of them: the engine reads a procedure's text
// again for every CALL.
func readProcedure(query string) (*compound.Routine, bool, error) {
	if r, ok := routines.Load(query); ok && !r.(*compound.Routine).Function {
		return r.(*compound.Routine), true, nil
	}
	return compound.Procedure(query)
}

// routineError is a body's error as the client gets it.
func routineError(err error) error {
	var ce *compound.Error
	if errors.As(err, &ce) {
		return mysql.NewSQLError(ce.Code, ce.State, "%s", ce.Msg)
	}
	return err
}

// routines holds the bodies read from procedures' texts, by text: a
// procedure is read once however often it is called.
var routines sync.Map

// compiledRoutine is the procedure of a CREATE PROCEDURE text, read.
func compiledRoutine(text string) (*compound.Routine, error) {
	if r, ok := routines.Load(text); ok {
		return r.(*compound.Routine), nil
	}
	r, ok, err := compound.Procedure(text)
	if !ok {
		r, ok, err = compound.Function(text)
	}
	if !ok {
		return nil, mysql.NewSQLError(mysql.ERUnknownError, "HY000", "stored routine text is no CREATE PROCEDURE or FUNCTION: %.40q", text)
	}
	if err != nil {
		return nil, routineError(err)
	}
	routines.Store(text, r)
	return r, nil
}

// declaredTypes holds the types of DECLAREd variables, by their text.
var declaredTypes sync.Map

// declaredType is the SQL type a DECLARE or a parameter names.
func declaredType(text string) (sql.Type, error) {
	if t, ok := declaredTypes.Load(text); ok {
		return t.(sql.Type), nil
	}
	st, err := ast.Parse("CREATE TABLE t (v " + text + ")")
	if err != nil {
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s'", text)
	}
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.TableSpec == nil || len(ddl.TableSpec.Columns) != 1 {
		return nil, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax near '%s'", text)
	}
	t, err := types.ColumnTypeToType(&ddl.TableSpec.Columns[0].Type)
	if err != nil {
		return nil, err
	}
	declaredTypes.Store(text, t)
	return t, nil
}

// procParam is a parameter of a procedure: its name, type and direction.
type procParam struct {
	name string
	typ  sql.Type
	dir  plan.ProcedureParamDirection
}

// routineParams are a procedure's parameters, read from its text.
func routineParams(r *compound.Routine) ([]procParam, error) {
	out := make([]procParam, len(r.Params))
	for i, p := range r.Params {
		t, err := declaredType(p.Type)
		if err != nil {
			return nil, err
		}
		dir := plan.ProcedureParamDirection_In
		switch p.Mode {
		case "OUT":
			dir = plan.ProcedureParamDirection_Out
		case "INOUT":
			dir = plan.ProcedureParamDirection_Inout
		}
		out[i] = procParam{name: p.Name, typ: t, dir: dir}
	}
	return out, nil
}

// engineParser is the parser of the engine that runs a procedure's
// statements: the server's, with its rewrites.
func engineParser(runner sql.StatementRunner) sql.Parser {
	if e, ok := runner.(*sqle.Engine); ok && e.Parser != nil {
		return e.Parser
	}
	return sql.GlobalParser
}

// storedProcedure is procedure name of database db, as stored.
func storedProcedure(ctx *sql.Context, db, name string) (sql.StoredProcedureDetails, bool) {
	s, ok := ctx.Session.(*Session)
	if !ok || s.p == nil {
		return sql.StoredProcedureDetails{}, false
	}
	d, err := s.p.Database(ctx, db)
	if err != nil {
		return sql.StoredProcedureDetails{}, false
	}
	spdb, ok := d.(sql.StoredProcedureDatabase)
	if !ok {
		return sql.StoredProcedureDetails{}, false
	}
	spd, ok, err := spdb.GetStoredProcedure(ctx, strings.ToLower(name))
	if err != nil || !ok {
		return sql.StoredProcedureDetails{}, false
	}
	return spd, true
}

// parseOneProcedure is parseProcedure for a parser that reads one
// statement and says where it ends.
func parseOneProcedure(query string, parse func(string) (ast.Statement, int, error), check func(*compound.Routine) error, definer string) (st ast.Statement, end int, ok bool, err error) {
	var n int
	st, _, _, ok, err = parseProcedure(query, func(q string) (ast.Statement, string, string, error) {
		s, k, err := parse(q)
		n = k
		if err != nil {
			return nil, "", "", err
		}
		return s, q[:k], q[k:], nil
	}, check, definer)
	if !ok || err != nil {
		return st, 0, ok, err
	}
	// n is where the statement ends in the text with the stub body (and
	// without IF NOT EXISTS, which parseProcedure takes out first).
	r, _, _ := readProcedure(query)
	removed := 0
	if r.IfNotExists {
		removed = len(query) - len(withoutIfNotExists(query, r))
	}
	if delta := r.End - r.Start - len(stubBody); n >= r.Start-removed+len(stubBody) {
		n += delta
	}
	return st, n + removed, true, nil
}

// withoutIfNotExists is the CREATE PROCEDURE query, read as r, without
// its IF NOT EXISTS.
func withoutIfNotExists(query string, r *compound.Routine) string {
	return query[:r.IfNotExistsSpan[0]] + strings.TrimLeftFunc(query[r.IfNotExistsSpan[1]:], unicode.IsSpace)
}

// checkedRoutines holds the texts of procedures whose statements
// checkStatements found sound.
var checkedRoutines sync.Map

// checkStatements checks the statements and expressions of a procedure's
// body as MySQL does when the procedure is created: each must parse, a
// SELECT ... INTO must name declared variables (1327) and a SET a local
// variable or a system variable (1193). parse reads one statement as the
// server does.
func checkStatements(text string, r *compound.Routine, parse func(string) (ast.Statement, error)) error {
	if _, ok := checkedRoutines.Load(text); ok {
		return nil
	}
	err := compound.Visit(r, func(t string, expr bool, isVar func(string) bool) error {
		if expr {
			t = "SELECT " + t
		}
		st, err := parse(t)
		if err != nil {
			return err
		}
		if r.Function && !expr {
			if err := functionStatement(st); err != nil {
				return err
			}
		}
		switch x := st.(type) {
		case ast.SelectStatement:
			if into := x.GetInto(); into != nil {
				for _, v := range into.Variables {
					if n := v.String(); !strings.HasPrefix(n, "@") && !isVar(n) {
						return mysql.NewSQLError(1327, "42000", "Undeclared variable: %s", n)
					}
				}
			}
		case *ast.Set:
			for _, e := range x.Exprs {
				if e.Scope != ast.SetScope_None || e.Name == nil || !e.Name.Qualifier.IsEmpty() {
					continue
				}
				n := e.Name.Name.String()
				if strings.HasPrefix(n, "@") || isVar(n) || strings.EqualFold(n, "TRANSACTION") || strings.EqualFold(n, "NAMES") || strings.EqualFold(n, "CHARACTER SET") || strings.EqualFold(n, "CHARSET") {
					continue
				}
				if _, _, ok := sql.SystemVariables.GetGlobal(n); !ok {
					return mysql.NewSQLError(mysql.ERUnknownSystemVariable, "HY000", "Unknown system variable '%s'", n)
				}
			}
		}
		return nil
	})
	if err == nil {
		checkedRoutines.Store(text, true)
	}
	return err
}

// functionStatement refuses in a stored function what MySQL refuses
// there: a statement that answers with rows (1415) and one that commits
// (1422).
func functionStatement(st ast.Statement) error {
	switch x := st.(type) {
	case ast.SelectStatement:
		if into := x.GetInto(); into == nil {
			return mysql.NewSQLError(erSPNoRetSet, "0A000", "Not allowed to return a result set from a function")
		}
	case *ast.Show, *ast.Explain:
		return mysql.NewSQLError(erSPNoRetSet, "0A000", "Not allowed to return a result set from a function")
	case *ast.Begin, *ast.Commit, *ast.Rollback, *ast.DDL, *ast.DBDDL, *ast.AlterTable:
		return mysql.NewSQLError(erCommitNotAllowed, "HY000", "Explicit or implicit commit is not allowed in stored function or trigger.")
	}
	return nil
}
