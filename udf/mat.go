package udf

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/matrix"
)

// blob is the SQL type of every matrix value.
var blob = types.LongBlob

func encode(m *matrix.Matrix, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return matrix.Encode(m), nil
}

// matToMat is a function of one matrix giving a matrix.
func matToMat(name, desc string, f func(*matrix.Matrix) (*matrix.Matrix, error)) *spec {
	return &spec{name: name, min: 1, max: 1, ret: blob, desc: desc, eval: func(c *call) (any, error) {
		m, err := c.matrix(0)
		if err != nil {
			return nil, err
		}
		return encode(f(m))
	}}
}

// matsToMat is a function of two matrices giving a matrix.
func matsToMat(name, desc string, f func(a, b *matrix.Matrix) (*matrix.Matrix, error)) *spec {
	return &spec{name: name, min: 2, max: 2, ret: blob, desc: desc, eval: func(c *call) (any, error) {
		a, err := c.matrix(0)
		if err != nil {
			return nil, err
		}
		b, err := c.matrix(1)
		if err != nil {
			return nil, err
		}
		return encode(f(a, b))
	}}
}

// matAndNumber is a function of a matrix and a number giving a matrix.
func matAndNumber(name, desc string, f func(*matrix.Matrix, float64) (*matrix.Matrix, error)) *spec {
	return &spec{name: name, min: 2, max: 2, ret: blob, desc: desc, eval: func(c *call) (any, error) {
		m, err := c.matrix(0)
		if err != nil {
			return nil, err
		}
		x, err := c.float(1)
		if err != nil {
			return nil, err
		}
		return encode(f(m, x))
	}}
}

// matToScalar is a function of one matrix giving a DOUBLE or BIGINT.
func matToScalar(name, desc string, ret sql.Type, f func(*matrix.Matrix) (any, error)) *spec {
	return &spec{name: name, min: 1, max: 1, ret: ret, desc: desc, eval: func(c *call) (any, error) {
		m, err := c.matrix(0)
		if err != nil {
			return nil, err
		}
		return f(m)
	}}
}

func ok[T any](f func(*matrix.Matrix) T) func(*matrix.Matrix) (T, error) {
	return func(m *matrix.Matrix) (T, error) { return f(m), nil }
}

// oneBased turns a 1-based SQL index into the matrix package's 0-based one,
// checking it against the dimension it indexes.
func oneBased(c *call, arg, n int, what string) (int, error) {
	i, err := c.int(arg)
	if err != nil {
		return 0, err
	}
	if i < 1 || i > n {
		return 0, fmt.Errorf("%w: %s index %d outside 1..%d", matrix.ErrIndexOutOfRange, what, i, n)
	}
	return i - 1, nil
}

func matrixSpecs() []*spec {
	return []*spec{
		{name: "MAT_FROM_JSON", min: 1, max: 1, ret: blob,
			desc: "MAT_FROM_JSON('[[1,2],[3,4]]'): a dense matrix from a JSON array of rows.",
			eval: func(c *call) (any, error) {
				s, err := c.str(0)
				if err != nil {
					return nil, err
				}
				return encode(matrix.FromJSON(s))
			}},
		{name: "MAT_TO_JSON", min: 1, max: 1, ret: types.LongText,
			desc: "MAT_TO_JSON(m): the matrix as a JSON array of rows.",
			eval: func(c *call) (any, error) {
				m, err := c.matrix(0)
				if err != nil {
					return nil, err
				}
				if _, err := matrix.ToDense(m); err != nil {
					return nil, err
				}
				return matrix.ToJSON(m), nil
			}},
		{name: "MAT_IDENTITY", min: 1, max: 1, ret: blob,
			desc: "MAT_IDENTITY(n): the n×n identity, sparse.",
			eval: func(c *call) (any, error) {
				n, err := c.int(0)
				if err != nil {
					return nil, err
				}
				return encode(matrix.Identity(n))
			}},
		{name: "MAT_ZEROS", min: 2, max: 2, ret: blob,
			desc: "MAT_ZEROS(r, c): an r×c dense matrix of zeros.",
			eval: func(c *call) (any, error) {
				n, err := c.ints(0, 2)
				if err != nil {
					return nil, err
				}
				return encode(matrix.Zeros(n[0], n[1]))
			}},
		{name: "MAT_RAND", min: 3, max: 4, ret: blob,
			desc: "MAT_RAND(r, c, seed[, density]): uniform (0,1) values, the same for the same arguments; density < 1 gives a sparse matrix with round(density·r·c) nonzeros.",
			eval: func(c *call) (any, error) {
				n, err := c.ints(0, 3)
				if err != nil {
					return nil, err
				}
				density := 1.0
				if len(c.args) == 4 {
					if density, err = c.float(3); err != nil {
						return nil, err
					}
				}
				return encode(matrix.Rand(n[0], n[1], int64(n[2]), density))
			}},
		matsToMat("MAT_MUL", "MAT_MUL(a, b): the matrix product a·b.", matrix.Mul),
		matToMat("MAT_T", "MAT_T(m): the transpose.", ok(matrix.T)),
		matsToMat("MAT_ADD", "MAT_ADD(a, b): a + b.", matrix.Add),
		matsToMat("MAT_SUB", "MAT_SUB(a, b): a - b.", matrix.Sub),
		matsToMat("MAT_EMUL", "MAT_EMUL(a, b): the element-wise product.", matrix.EMul),
		matsToMat("MAT_EDIV", "MAT_EDIV(a, b): the element-wise quotient.", matrix.EDiv),
		matAndNumber("MAT_SCALE", "MAT_SCALE(m, s): s·m.",
			func(m *matrix.Matrix, s float64) (*matrix.Matrix, error) { return matrix.Scale(m, s), nil }),
		matToMat("MAT_INV", "MAT_INV(a): the inverse of a square, non-singular matrix.", matrix.Inv),
		matsToMat("MAT_SOLVE", "MAT_SOLVE(a, b): x with a·x = b.", matrix.Solve),
		matToMat("MAT_CHOLESKY", "MAT_CHOLESKY(a): lower-triangular L with a = L·Lᵀ.", matrix.Cholesky),
		{name: "MAT_NORM", min: 1, max: 2, ret: types.Float64,
			desc: "MAT_NORM(m[, 'fro'|'1'|'inf']): Frobenius (default), largest absolute column sum, or largest absolute row sum.",
			eval: func(c *call) (any, error) {
				m, err := c.matrix(0)
				if err != nil {
					return nil, err
				}
				kind := "fro"
				if len(c.args) == 2 {
					if kind, err = c.str(1); err != nil {
						return nil, err
					}
				}
				return matrix.Norm(m, strings.ToLower(kind))
			}},
		matToScalar("MAT_SUM", "MAT_SUM(m): the sum of all elements.", types.Float64,
			func(m *matrix.Matrix) (any, error) { return matrix.Sum(m), nil }),
		matToMat("MAT_ROW_SUMS", "MAT_ROW_SUMS(m): the rows×1 column of row sums.", ok(matrix.RowSums)),
		matToMat("MAT_COL_SUMS", "MAT_COL_SUMS(m): the 1×cols row of column sums.", ok(matrix.ColSums)),
		matToMat("MAT_DIAG", "MAT_DIAG(m): the diagonal of a square matrix as a column, or the diagonal matrix of a vector.", matrix.Diag),
		matToScalar("MAT_TRACE", "MAT_TRACE(m): the sum of the diagonal of a square matrix.", types.Float64,
			func(m *matrix.Matrix) (any, error) { return matrix.Trace(m) }),
		{name: "MAT_GET", min: 3, max: 3, ret: types.Float64,
			desc: "MAT_GET(m, i, j): element (i, j), counting from 1 as SUBSTRING does.",
			eval: func(c *call) (any, error) {
				m, err := c.matrix(0)
				if err != nil {
					return nil, err
				}
				i, err := oneBased(c, 1, m.Rows(), "row")
				if err != nil {
					return nil, err
				}
				j, err := oneBased(c, 2, m.Cols(), "column")
				if err != nil {
					return nil, err
				}
				return matrix.Get(m, i, j)
			}},
		{name: "MAT_SLICE", min: 5, max: 5, ret: blob,
			desc: "MAT_SLICE(m, r1, r2, c1, c2): rows r1..r2 and columns c1..c2, inclusive, counting from 1.",
			eval: func(c *call) (any, error) {
				m, err := c.matrix(0)
				if err != nil {
					return nil, err
				}
				var b [4]int
				for k := range b {
					n, what := m.Rows(), "row"
					if k >= 2 {
						n, what = m.Cols(), "column"
					}
					if b[k], err = oneBased(c, k+1, n, what); err != nil {
						return nil, err
					}
				}
				if b[1] < b[0] || b[3] < b[2] {
					return nil, fmt.Errorf("%w: empty range rows %d..%d, columns %d..%d", matrix.ErrIndexOutOfRange, b[0]+1, b[1]+1, b[2]+1, b[3]+1)
				}
				return encode(matrix.Slice(m, b[0], b[1]+1, b[2], b[3]+1))
			}},
		matToScalar("MAT_ROWS", "MAT_ROWS(m): the number of rows.", types.Int64,
			func(m *matrix.Matrix) (any, error) { return int64(m.Rows()), nil }),
		matToScalar("MAT_COLS", "MAT_COLS(m): the number of columns.", types.Int64,
			func(m *matrix.Matrix) (any, error) { return int64(m.Cols()), nil }),
		matToScalar("MAT_NNZ", "MAT_NNZ(m): the number of nonzero elements.", types.Int64,
			func(m *matrix.Matrix) (any, error) { return int64(m.NNZ()), nil }),
		matToMat("MAT_EXP", "MAT_EXP(m): e to each element.", matrix.Exp),
		matToMat("MAT_LOG", "MAT_LOG(m): the natural logarithm of each element.", matrix.Log),
		matToMat("MAT_SQRT", "MAT_SQRT(m): the square root of each element.", ok(matrix.Sqrt)),
		matAndNumber("MAT_POW", "MAT_POW(m, p): each element raised to p.", matrix.Pow),
	}
}
