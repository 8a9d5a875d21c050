package sqlext

import (
	"strconv"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// SET GLOBAL v = DEFAULT sets v to its compiled default, as in MySQL
// (SET SESSION v = DEFAULT takes the global value, as the engine does).
// The engine set the global value to itself, so that nothing undid a SET
// GLOBAL. The DEFAULT is written as the default's literal before the
// statement is planned.
func globalDefaults(st ast.Statement) {
	set, ok := st.(*ast.Set)
	if !ok {
		return
	}
	for _, e := range set.Exprs {
		if _, isDefault := e.Expr.(*ast.Default); !isDefault || e.Name == nil {
			continue
		}
		name, scope := e.Name.Name.String(), e.Scope
		if scope == ast.SetScope_None || scope == "" {
			col, s, _, err := ast.VarScopeForColName(e.Name)
			if err != nil || col == nil {
				continue
			}
			name, scope = col.Name.String(), s
		}
		if scope != ast.SetScope_Global {
			continue
		}
		v, _, ok := sql.SystemVariables.GetGlobal(name)
		if !ok {
			continue
		}
		switch d := v.GetDefault().(type) {
		case string:
			e.Expr = ast.NewStrVal([]byte(d))
		case int8:
			e.Expr = ast.NewIntVal([]byte(strconv.FormatInt(int64(d), 10)))
		case int64:
			e.Expr = ast.NewIntVal([]byte(strconv.FormatInt(d, 10)))
		case uint64:
			e.Expr = ast.NewIntVal([]byte(strconv.FormatUint(d, 10)))
		case float64:
			e.Expr = ast.NewFloatVal([]byte(strconv.FormatFloat(d, 'g', -1, 64)))
		}
	}
}
