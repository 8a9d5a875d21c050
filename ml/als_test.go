package ml_test

import (
	"context"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// TestALSMatchesNumpy compares held-out RMSE on MovieLens with the numpy
// ALS in sklearn_ref.py (same rank, λ, sweeps and initialisation rule;
// the random draws differ): ours must be within 2%.
func TestALSMatchesNumpy(t *testing.T) {
	d := needData(t, "movielens")
	tr, te := split(d)
	opts := ml.Options{Algorithm: ml.ALS, Rank: 10, Lambda: 0.1, MaxIter: 10, Seed: 7}
	m, err := ml.Train(context.Background(), d.Subset(tr), opts)
	if err != nil {
		t.Fatal(err)
	}
	rmse, err := ml.Score(context.Background(), m, d.Subset(te), "rmse")
	if err != nil {
		t.Fatal(err)
	}
	ref := reference(t, d, refdata.Spec{Algorithm: "ALS", Task: "recommendation",
		Params: map[string]any{"rank": 10, "lambda": 0.1, "max_iter": 10, "seed": 7}, Train: tr, Test: te})
	t.Logf("held-out RMSE %.4f (numpy %.4f)", rmse, ref.Metrics["rmse"])
	if rmse > ref.Metrics["rmse"]*1.02 {
		t.Errorf("RMSE %.4f is more than 2%% above numpy's %.4f", rmse, ref.Metrics["rmse"])
	}
	p, err := m.Predict(map[string]any{"user": 1, "item": 31})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := p.Value.(float64); !ok || v < 0 || v > 6 {
		t.Errorf("Predict(user 1, item 31) = %v", p.Value)
	}
}
