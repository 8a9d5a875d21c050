package udf

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
)

// maxVectorDim is MySQL's largest VECTOR dimension.
const maxVectorDim = 16383

// vectorType is how vectors travel: MySQL 9's VECTOR is a binary string of
// little-endian float32s, which older clients see as VARBINARY.
var vectorType = types.MustCreateBinary(sqltypes.VarBinary, 4*maxVectorDim)

// parseVector reads MySQL's text form of a vector, '[1,2.5,-3e2]'.
func parseVector(s string) ([]byte, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return nil, fmt.Errorf("%w: '%s' is not a bracketed list of numbers", ErrNotVector, s)
	}
	body := strings.TrimSpace(t[1 : len(t)-1])
	if body == "" {
		return nil, fmt.Errorf("%w: '%s' has no elements", ErrNotVector, s)
	}
	parts := strings.Split(body, ",")
	if len(parts) > maxVectorDim {
		return nil, fmt.Errorf("%w: %d elements, the most is %d", ErrNotVector, len(parts), maxVectorDim)
	}
	out := make([]byte, 4*len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%w: element %d '%s' is not a finite number", ErrNotVector, i+1, strings.TrimSpace(p))
		}
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(f)))
	}
	return out, nil
}

func (c *call) vector(i int) ([]float32, error) {
	b, ok := bytesOf(c.ctx, c.args[i])
	if !ok || len(b) == 0 || len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: argument %d is not a vector (a binary string of float32 values)", ErrNotVector, i+1)
	}
	v := make([]float32, len(b)/4)
	for k := range v {
		v[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))
	}
	return v, nil
}

// distance computes HeatWave's DISTANCE metrics in float64: COSINE is one
// minus the cosine similarity, DOT the dot product, EUCLIDEAN the L2 norm of
// the difference.
func distance(a, b []float32, metric string) (any, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("%w: dimensions differ: %d and %d", ErrArgument, len(a), len(b))
	}
	var dot, na, nb, sq float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
		sq += (x - y) * (x - y)
	}
	switch strings.ToUpper(metric) {
	case "COSINE":
		if na == 0 || nb == 0 {
			return nil, nil
		}
		return 1 - dot/(math.Sqrt(na)*math.Sqrt(nb)), nil
	case "DOT":
		return dot, nil
	case "EUCLIDEAN":
		return math.Sqrt(sq), nil
	}
	return nil, fmt.Errorf("%w: metric must be 'COSINE', 'DOT' or 'EUCLIDEAN', got '%s'", ErrArgument, metric)
}

func vectorSpecs() []*spec {
	toVector := func(name string) *spec {
		return &spec{name: name, min: 1, max: 1, ret: vectorType,
			desc: name + "('[1,2,3]'): the vector as MySQL stores it, little-endian float32s.",
			eval: func(c *call) (any, error) {
				s, err := c.str(0)
				if err != nil {
					return nil, err
				}
				return parseVector(s)
			}}
	}
	fromVector := func(name string) *spec {
		return &spec{name: name, min: 1, max: 1, ret: types.LongText,
			desc: name + "(v): the vector's text form, each element as MySQL prints it (%.5e).",
			eval: func(c *call) (any, error) {
				v, err := c.vector(0)
				if err != nil {
					return nil, err
				}
				b := make([]byte, 0, 2+13*len(v))
				b = append(b, '[')
				for i, f := range v {
					if i > 0 {
						b = append(b, ',')
					}
					b = strconv.AppendFloat(b, float64(f), 'e', 5, 32)
				}
				return string(append(b, ']')), nil
			}}
	}
	dist := func(name string) *spec {
		return &spec{name: name, min: 3, max: 3, ret: types.Float64,
			desc: name + "(a, b, 'COSINE'|'DOT'|'EUCLIDEAN'): 1 - cosine similarity, dot product, or Euclidean distance.",
			eval: func(c *call) (any, error) {
				a, err := c.vector(0)
				if err != nil {
					return nil, err
				}
				b, err := c.vector(1)
				if err != nil {
					return nil, err
				}
				m, err := c.str(2)
				if err != nil {
					return nil, err
				}
				return distance(a, b, m)
			}}
	}
	return []*spec{
		toVector("STRING_TO_VECTOR"), toVector("TO_VECTOR"),
		fromVector("VECTOR_TO_STRING"), fromVector("FROM_VECTOR"),
		{name: "VECTOR_DIM", min: 1, max: 1, ret: types.Int64,
			desc: "VECTOR_DIM(v): the number of elements.",
			eval: func(c *call) (any, error) {
				v, err := c.vector(0)
				if err != nil {
					return nil, err
				}
				return int64(len(v)), nil
			}},
		dist("DISTANCE"), dist("VECTOR_DISTANCE"),
	}
}
