package gpu

// Gemver is the optional capability of matrix-vector products on host
// slices: y = alpha*op(A)*x + beta*y, A row-major m×n with leading
// dimension lda; op(A) is Aᵀ when trans is set, so x has length n (m when
// transposed) and y length m (n when transposed).
type Gemver interface {
	Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64)
}

// Sgemmer is the optional capability of single-precision GEMM on host
// slices, with the contract of Device.Gemm. Models that tolerate float32
// get twice the memory bandwidth and, on GPUs, several times the rate.
type Sgemmer interface {
	Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
}

// Elem is the element type of a device buffer.
type Elem uint8

const (
	F64 Elem = iota + 1
	F32
)

// Size is the width of one element in bytes.
func (e Elem) Size() int {
	if e == F32 {
		return 4
	}
	return 8
}

// Buffer is memory owned by a device, created by Resident.Alloc. Only the
// device that allocated a buffer may use it.
type Buffer interface {
	Len() int
	Elem() Elem
}

// Resident is the optional capability of keeping operands in the device's
// own memory, so a plan that chains operators pays for host-device copies
// once rather than per operator. The host-slice Device methods of such a
// device copy in and out within each call.
//
// Errors, rather than panics, report driver failures and out-of-memory,
// since device memory is a resource a query can exhaust. Shape and
// element-type violations are reported as ErrShape and ErrElem.
type Resident interface {
	Alloc(elem Elem, n int) (Buffer, error)
	Free(b Buffer) error
	CopyIn(dst Buffer, src []float64) error
	CopyOut(dst []float64, src Buffer) error
	CopyIn32(dst Buffer, src []float32) error
	CopyOut32(dst []float32, src Buffer) error

	// GemmBuf is Device.Gemm on buffers, all F64 or all F32.
	GemmBuf(transA, transB bool, m, n, k int, alpha float64, a Buffer, lda int, b Buffer, ldb int, beta float64, c Buffer, ldc int) error
	// GemvBuf is Gemver.Gemv on buffers, all F64 or all F32.
	GemvBuf(trans bool, m, n int, alpha float64, a Buffer, lda int, x Buffer, beta float64, y Buffer) error
	// UnaryBuf, BinaryBuf and ReduceBuf are the Device methods on F64
	// buffers.
	UnaryBuf(op UnaryOp, s float64, dst, x Buffer) error
	BinaryBuf(op BinaryOp, dst, x, y Buffer) error
	ReduceBuf(op ReduceOp, x Buffer) (float64, error)

	// Sync waits for all queued work, so timings measure the work itself.
	Sync() error
}
