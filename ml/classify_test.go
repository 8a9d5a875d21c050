package ml_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlearn/sqlearn/ml"
	"github.com/sqlearn/sqlearn/ml/refdata"
)

// classCase is one classifier compared with scikit-learn on held-out
// accuracy; margin is how far below scikit-learn ours may fall.
type classCase struct {
	data   string
	opts   ml.Options
	params map[string]any
	margin float64
	rows   int // use only the first rows of the training split (0: all)
}

// splitFor gives the dataset and split a case uses: HIGGS comes with its
// own test file, the rest are split 80/20 with splitSeed.
func splitFor(t *testing.T, data string, rows int) (*ml.Dataset, []int, []int) {
	d := needData(t, data)
	var tr, te []int
	if data == "higgs-train" {
		d, tr, te = concat(d, needData(t, "higgs-test"))
	} else {
		tr, te = split(d)
	}
	if rows > 0 && rows < len(tr) {
		tr = tr[:rows]
	}
	return d, tr, te
}

func runClassCases(t *testing.T, cases []classCase) {
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%s", tc.data, tc.opts.Algorithm), func(t *testing.T) {
			d, tr, te := splitFor(t, tc.data, tc.rows)
			tc.opts.Task = ml.Classification
			m, err := ml.Train(context.Background(), d.Subset(tr), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(t, d, refdata.Spec{Algorithm: string(tc.opts.Algorithm), Task: "classification",
				Params: tc.params, Train: tr, Test: te})
			test := d.Subset(te)
			got := map[string]float64{}
			for _, metric := range []string{"accuracy", "f1", "log_loss", "roc_auc"} {
				v, err := ml.Score(context.Background(), m, test, metric)
				if err != nil {
					t.Fatal(err)
				}
				got[metric] = v
			}
			t.Logf("accuracy %.4f (sklearn %.4f)  f1 %.4f (%.4f)  log_loss %.4f (%.4f)  roc_auc %.4f (%.4f)",
				got["accuracy"], ref.Metrics["accuracy"], got["f1"], ref.Metrics["f1"],
				got["log_loss"], ref.Metrics["log_loss"], got["roc_auc"], ref.Metrics["roc_auc"])
			if got["accuracy"] < ref.Metrics["accuracy"]-tc.margin {
				t.Errorf("accuracy %.4f is more than %.3f below sklearn's %.4f", got["accuracy"], tc.margin, ref.Metrics["accuracy"])
			}
		})
	}
}

// concat appends b's rows to a (numeric columns only), returning the
// index ranges of each.
func concat(a, b *ml.Dataset) (*ml.Dataset, []int, []int) {
	out := &ml.Dataset{}
	for i := range a.Features {
		c := a.Features[i]
		c.Num = append(append([]float64(nil), c.Num...), b.Features[i].Num...)
		out.Features = append(out.Features, c)
	}
	t := *a.Target
	t.Num = append(append([]float64(nil), t.Num...), b.Target.Num...)
	out.Target = &t
	var tr, te []int
	for i := 0; i < a.Rows(); i++ {
		tr = append(tr, i)
	}
	for i := 0; i < b.Rows(); i++ {
		te = append(te, a.Rows()+i)
	}
	return out, tr, te
}

func TestLogisticMatchesSklearn(t *testing.T) {
	lr := ml.Options{Algorithm: ml.LogisticRegression}
	var cases []classCase
	for _, data := range []string{"iris", "breast_cancer", "wine", "digits", "adult", "higgs-train"} {
		cases = append(cases, classCase{data: data, opts: lr, margin: 0.01})
	}
	runClassCases(t, cases)
}

func TestNaiveBayesMatchesSklearn(t *testing.T) {
	nb := ml.Options{Algorithm: ml.NaiveBayes}
	var cases []classCase
	for _, data := range []string{"iris", "breast_cancer", "wine", "digits", "adult", "higgs-train"} {
		cases = append(cases, classCase{data: data, opts: nb, margin: 0.005})
	}
	runClassCases(t, cases)
}
