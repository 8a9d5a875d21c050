package udf

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
)

// modelMeta is the model_metadata JSON of a catalog row: everything about
// a model except its parameters, readable with JSON functions.
type modelMeta struct {
	Task            string                        `json:"task"`
	Algorithm       string                        `json:"algorithm"`
	TrainTable      string                        `json:"train_table_name"`
	Target          string                        `json:"target_column_name,omitempty"`
	TargetType      string                        `json:"target_type,omitempty"`
	Columns         []metaColumn                  `json:"column_names"`
	Ignored         []string                      `json:"ignored_columns,omitempty"`
	Classes         []string                      `json:"classes,omitempty"`
	Options         map[string]any                `json:"options"`
	Metrics         map[string]map[string]float64 `json:"training_metrics"`
	TrainRows       int                           `json:"train_rows"`
	ValidationRows  int                           `json:"validation_rows"`
	TrainingSeconds float64                       `json:"training_seconds"`
	FormatVersion   int                           `json:"format_version"`
}

// metaColumn is one feature: its name and SQL type at training time.
type metaColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Kind string `json:"kind"`
}

// catalogDDL creates HeatWave's MODEL_CATALOG columns (less the
// explanation and access-time columns, which nothing here writes).
const catalogDDL = `CREATE TABLE IF NOT EXISTS %s.%s (
  model_id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  model_handle VARCHAR(255) NOT NULL,
  model_object LONGBLOB,
  model_owner VARCHAR(255),
  build_timestamp BIGINT UNSIGNED NOT NULL,
  target_column_name VARCHAR(255),
  train_table_name VARCHAR(255),
  model_object_size BIGINT UNSIGNED,
  model_type VARCHAR(64),
  task VARCHAR(32),
  column_names JSON,
  model_metadata JSON,
  notes TEXT,
  UNIQUE KEY model_handle (model_handle))`

// queryAll runs a statement in a session of its own (see innerContext)
// and returns its rows.
func (m *mlLib) queryAll(ctx *sql.Context, q string) ([]sql.Row, error) {
	ictx := m.innerContext(ctx)
	_, iter, _, err := m.srv.Engine().Query(ictx, q)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	for {
		r, err := iter.Next(ictx)
		if err == io.EOF {
			break
		}
		if err != nil {
			iter.Close(ictx)
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, iter.Close(ictx)
}

// catalogName is the quoted catalog table of a user.
func catalogName(user string) string {
	return ident(catalogSchema(user)) + "." + ident(catalogTable)
}

// handleTaken reports whether user's catalog already has handle.
func (m *mlLib) handleTaken(ctx *sql.Context, user, handle string) (bool, error) {
	store := m.srv.Store()
	db, ok := store.Database(catalogSchema(user))
	if !ok {
		return false, nil
	}
	if _, err := store.Table(db, catalogTable); err != nil {
		return false, nil
	}
	// A point lookup in the unique index, which compares under the
	// column's collation as the SQL predicate would, without a session or
	// a query: training checks this once or more per call.
	key := storage.Range{{Lo: storage.Cut{Kind: storage.CutBelow, Key: handle}, Hi: storage.Cut{Kind: storage.CutAbove, Key: handle}}}
	ids, err := store.LookupIdentities(db, catalogTable, "model_handle", []storage.Range{key})
	if err != nil {
		return false, err
	}
	return len(ids) > 0, nil
}

// reserveHandle picks the handle of a new model: the caller's choice, or
// HeatWave's default shape db.table_user_<unix time>, with a counter when
// two trainings start in the same second. The handle stays reserved until
// release, so concurrent trainings cannot collide. A generated handle's
// counter goes on from the last one given out in the same second: trying
// each taken handle first made a script training hundreds of models a
// second spend most of each call in the catalog's index.
func (m *mlLib) reserveHandle(ctx *sql.Context, user, chosen string, t *mlTable) (string, error) {
	base := chosen
	if base == "" {
		base = fmt.Sprintf("%s_%s_%d", t.qualified(), user, time.Now().Unix())
	}
	first := 1
	if chosen == "" {
		m.mu.Lock()
		if last := m.mu.lastGenerated[user]; last.base == base {
			first = last.n + 1
		}
		m.mu.Unlock()
	}
	for n := first; ; n++ {
		h := base
		if n > 1 {
			if chosen != "" {
				return "", fmt.Errorf("%w: '%s' (SET @model = NULL to have one generated)", ErrModelExists, chosen)
			}
			h = base + "_" + strconv.Itoa(n)
		}
		m.mu.Lock()
		busy := m.mu.reserved[catalogKey(user, h)]
		if !busy {
			m.mu.reserved[catalogKey(user, h)] = true
			if chosen == "" {
				m.mu.lastGenerated[user] = generatedHandle{base: base, n: n}
			}
		}
		m.mu.Unlock()
		if busy {
			continue
		}
		taken, err := m.handleTaken(ctx, user, h)
		if err != nil || !taken {
			if err != nil {
				m.release(user, h)
			}
			return h, err
		}
		m.release(user, h)
	}
}

func (m *mlLib) release(user, handle string) {
	m.mu.Lock()
	delete(m.mu.reserved, catalogKey(user, handle))
	m.mu.Unlock()
}

// saveModel writes one catalog row through the engine, creating the
// user's catalog on first use, so the model takes the replicated path.
func (m *mlLib) saveModel(ctx *sql.Context, user, handle string, model *ml.Model, meta *modelMeta) error {
	schema := catalogSchema(user)
	if _, err := m.srv.Store().Table(schema, catalogTable); err != nil {
		ictx := m.innerContext(ctx)
		// A database made for the user beforehand is used as it is: its
		// CREATE would need the global privilege even with IF NOT EXISTS.
		if _, ok := m.srv.Store().Database(schema); !ok {
			if err := exec(ictx, m.lib, "CREATE DATABASE IF NOT EXISTS "+ident(schema)); err != nil {
				return err
			}
		}
		if err := exec(ictx, m.lib, fmt.Sprintf(catalogDDL, ident(schema), ident(catalogTable))); err != nil {
			return err
		}
	}
	blob := ml.Encode(model)
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	colsJSON, err := json.Marshal(meta.Columns)
	if err != nil {
		return err
	}
	var target any
	if meta.Target != "" {
		target = meta.Target
	}
	// The row goes in without the planner: the statement would be as
	// large as the model, and parsing it cost more than the training of
	// a small model.
	row := sql.Row{nil, handle, blob, user, uint64(time.Now().Unix()), target, meta.TrainTable,
		uint64(len(blob)), meta.Algorithm, meta.Task, string(colsJSON), string(metaJSON), nil}
	// BulkInsert runs no statement in the session and commits on its own,
	// so the caller's context serves: a session of its own (innerContext)
	// costs more than the write of a small model.
	db, _ := m.srv.Store().Database(schema)
	_, err = m.srv.Provider().BulkInsert(ctx, db, catalogTable, func(emit func(sql.Row) error) error { return emit(row) })
	if err != nil {
		if errors.Is(err, storage.ErrDuplicateKey) || sql.ErrUniqueKeyViolation.Is(err) || sql.ErrPrimaryKeyViolation.Is(err) {
			return fmt.Errorf("%w: '%s'", ErrModelExists, handle)
		}
		return err
	}
	return nil
}

// model resolves a handle of the caller's: from this node's cache, else
// from the catalog, which then fills the cache.
func (m *mlLib) model(ctx *sql.Context, handle string) (*loadedModel, error) {
	user, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	lm := m.mu.models[catalogKey(user, handle)]
	m.mu.Unlock()
	if lm != nil {
		return lm, nil
	}
	return m.load(ctx, user, user, handle)
}

// load reads owner's model into the caller's cache.
func (m *mlLib) load(ctx *sql.Context, user, owner, handle string) (*loadedModel, error) {
	if handle == "" {
		return nil, fmt.Errorf("%w: the model handle is NULL or empty", ErrModelNotFound)
	}
	missing := fmt.Errorf("%w: no model '%s' in %s's catalog", ErrModelNotFound, handle, owner)
	if _, err := m.srv.Store().Table(catalogSchema(owner), catalogTable); err != nil {
		return nil, missing
	}
	rows, err := m.queryAll(ctx, "SELECT model_object, CAST(model_metadata AS CHAR) FROM "+catalogName(owner)+
		" WHERE model_handle = "+string(sqlString(nil, handle)))
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, missing
	}
	blob, ok := bytesOf(ctx, rows[0][0])
	if !ok {
		return nil, fmt.Errorf("%w: model '%s' has no model_object", ErrModelNotFound, handle)
	}
	model, err := ml.Decode(blob)
	if err != nil {
		return nil, fmt.Errorf("model '%s': %w", handle, err)
	}
	lm := &loadedModel{model: model, meta: &modelMeta{}}
	if s, ok := rows[0][1].(string); ok {
		if err := json.Unmarshal([]byte(s), lm.meta); err != nil {
			return nil, fmt.Errorf("model '%s' metadata: %w", handle, err)
		}
	}
	m.mu.Lock()
	m.mu.models[catalogKey(user, handle)] = lm
	m.mu.Unlock()
	return lm, nil
}

var statusSchema = sql.Schema{
	{Name: "model_handle", Type: types.LongText},
	{Name: "status", Type: types.LongText},
}

// modelLoad is CALL sys.ML_MODEL_LOAD(handle, owner): owner NULL means
// the caller; naming another user needs SELECT on that user's catalog.
func (m *mlLib) modelLoad(ctx *sql.Context, handle, owner string) (sql.RowIter, error) {
	return guard(ctx, "ML_MODEL_LOAD", func() (sql.RowIter, error) {
		user, err := caller(ctx)
		if err != nil {
			return nil, err
		}
		if owner == "" {
			owner = user
		}
		if _, err := m.load(ctx, user, owner, handle); err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{handle, "loaded"}), nil
	})
}

// modelUnload is CALL sys.ML_MODEL_UNLOAD(handle): it frees this node's
// copy; the next use loads it again.
func (m *mlLib) modelUnload(ctx *sql.Context, handle string) (sql.RowIter, error) {
	return guard(ctx, "ML_MODEL_UNLOAD", func() (sql.RowIter, error) {
		user, err := caller(ctx)
		if err != nil {
			return nil, err
		}
		m.mu.Lock()
		_, ok := m.mu.models[catalogKey(user, handle)]
		delete(m.mu.models, catalogKey(user, handle))
		m.mu.Unlock()
		status := "unloaded"
		if !ok {
			status = "not loaded"
		}
		return sql.RowsToRowIter(sql.Row{handle, status}), nil
	})
}

// modelDrop is CALL sys.ML_MODEL_DROP(handle): it deletes the catalog row
// (through the engine, so every node loses it) and this node's copy.
// HeatWave users delete the row themselves; both work here.
func (m *mlLib) modelDrop(ctx *sql.Context, handle string) (sql.RowIter, error) {
	return guard(ctx, "ML_MODEL_DROP", func() (sql.RowIter, error) {
		user, err := caller(ctx)
		if err != nil {
			return nil, err
		}
		taken, err := m.handleTaken(ctx, user, handle)
		if err != nil {
			return nil, err
		}
		if !taken {
			return nil, fmt.Errorf("%w: no model '%s' in %s's catalog", ErrModelNotFound, handle, user)
		}
		if err := exec(m.innerContext(ctx), m.lib, "DELETE FROM "+catalogName(user)+" WHERE model_handle = "+string(sqlString(nil, handle))); err != nil {
			return nil, err
		}
		m.mu.Lock()
		delete(m.mu.models, catalogKey(user, handle))
		m.mu.Unlock()
		return sql.RowsToRowIter(sql.Row{handle, "dropped"}), nil
	})
}

// modelsTable is sys.ml_models: the caller's catalog without the model
// objects, read from storage at query time.
func (m *mlLib) modelsTable() sqlext.SystemTable {
	return sqlext.SystemTable{
		Name: "ml_models",
		Schema: sql.Schema{
			{Name: "model_handle", Type: types.LongText},
			{Name: "model_owner", Type: types.LongText},
			{Name: "task", Type: types.LongText, Nullable: true},
			{Name: "algorithm", Type: types.LongText, Nullable: true},
			{Name: "train_table_name", Type: types.LongText, Nullable: true},
			{Name: "target_column_name", Type: types.LongText, Nullable: true},
			{Name: "build_timestamp", Type: types.Uint64, Nullable: true},
			{Name: "model_object_size", Type: types.Uint64, Nullable: true},
			{Name: "loaded", Type: types.Boolean},
		},
		Rows: func(ctx *sql.Context) ([]sql.Row, error) {
			user, err := caller(ctx)
			if err != nil {
				return nil, nil
			}
			if _, err := m.srv.Store().Table(catalogSchema(user), catalogTable); err != nil {
				return nil, nil
			}
			rows, err := m.queryAll(ctx, "SELECT model_handle, model_owner, task, model_type, train_table_name,"+
				" target_column_name, build_timestamp, model_object_size FROM "+catalogName(user)+" ORDER BY model_id")
			if err != nil {
				return nil, err
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			for i, r := range rows {
				h, _ := r[0].(string)
				loaded := int8(0)
				if m.mu.models[catalogKey(user, h)] != nil {
					loaded = 1
				}
				rows[i] = append(r, loaded)
			}
			return rows, nil
		},
	}
}
