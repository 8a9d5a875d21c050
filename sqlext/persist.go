package sqlext

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// SET PERSIST and SET PERSIST_ONLY (MySQL 8): the engine refused both
// (1105, "session does not support persistence"). A persisted global
// variable is written to persisted-variables.json in the data dir, as
// MySQL writes mysqld-auto.cnf in its own, and set again when the server
// starts, after its flags, which it overrides (as MySQL's file overrides
// its option files). Like MySQL's file it is the node's own: it is not
// replicated. SET PERSIST also sets the global value; PERSIST_ONLY leaves
// it to the next start. Persisting needs SUPER (MySQL also takes
// SYSTEM_VARIABLES_ADMIN); a read-only variable is refused with 1238,
// for PERSIST_ONLY too (MySQL takes those for the next start).
// RESET PERSIST [[IF EXISTS] name] removes entries (resetPersist).

const persistedFile = "persisted-variables.json"

// persisted holds the node's persisted variables.
type persisted struct {
	mu     sync.Mutex
	path   string // empty: nothing is persisted (no data dir)
	values map[string]any
}

// loadPersisted reads the data dir's persisted variables.
func loadPersisted(dir string) (*persisted, error) {
	p := &persisted{values: map[string]any{}}
	if dir == "" {
		return p, nil
	}
	p.path = filepath.Join(dir, persistedFile)
	b, err := os.ReadFile(p.path)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &p.values); err != nil {
		return nil, fmt.Errorf("sqlext: %s: %w", p.path, err)
	}
	return p, nil
}

// apply sets each persisted variable's global value, at startup, and
// gives the errors of those it could not set (a variable this version
// no longer has), which it passes over.
func (p *persisted) apply() []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx := sql.NewEmptyContext()
	names := make([]string, 0, len(p.values))
	for name := range p.values {
		names = append(names, name)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		if err := sql.SystemVariables.SetGlobal(ctx, name, p.values[name]); err != nil {
			errs = append(errs, fmt.Errorf("persisted variable %s not set: %w", name, err))
		}
	}
	return errs
}

// write stores values in the file, whole or not at all (write, sync,
// rename); p.mu is held.
func (p *persisted) write(values map[string]any) error {
	if p.path == "" {
		return nil
	}
	b, err := json.MarshalIndent(values, "", "  ")
	if err != nil {
		return err
	}
	tmp := p.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err = f.Write(b); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, p.path)
}

// change writes the values edit makes of the current ones, and keeps
// them once they are written.
func (p *persisted) change(edit func(map[string]any)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	next := make(map[string]any, len(p.values))
	for k, v := range p.values {
		next[k] = v
	}
	edit(next)
	if err := p.write(next); err != nil {
		return err
	}
	p.values = next
	return nil
}

// PersistGlobal implements sql.PersistableSession.
func (s *Session) PersistGlobal(ctx *sql.Context, name string, value any) error {
	if s.p == nil || s.p.persisted == nil {
		return sql.ErrSessionDoesNotSupportPersistence.New()
	}
	if !s.p.HasGlobalPrivilege(ctx, sql.PrivilegeType_Super) {
		return mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation")
	}
	sv, _, ok := sql.SystemVariables.GetGlobal(name)
	if !ok {
		return sql.ErrUnknownSystemVariable.New(name)
	}
	if sv.IsReadOnly() {
		return sql.ErrSystemVariableReadOnly.New(name)
	}
	// A variable or value SET GLOBAL refuses is refused before it is
	// written: a session-only variable, a value of the wrong type.
	if msv, ok := sv.(*sql.MysqlSystemVariable); ok && msv.Scope.Type == sql.SystemVariableScope_Session {
		return sql.ErrSystemVariableSessionOnly.New(name)
	}
	v, _, err := sv.GetType().Convert(ctx, value)
	if err != nil {
		return err
	}
	key := strings.ToLower(sv.GetName())
	return s.p.persisted.change(func(m map[string]any) { m[key] = v })
}

// RemovePersistedGlobal implements sql.PersistableSession.
func (s *Session) RemovePersistedGlobal(name string) error {
	if s.p == nil || s.p.persisted == nil {
		return sql.ErrSessionDoesNotSupportPersistence.New()
	}
	return s.p.persisted.change(func(m map[string]any) { delete(m, strings.ToLower(name)) })
}

// RemoveAllPersistedGlobals implements sql.PersistableSession.
func (s *Session) RemoveAllPersistedGlobals() error {
	if s.p == nil || s.p.persisted == nil {
		return sql.ErrSessionDoesNotSupportPersistence.New()
	}
	return s.p.persisted.change(func(m map[string]any) { clear(m) })
}

// GetPersistedValue implements sql.PersistableSession.
func (s *Session) GetPersistedValue(name string) (any, error) {
	if s.p == nil || s.p.persisted == nil {
		return nil, sql.ErrSessionDoesNotSupportPersistence.New()
	}
	s.p.persisted.mu.Lock()
	defer s.p.persisted.mu.Unlock()
	return s.p.persisted.values[strings.ToLower(name)], nil
}

const resetPersistProcedure = "sqlearn_reset_persist"

// rewriteResetPersist writes RESET PERSIST [[IF EXISTS] name], which the
// parser refuses, as a call of resetPersistProcedure.
func rewriteResetPersist(query string) (string, bool) {
	toks := sqlTokens(query)
	end := statementEnd(toks)
	word := func(i int, w string) bool { return i < end && toks[i].word && strings.EqualFold(toks[i].text, w) }
	if !word(0, "RESET") || !word(1, "PERSIST") {
		return "", false
	}
	name, ifExists, i := "", "0", 2
	if word(2, "IF") && word(3, "EXISTS") {
		ifExists, i = "1", 4
	}
	if i < end {
		name, i = unquoteIdent(toks[i].text), i+1
	}
	if i != end || ifExists == "1" && name == "" {
		return "", false
	}
	rest, _ := statementRest(query, toks, end)
	return "CALL " + SystemDatabase + "." + resetPersistProcedure + "(" + quoteString(name) + ", " + ifExists + ")" + rest, true
}

// resetPersist runs RESET PERSIST: every entry, or the one named (a name
// not persisted is 3615, a note with IF EXISTS). The global values stay
// as they are, as in MySQL.
func (p *Provider) resetPersist(ctx *sql.Context, name string, ifExists int8) (sql.RowIter, error) {
	if !p.HasGlobalPrivilege(ctx, sql.PrivilegeType_Super) {
		return nil, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation")
	}
	if p.persisted == nil {
		return nil, sql.ErrSessionDoesNotSupportPersistence.New()
	}
	if name == "" {
		return okRows(), p.persisted.change(func(m map[string]any) { clear(m) })
	}
	key := strings.ToLower(name)
	p.persisted.mu.Lock()
	_, found := p.persisted.values[key]
	p.persisted.mu.Unlock()
	if !found {
		msg := fmt.Sprintf("Variable %s does not exist in persisted config file", name)
		if ifExists == 0 {
			return nil, mysql.NewSQLError(erVarDoesNotExist, "HY000", "%s", msg)
		}
		ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: erVarDoesNotExist, Message: msg})
		return okRows(), nil
	}
	return okRows(), p.persisted.change(func(m map[string]any) { delete(m, key) })
}

// erVarDoesNotExist is MySQL's ER_VAR_DOES_NOT_EXIST.
const erVarDoesNotExist = 3615

// persistExtensions is the procedure RESET PERSIST calls.
func persistExtensions(p *Provider) Extensions {
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{
		{Name: resetPersistProcedure, Schema: nil, Function: p.resetPersist},
	}}
}
