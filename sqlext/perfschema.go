package sqlext

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// PerformanceSchema is MySQL's performance_schema database, with the
// tables that tools read for the server's variables and status
// (monitoring agents, administration consoles, connectors checking a
// setting): global_variables, session_variables, global_status and
// session_status, each VARIABLE_NAME and VARIABLE_VALUE as MySQL 8 gives
// them. It is read-only, and every user may read it, as in MySQL.
const PerformanceSchema = "performance_schema"

// perfDatabase serves PerformanceSchema.
type perfDatabase struct {
	eventless
	readOnlyDatabase
}

var _ sql.Database = perfDatabase{}

func newPerfDatabase() perfDatabase {
	return perfDatabase{readOnlyDatabase: readOnlyDatabase{name: PerformanceSchema}}
}

func (perfDatabase) Name() string { return PerformanceSchema }

func (perfDatabase) GetTableInsensitive(_ *sql.Context, name string) (sql.Table, bool, error) {
	st, ok := perfTables[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	return &sysTable{st: st}, true, nil
}

func (perfDatabase) GetTableNames(*sql.Context) ([]string, error) {
	names := make([]string, 0, len(perfTables))
	for name := range perfTables {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

func isPerformanceSchema(name string) bool { return strings.EqualFold(name, PerformanceSchema) }

// perfVariablesSchema is the layout of the four tables.
func perfVariablesSchema(table string) sql.Schema {
	return sql.Schema{
		{Name: "VARIABLE_NAME", Type: types.MustCreateString(sqltypes.VarChar, 64, sql.Collation_utf8mb4_0900_ai_ci), Source: table, DatabaseSource: PerformanceSchema},
		{Name: "VARIABLE_VALUE", Type: types.MustCreateString(sqltypes.VarChar, 1024, sql.Collation_utf8mb4_0900_ai_ci), Source: table, DatabaseSource: PerformanceSchema, Nullable: true},
	}
}

var perfTables = map[string]*SystemTable{
	"global_variables": {Name: "global_variables", Schema: perfVariablesSchema("global_variables"),
		Rows: func(*sql.Context) ([]sql.Row, error) {
			return variableRows(sql.SystemVariables.GetAllGlobalVariables()), nil
		}},
	"session_variables": {Name: "session_variables", Schema: perfVariablesSchema("session_variables"),
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			return variableRows(ctx.GetAllSessionVariables()), nil
		}},
	"global_status": {Name: "global_status", Schema: perfVariablesSchema("global_status"),
		Rows: func(*sql.Context) ([]sql.Row, error) {
			refreshUptime()
			return statusRows(sql.StatusVariables.NewGlobalMap()), nil
		}},
	"session_status": {Name: "session_status", Schema: perfVariablesSchema("session_status"),
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			// A session sees the global values, overridden by its own.
			refreshUptime()
			vars := sql.StatusVariables.NewGlobalMap()
			for name, v := range ctx.Session.GetAllStatusVariables(ctx) {
				vars[name] = v
			}
			return statusRows(vars), nil
		}},
}

func variableRows(vars map[string]any) []sql.Row {
	rows := make([]sql.Row, 0, len(vars))
	for name, v := range vars {
		rows = append(rows, sql.Row{name, VariableText(name, v)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
	return rows
}

func statusRows(vars map[string]sql.StatusVarValue) []sql.Row {
	rows := make([]sql.Row, 0, len(vars))
	for name, v := range vars {
		rows = append(rows, sql.Row{name, VariableText(name, v.Value())})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
	return rows
}

// VariableText is a system or status variable's value as MySQL shows it
// in SHOW VARIABLES and performance_schema: a boolean variable as ON or
// OFF, a number in decimal, NULL as the empty string.
func VariableText(name string, v any) string {
	if sv, _, ok := sql.SystemVariables.GetGlobal(name); ok {
		if _, isBool := sv.GetType().(types.SystemBoolType); isBool {
			switch n := v.(type) {
			case int8:
				return onOff(n != 0)
			case int64:
				return onOff(n != 0)
			case bool:
				return onOff(n)
			}
		}
	}
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', 6, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', 6, 32)
	}
	return fmt.Sprint(v)
}

func onOff(on bool) string {
	if on {
		return "ON"
	}
	return "OFF"
}

// started is when this process began serving; Uptime counts from it.
var (
	startedOnce sync.Once
	started     time.Time
)

func markStarted() { startedOnce.Do(func() { started = time.Now() }) }

func uptimeSeconds() int64 {
	markStarted()
	return int64(time.Since(started) / time.Second)
}

// refreshUptime sets the engine's Uptime status variable, which it never
// advances, so SHOW GLOBAL STATUS gives the seconds since the server
// started, as MySQL does.
func refreshUptime() {
	s := uptimeSeconds()
	_ = sql.StatusVariables.SetGlobal("Uptime", s)
	_ = sql.StatusVariables.SetGlobal("Uptime_since_flush_status", s)
}
