package ml_test

import (
	"context"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// TestKMeansMatchesSklearn compares training inertia (in the standardised
// space both sides use) with scikit-learn's KMeans: ours may exceed it by
// at most 1%.
func TestKMeansMatchesSklearn(t *testing.T) {
	for _, tc := range []struct {
		data string
		k    int
		rows int
	}{
		{"iris", 3, 0}, {"wine", 3, 0}, {"digits", 10, 0}, {"california", 8, 5000},
	} {
		t.Run(tc.data, func(t *testing.T) {
			d := needData(t, tc.data)
			tr, te := split(d)
			if tc.rows > 0 {
				tr = tr[:tc.rows]
			}
			d.Target = nil
			m, err := ml.Train(context.Background(), d.Subset(tr), ml.Options{Algorithm: ml.KMeans, K: tc.k, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			km := m.Estimator().(*ml.KMeansModel)
			testInertia, err := ml.Score(context.Background(), m, d.Subset(te), "inertia")
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(t, d, refdata.Spec{Algorithm: "KMeans", Task: "clustering",
				Params: map[string]any{"k": tc.k, "seed": 1}, Train: tr, Test: te})
			t.Logf("inertia %.4f (sklearn %.4f), held-out %.4f (sklearn %.4f)", km.Inertia, ref.Metrics["inertia"],
				testInertia, ref.Metrics["test_inertia"])
			if km.Inertia > ref.Metrics["inertia"]*1.01 {
				t.Errorf("inertia %.4f exceeds sklearn's %.4f by more than 1%%", km.Inertia, ref.Metrics["inertia"])
			}
		})
	}
}
