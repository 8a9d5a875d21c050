package sqlext

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// fileAccessRule refuses the engine's server-side file statements (LOAD
// DATA INFILE, SELECT ... INTO OUTFILE or DUMPFILE, LOAD_FILE()) when the
// server has no import directory. The engine reads an unset
// secure_file_priv as "anywhere", so without this any user with the FILE
// privilege could read and write any file the server can; MySQL disables
// them when secure_file_priv is NULL, with the same error. LOAD DATA LOCAL,
// which reads the client's file, is not affected.
const fileAccessRule analyzer.RuleId = 9993

// secure_file_priv reads NULL on a server without an import directory,
// as it does in MySQL when file access is disabled: the engine's string
// type turns NULL into the empty string, which MySQL reads as "anywhere"
// (and the engine warned of at start-up). Every file path the engine
// reads it on is refused before (the rule below and refusedLoadFile), so
// NULL never reaches them.
func init() {
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
		Name:  "secure_file_priv",
		Scope: sql.GetMysqlScope(sql.SystemVariableScope_Global),
		Type:  nullableString{types.NewSystemStringType("secure_file_priv")},
	}})
}

// nullableString is a string system variable that may be NULL.
type nullableString struct{ sql.SystemVariableType }

func (t nullableString) Convert(ctx context.Context, v any) (any, sql.ConvertInRange, error) {
	if v == nil {
		return nil, sql.InRange, nil
	}
	return t.SystemVariableType.Convert(ctx, v)
}

// erOptionPreventsStatement is MySQL's ER_OPTION_PREVENTS_STATEMENT.
const erOptionPreventsStatement = 1290

func (p *Provider) refuseFileAccess(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if p.importDir != "" {
		return n, transform.SameTree, nil
	}
	var what string
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.LoadData:
			if !n.Local {
				what = "LOAD DATA INFILE"
			}
		case *plan.Into:
			if n.Outfile != "" || n.Dumpfile != "" {
				what = "SELECT ... INTO OUTFILE"
			}
		}
		if ex, ok := n.(sql.Expressioner); ok && what == "" {
			for _, e := range ex.Expressions() {
				if transform.InspectExpr(e, func(e sql.Expression) bool {
					f, ok := e.(sql.FunctionExpression)
					return ok && f.FunctionName() == "load_file"
				}) {
					what = "LOAD_FILE()"
				}
			}
		}
		return what == ""
	})
	if what != "" {
		return nil, transform.SameTree, fileAccessOff(what)
	}
	return n, transform.SameTree, nil
}

func fileAccessOff(what string) error {
	return mysql.NewSQLError(erOptionPreventsStatement, "HY000",
		"The server is running without --import-dir, so it cannot execute %s (server-side file access is off)", what)
}

// refusedLoadFile stands for LOAD_FILE() on a server without an import
// directory (Provider.Function). The rule above refuses a statement that
// names it when it is planned, but the engine plans single-table UPDATE
// and DELETE, and stored routines' bodies, without the analyzer's
// extension rules; whatever path a statement takes, evaluating the
// function fails.
type refusedLoadFile struct{ *function.LoadFile }

func newRefusedLoadFile(name sql.Expression) sql.Expression {
	return &refusedLoadFile{function.NewLoadFile(name).(*function.LoadFile)}
}

func (r *refusedLoadFile) Eval(*sql.Context, sql.Row) (any, error) {
	return nil, fileAccessOff("LOAD_FILE()")
}

func (r *refusedLoadFile) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 1)
	}
	return newRefusedLoadFile(children[0]), nil
}
