package ml_test

import (
	"context"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

func TestTreesMatchSklearn(t *testing.T) {
	dt := func(depth int) ml.Options { return ml.Options{Algorithm: ml.DecisionTree, MaxDepth: depth} }
	gb := ml.Options{Algorithm: ml.GradientBoosting}
	depth := func(d int) map[string]any { return map[string]any{"max_depth": d} }
	runClassCases(t, []classCase{
		{data: "iris", opts: dt(0), margin: 0.04},
		{data: "breast_cancer", opts: dt(0), margin: 0.03},
		{data: "wine", opts: dt(0), margin: 0.06},
		{data: "digits", opts: dt(0), margin: 0.04},
		{data: "adult", opts: dt(8), params: depth(8), margin: 0.01},
		// Iris's petal columns tie for the best split; scikit-learn breaks
		// ties by a random feature order and we by column index. Training
		// losses agree stage by stage, but 2 of the 30 test rows flip.
		{data: "iris", opts: gb, margin: 0.07},
		{data: "breast_cancer", opts: gb, margin: 0.02},
		{data: "wine", opts: gb, margin: 0.04},
		{data: "adult", opts: gb, margin: 0.01, rows: 10000},
		{data: "higgs-train", opts: gb, margin: 0.02},
	})
}

func TestRegressionTreesMatchSklearn(t *testing.T) {
	for _, tc := range []struct {
		data   string
		opts   ml.Options
		params map[string]any
		margin float64
	}{
		{"diabetes", ml.Options{Algorithm: ml.DecisionTree, MaxDepth: 4}, map[string]any{"max_depth": 4}, 0.08},
		{"california", ml.Options{Algorithm: ml.DecisionTree, MaxDepth: 10}, map[string]any{"max_depth": 10}, 0.03},
		{"diabetes", ml.Options{Algorithm: ml.GradientBoosting}, nil, 0.05},
		{"california", ml.Options{Algorithm: ml.GradientBoosting}, nil, 0.02},
	} {
		t.Run(tc.data+"/"+string(tc.opts.Algorithm), func(t *testing.T) {
			d := needData(t, tc.data)
			tr, te := split(d)
			tc.opts.Task = ml.Regression
			m, err := ml.Train(context.Background(), d.Subset(tr), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := ml.Score(context.Background(), m, d.Subset(te), "r2")
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(t, d, refdata.Spec{Algorithm: string(tc.opts.Algorithm), Task: "regression",
				Params: tc.params, Train: tr, Test: te})
			t.Logf("R² %.4f (sklearn %.4f)", r2, ref.Metrics["r2"])
			if r2 < ref.Metrics["r2"]-tc.margin {
				t.Errorf("R² %.4f is more than %.2f below sklearn's %.4f", r2, tc.margin, ref.Metrics["r2"])
			}
		})
	}
}
