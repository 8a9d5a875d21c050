package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
)

// Extensions are the SQL functions and procedures other packages add to the
// server (udf registers the MAT_*, vector, LA_* and ML_* entry points).
type Extensions struct {
	Functions    []sql.Function
	Procedures   []sql.ExternalStoredProcedureDetails
	SystemTables []SystemTable
	// Rules are added to the analyzer; they take effect for engines built
	// after Extend, which Open arranges.
	Rules []AnalyzerRule
}

var (
	_ sql.FunctionProvider                = (*Provider)(nil)
	_ sql.ExternalStoredProcedureProvider = (*Provider)(nil)
)

// Extend adds functions and procedures. Names are case-insensitive; a later
// registration of the same function name replaces the earlier one.
func (p *Provider) Extend(ext Extensions) {
	p.extMu.Lock()
	defer p.extMu.Unlock()
	if p.functions == nil {
		p.functions = make(map[string]sql.Function)
		r := sql.NewExternalStoredProcedureRegistry()
		p.procedures = &r
	}
	for _, f := range ext.Functions {
		p.functions[strings.ToLower(f.FunctionName())] = f
	}
	for _, d := range ext.Procedures {
		p.procedures.Register(d)
	}
	if p.system == nil {
		p.system = make(map[string]*SystemTable)
	}
	p.rules = append(p.rules, ext.Rules...)
	for i := range ext.SystemTables {
		st := ext.SystemTables[i]
		for _, c := range st.Schema {
			c.Source, c.DatabaseSource = st.Name, SystemDatabase
		}
		p.system[strings.ToLower(st.Name)] = &st
	}
}

func (p *Provider) Function(ctx *sql.Context, name string) (sql.Function, bool) {
	name = strings.ToLower(name)
	if name == "load_file" && p.importDir == "" {
		return sql.Function1{Name: name, Fn: newRefusedLoadFile}, true
	}
	if s, ok := ctx.Session.(*Session); ok && s.procSlots != nil && name == procVarFunc {
		return procVarFunction(s), true
	}
	// The functions the server adds are the sys database's, as MySQL's
	// are (sys.ML_PREDICT_ROW).
	bare := name
	if db, n, qualified := strings.Cut(name, "."); qualified && strings.EqualFold(db, SystemDatabase) {
		bare = n
	}
	p.extMu.RLock()
	f, ok := p.functions[bare]
	p.extMu.RUnlock()
	if ok {
		return f, true
	}
	return p.storedFunctionNamed(ctx, name)
}

func (p *Provider) ExternalStoredProcedure(ctx *sql.Context, name string, numOfParams int) (*sql.ExternalStoredProcedureDetails, error) {
	p.extMu.RLock()
	defer p.extMu.RUnlock()
	if p.procedures == nil {
		return nil, nil
	}
	return p.procedures.LookupByNameAndParamCount(name, numOfParams)
}

func (p *Provider) ExternalStoredProcedures(ctx *sql.Context, name string) ([]sql.ExternalStoredProcedureDetails, error) {
	p.extMu.RLock()
	defer p.extMu.RUnlock()
	if p.procedures == nil {
		return nil, nil
	}
	return p.procedures.LookupByName(name)
}
