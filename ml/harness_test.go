package ml_test

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// needData loads a shared dataset; outside CI a missing folder skips, in
// CI it fails, as the datasets README asks.
func needData(t *testing.T, name string) *ml.Dataset {
	t.Helper()
	d, err := refdata.Load(name)
	if err != nil {
		if os.Getenv("CI") == "" && errors.Is(err, refdata.ErrNoDatasets) {
			t.Skip(err)
		}
		t.Fatalf("loading %s: %v", name, err)
	}
	return d
}

// reference runs the scikit-learn side on the same rows.
func reference(t *testing.T, d *ml.Dataset, spec refdata.Spec) *refdata.Result {
	t.Helper()
	res, err := refdata.Reference(d, spec)
	if err != nil {
		if os.Getenv("CI") == "" && errors.Is(err, refdata.ErrNoReference) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	return res
}

// relDiff is ‖a-b‖/‖b‖.
func relDiff(a, b []float64) float64 {
	var num, den float64
	for i := range b {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	return math.Sqrt(num / den)
}

const splitSeed = 42

func split(d *ml.Dataset) (train, test []int) { return ml.SplitIndices(d.Rows(), 0.2, splitSeed) }
