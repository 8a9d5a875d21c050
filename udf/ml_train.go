package udf

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/ml"
)

// trainSchema is ML_TRAIN's one-row result.
var trainSchema = sql.Schema{
	{Name: "model_handle", Type: types.LongText},
	{Name: "task", Type: types.LongText},
	{Name: "algorithm", Type: types.LongText},
	{Name: "train_rows", Type: types.Int64},
	{Name: "validation_rows", Type: types.Int64},
	{Name: "training_seconds", Type: types.Float64},
	{Name: "metrics", Type: types.JSON},
}

// trainOptions is ML_TRAIN's options JSON, parsed.
type trainOptions struct {
	ml         ml.Options
	task       string
	include    []string
	exclude    []string
	validation float64
	raw        map[string]any
}

// optionSetters maps each accepted option key to how it sets ml.Options.
// Hyperparameters use scikit-learn's names; a few HeatWave and BigQuery
// spellings are accepted too. An unknown key is an error, so a typo does
// not silently train with the default.
var optionSetters = map[string]func(o *trainOptions, v any) error{
	"alpha":             floatOpt(func(o *ml.Options, f float64) { o.Alpha = f }),
	"c":                 floatOpt(func(o *ml.Options, f float64) { o.C = f }),
	"tol":               floatOpt(func(o *ml.Options, f float64) { o.Tol = f }),
	"max_iter":          intOpt(func(o *ml.Options, n int) { o.MaxIter = n }),
	"n_clusters":        intOpt(func(o *ml.Options, n int) { o.K = n }),
	"k":                 intOpt(func(o *ml.Options, n int) { o.K = n }),
	"n_init":            intOpt(func(o *ml.Options, n int) { o.NInit = n }),
	"max_depth":         intOpt(func(o *ml.Options, n int) { o.MaxDepth = n }),
	"min_samples_split": intOpt(func(o *ml.Options, n int) { o.MinSamplesSplit = n }),
	"min_samples_leaf":  intOpt(func(o *ml.Options, n int) { o.MinSamplesLeaf = n }),
	"max_bins":          intOpt(func(o *ml.Options, n int) { o.MaxBins = n }),
	"learning_rate":     floatOpt(func(o *ml.Options, f float64) { o.LearningRate = f }),
	"n_estimators":      intOpt(func(o *ml.Options, n int) { o.NEstimators = n }),
	"rank":              intOpt(func(o *ml.Options, n int) { o.Rank = n }),
	"num_factors":       intOpt(func(o *ml.Options, n int) { o.Rank = n }),
	"lambda":            floatOpt(func(o *ml.Options, f float64) { o.Lambda = f }),
	"l2_reg":            floatOpt(func(o *ml.Options, f float64) { o.Lambda = f }),
	"n_jobs":            intOpt(func(o *ml.Options, n int) { o.Workers = n }),
	"solver": func(o *trainOptions, v any) error {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string: normal, gd, dfp or bfgs")
		}
		o.ml.Solver = strings.ToLower(s)
		return nil
	},
	"criterion": func(o *trainOptions, v any) error {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string")
		}
		o.ml.Criterion = s
		return nil
	},
	"seed": func(o *trainOptions, v any) error {
		f, err := optNumber(v)
		if err != nil || f < 0 || f != math.Trunc(f) || f > 1<<63 {
			return fmt.Errorf("must be a non-negative integer")
		}
		o.ml.Seed = uint64(f)
		return nil
	},
	"validation_fraction": func(o *trainOptions, v any) error {
		f, err := optNumber(v)
		if err != nil || f < 0 || f >= 1 {
			return fmt.Errorf("must be a number in [0, 1)")
		}
		o.validation = f
		return nil
	},
	"null_policy": func(o *trainOptions, v any) error {
		switch s, _ := v.(string); strings.ToLower(s) {
		case "impute":
			o.ml.Nulls = ml.NullImpute
		case "reject":
			o.ml.Nulls = ml.NullReject
		default:
			return fmt.Errorf("must be 'impute' or 'reject'")
		}
		return nil
	},
	"task": func(o *trainOptions, v any) error {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string")
		}
		t, err := ml.ParseTask(s)
		if err != nil {
			return fmt.Errorf("must be 'classification', 'regression', 'clustering' or 'recommendation', got '%s'", s)
		}
		o.ml.Task, o.task = t, s
		return nil
	},
	"algorithm": setAlgorithm,
	// model_list is HeatWave's list of candidate algorithms; without
	// AutoML's search, exactly one is accepted.
	"model_list": func(o *trainOptions, v any) error {
		list, err := stringList(v)
		if err != nil || len(list) != 1 {
			return fmt.Errorf("must list exactly one algorithm (there is no automatic model selection)")
		}
		return setAlgorithm(o, list[0])
	},
	"include_column_list": func(o *trainOptions, v any) (err error) {
		o.include, err = stringList(v)
		return err
	},
	"exclude_column_list": func(o *trainOptions, v any) (err error) {
		o.exclude, err = stringList(v)
		return err
	},
	"users": func(o *trainOptions, v any) error {
		s, ok := v.(string)
		if !ok || s == "" {
			return fmt.Errorf("must name a column")
		}
		o.ml.UserColumn = s
		return nil
	},
	"items": func(o *trainOptions, v any) error {
		s, ok := v.(string)
		if !ok || s == "" {
			return fmt.Errorf("must name a column")
		}
		o.ml.ItemColumn = s
		return nil
	},
}

func setAlgorithm(o *trainOptions, v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("must be a string")
	}
	a, err := ml.ParseAlgorithm(s)
	if err != nil {
		return fmt.Errorf("unknown algorithm '%s'", s)
	}
	o.ml.Algorithm = a
	return nil
}

func optNumber(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case string:
		var n json.Number = json.Number(strings.TrimSpace(x))
		return n.Float64()
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("not a number")
}

func floatOpt(set func(*ml.Options, float64)) func(*trainOptions, any) error {
	return func(o *trainOptions, v any) error {
		f, err := optNumber(v)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("must be a number")
		}
		set(&o.ml, f)
		return nil
	}
}

func intOpt(set func(*ml.Options, int)) func(*trainOptions, any) error {
	return func(o *trainOptions, v any) error {
		f, err := optNumber(v)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
			return fmt.Errorf("must be an integer")
		}
		set(&o.ml, int(f))
		return nil
	}
}

// stringList reads a JSON array of strings, or one comma-separated string.
func stringList(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		var out []string
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("must be a list of column names")
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("must be a list of column names")
}

// parseTrainOptions reads the options JSON (” and NULL mean none).
func parseTrainOptions(text string) (*trainOptions, error) {
	o := &trainOptions{raw: map[string]any{}}
	if strings.TrimSpace(text) != "" {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		if err := dec.Decode(&o.raw); err != nil {
			return nil, fmt.Errorf("%w: options must be a JSON object: %v", ErrOptions, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%w: options must be one JSON object", ErrOptions)
		}
	}
	keys := make([]string, 0, len(o.raw))
	for k := range o.raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// The task first: the algorithm's default depends on it.
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.EqualFold(k, "task") })
	if _, ok := o.raw["task"]; ok {
		keys = append([]string{"task"}, keys...)
	}
	for _, k := range keys {
		set, ok := optionSetters[strings.ToLower(k)]
		if !ok {
			return nil, fmt.Errorf("%w: unknown option '%s'", ErrOptions, k)
		}
		if err := set(o, o.raw[k]); err != nil {
			return nil, fmt.Errorf("%w: option '%s' %v", ErrOptions, k, err)
		}
	}
	if o.ml.Task == 0 && o.ml.Algorithm == "" {
		// HeatWave's default task.
		o.ml.Task, o.task = ml.Classification, "classification"
	}
	if o.ml.Algorithm == "" {
		o.ml.Algorithm = map[ml.Task]ml.Algorithm{
			ml.Classification: ml.LogisticRegression, ml.Regression: ml.LinearRegression,
			ml.Clustering: ml.KMeans, ml.Recommendation: ml.ALS,
		}[o.ml.Task]
	}
	if o.ml.Task == 0 {
		// Algorithms that do one task imply it; trees and boosting do
		// two, and HeatWave's default task decides.
		o.ml.Task = map[ml.Algorithm]ml.Task{
			ml.LinearRegression: ml.Regression, ml.Ridge: ml.Regression, ml.LogisticRegression: ml.Classification,
			ml.KMeans: ml.Clustering, ml.NaiveBayes: ml.Classification, ml.ALS: ml.Recommendation,
		}[o.ml.Algorithm]
		if o.ml.Task == 0 {
			o.ml.Task = ml.Classification
		}
	}
	if o.ml.Task == ml.Recommendation || o.ml.Algorithm == ml.ALS {
		if o.ml.UserColumn == "" || o.ml.ItemColumn == "" {
			return nil, fmt.Errorf("%w: recommendation needs the 'users' and 'items' options naming the id columns", ErrOptions)
		}
		o.include = []string{o.ml.UserColumn, o.ml.ItemColumn}
	}
	return o, nil
}

// summaryMetrics names the scores ML_TRAIN reports for each task.
var summaryMetrics = map[ml.Task][]string{
	ml.Classification: {"accuracy", "balanced_accuracy", "f1_macro"},
	ml.Regression:     {"r2", "mean_squared_error", "mean_absolute_error"},
	ml.Clustering:     {"inertia"},
	ml.Recommendation: {"rmse", "mean_absolute_error"},
}

// train is CALL sys.ML_TRAIN('db.table', 'target', options, @model).
func (m *mlLib) train(ctx *sql.Context, table, target, options string, handle *string) (sql.RowIter, error) {
	return guard(ctx, "ML_TRAIN", func() (sql.RowIter, error) {
		opts, err := parseTrainOptions(options)
		if err != nil {
			return nil, err
		}
		user, err := caller(ctx)
		if err != nil {
			return nil, err
		}
		t, err := m.openTable(ctx, table)
		if err != nil {
			return nil, err
		}
		if target == "" && opts.ml.Task != ml.Clustering {
			return nil, fmt.Errorf("%w: task %s needs a target column", ErrArgument, opts.ml.Task)
		}
		if opts.ml.Task == ml.Clustering {
			target = ""
		}
		chosen := ""
		if handle != nil {
			chosen = strings.TrimSpace(*handle)
		}
		if opts.ml.Devices, err = sessionDevices(ctx); err != nil {
			return nil, err
		}
		h, err := m.reserveHandle(ctx, user, chosen, t)
		if err != nil {
			return nil, err
		}
		defer m.release(user, h)
		j := m.jobs.begin(ctx, user, h, t.qualified(), string(opts.ml.Algorithm), jobDevice(opts.ml, 0, 0))
		row, err := m.runTraining(ctx, j, user, h, t, target, opts)
		m.jobs.finish(j, err)
		if err != nil {
			return nil, err
		}
		*handle = h
		return sql.RowsToRowIter(row), nil
	})
}

// runTraining reads, splits, trains, scores and saves; it returns
// ML_TRAIN's result row.
func (m *mlLib) runTraining(ctx *sql.Context, j *job, user, handle string, t *mlTable, target string, opts *trainOptions) (sql.Row, error) {
	start := time.Now()
	d, features, ignored, err := m.dataset(ctx, t, target, opts.include, opts.exclude)
	if err != nil {
		return nil, err
	}
	if len(features) == 0 {
		return nil, fmt.Errorf("%w: %s has no usable feature column", ErrArgument, t.qualified())
	}
	if d.Rows() == 0 {
		return nil, fmt.Errorf("%w: table %s is empty", ErrArgument, t.qualified())
	}
	train, valid := d, (*ml.Dataset)(nil)
	if opts.validation > 0 {
		train, valid = d.Split(opts.validation, opts.ml.Seed)
	}
	m.jobs.setPhase(j, "training", int64(train.Rows()))
	m.jobs.setDevice(j, jobDevice(opts.ml, train.Rows(), len(features)))
	mo := opts.ml
	mo.Progress = m.jobs.progress(j)
	model, err := ml.Train(ctx, train, mo)
	if err != nil {
		return nil, err
	}
	m.jobs.setPhase(j, "scoring", 0)
	metrics := map[string]map[string]float64{}
	for name, part := range map[string]*ml.Dataset{"train": train, "validation": valid} {
		if part == nil || part.Rows() == 0 {
			continue
		}
		metrics[name] = map[string]float64{}
		names := summaryMetrics[model.Task()]
		scores, err := ml.ScoreAll(ctx, model, part, names)
		if err != nil {
			return nil, err
		}
		for i, metric := range names {
			metrics[name][metric] = scores[i]
		}
	}
	meta := &modelMeta{
		Task: model.Task().String(), Algorithm: string(model.Algorithm()), TrainTable: t.qualified(),
		Target: model.Target(), Ignored: ignored, Classes: model.Classes(), Options: opts.raw,
		Metrics: metrics, TrainRows: train.Rows(), FormatVersion: ml.FormatVersion,
	}
	if valid != nil {
		meta.ValidationRows = valid.Rows()
	}
	if target != "" {
		tc, _ := t.column(target)
		meta.Target, meta.TargetType = tc.name, tc.typ.String()
	}
	used := map[string]bool{}
	for _, f := range model.Features() {
		used[strings.ToLower(f.Name)] = true
	}
	for _, c := range features {
		if used[strings.ToLower(c.name)] {
			meta.Columns = append(meta.Columns, metaColumn{Name: c.name, Type: c.typ.String(), Kind: c.kind.String()})
		}
	}
	meta.TrainingSeconds = time.Since(start).Seconds()
	m.jobs.setPhase(j, "saving", 0)
	if err := m.saveModel(ctx, user, handle, model, meta); err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.mu.models[catalogKey(user, handle)] = &loadedModel{model: model, meta: meta}
	m.mu.Unlock()
	mj, err := json.Marshal(metrics)
	if err != nil {
		return nil, err
	}
	doc, _, err := types.JSON.Convert(ctx, string(mj))
	if err != nil {
		return nil, err
	}
	return sql.Row{handle, meta.Task, meta.Algorithm, int64(meta.TrainRows), int64(meta.ValidationRows),
		meta.TrainingSeconds, doc}, nil
}
