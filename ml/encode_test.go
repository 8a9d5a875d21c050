package ml

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
)

// toyData is a small mixed dataset with NULLs: two numeric columns, one
// categorical, a 3-class text target and a numeric target.
func toyData(n int) (*Dataset, *Column) {
	x1, x2 := make([]float64, n), make([]float64, n)
	cat := make([]string, n)
	null := make([]bool, n)
	cls := make([]string, n)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		x1[i] = float64(i%17) / 3
		x2[i] = float64((i*7)%11) - 5
		cat[i] = []string{"red", "green", "blue"}[i%3]
		null[i] = i%13 == 0
		cls[i] = []string{"a", "b", "c"}[(i/5)%3]
		y[i] = 2*x1[i] - x2[i] + float64(i%3)
	}
	d := &Dataset{Features: []Column{
		NumericColumn("x1", x1, null),
		NumericColumn("x2", x2, nil),
		CategoricalColumn("colour", cat, nil),
	}}
	t := CategoricalColumn("label", cls, nil)
	d.Target = &t
	yt := NumericColumn("y", y, nil)
	return d, &yt
}

// seedModels trains one model of every kind on toy data.
func seedModels(t testing.TB) []*Model {
	d, y := toyData(120)
	reg := &Dataset{Features: d.Features, Target: y}
	clu := &Dataset{Features: d.Features}
	ratings := &Dataset{Features: []Column{
		NumericColumn("user", []float64{1, 1, 2, 2, 3, 3, 4}, nil),
		CategoricalColumn("item", []string{"a", "b", "a", "c", "b", "c", "a"}, nil),
	}}
	rt := NumericColumn("rating", []float64{5, 3, 4, 2, 1, 5, 4}, nil)
	ratings.Target = &rt
	cases := []struct {
		d *Dataset
		o Options
	}{
		{reg, Options{Algorithm: LinearRegression}},
		{reg, Options{Algorithm: Ridge, Alpha: 0.5}},
		{d, Options{Algorithm: LogisticRegression}},
		{&Dataset{Features: d.Features, Target: &Column{Name: "bin", Kind: Numeric, Num: twoClasses(120)}}, Options{Algorithm: LogisticRegression}},
		{clu, Options{Algorithm: KMeans, K: 3, NInit: 2}},
		{d, Options{Algorithm: NaiveBayes}},
		{d, Options{Algorithm: DecisionTree, Task: Classification, MaxDepth: 4}},
		{reg, Options{Algorithm: DecisionTree, Task: Regression}},
		{d, Options{Algorithm: GradientBoosting, Task: Classification, NEstimators: 3}},
		{reg, Options{Algorithm: GradientBoosting, Task: Regression, NEstimators: 3}},
		{ratings, Options{Algorithm: ALS, Rank: 2, MaxIter: 2}},
	}
	var out []*Model
	for _, c := range cases {
		m, err := Train(context.Background(), c.d, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.o.Algorithm, err)
		}
		out = append(out, m)
	}
	return out
}

func twoClasses(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64((i / 3) % 2)
	}
	return v
}

var toyRow = map[string]any{"x1": 1.5, "x2": int64(-2), "colour": "green", "user": 2, "item": "c", "extra": "ignored"}

func TestEncodeRoundTrip(t *testing.T) {
	for _, m := range seedModels(t) {
		t.Run(fmt.Sprintf("%s/%v", m.Algorithm(), m.Task()), func(t *testing.T) {
			b := Encode(m)
			m2, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(Encode(m2), b) {
				t.Fatal("re-encoding differs")
			}
			p1, err1 := m.Predict(toyRow)
			p2, err2 := m2.Predict(toyRow)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if fmt.Sprint(p1) != fmt.Sprint(p2) {
				t.Errorf("prediction changed: %v vs %v", p1, p2)
			}
			for cut := 0; cut < len(b); cut += 1 + len(b)/50 {
				if _, err := Decode(b[:cut]); !errors.Is(err, ErrFormat) {
					t.Fatalf("truncated at %d: %v", cut, err)
				}
			}
		})
	}
}

// FuzzDecode checks that no byte string makes Decode panic, and that a
// model it accepts predicts and re-encodes without panicking. The seed
// corpus (one model of every kind) runs as part of go test.
func FuzzDecode(f *testing.F) {
	for _, m := range seedModels(f) {
		f.Add(Encode(m))
	}
	f.Add([]byte("SQLM"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		_, _ = m.Predict(anyRow(m))
		_ = Encode(m)
	})
}

// anyRow gives every feature of m a value of the right kind.
func anyRow(m *Model) map[string]any {
	row := map[string]any{}
	for _, fi := range m.Features() {
		if fi.Kind == Numeric {
			row[fi.Name] = 1.0
		} else {
			row[fi.Name] = "x"
		}
	}
	return row
}
