package sqlext

import (
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
)

// SystemDatabase is the name of the read-only database of system tables
// (cluster members, training jobs, the model catalog) that sqlearn and its
// extensions provide.
const SystemDatabase = "sys"

// SystemTable is a read-only table computed when it is read.
type SystemTable struct {
	Name   string
	Schema sql.Schema
	Rows   func(ctx *sql.Context) ([]sql.Row, error)
}

type sysDatabase struct {
	eventless
	readOnlyDatabase
	p *Provider
}

var _ sql.Database = sysDatabase{}

func newSysDatabase(p *Provider) sysDatabase {
	return sysDatabase{readOnlyDatabase: readOnlyDatabase{name: SystemDatabase}, p: p}
}

func (sysDatabase) Name() string { return SystemDatabase }

func (d sysDatabase) GetTableInsensitive(ctx *sql.Context, name string) (sql.Table, bool, error) {
	d.p.extMu.RLock()
	defer d.p.extMu.RUnlock()
	st, ok := d.p.system[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	return &sysTable{st: st}, true, nil
}

func (d sysDatabase) GetTableNames(ctx *sql.Context) ([]string, error) {
	d.p.extMu.RLock()
	defer d.p.extMu.RUnlock()
	names := make([]string, 0, len(d.p.system))
	for _, st := range d.p.system {
		names = append(names, st.Name)
	}
	sort.Strings(names)
	return names, nil
}

// sysTable serves one SystemTable; its rows are computed once per scan.
type sysTable struct{ st *SystemTable }

var _ sql.Table = (*sysTable)(nil)

func (t *sysTable) Name() string               { return t.st.Name }
func (t *sysTable) String() string             { return t.st.Name }
func (t *sysTable) Schema() sql.Schema         { return t.st.Schema }
func (t *sysTable) Collation() sql.CollationID { return sql.Collation_Default }

func (t *sysTable) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(partition{}), nil
}

func (t *sysTable) PartitionRows(ctx *sql.Context, _ sql.Partition) (sql.RowIter, error) {
	rows, err := t.st.Rows(ctx)
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(rows...), nil
}

// readOnlyDatabase answers for a database the server computes (sys,
// performance_schema): it holds no views, stored procedures (the
// sys.ML_* procedures are the engine's external ones, resolved before
// any database is asked) or triggers, and takes none. Answering the
// interfaces keeps information_schema.VIEWS, ROUTINES, PARAMETERS and
// TRIGGERS, SHOW TABLES and SHOW PROCEDURE STATUS working: the engine's
// wrapper claims them for every database and fails on one without them.
type readOnlyDatabase struct{ name string }

var (
	_ sql.ViewDatabase            = sysDatabase{}
	_ sql.StoredProcedureDatabase = sysDatabase{}
	_ sql.TriggerDatabase         = sysDatabase{}
	_ sql.ViewDatabase            = perfDatabase{}
	_ sql.StoredProcedureDatabase = perfDatabase{}
	_ sql.TriggerDatabase         = perfDatabase{}
)

func (readOnlyDatabase) CreateView(*sql.Context, string, string, string) error {
	return sql.ErrDatabaseWriteLocked.New()
}
func (d readOnlyDatabase) DropView(ctx *sql.Context, name string) error {
	return sql.ErrViewDoesNotExist.New(d.name, name)
}
func (readOnlyDatabase) GetViewDefinition(*sql.Context, string) (sql.ViewDefinition, bool, error) {
	return sql.ViewDefinition{}, false, nil
}
func (readOnlyDatabase) AllViews(*sql.Context) ([]sql.ViewDefinition, error) { return nil, nil }

func (readOnlyDatabase) GetStoredProcedure(*sql.Context, string) (sql.StoredProcedureDetails, bool, error) {
	return sql.StoredProcedureDetails{}, false, nil
}
func (readOnlyDatabase) GetStoredProcedures(*sql.Context) ([]sql.StoredProcedureDetails, error) {
	return nil, nil
}
func (readOnlyDatabase) SaveStoredProcedure(*sql.Context, sql.StoredProcedureDetails) error {
	return sql.ErrDatabaseWriteLocked.New()
}
func (readOnlyDatabase) DropStoredProcedure(_ *sql.Context, name string) error {
	return sql.ErrStoredProcedureDoesNotExist.New(name)
}
func (readOnlyDatabase) GetTriggers(*sql.Context) ([]sql.TriggerDefinition, error) { return nil, nil }
func (readOnlyDatabase) CreateTrigger(*sql.Context, sql.TriggerDefinition) error {
	return sql.ErrDatabaseWriteLocked.New()
}
func (readOnlyDatabase) DropTrigger(_ *sql.Context, name string) error {
	return sql.ErrTriggerDoesNotExist.New(name)
}
