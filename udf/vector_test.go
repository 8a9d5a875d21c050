package udf_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestVectors(t *testing.T) {
	s := startServer(t, "")
	// MySQL's encoding: little-endian float32.
	if h := one[string](t, s, "SELECT HEX(STRING_TO_VECTOR('[1,2,3]'))"); h != "0000803F0000004000004040" {
		t.Errorf("HEX = %s", h)
	}
	if v := one[string](t, s, "SELECT VECTOR_TO_STRING(0x00000040000040400000A0400000E040)"); v != "[2.00000e+00,3.00000e+00,5.00000e+00,7.00000e+00]" {
		t.Errorf("VECTOR_TO_STRING = %s", v)
	}
	if n := one[int64](t, s, "SELECT VECTOR_DIM(TO_VECTOR(?))", "[0.5, -1.25, 3e2, 4]"); n != 4 {
		t.Errorf("VECTOR_DIM = %d", n)
	}
	if v := one[string](t, s, "SELECT FROM_VECTOR(STRING_TO_VECTOR('[ 1.5 , -0.25 ]'))"); v != "[1.50000e+00,-2.50000e-01]" {
		t.Errorf("FROM_VECTOR = %s", v)
	}

	// A table of vectors and a nearest-neighbour query, against numpy.
	const n, dim = 200, 8
	vecs := make([][]float32, n)
	s.exec(t, "CREATE TABLE emb (id INT PRIMARY KEY, v VARBINARY(1024))")
	for i := range vecs {
		vecs[i] = make([]float32, dim)
		parts := make([]string, dim)
		for j := range vecs[i] {
			vecs[i][j] = float32(math.Sin(float64(i*dim+j)*0.37)) * 2
			parts[j] = fmt.Sprint(vecs[i][j])
		}
		s.exec(t, "INSERT INTO emb VALUES (?, STRING_TO_VECTOR(?))", i, "["+strings.Join(parts, ",")+"]")
	}
	q := []float32{0.3, -1, 0.5, 0.2, 1.1, 0, -0.4, 0.9}
	qs, _ := json.Marshal(q)
	var want map[string]struct {
		IDs  []int
		Dist []float64
	}
	numpy(t, `
import json, sys
import numpy as np
r = json.load(sys.stdin)
v = np.array(r["vecs"], dtype=np.float32).astype(float); q = np.array(r["q"], dtype=np.float32).astype(float)
out = {}
d = {"COSINE": 1 - v @ q / (np.linalg.norm(v, axis=1) * np.linalg.norm(q)),
     "DOT": v @ q, "EUCLIDEAN": np.linalg.norm(v - q, axis=1)}
for k, x in d.items():
    ids = np.argsort(x, kind="stable")[:10]
    out[k] = {"IDs": ids.tolist(), "Dist": x[ids].tolist()}
print(json.dumps(out))
`, map[string]any{"vecs": vecs, "q": q}, &want)
	for metric, w := range want {
		rows, err := s.db.Query("SELECT id, DISTANCE(v, STRING_TO_VECTOR(?), ?) AS d FROM emb ORDER BY DISTANCE(v, STRING_TO_VECTOR(?), ?) LIMIT 10", string(qs), metric, string(qs), metric)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for rows.Next() {
			var id int
			var d float64
			if err := rows.Scan(&id, &d); err != nil {
				t.Fatal(err)
			}
			// Distances are computed in float64 from float32 inputs on both
			// sides; ties aside, the order must match.
			if math.Abs(d-w.Dist[k]) > 1e-12*(1+math.Abs(w.Dist[k])) {
				t.Errorf("%s #%d: distance %v, numpy %v", metric, k+1, d, w.Dist[k])
			}
			if id != w.IDs[k] && math.Abs(d-w.Dist[k]) > 1e-12 {
				t.Errorf("%s #%d: id %d, numpy %d", metric, k+1, id, w.IDs[k])
			}
			k++
		}
		rows.Close()
		if k != 10 {
			t.Errorf("%s: %d rows", metric, k)
		}
	}
	// VECTOR_DISTANCE is a synonym, and the metric is case-insensitive.
	if d := one[float64](t, s, "SELECT VECTOR_DISTANCE(STRING_TO_VECTOR('[3,4]'), STRING_TO_VECTOR('[0,0]'), 'euclidean')"); d != 5 {
		t.Errorf("VECTOR_DISTANCE = %v", d)
	}
}
