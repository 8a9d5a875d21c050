package ml

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// KMeansModel holds the fitted centres (K × Dim, row-major, in the encoded
// space: standardised numerics, one-hot categories) and the training
// inertia of the best of the NInit runs.
type KMeansModel struct {
	K, Dim  int
	Centers []float64
	Inertia float64
	Iter    int
}

var _ estimator = (*KMeansModel)(nil)

func (km *KMeansModel) outputs() int { return 1 }

func (km *KMeansModel) predict(x, out []float64) {
	c, _ := km.nearest(x)
	out[0] = float64(c)
}

// nearest returns the closest centre and the squared distance to it.
func (km *KMeansModel) nearest(x []float64) (int, float64) {
	return nearestCenter(x, km.Centers, km.K, km.Dim)
}

func nearestCenter(x, centers []float64, k, p int) (int, float64) {
	best, bestD := 0, math.Inf(1)
	for c := 0; c < k; c++ {
		d := sqDist(x, centers[c*p:(c+1)*p])
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// sqDist is the squared Euclidean distance, summed in four interleaved
// partial sums so that the additions do not wait on one another.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// trainKMeans runs Lloyd's algorithm from NInit k-means++ starts and keeps
// the lowest inertia, as scikit-learn's KMeans does. Numeric features are
// standardised because Euclidean distance would otherwise be dominated by
// whichever column has the largest unit.
func trainKMeans(ctx context.Context, m *Model, d *Dataset, o Options) error {
	x, n, p, err := m.prepare(d, oneHot, true, false, o)
	if err != nil {
		return err
	}
	if o.K > n {
		return errorf(ErrBadOption, "n_clusters = %d exceeds the %d rows", o.K, n)
	}
	// scikit-learn scales tol by the mean per-feature variance so the
	// stopping rule does not depend on the data's units.
	var meanVar float64
	for j := 0; j < p; j++ {
		var s, ss float64
		for i := 0; i < n; i++ {
			v := x[i*p+j]
			s += v
			ss += v * v
		}
		mu := s / float64(n)
		meanVar += ss/float64(n) - mu*mu
	}
	tol := o.Tol * meanVar / float64(p)
	norms := rowNorms(x, n, p)
	rng := rand.New(rand.NewPCG(o.Seed, 0x6b6d65616e73))
	// Every start is seeded first, in order, from the one generator, so
	// the starts do not depend on how they are then run.
	starts := make([][]float64, o.NInit)
	for run := range starts {
		if starts[run], err = kmeansPlusPlus(ctx, x, n, p, o.K, o.workers(), rng); err != nil {
			return err
		}
	}
	// With several starts, each worker runs whole starts on one core:
	// Lloyd's iterations on tables this size are too short to split
	// across cores without the cores waiting on each other every
	// iteration. A single start splits its rows instead.
	workers, inner := min(o.workers(), o.NInit), 1
	if workers == 1 {
		inner = o.workers()
	}
	var mu sync.Mutex
	iter := 0
	tick := func(loss float64) error {
		mu.Lock()
		defer mu.Unlock()
		if err := ctx.Err(); err != nil {
			return err // another start saw the end first
		}
		iter++
		return o.report(ctx, Progress{Iteration: iter, MaxIterations: o.MaxIter * o.NInit, Loss: loss, Rows: int64(iter) * int64(n)})
	}
	models := make([]*KMeansModel, o.NInit)
	errs := make([]error, workers)
	forWorkers(workers, o.NInit, func(w, lo, hi int) {
		for run := lo; run < hi && errs[w] == nil; run++ {
			models[run], errs[w] = lloyd(ctx, x, norms, n, p, o.K, starts[run], tol, o.MaxIter, inner, tick)
		}
	})
	if err := errors.Join(errs...); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return err
	}
	// The lowest inertia wins; among equals, the earliest start.
	best := models[0]
	for _, km := range models[1:] {
		if km.Inertia < best.Inertia {
			best = km
		}
	}
	m.est = best
	return nil
}

// kmeansPlusPlus picks k starting centres by greedy k-means++: each new
// centre is the best, by resulting potential, of 2+ln(k) candidates drawn
// with probability proportional to squared distance. A candidate's scan
// over the rows runs in fixed chunks on up to workers goroutines; the
// chunks' sums add in chunk order, so the result does not depend on the
// number of workers.
func kmeansPlusPlus(ctx context.Context, x []float64, n, p, k, workers int, rng *rand.Rand) ([]float64, error) {
	centers := make([]float64, 0, k*p)
	first := rng.IntN(n)
	centers = append(centers, x[first*p:(first+1)*p]...)
	closest := make([]float64, n)
	var pot float64
	for i := 0; i < n; i++ {
		closest[i] = sqDist(x[i*p:(i+1)*p], centers)
		pot += closest[i]
	}
	trials := 2 + int(math.Log(float64(k)))
	cand := make([]float64, n)
	bestD := make([]float64, n)
	part := make([]float64, (n+seedChunk-1)/seedChunk)
	for c := 1; c < k; c++ {
		bestPot, bestIdx := math.Inf(1), -1
		for t := 0; t < trials; t++ {
			idx := sampleByWeight(closest, pot, rng)
			cx := x[idx*p : (idx+1)*p]
			err := parallelChunks(ctx, workers, n, seedChunk, func(lo, hi int) error {
				var s float64
				for i := lo; i < hi; i++ {
					cand[i] = min(closest[i], sqDist(x[i*p:(i+1)*p], cx))
					s += cand[i]
				}
				part[lo/seedChunk] = s
				return nil
			})
			if err != nil {
				return nil, err
			}
			var cp float64
			for _, s := range part {
				cp += s
			}
			if cp < bestPot {
				bestPot, bestIdx = cp, idx
				copy(bestD, cand)
			}
		}
		centers = append(centers, x[bestIdx*p:(bestIdx+1)*p]...)
		copy(closest, bestD)
		pot = bestPot
	}
	return centers, nil
}

// seedChunk is the share of rows one goroutine scans for a k-means++
// candidate.
const seedChunk = 4096

func sampleByWeight(w []float64, total float64, rng *rand.Rand) int {
	if total <= 0 {
		return rng.IntN(len(w))
	}
	r := rng.Float64() * total
	for i, v := range w {
		r -= v
		if r < 0 {
			return i
		}
	}
	return len(w) - 1
}

// lloyd alternates assignment and centre update until the total squared
// centre shift falls to tol or MaxIter passes, then assigns once more so
// the reported inertia belongs to the final centres. Assignment uses
// Hamerly's bounds: each row keeps an upper bound on the distance to its
// centre and a lower bound on the distance to any other, both moved by how
// far centres moved, and is rescanned only when the bounds overlap; the
// centres' sums move only by the rows that changed cluster. The
// assignments are Lloyd's (the centres to the rounding of the running
// sums, the rescans' distances to that of their product form); late
// iterations touch few rows.
func lloyd(ctx context.Context, x, norms []float64, n, p, k int, centers []float64, tol float64, maxIter, workers int, tick func(loss float64) error) (*KMeansModel, error) {
	workers = min(workers, n)
	assign := make([]int, n)
	upper := make([]float64, n)
	lower := make([]float64, n)
	sums := make([][]float64, workers)
	counts := make([][]float64, workers)
	far := make([]int, workers)
	for w := range sums {
		sums[w], counts[w] = make([]float64, k*p), make([]float64, k)
	}
	prev := make([][]int, workers) // a block's assignments before its rescans
	for w := range prev {
		prev[w] = make([]int, scanBlock)
	}
	half := make([]float64, k) // half the distance to the nearest other centre
	moved := make([]float64, k)
	// Rows whose bounds overlap are rescanned against every centre in
	// blocks, their distances as one BLAS product (‖x‖² − 2x·c + ‖c‖²),
	// which is how scikit-learn computes them too.
	cnorms := make([]float64, k)
	pending := make([][]int, workers)
	gathered := make([][]float64, workers)
	dists := make([][]float64, workers)
	for w := range pending {
		pending[w] = make([]int, 0, scanBlock)
		gathered[w], dists[w] = make([]float64, scanBlock*p), make([]float64, scanBlock*k)
	}
	rescan := func(w int) {
		rows := pending[w]
		if len(rows) == 0 {
			return
		}
		buf, dist := gathered[w], dists[w]
		for r, i := range rows {
			copy(buf[r*p:(r+1)*p], x[i*p:(i+1)*p])
		}
		blas64.Implementation().Dgemm(blas.NoTrans, blas.Trans, len(rows), k, p, -2, buf, p, centers, p, 0, dist, k)
		for r, i := range rows {
			best, d1, d2 := 0, math.Inf(1), math.Inf(1)
			for c, d := range dist[r*k : (r+1)*k] {
				d = max(d+norms[i]+cnorms[c], 0)
				if d < d1 {
					best, d1, d2 = c, d, d1
				} else if d < d2 {
					d2 = d
				}
			}
			assign[i], upper[i], lower[i] = best, math.Sqrt(d1), math.Sqrt(d2)
		}
		pending[w] = rows[:0]
	}
	// sums and counts are per-worker changes to total and totalCnt, the
	// running per-cluster sums: after a full pass only the rows that
	// changed cluster move them, so late iterations cost little beyond
	// the bound checks. A full pass every refreshEvery iterations keeps
	// the running sums from drifting by rounding.
	const refreshEvery = 16
	total := make([]float64, k*p)
	totalCnt := make([]float64, k)
	first := true
	step := func(full bool) {
		for c := 0; c < k; c++ {
			half[c] = math.Inf(1)
			for c2 := 0; c2 < k; c2++ {
				if c2 != c {
					half[c] = min(half[c], math.Sqrt(sqDist(centers[c*p:(c+1)*p], centers[c2*p:(c2+1)*p]))/2)
				}
			}
		}
		for c := 0; c < k; c++ {
			cnorms[c] = sqNorm(centers[c*p : (c+1)*p])
		}
		forWorkers(workers, n, func(w, lo, hi int) {
			s, cnt := sums[w], counts[w]
			clear(s)
			clear(cnt)
			var farD float64
			far[w] = lo
			for b := lo; b < hi; b += scanBlock {
				e := min(b+scanBlock, hi)
				was := prev[w][:e-b]
				for i := b; i < e; i++ {
					was[i-b] = assign[i]
					if first {
						pending[w] = append(pending[w], i)
					} else if bound := max(half[assign[i]], lower[i]); upper[i] > bound {
						upper[i] = math.Sqrt(sqDist(x[i*p:(i+1)*p], centers[assign[i]*p:(assign[i]+1)*p]))
						if upper[i] > bound {
							pending[w] = append(pending[w], i)
						}
					}
				}
				rescan(w)
				for i := b; i < e; i++ {
					xi := x[i*p : (i+1)*p]
					if upper[i] > farD {
						farD, far[w] = upper[i], i
					}
					a, was := assign[i], was[i-b]
					if !full {
						if a == was {
							continue
						}
						cnt[was]--
						sw := s[was*p : (was+1)*p]
						for j, v := range xi {
							sw[j] -= v
						}
					}
					cnt[a]++
					sa := s[a*p : (a+1)*p]
					for j, v := range xi {
						sa[j] += v
					}
				}
			}
		})
		first = false
	}
	km := &KMeansModel{K: k, Dim: p, Centers: centers}
	next := make([]float64, k*p)
	cnt := make([]float64, k)
	for it := 0; it < maxIter; it++ {
		full := it%refreshEvery == 0
		step(full)
		if full {
			clear(total)
			clear(totalCnt)
		}
		for w := range sums {
			for i, v := range sums[w] {
				total[i] += v
			}
			for c, v := range counts[w] {
				totalCnt[c] += v
			}
		}
		copy(next, total)
		copy(cnt, totalCnt)
		var maxMove, shift, approx float64
		for i := 0; i < n; i++ {
			approx += upper[i] * upper[i]
		}
		for c := 0; c < k; c++ {
			nc := next[c*p : (c+1)*p]
			if cnt[c] == 0 {
				// An empty cluster restarts at a far point rather than
				// vanishing, so the model keeps k centres.
				f := far[it%len(far)]
				copy(nc, x[f*p:(f+1)*p])
			} else {
				for j := range nc {
					nc[j] /= cnt[c]
				}
			}
			d2 := sqDist(nc, centers[c*p:(c+1)*p])
			shift += d2
			moved[c] = math.Sqrt(d2)
			maxMove = max(maxMove, moved[c])
		}
		copy(centers, next)
		for i := 0; i < n; i++ {
			upper[i] += moved[assign[i]]
			lower[i] -= maxMove
		}
		km.Iter = it + 1
		// The loss reported mid-run is the bound-based inertia of the
		// previous centres: exact rows plus upper bounds for skipped ones.
		if err := tick(approx); err != nil {
			return nil, err
		}
		if shift <= tol {
			break
		}
	}
	km.Inertia = exactInertia(x, n, p, k, centers, workers)
	return km, nil
}

// scanBlock is how many rows a worker rescans with one product.
const scanBlock = 256

// rowNorms returns each row's squared Euclidean norm.
func rowNorms(x []float64, n, p int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = sqNorm(x[i*p : (i+1)*p])
	}
	return out
}

func sqNorm(a []float64) float64 {
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += a[i] * a[i]
		s1 += a[i+1] * a[i+1]
	}
	if i < len(a) {
		s0 += a[i] * a[i]
	}
	return s0 + s1
}

func exactInertia(x []float64, n, p, k int, centers []float64, workers int) float64 {
	part := make([]float64, workers)
	forWorkers(workers, n, func(w, lo, hi int) {
		var s float64
		for i := lo; i < hi; i++ {
			_, d := nearestCenter(x[i*p:(i+1)*p], centers, k, p)
			s += d
		}
		part[w] = s
	})
	var s float64
	for _, v := range part {
		s += v
	}
	return s
}
