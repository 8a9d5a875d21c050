package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The engine runs a stored procedure's statements by binding the values of
// its parameters and local variables into each statement's syntax tree
// first, and binds them only in some places: a WHERE, a SELECT's columns,
// VALUES, function arguments and arithmetic, comparisons and AND/OR/NOT.
// A variable read anywhere else (UPDATE ... SET c = c - amt, CASE WHEN a >
// 0, a BETWEEN x AND y, a IS NULL, -a, GROUP BY, HAVING, ORDER BY) stayed
// a column name, and the statement failed with 1054 ("column "amt" could
// not be found"). boundVariables lets the engine bind those too: each such
// read becomes a parenthesised expression that the statement's WHERE also
// holds, in a term that is always true (TRUE OR (amt) OR ...), and the
// engine, binding the WHERE, binds the one expression both places share.
// MySQL reads a name that is both a variable and a column as the
// variable, so every unqualified name of a variable is one.

// boundVariables prepares the statements of a CREATE PROCEDURE's body, and
// makes its RESIGNALs SIGNALs (withoutResignal).
func boundVariables(st ast.Statement) {
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ProcedureSpec == nil || ddl.ProcedureSpec.Body == nil {
		return
	}
	vars := map[string]bool{}
	for _, p := range ddl.ProcedureSpec.Params {
		vars[strings.ToLower(p.Name)] = true
	}
	eachStatement(ddl.ProcedureSpec.Body, func(s ast.Statement) {
		if d, ok := s.(*ast.Declare); ok && d.Variables != nil {
			for _, n := range d.Variables.Names {
				vars[n.Lowered()] = true
			}
		}
	})
	ddl.ProcedureSpec.Body = withoutResignal(ddl.ProcedureSpec.Body)
	if len(vars) == 0 {
		return
	}
	eachStatement(ddl.ProcedureSpec.Body, func(s ast.Statement) { bindInWhere(s, vars) })
}

// withoutResignal is s with each RESIGNAL in it made a SIGNAL, which the
// engine runs: it has no RESIGNAL, and refused it (1105). The SIGNAL
// raises SQLSTATE 45000 (or the one the RESIGNAL names) with the
// RESIGNAL's MESSAGE_TEXT, else MySQL's text for 45000: the handled
// error's own code and text are not known here.
func withoutResignal(s ast.Statement) ast.Statement {
	if x, ok := s.(*ast.Resignal); ok {
		sig := x.Signal
		if sig.SqlStateValue == "" && sig.ConditionName == "" {
			sig.SqlStateValue = "45000"
		}
		hasText := false
		for _, in := range sig.Info {
			hasText = hasText || in.ConditionItemName == ast.SignalConditionItemName_MessageText
		}
		if !hasText {
			sig.Info = append(sig.Info, ast.SignalInfo{ConditionItemName: ast.SignalConditionItemName_MessageText,
				Value: ast.NewStrVal([]byte("Unhandled user-defined exception condition"))})
		}
		return &sig
	}
	innerStatements(s, func(l *ast.Statements) {
		kept := (*l)[:0]
		for _, x := range *l {
			if !reraisesOnly(x) {
				kept = append(kept, withoutResignal(x))
			}
		}
		*l = kept
	}, func(h *ast.Statement) { *h = endingHandler(oneStatementHandler(withoutResignal(*h))) })
	return s
}

// endingHandler is a handler's statement in a form the engine ends: it
// ran a handler of one statement that gives rows (a SELECT, an UPDATE)
// and then started the procedure over, so the CALL never ended. Such a
// statement is put in a BEGIN ... END, of which the engine runs nothing:
// the handler's work is lost (docs/sql/compatibility.md), but the CALL
// ends as the handler says.
func endingHandler(s ast.Statement) ast.Statement {
	switch s.(type) {
	case *ast.Select, *ast.SetOp, *ast.Insert, *ast.Update, *ast.Delete, *ast.Call:
		return &ast.BeginEndBlock{Statements: ast.Statements{s}}
	}
	return s
}

// reraisesOnly says whether s declares a handler that only raises the
// error it handles again (RESIGNAL, after ROLLBACKs): without it the error
// ends the CALL as it is, its own code and text kept, and the CALL's
// transaction goes with it, which is what such a handler does in MySQL.
func reraisesOnly(s ast.Statement) bool {
	d, ok := s.(*ast.Declare)
	if !ok || d.Handler == nil || d.Handler.Action != ast.DeclareHandlerAction_Exit {
		return false
	}
	body := ast.Statements{d.Handler.Statement}
	if b, ok := d.Handler.Statement.(*ast.BeginEndBlock); ok && b.Label == "" {
		body = b.Statements
	}
	if len(body) == 0 {
		return false
	}
	r, ok := body[len(body)-1].(*ast.Resignal)
	if !ok || r.ConditionName != "" || r.SqlStateValue != "" || len(r.Info) > 0 {
		return false
	}
	for _, x := range body[:len(body)-1] {
		if _, ok := x.(*ast.Rollback); !ok {
			return false
		}
	}
	return true
}

// oneStatementHandler is a handler's body that raises an error, made the
// SIGNAL alone: the engine runs only the first step of a BEGIN ... END
// handler body, which skipped its statements and lost the error. A body
// of a SIGNAL (a RESIGNAL, above), or of ROLLBACKs and then one, is the
// SIGNAL, as the error ends the CALL and its transaction goes with it.
// Other bodies stay as they are: the engine runs a handler of a statement
// that gives rows (a SELECT, an UPDATE) over and over, and a body of
// several steps at least does nothing (docs/sql/compatibility.md).
func oneStatementHandler(s ast.Statement) ast.Statement {
	b, ok := s.(*ast.BeginEndBlock)
	if !ok || b.Label != "" || len(b.Statements) == 0 {
		return s
	}
	last := b.Statements[len(b.Statements)-1]
	if _, ok := last.(*ast.Signal); !ok {
		return s
	}
	for _, x := range b.Statements[:len(b.Statements)-1] {
		if _, ok := x.(*ast.Rollback); !ok {
			return s
		}
	}
	return last
}

// eachStatement calls f for every statement of a procedure's body, the
// ones inside blocks, branches, loops and handlers too.
func eachStatement(s ast.Statement, f func(ast.Statement)) {
	if !innerStatements(s, func(l *ast.Statements) {
		for _, x := range *l {
			eachStatement(x, f)
		}
	}, func(h *ast.Statement) { eachStatement(*h, f) }) {
		f(s)
	}
}

// innerStatements calls list with each list of statements s holds (a
// block's, a branch's, a loop's) and one with a handler's statement, and
// says whether s is a block, branch or loop (a DECLARE of a handler is a
// statement of its own too).
func innerStatements(s ast.Statement, list func(*ast.Statements), one func(*ast.Statement)) bool {
	switch x := s.(type) {
	case *ast.BeginEndBlock:
		list(&x.Statements)
	case *ast.IfStatement:
		for i := range x.Conditions {
			list(&x.Conditions[i].Statements)
		}
		list(&x.Else)
	case *ast.CaseStatement:
		for i := range x.Cases {
			list(&x.Cases[i].Statements)
		}
		list(&x.Else)
	case *ast.While:
		list(&x.Statements)
	case *ast.Repeat:
		list(&x.Statements)
	case *ast.Loop:
		list(&x.Statements)
	case *ast.Declare:
		if x.Handler != nil && x.Handler.Statement != nil {
			one(&x.Handler.Statement)
		}
		return false
	default:
		return false
	}
	return true
}

// bindInWhere gives the variables a statement reads a shared place in
// its WHERE, where it has one.
func bindInWhere(s ast.Statement, vars map[string]bool) {
	var where **ast.Where
	switch x := s.(type) {
	case *ast.Select:
		where = &x.Where
	case *ast.Update:
		where = &x.Where
	case *ast.Delete:
		where = &x.Where
	case *ast.Insert:
		if sel, ok := x.Rows.(*ast.Select); ok {
			where = &sel.Where
		}
	}
	if where == nil {
		return
	}
	var shared []ast.Expr
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		shared = append(shared, wrapVariables(n, vars)...)
		return true, nil
	}, s)
	if len(shared) == 0 {
		return
	}
	var carrier ast.Expr = ast.BoolVal(true)
	for _, p := range shared {
		carrier = &ast.OrExpr{Left: carrier, Right: p}
	}
	term := &ast.ParenExpr{Expr: carrier}
	if *where == nil {
		*where = ast.NewWhere(ast.WhereStr, term)
		return
	}
	(*where).Expr = &ast.AndExpr{Left: &ast.ParenExpr{Expr: (*where).Expr}, Right: term}
}

// wrapVariables puts each variable that node's own expressions read in
// parentheses, and gives those.
func wrapVariables(n ast.SQLNode, vars map[string]bool) []ast.Expr {
	var out []ast.Expr
	wrap := func(e *ast.Expr) {
		if *e == nil {
			return
		}
		var names []*ast.ColName
		_ = ast.Walk(func(x ast.SQLNode) (bool, error) {
			switch c := x.(type) {
			case *ast.Subquery:
				return false, nil // its own SELECT is walked apart
			case *ast.ColName:
				if c.Qualifier.IsEmpty() && c.StoredProcVal == nil && vars[c.Name.Lowered()] {
					names = append(names, c)
				}
			}
			return true, nil
		}, *e)
		for _, c := range names {
			p := &ast.ParenExpr{Expr: c}
			if *e == ast.Expr(c) {
				*e = p
			} else {
				*e = ast.ReplaceExpr(*e, c, p)
			}
			out = append(out, p)
		}
	}
	var slots []*ast.Expr
	switch x := n.(type) {
	case *ast.Select:
		for _, se := range x.SelectExprs {
			if ae, ok := se.(*ast.AliasedExpr); ok {
				slots = append(slots, &ae.Expr)
			}
		}
		for i := range x.GroupBy {
			slots = append(slots, &x.GroupBy[i])
		}
		if x.Having != nil {
			slots = append(slots, &x.Having.Expr)
		}
		slots = append(slots, orderAndWhere(x.OrderBy, x.Where)...)
	case *ast.Update:
		for _, a := range x.Exprs {
			slots = append(slots, &a.Expr)
		}
		slots = append(slots, orderAndWhere(x.OrderBy, x.Where)...)
	case *ast.Delete:
		slots = orderAndWhere(x.OrderBy, x.Where)
	}
	for _, e := range slots {
		wrap(e)
	}
	return out
}

// orderAndWhere are the expressions of an ORDER BY and a WHERE.
func orderAndWhere(order ast.OrderBy, where *ast.Where) []*ast.Expr {
	var out []*ast.Expr
	for _, o := range order {
		out = append(out, &o.Expr)
	}
	if where != nil {
		out = append(out, &where.Expr)
	}
	return out
}

// procedureParser is the parser the engine loads a stored procedure with
// (the global one, which it uses wherever it is given none), with
// boundVariables applied to what it reads. It keeps no state, so one
// serves every server in the process.
type procedureParser struct {
	sql.Parser
}

func init() {
	sql.GlobalParser = procedureParser{Parser: sql.GlobalParser}
}

func (p procedureParser) ParseWithOptions(ctx context.Context, query string, delim rune, multi bool, opts ast.ParserOptions) (ast.Statement, string, string, error) {
	st, pre, rest, err := p.Parser.ParseWithOptions(ctx, query, delim, multi, opts)
	if err == nil {
		boundVariables(st)
	}
	return st, pre, rest, err
}

// NewStoredProcParam gives a CALL's parameter its slot in the session. The
// engine keeps one slot per name for the session's life, and kept the
// type of the first procedure that used the name: a later procedure's
// VARCHAR parameter a named like an earlier one's INT was read as an INT
// ("could not convert ... to any numerical type"). The slot takes the
// new parameter's type.
func (s *Session) NewStoredProcParam(name string, param *sql.StoredProcParam) *sql.StoredProcParam {
	spp := s.BaseSession.NewStoredProcParam(name, param)
	if spp != param && param != nil && param.Type != nil {
		spp.Type = param.Type
	}
	return spp
}
