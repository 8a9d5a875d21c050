package ml

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestBadInput(t *testing.T) {
	d, y := toyData(60)
	allNull := make([]bool, 60)
	for i := range allNull {
		allNull[i] = true
	}
	oneClass := CategoricalColumn("label", make([]string, 60), nil)
	withNull := make([]bool, 60)
	withNull[3] = true
	for _, tc := range []struct {
		name string
		d    *Dataset
		o    Options
		want error
		col  string
	}{
		{"empty", &Dataset{Features: []Column{NumericColumn("x", nil, nil)}, Target: &Column{Name: "y", Kind: Numeric}}, Options{Algorithm: LinearRegression}, ErrEmptyDataset, ""},
		{"no features", &Dataset{Target: y}, Options{Algorithm: LinearRegression}, ErrNoFeatures, ""},
		{"all-NULL column", &Dataset{Features: []Column{d.Features[0], NumericColumn("blank", make([]float64, 60), allNull)}, Target: y}, Options{Algorithm: Ridge}, ErrAllNull, "blank"},
		{"NULL rejected", &Dataset{Features: []Column{NumericColumn("holes", make([]float64, 60), withNull)}, Target: y}, Options{Algorithm: Ridge, Nulls: NullReject}, ErrNullValue, "holes"},
		{"text target for regression", d, Options{Algorithm: LinearRegression}, ErrTargetType, "label"},
		{"single class", &Dataset{Features: d.Features, Target: &oneClass}, Options{Algorithm: LogisticRegression}, ErrSingleClass, "label"},
		{"length mismatch", &Dataset{Features: []Column{NumericColumn("short", []float64{1}, nil)}, Target: y}, Options{Algorithm: Ridge}, ErrColumnLength, "short"},
		{"unknown algorithm", d, Options{Algorithm: "SVM"}, ErrUnknownAlgorithm, ""},
		{"wrong task", d, Options{Algorithm: KMeans, Task: Regression}, ErrBadOption, ""},
		{"bad option", d, Options{Algorithm: LogisticRegression, C: -1}, ErrBadOption, "C"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Train(context.Background(), tc.d, tc.o)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if tc.col != "" && !strings.Contains(err.Error(), tc.col) {
				t.Errorf("error %q does not name %q", err, tc.col)
			}
		})
	}
}

func TestPredictRowBinding(t *testing.T) {
	d, _ := toyData(90)
	m, err := Train(context.Background(), d, Options{Algorithm: LogisticRegression})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(map[string]any{"colour": "red", "x2": 3, "x1": "2.5", "unused": true})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range p.Probabilities {
		sum += v
	}
	if _, ok := p.Value.(string); !ok || len(p.Probabilities) != 3 || sum < 0.999 || sum > 1.001 {
		t.Errorf("prediction %+v", p)
	}
	if _, err := m.Predict(map[string]any{"x1": 1, "colour": "red"}); !errors.Is(err, ErrMissingColumn) || !strings.Contains(err.Error(), "x2") {
		t.Errorf("missing column: %v", err)
	}
	if _, err := m.Predict(map[string]any{"x1": []int{1}, "x2": 1, "colour": "red"}); !errors.Is(err, ErrColumnType) || !strings.Contains(err.Error(), "x1") {
		t.Errorf("wrong type: %v", err)
	}
	// Columns bind by name: reordering the dataset changes nothing.
	rev := &Dataset{Features: []Column{d.Features[2], d.Features[0], d.Features[1]}, Target: d.Target}
	a, _ := m.PredictBatch(context.Background(), d)
	b, err := m.PredictBatch(context.Background(), rev)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Proba {
		if a.Proba[i] != b.Proba[i] {
			t.Fatal("column order changed predictions")
		}
	}
	row := map[string]any{"x1": d.Features[0].Num[5], "x2": d.Features[1].Num[5], "colour": d.Features[2].Str[5]}
	if p, _ := m.Predict(row); p.Value != a.Label(5) {
		t.Errorf("Predict %v, batch %v", p.Value, a.Label(5))
	}
}

func TestCancelAndProgress(t *testing.T) {
	d, _ := toyData(3000)
	d.Target = nil
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	start := time.Now()
	_, err := Train(ctx, d, Options{Algorithm: KMeans, K: 5, NInit: 50, Tol: 1e-300, Progress: func(p Progress) {
		calls++
		if p.Iteration == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if calls != 3 || time.Since(start) > time.Second {
		t.Errorf("stopped after %d progress calls, %v", calls, time.Since(start))
	}
}
