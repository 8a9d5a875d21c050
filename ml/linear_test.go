package ml_test

import (
	"context"
	"math"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

func TestLinearMatchesSklearn(t *testing.T) {
	for _, tc := range []struct {
		data  string
		alg   ml.Algorithm
		alpha float64
	}{
		{"diabetes", ml.LinearRegression, 0},
		{"diabetes", ml.Ridge, 1},
		{"diabetes", ml.Ridge, 100},
		{"california", ml.LinearRegression, 0},
		{"california", ml.Ridge, 1},
	} {
		t.Run(tc.data+"/"+string(tc.alg), func(t *testing.T) {
			d := needData(t, tc.data)
			tr, te := split(d)
			train, test := d.Subset(tr), d.Subset(te)
			m, err := ml.Train(context.Background(), train, ml.Options{Algorithm: tc.alg, Alpha: tc.alpha})
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(t, d, refdata.Spec{Algorithm: string(tc.alg), Task: "regression",
				Params: map[string]any{"alpha": tc.alpha}, Train: tr, Test: te})
			lin := m.Estimator().(*ml.Linear)
			if len(lin.Coef) != len(ref.Coef) {
				t.Fatalf("%d coefficients, sklearn has %d (%v)", len(lin.Coef), len(ref.Coef), m.EncodedColumns())
			}
			all := append(append([]float64(nil), lin.Coef...), lin.Intercept)
			want := append(append([]float64(nil), ref.Coef...), ref.Intercept)
			if rd := relDiff(all, want); rd > 1e-6 {
				t.Errorf("coefficients differ by %.3g (relative)\n got %v\nwant %v", rd, all, want)
			}
			r2, err := ml.Score(context.Background(), m, test, "r2")
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r2-ref.Metrics["r2"]) > 1e-6 {
				t.Errorf("test R² %.8f, sklearn %.8f", r2, ref.Metrics["r2"])
			}
			t.Logf("R² %.6f (sklearn %.6f), coef rel diff %.2g", r2, ref.Metrics["r2"], relDiff(all, want))
		})
	}
}
