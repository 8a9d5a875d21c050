package matrix

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// splitMix64 is the generator behind Rand. It is spelled out here, rather
// than taken from math/rand, so that a seed names the same matrix on every
// machine and every Go release: it uses only integer arithmetic and one
// exact float conversion.
type splitMix64 struct{ state uint64 }

func (s *splitMix64) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a value uniform on the open interval (0, 1); it is never
// zero, so a sparse random matrix stores no zeros.
func (s *splitMix64) float() float64 {
	return float64(s.next()>>12)*0x1p-52 + 0x1p-53
}

// below returns a value uniform on [0, n) by Lemire's multiply-and-reject.
func (s *splitMix64) below(n uint64) uint64 {
	hi, lo := bits.Mul64(s.next(), n)
	if lo < n {
		for t := -n % n; lo < t; {
			hi, lo = bits.Mul64(s.next(), n)
		}
	}
	return hi
}

// Rand returns an r×c matrix of values uniform on (0, 1), the same for the
// same arguments everywhere. With density 1 it is dense; with density in
// [0, 1) it is sparse with exactly round(density*r*c) nonzeros at uniformly
// chosen positions.
func Rand(r, c int, seed int64, density float64) (*Matrix, error) {
	if err := checkDims(r, c); err != nil {
		return nil, err
	}
	if !(density >= 0 && density <= 1) {
		return nil, fmt.Errorf("%w: density %v is not in [0, 1]", ErrInvalidArgument, density)
	}
	g := splitMix64{state: uint64(seed)}
	if density == 1 {
		m, err := newDense(r, c)
		if err != nil {
			return nil, err
		}
		for k := range m.data {
			m.data[k] = g.float()
		}
		return m, nil
	}
	total := uint64(r) * uint64(c)
	nnz := uint64(math.Round(density * float64(total)))
	nnz = min(nnz, total)
	what := fmt.Sprintf("a sparse %dx%d matrix of density %v", r, c, density)
	if err := checkElements(int64(nnz), what); err != nil {
		return nil, err
	}
	if err := checkElements(int64(r), what); err != nil {
		return nil, err
	}
	pos := samplePositions(&g, total, nnz)
	m := &Matrix{rows: r, cols: c, layout: LayoutCSR, indptr: make([]int, r+1),
		data: make([]float64, len(pos)), indices: make([]int32, len(pos))}
	for k, p := range pos {
		m.indptr[p/uint64(c)+1]++
		m.indices[k] = int32(p % uint64(c))
		m.data[k] = g.float()
	}
	for i := range r {
		m.indptr[i+1] += m.indptr[i]
	}
	return m, nil
}

// samplePositions picks k distinct integers from [0, n) in increasing
// order. Dense picks scan every position (Knuth's selection sampling);
// sparse ones use Floyd's algorithm so the cost follows k, not n.
func samplePositions(g *splitMix64, n, k uint64) []uint64 {
	out := make([]uint64, 0, k)
	if k*3 >= n {
		need := k
		for t := uint64(0); t < n && need > 0; t++ {
			if g.below(n-t) < need {
				out = append(out, t)
				need--
			}
		}
		return out
	}
	seen := make(map[uint64]struct{}, k)
	for j := n - k; j < n; j++ {
		t := g.below(j + 1)
		if _, dup := seen[t]; dup {
			t = j
		}
		seen[t] = struct{}{}
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
