package hybrid

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// movieLens reads ratings.csv as a users × movies CSR matrix.
func movieLens(t testing.TB) *CSR {
	t.Helper()
	f, err := os.Open(filepath.Join(datasets(t), "movielens-small", "ratings.csv"))
	if err != nil {
		missing(t, "%v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var users, items []int64
	var vals []float64
	for _, rec := range recs[1:] {
		u, _ := strconv.ParseInt(rec[0], 10, 64)
		i, _ := strconv.ParseInt(rec[1], 10, 64)
		v, _ := strconv.ParseFloat(rec[2], 64)
		users, items, vals = append(users, u), append(items, i), append(vals, v)
	}
	compact := func(ids []int64) ([]int32, int) {
		u := slices.Compact(slices.Sorted(slices.Values(ids)))
		out := make([]int32, len(ids))
		for k, id := range ids {
			p, _ := slices.BinarySearch(u, id)
			out[k] = int32(p)
		}
		return out, len(u)
	}
	is, m := compact(users)
	js, n := compact(items)
	v, err := NewCSR(m, n, is, js, vals)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestGNMFModesAgree(t *testing.T) {
	v := movieLens(t)
	opt := DefaultGNMFOptions()
	var ref GNMFResult
	for _, mode := range []Mode{ModeFull, ModeIncremental, ModeHybrid} {
		res, err := GNMF(context.Background(), v, opt, mode)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(res.Loss); k++ {
			// Multiplicative updates never increase the loss; allow
			// rounding and the carried residual.
			if res.Loss[k] > res.Loss[k-1]*(1+1e-6) {
				t.Fatalf("%s: loss rose from %g to %g at iteration %d", mode, res.Loss[k-1], res.Loss[k], k+1)
			}
		}
		if mode == ModeFull {
			ref = res
		}
		last := len(res.Loss) - 1
		rel := math.Abs(res.Loss[last]-ref.Loss[last]) / ref.Loss[last]
		if rel > 1e-4 {
			t.Errorf("%s: final loss %g differs from full evaluation's %g by %.2g relative", mode, res.Loss[last], ref.Loss[last], rel)
		}
		t.Logf("%-11s loss %.6g → %.6g, products full=%d incremental=%d, %v", mode, res.Loss[0], res.Loss[last], res.Full, res.Incremental, res.Elapsed)
	}
}
