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
	addLAVariables()
	addDeviceVariables()
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

// addSystemVariables registers @@sqlearn_blas. System variables are global
// to the process, so this happens once however many servers it runs.
func addSystemVariables() {
	sysVarsOnce.Do(func() {
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
			Name:    "sqlearn_blas",
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Global),
			Dynamic: false,
			Type:    types.NewSystemStringType("sqlearn_blas"),
			Default: gpu.BLASName(),
		}})
	})
}
