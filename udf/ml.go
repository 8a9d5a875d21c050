package udf

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
)

// Errors of the ML_* routines, wrapped with detail; sqlError maps them to
// ER_WRONG_ARGUMENTS like every other bad argument.
var (
	ErrModelNotFound = errors.New("udf: model not found")
	ErrModelExists   = errors.New("udf: model handle already in use")
	ErrOptions       = errors.New("udf: invalid ML options")
	ErrNoFeature     = errors.New("udf: column cannot be a feature")
)

// catalogTable is HeatWave's name for the per-user model catalog, which
// lives in the database ML_SCHEMA_<user>.
const (
	catalogSchemaPrefix = "ML_SCHEMA_"
	catalogTable        = "MODEL_CATALOG"
)

// mlLib is the state behind the ML_* routines: models loaded on this node
// and the training jobs this node ran. Both are caches of what the
// replicated catalog tables hold, or, for jobs, deliberately node-local.
type mlLib struct {
	*lib
	jobs *jobRegistry
	mu   struct {
		sync.Mutex
		// models maps catalogKey(owner, handle) to a decoded model, so a
		// user's handle never resolves to another user's model.
		models map[string]*loadedModel
		// reserved holds handles of trainings in flight, so two
		// concurrent trainings cannot pick the same generated handle.
		reserved map[string]bool
		// lastGenerated is, for each user, the generated handle last
		// given out, as its base and counter: trainings started in the
		// same second as it go on from its counter instead of trying
		// every handle before it again.
		lastGenerated map[string]generatedHandle
	}
}

// generatedHandle is a generated model handle as its base
// (db.table_user_<unix time>) and counter (1 for the base alone).
type generatedHandle struct {
	base string
	n    int
}

// loadedModel is a decoded model with the catalog facts prediction needs.
type loadedModel struct {
	model *ml.Model
	meta  *modelMeta
}

// addML adds the ML_* procedures, functions and system tables to ext.
func (l *lib) addML(ext *sqlext.Extensions) {
	m := &mlLib{lib: l, jobs: newJobRegistry()}
	m.jobs.seesAll = func(ctx *sql.Context) bool {
		return l.srv.Provider().HasGlobalPrivilege(ctx, sql.PrivilegeType_Process)
	}
	m.mu.models = make(map[string]*loadedModel)
	m.mu.reserved = make(map[string]bool)
	m.mu.lastGenerated = make(map[string]generatedHandle)
	ext.Procedures = append(ext.Procedures, m.procedures()...)
	for _, s := range m.specs() {
		ext.Functions = append(ext.Functions, s.function())
	}
	ext.SystemTables = append(ext.SystemTables, m.jobs.systemTables()...)
	ext.SystemTables = append(ext.SystemTables, m.modelsTable())
}

func (m *mlLib) procedures() []sql.ExternalStoredProcedureDetails {
	return []sql.ExternalStoredProcedureDetails{
		{Name: "ml_train", Schema: trainSchema, Function: m.train},
		{Name: "ml_model_load", Schema: statusSchema, Function: m.modelLoad},
		{Name: "ml_model_unload", Schema: statusSchema, Function: m.modelUnload},
		{Name: "ml_model_drop", Schema: statusSchema, Function: m.modelDrop},
		{Name: "ml_predict_table", Schema: predictTableSchema, Function: m.predictTable},
		{Name: "ml_score", Schema: scoreSchema, Function: m.score},
	}
}

// caller is the user the session runs as; the catalog is per user.
func caller(ctx *sql.Context) (string, error) {
	u := ctx.Session.Client().User
	if u == "" {
		return "", fmt.Errorf("%w: the anonymous user has no model catalog", ErrArgument)
	}
	return u, nil
}

func catalogSchema(user string) string { return catalogSchemaPrefix + user }

func catalogKey(user, handle string) string { return user + "\x00" + handle }

// splitTable reads 'db.table' or 'table' (in the current database).
func splitTable(ctx *sql.Context, name string) (db, table string, err error) {
	parts := strings.Split(strings.TrimSpace(name), ".")
	switch {
	case len(parts) == 1 && parts[0] != "":
		db, table = ctx.GetCurrentDatabase(), parts[0]
		if db == "" {
			return "", "", fmt.Errorf("%w: table name '%s' needs a database ('db.table'): no database is selected", ErrArgument, name)
		}
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		db, table = parts[0], parts[1]
	default:
		return "", "", fmt.Errorf("%w: table name '%s' must be 'table' or 'db.table'", ErrArgument, name)
	}
	return strings.Trim(db, "`"), strings.Trim(table, "`"), nil
}

// ident quotes an identifier.
func ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// sqlString writes s as a single-quoted literal that means s whatever
// sql_mode says about backslashes: the only escape used is doubling quotes,
// and backslashes go through as the hex literal they would otherwise need.
func sqlString(b []byte, s string) []byte {
	if strings.ContainsAny(s, "\\\x00") {
		b = append(b, "CONVERT(X'"...)
		b = hex.AppendEncode(b, []byte(s))
		return append(b, "' USING utf8mb4)"...)
	}
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return append(b, '\'')
}
