package udf

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/sqlext"
)

// TestResultsJSONMatchesMarshal holds the hand-built ml_results text to
// the form the engine stores the same document in (what an INSERT of it
// would store, so that rows read back and written again compare equal),
// over regression values across the float formats, cluster ids, and
// classifiers with string and numeric labels.
func TestResultsJSONMatchesMarshal(t *testing.T) {
	check := func(pr *ml.Predictions, n int) {
		t.Helper()
		enc := newResultsEncoder(pr)
		for i := range n {
			var proba map[string]float64
			if len(pr.Classes) > 0 {
				proba = map[string]float64{}
				for j, c := range pr.Classes {
					proba[c] = pr.Proba[i*len(pr.Classes)+j]
				}
			}
			js, err := json.Marshal(mlResults(pr.Task, pr.Label(i), proba))
			got := resultsJSON(pr, i, enc)
			var want []byte
			if err == nil {
				var doc any
				if err = json.Unmarshal(js, &doc); err != nil {
					t.Fatal(err)
				}
				if want, err = types.MarshallJson(types.JSONDocument{Val: doc}); err != nil {
					t.Fatal(err)
				}
			}
			if err != nil {
				if got != nil {
					t.Errorf("row %d: json cannot encode it, got %v", i, got)
				}
				continue
			}
			if got != sqlext.ValidJSON(want) {
				t.Errorf("row %d: got %v, want %s", i, got, want)
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
	}
}
