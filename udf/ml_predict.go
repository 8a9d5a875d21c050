package udf

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
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
	newCols := arrow.NewSchema(outSchema.Fields()[nIn:], nil)
	n, err := prov.BulkAppendFrom(w.ctx, db, name, w.t.db, w.t.name, sqlext.AppendOptions{TrustedJSON: true}, func(emit func([]string, arrow.RecordBatch) error) error {
		var err error
		before, err = store.ScanIdentified(w.ctx, w.t.db, w.t.name, func(in arrow.RecordBatch, ids []string) error {
			pred, results, err := predict(in)
			if err != nil {
				return err
			}
			rec := array.NewRecordBatch(newCols, []arrow.Array{pred, results}, in.NumRows())
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
			rec := array.NewRecordBatch(outSchema, cols, in.NumRows())
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
	return pb.NewArray(), p.results(pr), nil
}

// results is the batch's ml_results column, each document written
// straight into one data buffer sized from the first: through a builder
// every document was copied again, with the buffer's doublings, a third
// of the column's cost.
func (p *predictColumns) results(pr *ml.Predictions) arrow.Array {
	n := len(pr.Values)
	enc := newResultsEncoder(pr)
	offsets := make([]int64, n+1)
	var data, valid []byte
	nulls := 0
	for i := 0; i < n; i++ {
		start := len(data)
		b, ok := appendResults(data, pr, i, enc)
		if !ok {
			if valid == nil {
				valid = make([]byte, bitutil.BytesForBits(int64(n)))
				bitutil.SetBitsTo(valid, 0, int64(n), true)
			}
			bitutil.ClearBit(valid, i)
			nulls++
			b = b[:start]
		}
		if i == 0 && cap(b) < len(b)*n {
			// Room for every row at the first's length and a little more.
			grown := make([]byte, len(b), len(b)*n+len(b)*n/8)
			copy(grown, b)
			b = grown
		}
		data = b
		offsets[i+1] = int64(len(data))
	}
	var validity *memory.Buffer
	if valid != nil {
		validity = memory.NewBufferBytes(valid)
	}
	d := array.NewData(arrow.BinaryTypes.LargeString, n,
		[]*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.NewLargeStringData(d)
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

// resultsJSON is row i's ml_results document, byte for byte what
// json.Marshal(mlResults(...)) gives (the tests hold it to that), or nil
// where JSON has no value for it.
func resultsJSON(pr *ml.Predictions, i int, enc *resultsEncoder) any {
	b, ok := appendResults(nil, pr, i, enc)
	if !ok {
		return nil
	}
	return sqlext.ValidJSON(b)
}

// appendResults appends row i's ml_results document to b, built without
// maps or reflection (it was a fifth of ML_PREDICT_TABLE's time); false
// for a prediction JSON cannot encode. enc carries the parts that are the
// same for every row.
func appendResults(b []byte, pr *ml.Predictions, i int, enc *resultsEncoder) ([]byte, bool) {
	b = append(b, enc.head...)
	var ok bool
	if k := int(pr.Values[i]); pr.Task == ml.Classification && k >= 0 && k < len(enc.labels) {
		// A class's label is encoded once (a text label through
		// encoding/json, a tenth of a microsecond a row).
		if enc.labels[k] == nil {
			if enc.labels[k], ok = appendJSONValue(nil, pr.Label(i)); !ok {
				return b, false
			}
		}
		b = append(b, enc.labels[k]...)
	} else if b, ok = appendJSONValue(b, pr.Label(i)); !ok {
		return b, false
	}
	b = append(b, '}')
	if len(pr.Classes) > 0 {
		b = append(b, `,"probabilities":{`...)
		k := len(pr.Classes)
		for n, j := range enc.order {
			if n > 0 {
				b = append(b, ',')
			}
			b = append(b, enc.keys[n]...)
			if b, ok = appendJSONValue(b, pr.Proba[i*k+j]); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	}
	return append(b, '}'), true
}

// resultsEncoder holds what appendResults reuses across the rows of one
// batch: the opening up to the prediction, the class keys in json's
// (sorted) order and the classes' labels.
type resultsEncoder struct {
	head   []byte
	order  []int    // class indices in key order
	keys   [][]byte // `"class":` for each, in that order
	labels [][]byte // each class's label as JSON, by class index, once seen
}

func newResultsEncoder(pr *ml.Predictions) *resultsEncoder {
	enc := &resultsEncoder{head: []byte(`{"predictions":{"` + resultsKey[pr.Task] + `":`)}
	enc.order = make([]int, len(pr.Classes))
	enc.labels = make([][]byte, len(pr.Classes))
	for j := range enc.order {
		enc.order[j] = j
	}
	sort.Slice(enc.order, func(a, b int) bool { return pr.Classes[enc.order[a]] < pr.Classes[enc.order[b]] })
	for _, j := range enc.order {
		k, _ := marshalStored(pr.Classes[j])
		enc.keys = append(enc.keys, append(k, ':'))
	}
	return enc
}

// appendJSONValue appends v as the engine stores JSON values (encoding/json's
// format without HTML escaping); false for a value JSON cannot encode (NaN,
// infinities).
func appendJSONValue(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return b, false
		}
		// encoding/json's float format: shortest 'f', or 'e' outside
		// [1e-6, 1e21) with a two-digit exponent trimmed of its zero.
		format := byte('f')
		if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
			format = 'e'
		}
		b = strconv.AppendFloat(b, x, format, -1, 64)
		if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b, true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	}
	js, err := marshalStored(v)
	if err != nil {
		return b, false
	}
	return append(b, js...), true
}

// marshalStored is json.Marshal without HTML escaping, as the engine
// stores JSON text.
func marshalStored(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
