package ml_test

import (
	"context"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// BenchmarkTrain times ml.Train on the cases nearest scikit-learn's time
// in bench/ml.sh, on the same training rows, so a change to one of them
// can be measured with benchstat:
//
//	go test -tags openblas -run '^$' -bench Train -count 10 ./ml
func BenchmarkTrain(b *testing.B) {
	cases := []struct {
		name, data string
		split      bool
		opts       ml.Options
	}{
		{"Ridge/california", "california", true, ml.Options{Algorithm: ml.Ridge, Alpha: 1}},
		{"LogisticRegression/higgs-train", "higgs-train", false, ml.Options{Algorithm: ml.LogisticRegression, Task: ml.Classification}},
		{"KMeans/california", "california", true, ml.Options{Algorithm: ml.KMeans, K: 8, Seed: 1}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			d, err := refdata.Load(c.data)
			if err != nil {
				b.Skip(err)
			}
			if c.split {
				tr, _ := ml.SplitIndices(d.Rows(), 0.2, 42)
				d = d.Subset(tr)
			}
			var m *ml.Model
			for b.Loop() {
				if m, err = ml.Train(context.Background(), d, c.opts); err != nil {
					b.Fatal(err)
				}
			}
			switch est := m.Estimator().(type) {
			case *ml.Logistic:
				b.ReportMetric(float64(est.Iter), "iterations")
			case *ml.KMeansModel:
				b.ReportMetric(float64(est.Iter), "iterations")
			}
		})
	}
}
