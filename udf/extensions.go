package udf

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/sqlext"
)

// Extensions returns every function and procedure of the package, bound to
// srv; it is what sqlext.Config.Extensions expects.
func Extensions(srv *sqlext.Server) sqlext.Extensions {
	addSystemVariables()
	l := &lib{srv: srv}
	var specs []*spec
	specs = append(specs, matrixSpecs()...)
	specs = append(specs, l.querySpecs()...)
	specs = append(specs, vectorSpecs()...)
	specs = append(specs, &spec{name: "SQLEARN_BLAS", min: 0, max: 0, ret: types.LongText,
		desc: "SQLEARN_BLAS(): the BLAS behind the CPU matrix kernels ('openblas' or 'gonum').",
		eval: func(*call) (any, error) { return gpu.BLASName(), nil }})
	ext := sqlext.Extensions{Procedures: append(l.procedures(), l.laProcedures()...)}
	ext.Rules = append(ext.Rules, l.laRules()...)
	l.addML(&ext)
	for _, s := range specs {
		ext.Functions = append(ext.Functions, s.function())
	}
	ext = l.withIterative(ext)
	return ext
}

var sysVarsOnce sync.Once

// addSystemVariables registers the variables the package reads: system
// variables are global to the process, so this happens once however many
// servers it runs.
func addSystemVariables() {
	sysVarsOnce.Do(func() {
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
			&sql.MysqlSystemVariable{
				Name:    "sqlearn_blas",
				Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Global),
				Type:    types.NewSystemStringType("sqlearn_blas"),
				Default: gpu.BLASName(),
			},
			sessionVariable(RedundancyEliminationVar, types.NewSystemBoolType(RedundancyEliminationVar), int8(1), nil),
			sessionVariable(IterationModeVar, types.NewSystemEnumType(IterationModeVar, "hybrid", "full", "incremental"), "hybrid", nil),
			sessionVariable(DeviceVar, types.NewSystemEnumType(DeviceVar, "auto", "cpu", "gpu"), "auto", checkDevice),
		})
	})
}

// sessionVariable is a variable a session may SET (as may SET GLOBAL);
// check, when not nil, vets a value before the engine stores it.
func sessionVariable(name string, t sql.Type, def any, check func(*sql.Context, sql.SystemVariableScope, sql.SystemVarValue) error) sql.SystemVariable {
	return &sql.MysqlSystemVariable{Name: name, Scope: sql.GetMysqlScope(sql.SystemVariableScope_Both),
		Dynamic: true, Type: t, Default: def, NotifyChanged: check}
}
