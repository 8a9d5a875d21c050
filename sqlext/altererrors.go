package sqlext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// unknownColumn is MySQL's error for a column an ALTER names that the
// table does not have (the engine's was ER_UNKNOWN_ERROR).
func unknownColumn(column, table string) error {
	return mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in '%s'", column, table)
}

// duplicateColumn is MySQL's error for a column an ALTER adds, or names
// by CHANGE or RENAME COLUMN, that the table already has (the engine's
// message was its own).
func duplicateColumn(column string) error {
	return mysql.NewSQLError(mysql.ERDupFieldName, "42S21", "Duplicate column name '%s'", column)
}

// sameName says whether two column or index names are one, as MySQL
// compares them (without regard to case).
func sameName(a, b string) bool { return strings.EqualFold(a, b) }

// alterColumnErrors wraps the engine's check of the column clauses of an
// ALTER TABLE, which answered a column named that the table does not
// have, and one added or renamed to a name it has, with texts of its own
// under ER_UNKNOWN_ERROR (or none MySQL gives). They become MySQL's:
// ER_BAD_FIELD_ERROR "Unknown column 'c' in 't'" (ER_CANT_DROP_FIELD_OR_KEY
// for DROP COLUMN) and ER_DUP_FIELDNAME "Duplicate column name 'c'".
func alterColumnErrors(check analyzer.RuleFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if ai, ok := n.(*plan.AlterIndex); ok && droppingFulltext(ai) {
			// The engine knows no FULLTEXT index, and would find none
			// of that name to drop (fulltextAlter drops it).
			return n, transform.SameTree, nil
		}
		out, same, err := check(ctx, a, n, scope, sel, qFlags)
		var table, column string
		switch {
		case err == nil:
		case sql.ErrColumnExists.Is(err):
			if _, scanErr := fmt.Sscanf(err.Error(), "Column %q already exists", &column); scanErr == nil {
				err = duplicateColumn(column)
			}
		case sql.ErrTableColumnNotFound.Is(err):
			if _, scanErr := fmt.Sscanf(err.Error(), "table %q does not have column %q", &table, &column); scanErr == nil {
				err = missingColumn(n, column)
			}
		}
		return out, same, err
	}
}

// missingColumn is MySQL's error for the first clause of an ALTER that
// names column where the table has none.
func missingColumn(n sql.Node, column string) error {
	var err error
	transform.Inspect(n, func(c sql.Node) bool {
		if err != nil {
			return false
		}
		var table sql.Node
		var names []string
		switch c := c.(type) {
		case *plan.DropColumn:
			if sameName(c.Column, column) {
				err = mysql.NewSQLError(mysql.ERCantDropFieldOrKey, "42000", "Can't DROP '%s'; check that column/key exists", column)
				return false
			}
		case *plan.AddColumn:
			table = c.Table
			if o := c.Order(); o != nil {
				names = append(names, o.AfterColumn)
			}
		case *plan.ModifyColumn:
			table, names = c.Table, []string{c.Column()}
			if o := c.Order(); o != nil {
				names = append(names, o.AfterColumn)
			}
		case *plan.RenameColumn:
			table, names = c.Table, []string{c.ColumnName}
		case *plan.AlterDefaultSet:
			table, names = c.Table, []string{c.ColumnName}
		case *plan.AlterDefaultDrop:
			table, names = c.Table, []string{c.ColumnName}
		}
		named, ok := table.(sql.Nameable)
		if ok && slices.ContainsFunc(names, func(s string) bool { return sameName(s, column) }) {
			err = unknownColumn(column, named.Name())
		}
		return err == nil
	})
	if err == nil {
		err = mysql.NewSQLError(mysql.ERBadFieldError, "42S22", "Unknown column '%s' in 'field list'", column)
	}
	return err
}

// defaultErrors wraps the engine's check of the defaults a CREATE TABLE
// or ALTER TABLE gives columns, which answered a literal default its
// column cannot hold ('xx' for a VARCHAR(1), 'abc' for an INT, 300 for a
// TINYINT) with its own texts under 1406, 1366 or 1264, naming no column.
// MySQL's answer is ER_INVALID_DEFAULT "Invalid default value for 'c'",
// for the first such column.
func defaultErrors(check analyzer.RuleFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		out, same, err := check(ctx, a, n, scope, sel, qFlags)
		if err != nil {
			if name, ok := invalidDefault(ctx, n); ok {
				err = mysql.NewSQLError(erInvalidDefault, "42000", "Invalid default value for '%s'", name)
			}
		}
		return out, same, err
	}
}

// erInvalidDefault is MySQL's ER_INVALID_DEFAULT.
const erInvalidDefault = 1067

// invalidDefault finds the first column of a DDL statement whose literal
// default does not convert to its type.
func invalidDefault(ctx *sql.Context, n sql.Node) (string, bool) {
	var found string
	bad := func(name string, def *sql.ColumnDefaultValue) bool {
		if def != nil && def.CheckType(ctx) != nil {
			found = name
		}
		return found != ""
	}
	transform.Inspect(n, func(c sql.Node) bool {
		if found != "" {
			return false
		}
		switch c := c.(type) {
		case *plan.CreateTable:
			for _, col := range c.TargetSchema() {
				if bad(col.Name, col.Default) {
					break
				}
			}
		case *plan.AddColumn:
			bad(c.Column().Name, c.Column().Default)
		case *plan.ModifyColumn:
			if col := c.NewColumn(); col != nil {
				bad(col.Name, col.Default)
			}
		case *plan.AlterDefaultSet:
			bad(c.ColumnName, c.Default)
		}
		return found == ""
	})
	return found, found != ""
}
