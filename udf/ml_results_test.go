package udf

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
	"github.com/sqlearn/sqlearn/storage"
)

// TestResultsJSONMatchesMarshal holds the ml_results documents, as
// storage writes them from the struct ML_PREDICT_TABLE sends, to the form
// an INSERT of the same document stores (sqlext.StoredJSON, so that rows
// read back and written again compare equal), over
// regression values across the float formats, cluster ids, and
// classifiers with string and numeric labels.
func TestResultsJSONMatchesMarshal(t *testing.T) {
	check := func(pr *ml.Predictions, n int) {
		t.Helper()
		col := resultsText(t, pr)
		defer col.Release()
		for i := range n {
			var proba map[string]float64
			if len(pr.Classes) > 0 {
				proba = map[string]float64{}
				for j, c := range pr.Classes {
					proba[c] = pr.Proba[i*len(pr.Classes)+j]
				}
			}
			doc := mlResults(pr.Task, pr.Label(i), proba)
			_, err := json.Marshal(doc) // refuses NaN and infinities, as storage does
			var want string
			if err == nil {
				if want, err = sqlext.StoredJSON(doc); err != nil {
					t.Fatal(err)
				}
			}
			if err != nil {
				if col.IsValid(i) {
					t.Errorf("row %d: json cannot encode it, got %q", i, col.Value(i))
				}
				continue
			}
			if col.IsNull(i) || col.Value(i) != want {
				t.Errorf("row %d: got %q (null %v), want %s", i, col.Value(i), col.IsNull(i), want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var vals []float64
	for _, v := range []float64{0, -0.0, 1, -1, 1e-7, -1e-7, 1e-6, 9.99e-7, 1e20, 1e21, 1.5e21, -3e-300, 123456789.125, 0.1, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1)} {
		vals = append(vals, v)
	}
	for range 500 {
		vals = append(vals, math.Ldexp(rng.Float64()-0.5, rng.IntN(200)-100))
	}
	check(&ml.Predictions{Task: ml.Regression, Values: vals}, len(vals))
	check(&ml.Predictions{Task: ml.Clustering, Values: []float64{0, 3, 12}}, 3)

	for _, labels := range [][]string{{"b", "a", "c", "é\"q", "<a&b>"}, nil} {
		n := 60
		x := make([]float64, n)
		ys := make([]string, n)
		yn := make([]float64, n)
		for i := range n {
			x[i] = rng.NormFloat64()
			k := i % 3
			if labels != nil {
				k = i % len(labels)
				ys[i] = labels[k]
			}
			yn[i] = float64(10 * k)
			x[i] += float64(k)
		}
		target := ml.NumericColumn("y", yn, nil)
		if labels != nil {
			target = ml.CategoricalColumn("y", ys, nil)
		}
		d := &ml.Dataset{Features: []ml.Column{ml.NumericColumn("x", x, nil)}, Target: &target}
		m, err := ml.Train(context.Background(), d, ml.Options{Task: ml.Classification, Algorithm: ml.LogisticRegression})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := m.PredictBatch(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		check(pr, n)
		// A probability JSON cannot write leaves that row's document NULL.
		pr.Proba[len(pr.Classes)*7] = math.NaN()
		check(pr, n)
		col := resultsText(t, pr)
		if col.NullN() != 1 || col.IsValid(7) {
			t.Errorf("%d NULL documents, row 7's valid %v", col.NullN(), col.IsValid(7))
		}
		col.Release()
	}
	vals[0] = math.NaN()
	check(&ml.Predictions{Task: ml.Regression, Values: vals}, len(vals))
}

// resultsText is the ml_results text storage writes for a batch.
func resultsText(t *testing.T, pr *ml.Predictions) *array.LargeString {
	t.Helper()
	docs, err := (&predictColumns{}).results(pr)
	if err != nil {
		t.Fatal(err)
	}
	defer docs.Release()
	if docs.Len() != len(pr.Values) {
		t.Fatalf("%d documents for %d rows", docs.Len(), len(pr.Values))
	}
	col, err := storage.JSONText(docs)
	if err != nil {
		t.Fatal(err)
	}
	return col
}
