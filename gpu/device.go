package gpu

// Device runs the kernels the matrix library hands off. Every operand is a
// host slice in row-major order; a device with its own memory copies operands
// in and results out within the call. Keeping intermediates resident on a
// device is a later capability for the optimizer, added when it has a user.
//
// Methods panic on arguments that break their documented shape contract:
// callers validate shapes before calling, so a violation is a bug.
type Device interface {
	// Name identifies the device in logs and EXPLAIN output.
	Name() string

	// Gemm computes C = alpha*op(A)*op(B) + beta*C where op(A) is m×k,
	// op(B) is k×n and C is m×n, all row-major with leading dimensions
	// lda, ldb, ldc. op(X) is Xᵀ when the matching trans flag is set.
	Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)

	// SpMM computes C = A·B for a CSR matrix A (A.Rows×A.Cols) and a dense
	// B (A.Cols×n); C is A.Rows×n and is overwritten.
	SpMM(a CSR, b []float64, n int, c []float64)

	// MMSp computes C = A·B for a dense A (m×B.Rows) and a CSR matrix B;
	// C is m×B.Cols and is overwritten.
	MMSp(m int, a []float64, b CSR, c []float64)

	// Unary sets dst[i] = op(x[i], s); s is the op's parameter (the
	// exponent of Pow, the factor of Scale) and ignored otherwise.
	// dst and x have equal length and may be the same slice.
	Unary(op UnaryOp, s float64, dst, x []float64)

	// Binary sets dst[i] = x[i] op y[i]; all three have equal length and
	// dst may alias x or y.
	Binary(op BinaryOp, dst, x, y []float64)

	// Reduce folds x to one number. The result must not depend on how
	// many workers the device uses, so repeated runs agree bit for bit.
	Reduce(op ReduceOp, x []float64) float64
}

// Solver is the optional capability of factorising dense square matrices
// in place. The matrix library falls back to the CPU device for a Device
// that lacks it.
type Solver interface {
	// LU factors the n×n matrix a in place with partial pivoting, filling
	// ipiv (length n), and returns an estimate of the reciprocal condition
	// number in the 1-norm: 0 for an exactly singular matrix.
	LU(n int, a []float64, ipiv []int) (rcond float64)

	// LUSolve overwrites the n×nrhs matrix b with A⁻¹·b given the factors
	// from LU.
	LUSolve(n, nrhs int, lu []float64, ipiv []int, b []float64)

	// Cholesky overwrites the lower triangle of the symmetric n×n matrix a
	// with L such that A = L·Lᵀ, reading only that triangle. It reports
	// false when A is not positive definite.
	Cholesky(n int, a []float64) (ok bool)
}

// CSR is a borrowed view of a compressed-sparse-row matrix: the column
// indices of row i are Indices[Indptr[i]:Indptr[i+1]], strictly increasing,
// with the matching Values.
type CSR struct {
	Rows, Cols int
	Indptr     []int
	Indices    []int32
	Values     []float64
}

// UnaryOp selects an element-wise function of one operand.
type UnaryOp uint8

const (
	Exp   UnaryOp = iota + 1 // e^x
	Log                      // natural logarithm
	Sqrt                     // square root
	Pow                      // x^s
	Scale                    // x*s
)

// BinaryOp selects an element-wise function of two operands.
type BinaryOp uint8

const (
	Add BinaryOp = iota + 1
	Sub
	Mul
	Div
)

// ReduceOp selects a fold over all elements.
type ReduceOp uint8

const (
	Sum    ReduceOp = iota + 1
	Nrm2            // Euclidean norm, without overflow for large elements
	MaxAbs          // largest absolute value; NaN if any element is NaN
)
