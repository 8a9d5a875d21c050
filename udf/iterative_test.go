package udf_test

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGNMFSQL factorises the first MovieLens ratings in every mode and
// checks that the modes agree and that the written factors reproduce the
// reported loss.
func TestGNMFSQL(t *testing.T) {
	dir := datasets(t)
	f, err := os.Open(filepath.Join(dir, "movielens-small", "ratings.csv"))
	if err != nil {
		missing(t, "%v", err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[1:4001]
	s := startServer(t, dir)
	s.exec(t, "CREATE TABLE ratings (userId BIGINT, movieId BIGINT, rating DOUBLE, PRIMARY KEY (userId, movieId))")
	type key struct{ u, i int64 }
	v := map[key]float64{}
	var b strings.Builder
	for k, r := range recs {
		if k%1000 == 0 {
			if b.Len() > 0 {
				s.exec(t, b.String())
			}
			b.Reset()
			b.WriteString("INSERT INTO ratings VALUES ")
		} else {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "(%s,%s,%s)", r[0], r[1], r[2])
		var kk key
		var x float64
		fmt.Sscan(r[0], &kk.u)
		fmt.Sscan(r[1], &kk.i)
		fmt.Sscan(r[2], &x)
		v[kk] = x
	}
	s.exec(t, b.String())
	var losses []float64
	for _, mode := range []string{"full", "incremental", "hybrid"} {
		var runID, iters, full, inc, reorgs int64
		var gotMode string
		var converged bool
		var loss, readMS, computeMS, writeMS float64
		err := s.db.QueryRow("CALL sys.ML_GNMF('t.ratings', 'userId', 'movieId', 'rating', 'w_"+mode+"', 'h_"+mode+"', JSON_OBJECT('rank', 4, 'iterations', 30, 'seed', 7, 'mode', '"+mode+"'))").
			Scan(&runID, &gotMode, &iters, &converged, &full, &inc, &reorgs, &loss, &readMS, &computeMS, &writeMS)
		if err != nil {
			t.Fatal(err)
		}
		if gotMode != mode || iters != 30 || full+inc != 60 {
			t.Fatalf("%s: mode %s, %d iterations, %d+%d products", mode, gotMode, iters, full, inc)
		}
		factor := func(table string) map[int64][]float64 {
			rows, err := s.db.Query("SELECT id, f1, f2, f3, f4 FROM " + table)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := map[int64][]float64{}
			for rows.Next() {
				var id int64
				x := make([]float64, 4)
				if err := rows.Scan(&id, &x[0], &x[1], &x[2], &x[3]); err != nil {
					t.Fatal(err)
				}
				out[id] = x
			}
			return out
		}
		w, h := factor("w_"+mode), factor("h_"+mode)
		check := 0.0
		for u, wu := range w {
			for i, hi := range h {
				p := 0.0
				for c := range wu {
					p += wu[c] * hi[c]
				}
				d := p - v[key{u, i}]
				check += d * d
			}
		}
		if math.Abs(check-loss) > 1e-6*loss {
			t.Errorf("%s: the written factors give loss %g, the call reported %g", mode, check, loss)
		}
		traced := one[int64](t, s, "SELECT COUNT(*) FROM sys.la_iteration_trace WHERE run_id = ?", runID)
		if traced != 60 {
			t.Errorf("%s: %d trace rows, want 60", mode, traced)
		}
		losses = append(losses, loss)
		t.Logf("%-11s loss=%.6g products full=%d incremental=%d users=%d items=%d compute=%.1fms write=%.0fms", mode, loss, full, inc, len(w), len(h), computeMS, writeMS)
	}
	for _, l := range losses[1:] {
		if math.Abs(l-losses[0]) > 1e-4*losses[0] {
			t.Errorf("losses differ between modes: %v", losses)
		}
	}
	if _, err := s.db.Exec("CALL sys.ML_GNMF('t.ratings', 'userId', 'movieId', 'rating', 'w_x', 'h_full', NULL)"); err == nil {
		t.Fatal("writing H over an existing table succeeded")
	}
	if n := one[int64](t, s, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 't' AND table_name = 'w_x'"); n != 0 {
		t.Fatal("a failed call left W behind")
	}
}
