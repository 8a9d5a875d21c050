package udf

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
)

func (m *mlLib) specs() []*spec {
	return []*spec{
		{name: "ML_PREDICT_ROW", min: 2, max: 3, ret: types.JSON, volatile: true, nullArgs: true,
			desc: "ML_PREDICT_ROW(JSON_OBJECT('col', v, ...), model_handle[, options]): the input object plus Prediction and ml_results.",
			eval: m.predictRow},
	}
}

// predictRow is ML_PREDICT_ROW. Features bind by name, case-insensitively
// as column names do; keys the model does not use are kept in the output
// and otherwise ignored.
func (m *mlLib) predictRow(c *call) (any, error) {
	if c.args[0] == nil || c.args[1] == nil {
		return nil, nil
	}
	in, err := jsonObject(c, 0)
	if err != nil {
		return nil, err
	}
	handle, err := c.str(1)
	if err != nil {
		return nil, err
	}
	lm, err := m.model(c.ctx, handle)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]string)
	for _, f := range lm.model.Features() {
		byName[strings.ToLower(f.Name)] = f.Name
	}
	row := make(map[string]any, len(in))
	for k, v := range in {
		if name, ok := byName[strings.ToLower(k)]; ok {
			row[name] = plainValue(v)
		}
	}
	p, err := lm.model.Predict(row)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(in)+2)
	for k, v := range in {
		out[k] = v
	}
	out["Prediction"] = p.Value
	out["ml_results"] = mlResults(lm.model.Task(), p.Value, p.Probabilities)
	return types.JSONDocument{Val: out}, nil
}

// mlResults is HeatWave's ml_results object.
func mlResults(task ml.Task, value any, proba map[string]float64) map[string]any {
	key := map[ml.Task]string{ml.Classification: "class", ml.Regression: "prediction",
		ml.Clustering: "cluster", ml.Recommendation: "rating"}[task]
	res := map[string]any{"predictions": map[string]any{key: value}}
	if proba != nil {
		pm := make(map[string]any, len(proba))
		for k, v := range proba {
			pm[k] = v
		}
		res["probabilities"] = pm
	}
	return res
}

// jsonObject reads argument i as a JSON object.
func jsonObject(c *call, i int) (map[string]any, error) {
	var v any
	switch x := c.args[i].(type) {
	case sql.JSONWrapper:
		var err error
		if v, err = x.ToInterface(); err != nil {
			return nil, err
		}
	default:
		s, err := c.str(i)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, c.argErr(i, "must be a JSON object: %v", err)
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, c.argErr(i, "must be a JSON object, got %s", typeName(v))
	}
	return obj, nil
}

// plainValue turns the numbers a JSON document may hold into float64,
// which is what a model's numeric columns take.
func plainValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
	case decimal.Decimal:
		f, _ := x.Float64()
		return f
	case bool:
		if x {
			return 1.0
		}
		return 0.0
	}
	if f, ok := numeric(v); ok {
		return f
	}
	return v
}

// modelColumns finds the table columns a model reads, by name.
func modelColumns(t *mlTable, model *ml.Model) ([]*mlColumn, error) {
	var cols []*mlColumn
	for _, f := range model.Features() {
		c, err := t.column(f.Name)
		if err != nil {
			return nil, fmt.Errorf("%w: the model needs column '%s', which %s lacks", ErrArgument, f.Name, t.qualified())
		}
		if c.kind == 0 {
			return nil, fmt.Errorf("%w: column '%s' is %s; the model needs %v values", ErrNoFeature, c.name, c.typ, f.Kind)
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// named renames read columns to the model's spelling of each name.
func named(cols []ml.Column, model *ml.Model) []ml.Column {
	for i, f := range model.Features() {
		cols[i].Name = f.Name
	}
	return cols
}

var scoreSchema = sql.Schema{
	{Name: "metric", Type: types.LongText},
	{Name: "score", Type: types.Float64},
}

// score is CALL sys.ML_SCORE('db.table', 'target', handle, 'metric',
// @score, options): it sets @score and also returns it as a row.
func (m *mlLib) score(ctx *sql.Context, table, target, handle, metric string, out *float64, options string) (sql.RowIter, error) {
	return guard(ctx, "ML_SCORE", func() (sql.RowIter, error) {
		lm, err := m.model(ctx, handle)
		if err != nil {
			return nil, err
		}
		t, err := m.openTable(ctx, table)
		if err != nil {
			return nil, err
		}
		cols, err := modelColumns(t, lm.model)
		if err != nil {
			return nil, err
		}
		task := lm.model.Task()
		if task != ml.Clustering {
			if target == "" {
				return nil, fmt.Errorf("%w: the target column is NULL", ErrArgument)
			}
			tc, err := t.column(target)
			if err != nil {
				return nil, err
			}
			cols = append(cols, tc)
		}
		read, err := m.readColumns(ctx, t, cols)
		if err != nil {
			return nil, err
		}
		nf := len(lm.model.Features())
		d := &ml.Dataset{Features: named(read[:nf], lm.model)}
		if len(read) > nf {
			d.Target = &read[nf]
		}
		if d.Rows() == 0 {
			return nil, fmt.Errorf("%w: table %s is empty", ErrArgument, t.qualified())
		}
		s, err := ml.Score(ctx, lm.model, d, metric)
		if err != nil {
			return nil, err
		}
		*out = s
		return sql.RowsToRowIter(sql.Row{strings.ToLower(metric), s}), nil
	})
}

var predictTableSchema = sql.Schema{
	{Name: "output_table", Type: types.LongText},
	{Name: "rows_written", Type: types.Int64},
	{Name: "predict_seconds", Type: types.Float64},
	{Name: "write_seconds", Type: types.Float64},
}

// predictTable is CALL sys.ML_PREDICT_TABLE('db.in', handle, 'db.out',
// options): out gets in's columns plus Prediction and ml_results, written
// through the engine. A failure drops out, so no partial table remains.
func (m *mlLib) predictTable(ctx *sql.Context, in, handle, outName, options string) (sql.RowIter, error) {
	return guard(ctx, "ML_PREDICT_TABLE", func() (sql.RowIter, error) {
		lm, err := m.model(ctx, handle)
		if err != nil {
			return nil, err
		}
		t, err := m.openTable(ctx, in)
		if err != nil {
			return nil, err
		}
		cols, err := modelColumns(t, lm.model)
		if err != nil {
			return nil, err
		}
		for _, name := range []string{"Prediction", "ml_results"} {
			if _, err := t.column(name); err == nil {
				return nil, fmt.Errorf("%w: %s already has a column '%s', which the output adds", ErrArgument, t.qualified(), name)
			}
		}
		odb, oname, err := splitTable(ctx, outName)
		if err != nil {
			return nil, err
		}
		qout := ident(odb) + "." + ident(oname)
		ictx := m.innerContext(ctx)
		if err := exec(ictx, m.lib, "CREATE TABLE "+qout+" LIKE "+ident(t.db)+"."+ident(t.name)); err != nil {
			return nil, err
		}
		w := &predictWriter{m: m, ctx: ictx, table: qout, model: lm.model, t: t, cols: cols,
			predType: predictionType(lm), start: time.Now()}
		n, err := w.run()
		if err != nil {
			// Clean up even when the statement was killed.
			cctx := m.innerContext(ctx.WithContext(context.WithoutCancel(ctx)))
			_ = exec(cctx, m.lib, "ROLLBACK")
			if derr := exec(cctx, m.lib, "DROP TABLE IF EXISTS "+qout); derr != nil {
				return nil, errors.Join(err, derr)
			}
			return nil, err
		}
		return sql.RowsToRowIter(sql.Row{odb + "." + oname, n, w.predict.Seconds(), w.write.Seconds()}), nil
	})
}

// predictionType is the SQL type of the Prediction column: the target's
// type for classifiers, so labels read back as they were stored.
func predictionType(lm *loadedModel) string {
	switch lm.model.Task() {
	case ml.Clustering:
		return "BIGINT"
	case ml.Classification:
		if lm.meta.TargetType != "" {
			return lm.meta.TargetType
		}
		return "TEXT"
	}
	return "DOUBLE"
}

// predictWriter streams a table through a model into the output table.
type predictWriter struct {
	m              *mlLib
	ctx            *sql.Context
	table          string
	model          *ml.Model
	t              *mlTable
	cols           []*mlColumn
	predType       string
	start          time.Time
	predict, write time.Duration
}

func (w *predictWriter) run() (int64, error) {
	// Two statements: the engine resolves a generated column only over
	// columns that exist before its ALTER.
	derived := w.model.Task() != ml.Classification
	results := "JSON"
	if derived {
		results += " AS (" + resultsExpr(w.model.Task()) + ") VIRTUAL"
	}
	for _, add := range []string{"Prediction " + w.predType, "ml_results " + results} {
		if err := exec(w.ctx, w.m.lib, "ALTER TABLE "+w.table+" ADD COLUMN "+add); err != nil {
			return 0, err
		}
	}
	db, name, err := splitTable(w.ctx, strings.ReplaceAll(w.table, "`", ""))
	if err != nil {
		return 0, err
	}
	prov := w.m.srv.Provider()
	info, err := w.m.srv.Store().Table(db, name)
	if err != nil {
		return 0, err
	}
	nIn := len(w.t.cols)
	if len(info.Schema.Columns) != nIn+2 {
		return 0, fmt.Errorf("%w: %s changed while it was being written", ErrArgument, w.table)
	}
	convert, err := prov.StorageConverter(w.ctx, db, name, nIn)
	if err != nil {
		return 0, err
	}
	out := &predictColumns{kind: info.Schema.Columns[nIn].Kind, convert: convert, derived: derived}
	readers := make([]func(v any) (float64, string, error), len(w.cols))
	for k, c := range w.cols {
		readers[k] = valueReader(c)
	}
	predict := func(in arrow.RecordBatch) (pred, results arrow.Array, err error) {
		t0 := time.Now()
		d, err := recordDataset(in, w.cols, readers)
		if err != nil {
			return nil, nil, err
		}
		d.Features = named(d.Features, w.model)
		pr, err := w.model.PredictBatch(w.ctx, d)
		if err != nil {
			return nil, nil, err
		}
		w.predict += time.Since(t0)
		return out.build(pr)
	}
	store := w.m.srv.Store()
	start := time.Now()
	defer func() { w.write = time.Since(start) - w.predict }()
	// The output's rows copy the input's by key, so the log carries the
	// keys and the new columns only. The copies are the input's rows when
	// the log applies them, so no write may reach the input in between:
	// once this node has applied every command (on a follower a forwarded
	// command can return first), the input's mark (Store.Writes) must be
	// the one the scan read.
	var before storage.WriteMark
	outSchema := storage.ArrowSchema(info.Schema)
	// A classifier's ml_results is a struct that storage writes as JSON
	// text (predictColumns.results), so a batch's schema names its type.
	withTypes := func(sch *arrow.Schema, cols []arrow.Array) *arrow.Schema {
		fields := sch.Fields()
		for i, c := range cols {
			fields[i].Type = c.DataType()
		}
		return arrow.NewSchema(fields, nil)
	}
	newCols := arrow.NewSchema(outSchema.Fields()[nIn:], nil)
	n, err := prov.BulkAppendFrom(w.ctx, db, name, w.t.db, w.t.name, sqlext.AppendOptions{TrustedJSON: true}, func(emit func([]string, arrow.RecordBatch) error) error {
		var err error
		before, err = store.ScanIdentified(w.ctx, w.t.db, w.t.name, func(in arrow.RecordBatch, ids []string) error {
			pred, results, err := predict(in)
			if err != nil {
				return err
			}
			cols := []arrow.Array{pred, results}
			rec := array.NewRecordBatch(withTypes(newCols, cols), cols, in.NumRows())
			pred.Release()
			results.Release()
			defer rec.Release()
			return emit(ids, rec)
		})
		if err == nil && afterPredictScan != nil {
			afterPredictScan()
		}
		return err
	})
	if err == nil {
		err = prov.AwaitApplied(w.ctx)
	}
	if err == nil && store.Writes(w.t.db, w.t.name) != before {
		return 0, fmt.Errorf("%w: %s was written while ML_PREDICT_TABLE read it; no output is kept, call it again", ErrConflict, w.t.qualified())
	}
	if !errors.Is(err, sqlext.ErrAppendFromUnsupported) {
		return n, err
	}
	return prov.BulkAppend(w.ctx, db, name, sqlext.AppendOptions{TrustedJSON: true}, func(emit func(arrow.RecordBatch) error) error {
		return store.ScanRecords(w.ctx, w.t.db, w.t.name, func(in arrow.RecordBatch) error {
			pred, results, err := predict(in)
			if err != nil {
				return err
			}
			cols := append(append(make([]arrow.Array, 0, nIn+2), in.Columns()...), pred, results)
			rec := array.NewRecordBatch(withTypes(outSchema, cols), cols, in.NumRows())
			pred.Release()
			results.Release()
			defer rec.Release()
			return emit(rec)
		})
	})
}

// afterPredictScan, when a test sets it, runs once ML_PREDICT_TABLE has
// read its input by key.
var afterPredictScan func()

// resultsExpr is the ml_results column of a task whose document holds
// nothing but the prediction (all but classification, whose document also
// holds each class's probability): a virtual column over Prediction,
// computed as it is read. Storing the same document in every row would
// make it over a third of the output's bytes, and of its log, and writing
// the numbers as text cost a tenth of the call. A row whose prediction is
// NULL reads {"predictions": {"prediction": null}}.
func resultsExpr(task ml.Task) string {
	return "JSON_OBJECT('predictions', JSON_OBJECT('" + resultsKey[task] + "', `Prediction`))"
}

// resultsKey names the prediction in a task's ml_results document.
var resultsKey = map[ml.Task]string{ml.Classification: "class", ml.Regression: "prediction",
	ml.Clustering: "cluster", ml.Recommendation: "rating"}

// predictColumns builds the Prediction and ml_results columns of one batch
// in storage form.
type predictColumns struct {
	kind    storage.Kind             // the Prediction column's
	convert func(v any) (any, error) // a prediction to the Prediction column's stored form
	derived bool                     // ml_results is virtual (resultsExpr): storage holds NULLs
	classes map[int]any              // stored form of each class label seen
}

func (p *predictColumns) build(pr *ml.Predictions) (pred, results arrow.Array, err error) {
	n := len(pr.Values)
	pb := storage.NewColumnBuilder(p.kind)
	defer pb.Release()
	pb.Reserve(n)
	switch f := pb.(type) {
	case *array.Float64Builder:
		if pr.Task == ml.Regression || pr.Task == ml.Recommendation {
			for _, v := range pr.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					f.AppendNull()
				} else {
					f.Append(v)
				}
			}
			break
		}
		err = p.appendConverted(pb, pr)
	case *array.Int64Builder:
		if pr.Task == ml.Clustering {
			for _, v := range pr.Values {
				f.Append(int64(v))
			}
			break
		}
		err = p.appendConverted(pb, pr)
	default:
		err = p.appendConverted(pb, pr)
	}
	if err != nil {
		return nil, nil, err
	}
	if p.derived {
		return pb.NewArray(), array.MakeArrayOfNull(memory.DefaultAllocator, arrow.BinaryTypes.LargeString, n), nil
	}
	results, err = p.results(pr)
	if err != nil {
		return nil, nil, err
	}
	return pb.NewArray(), results, nil
}

// results is the batch's ml_results documents as an Arrow struct,
// {"predictions": {key: label}, "probabilities": {class: p, ...}}, which
// every node writes as JSON text when it applies the log's command
// (storage.CheckJSONStruct). The log so carries a probability as 8
// bytes, not its ~18 characters of text, and the leader does not print
// them: text documents were most of a classifier's log and a sixth of its
// CPU. A row whose label or a probability JSON cannot hold (NaN, an
// infinity) has a NULL document.
func (p *predictColumns) results(pr *ml.Predictions) (arrow.Array, error) {
	n := len(pr.Values)
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(valid, 0, int64(n), true)
	nulls := 0
	drop := func(i int) {
		if bitutil.BitIsSet(valid, i) {
			bitutil.ClearBit(valid, i)
			nulls++
		}
	}
	label, err := resultLabels(pr, drop)
	if err != nil {
		return nil, err
	}
	defer label.Release()
	predictions, err := array.NewStructArray([]arrow.Array{label}, []string{resultsKey[pr.Task]})
	if err != nil {
		return nil, err
	}
	defer predictions.Release()
	members, names := []arrow.Array{predictions}, []string{"predictions"}
	if k := len(pr.Classes); k > 0 {
		probs := make([]arrow.Array, k)
		for j := range k {
			vals := make([]float64, n)
			for i := range n {
				if vals[i] = pr.Proba[i*k+j]; math.IsNaN(vals[i]) || math.IsInf(vals[i], 0) {
					drop(i)
				}
			}
			probs[j] = array.NewFloat64Data(array.NewData(arrow.PrimitiveTypes.Float64, n,
				[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vals))}, nil, 0, 0))
			defer probs[j].Release()
		}
		probabilities, err := array.NewStructArray(probs, pr.Classes)
		if err != nil {
			return nil, err
		}
		defer probabilities.Release()
		members, names = append(members, probabilities), append(names, "probabilities")
	}
	var validity *memory.Buffer
	if nulls > 0 {
		validity = memory.NewBufferBytes(valid)
	}
	return array.NewStructArrayWithNulls(members, names, validity, nulls, 0)
}

// resultLabels is the column of the prediction in ml_results: cluster ids
// as integers, a classifier's labels as text or numbers (each class's made
// once: a numeric label is parsed from its class name), a regression's
// values. drop is called for a row whose value JSON cannot hold.
func resultLabels(pr *ml.Predictions, drop func(int)) (arrow.Array, error) {
	n := len(pr.Values)
	if pr.Task == ml.Clustering {
		vals := make([]int64, n)
		for i, v := range pr.Values {
			vals[i] = int64(v)
		}
		return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals))}, nil, 0, 0)), nil
	}
	labelOf := pr.Label
	if pr.Task == ml.Classification {
		memo := make([]any, len(pr.Classes))
		labelOf = func(i int) any {
			k := int(pr.Values[i])
			if k < 0 || k >= len(memo) {
				return pr.Label(i)
			}
			if memo[k] == nil {
				memo[k] = pr.Label(i)
			}
			return memo[k]
		}
	}
	if n > 0 {
		if _, ok := labelOf(0).(string); ok {
			b := array.NewLargeStringBuilder(memory.DefaultAllocator)
			defer b.Release()
			b.Reserve(n)
			for i := range n {
				b.Append(labelOf(i).(string))
			}
			return b.NewArray(), nil
		}
	}
	vals := make([]float64, n)
	for i := range n {
		f, ok := labelOf(i).(float64)
		if !ok {
			return nil, fmt.Errorf("a %T label among float ones", labelOf(i))
		}
		if vals[i] = f; math.IsNaN(f) || math.IsInf(f, 0) {
			drop(i)
		}
	}
	return array.NewFloat64Data(array.NewData(arrow.PrimitiveTypes.Float64, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vals))}, nil, 0, 0)), nil
}

// appendConverted converts each prediction as an INSERT would: class
// labels once per class, anything else row by row.
func (p *predictColumns) appendConverted(b array.Builder, pr *ml.Predictions) error {
	for i := range pr.Values {
		var sv any
		if pr.Task == ml.Classification {
			k := int(pr.Values[i])
			v, ok := p.classes[k]
			if !ok {
				var err error
				if v, err = p.convert(pr.Label(i)); err != nil {
					return err
				}
				if p.classes == nil {
					p.classes = make(map[int]any)
				}
				p.classes[k] = v
			}
			sv = v
		} else {
			var err error
			if sv, err = p.convert(predictionValue(pr.Label(i))); err != nil {
				return err
			}
		}
		storage.AppendValue(b, sv)
	}
	return nil
}

// recordDataset converts the model's columns of a batch of stored rows.
func recordDataset(rec arrow.RecordBatch, cols []*mlColumn, readers []func(v any) (float64, string, error)) (*ml.Dataset, error) {
	d := &ml.Dataset{Features: make([]ml.Column, len(cols))}
	for k, c := range cols {
		d.Features[k] = ml.Column{Name: c.name, Kind: c.kind}
		if err := appendArray(&d.Features[k], rec.Column(c.ord), readers[k], 0); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// predictionValue is the Prediction column's value; a NaN or infinite
// regression output has no SQL value and is written as NULL.
func predictionValue(v any) any {
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil
	}
	return v
}
