package udf_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// loadRows creates table name with an id primary key holding d's rows
// idx (id = the row's index in d), inserted in batched multi-row INSERTs.
func loadRows(t testing.TB, s *server, name string, d *ml.Dataset, idx []int) {
	t.Helper()
	for _, q := range refdata.TableSQL(name, d, idx) {
		s.exec(t, q)
	}
}

// TestMLSQLMatchesDirectAndSklearn trains through CALL sys.ML_TRAIN and
// scores through ML_SCORE on a held-out table. The SQL path must give the
// numbers that calling ml directly on the same rows gives (to rounding),
// and the main metric must be within margin of scikit-learn's on the same
// split.
func TestMLSQLMatchesDirectAndSklearn(t *testing.T) {
	cases := []struct {
		data    string
		task    ml.Task
		opts    ml.Options
		sqlOpts string
		params  map[string]any
		metrics []string
		margin  float64
	}{
		{"iris", ml.Classification, ml.Options{Algorithm: ml.LogisticRegression}, "'algorithm', 'LogisticRegression'",
			nil, []string{"accuracy", "log_loss", "roc_auc"}, 0.04},
		{"breast_cancer", ml.Classification, ml.Options{Algorithm: ml.GradientBoosting, NEstimators: 50}, "'algorithm', 'GradientBoosting', 'n_estimators', 50",
			map[string]any{"n_estimators": 50}, []string{"accuracy", "f1", "roc_auc"}, 0.03},
		{"diabetes", ml.Regression, ml.Options{Algorithm: ml.Ridge, Alpha: 0.5}, "'algorithm', 'Ridge', 'alpha', 0.5",
			map[string]any{"alpha": 0.5}, []string{"r2", "mean_squared_error", "mean_absolute_error"}, 0.005},
		{"adult", ml.Classification, ml.Options{Algorithm: ml.DecisionTree, MaxDepth: 8}, "'algorithm', 'DecisionTree', 'max_depth', 8",
			map[string]any{"max_depth": 8}, []string{"accuracy", "precision", "recall"}, 0.01},
	}
	s, _ := startAt(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.data, func(t *testing.T) {
			d, err := refdata.Load(tc.data)
			if err != nil {
				if os.Getenv("CI") == "" && errors.Is(err, refdata.ErrNoDatasets) {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			tr, te := ml.SplitIndices(d.Rows(), 0.2, 42)
			slices.Sort(tr)
			slices.Sort(te)
			name := strings.ReplaceAll(tc.data, "-", "_")
			loadRows(t, s, name+"_train", d, tr)
			loadRows(t, s, name+"_test", d, te)

			tc.opts.Task = tc.task
			direct, err := ml.Train(context.Background(), d.Subset(tr), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			s.exec(t, "SET @m = NULL")
			s.exec(t, fmt.Sprintf("CALL sys.ML_TRAIN('t.%s_train', '%s', JSON_OBJECT('task', '%s', 'exclude_column_list', JSON_ARRAY('id'), %s), @m)",
				name, d.Target.Name, tc.task, tc.sqlOpts))
			got := map[string]float64{}
			for _, metric := range tc.metrics {
				want, err := ml.Score(context.Background(), direct, d.Subset(te), metric)
				if err != nil {
					t.Fatal(err)
				}
				s.exec(t, fmt.Sprintf("CALL sys.ML_SCORE('t.%s_test', '%s', @m, '%s', @score, NULL)", name, d.Target.Name, metric))
				got[metric] = one[float64](t, s, "SELECT @score")
				if math.Abs(got[metric]-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("%s through SQL %.12g, directly %.12g", metric, got[metric], want)
				}
			}
			ref, err := refdata.Reference(d, refdata.Spec{Algorithm: string(tc.opts.Algorithm), Task: tc.task.String(),
				Params: tc.params, Train: tr, Test: te})
			if err != nil {
				if os.Getenv("CI") == "" && errors.Is(err, refdata.ErrNoReference) {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			main := tc.metrics[0]
			t.Logf("%s: %s through SQL %.4f, scikit-learn %.4f", tc.data, main, got[main], ref.Metrics[main])
			if got[main] < ref.Metrics[main]-tc.margin {
				t.Errorf("%s %.4f is more than %.3f below scikit-learn's %.4f", main, got[main], tc.margin, ref.Metrics[main])
			}
		})
	}
}
