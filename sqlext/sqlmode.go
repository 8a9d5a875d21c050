package sqlext

import (
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// mysqlSQLMode is MySQL 8.0's default sql_mode. The engine's default had
// only ONLY_FULL_GROUP_BY, STRICT_TRANS_TABLES and
// NO_ENGINE_SUBSTITUTION, and implemented neither NO_ZERO_DATE (see
// storedDate) nor ERROR_FOR_DIVISION_BY_ZERO (divisionRule).
// NO_ZERO_IN_DATE needs nothing more: the engine's dates cannot hold a
// zero month or day, and refuses them in every mode.
const mysqlSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

func init() {
	v, _, ok := sql.SystemVariables.GetGlobal("sql_mode")
	msv, isMySQL := v.(*sql.MysqlSystemVariable)
	if !ok || !isMySQL {
		panic("sqlext: the engine has no system variable sql_mode")
	}
	changed := *msv
	changed.Default = mysqlSQLMode
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&changed})
}

// A division or modulo by zero is NULL with warning 1365. MySQL makes it
// error 1365, "Division by 0" (SQLSTATE 22012), in a statement that
// stores rows (INSERT, UPDATE, ON DUPLICATE KEY UPDATE, LOAD DATA), in
// strict mode with ERROR_FOR_DIVISION_BY_ZERO, unless the statement
// ignores errors, wherever the division is: in a stored value, in the
// rows an INSERT ... SELECT reads or in a WHERE. The engine stored the
// NULL. divisionRule gives each value such a statement stores, when the
// statement holds a division (/, DIV, % or MOD), a divisionChecked,
// which fails the row when the statement's warnings have gained a 1365
// by the time the value is computed. It runs before the rules that wrap
// stored values for their columns (temporalStoreRule, emptyNumberRule),
// which then wrap it in turn.
const divisionRule analyzer.RuleId = 9964

func divisionStores(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !storesRows(n) || !divides(n) || ignoresErrors(n) {
		return n, transform.SameTree, nil
	}
	seen := new(atomic.Int64)
	return wrapStoredValues(n, func(_ string, _ sql.Type, e sql.Expression) sql.Expression {
		if _, ok := e.(*divisionChecked); ok {
			return nil // planned before
		}
		return &divisionChecked{Expression: e, seen: seen}
	})
}

// storesRows reports whether n inserts or updates rows.
func storesRows(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case *plan.InsertInto, *plan.Update:
			found = true
		}
		return !found
	})
	return found
}

// divides reports whether n holds a division or modulo anywhere, an
// INSERT's source (which is not among its children) and subqueries
// included.
func divides(n sql.Node) bool {
	found := false
	var inspect func(n sql.Node)
	inspect = func(n sql.Node) {
		transform.Inspect(n, func(n sql.Node) bool {
			if n == nil {
				return !found
			}
			if ins, ok := n.(*plan.InsertInto); ok && ins.Source != nil {
				inspect(ins.Source)
			}
			transform.InspectExpressions(n, func(e sql.Expression) bool {
				switch e := e.(type) {
				case *expression.Div, *expression.IntDiv, *expression.Mod, *modulo, *intDiv:
					found = true
				case *plan.Subquery:
					if !found && e.Query != nil {
						inspect(e.Query)
					}
				}
				return !found
			})
			return !found
		})
	}
	inspect(n)
	return found
}

// divisionChecked is a value stored by a statement that divides. seen,
// shared by the statement's values, is how many of the statement's
// warnings have been looked at (the engine clears them as a statement
// starts, and plans each statement anew). It is no storeWrapper, so
// that the rules for the value's column still wrap it.
type divisionChecked struct {
	sql.Expression
	seen *atomic.Int64
}

func (d *divisionChecked) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := d.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	count := int64(ctx.Session.WarningCount())
	seen := d.seen.Swap(count)
	if count <= seen {
		return v, nil
	}
	warnings := ctx.Session.Warnings() // most recent first
	for _, w := range warnings[:min(int(count-seen), len(warnings))] {
		if w.Code == erDivisionByZero && divisionByZeroIsError(ctx) {
			return nil, mysql.NewSQLError(erDivisionByZero, "22012", "Division by 0")
		}
	}
	return v, nil
}

// divisionByZeroIsError reports whether the session's sql_mode makes a
// division by zero in a statement that stores rows an error.
func divisionByZeroIsError(ctx *sql.Context) bool {
	return strictMode(ctx) && sql.LoadSqlMode(ctx).ModeEnabled("ERROR_FOR_DIVISION_BY_ZERO")
}

func (d *divisionChecked) Children() []sql.Expression { return []sql.Expression{d.Expression} }

func (d *divisionChecked) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 1)
	}
	return &divisionChecked{Expression: children[0], seen: d.seen}, nil
}
