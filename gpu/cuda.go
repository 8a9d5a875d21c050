//go:build cuda

package gpu

import (
	_ "embed"
	"fmt"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
	cublas "gorgonia.org/cu/blas"
)

// The kernels are PTX, generated offline from kernels/kernels.cu; the
// driver compiles them for the GPU at hand when the device opens.
//
//go:embed kernels/kernels.ptx
var kernelsPTX string

// The kernels index int CSR offsets as 64-bit values.
var _ [unsafe.Sizeof(int(0)) - 8]struct{}

// Reduction codes shared with kernels.cu.
const (
	redSum    = 1
	redMaxAbs = 2
	redSumSq  = 3

	threadsPerBlock = 256
	maxBlocks       = 1 << 16
	reduceBlocks    = 1024 // fixed, so the fold order is the same every run
)

func openGPU() (Device, string, error) {
	if err := driverInit(); err != nil {
		return nil, "", err
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, "", fmt.Errorf("%w: counting CUDA devices: %v", ErrNoGPU, err)
	}
	if n == 0 {
		return nil, "", fmt.Errorf("%w: the CUDA driver found no device", ErrNoGPU)
	}
	d, err := openCUDA(0)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNoGPU, err)
	}
	return d, d.desc, nil
}

// cudaDevice runs kernels on one GPU through the CUDA driver API and
// cuBLAS. A CUDA context is bound to an OS thread, so every call is handed
// to one goroutine locked to its thread; the GPU executes one stream in
// order anyway, so this costs no parallelism.
type cudaDevice struct {
	name, desc string
	work       chan func()
	done       chan struct{}
	closeOnce  sync.Once

	// Used only on the worker thread.
	ctx                               cu.CUContext
	blas                              *cublas.Standard
	unary, binary, reduce, spmm, mmsp cu.Function
	mod                               cu.Module
	partials                          cu.DevicePtr // reduceBlocks+1 float64s

	mu struct {
		sync.Mutex
		failures int
		lastErr  error
	}
}

var (
	_ Device   = (*cudaDevice)(nil)
	_ Resident = (*cudaDevice)(nil)
	_ Gemver   = (*cudaDevice)(nil)
	_ Sgemmer  = (*cudaDevice)(nil)
)

func openCUDA(ordinal int) (*cudaDevice, error) {
	d := &cudaDevice{name: fmt.Sprintf("cuda:%d", ordinal), work: make(chan func()), done: make(chan struct{})}
	ready := make(chan error, 1)
	go d.run(ordinal, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

// run owns the context's thread. The thread stays locked until the
// goroutine exits, and Go then retires it rather than reuse a thread whose
// CUDA state another goroutine might inherit.
func (d *cudaDevice) run(ordinal int, ready chan<- error) {
	defer close(d.done)
	runtime.LockOSThread()
	if err := recovered(func() error { return d.setup(ordinal) }); err != nil {
		d.teardown()
		ready <- err
		return
	}
	ready <- nil
	for fn := range d.work {
		fn()
	}
	d.teardown()
}

// recovered turns a panic inside a binding (cu/blas panics on its own
// argument checks and when a handle cannot be created) into an error.
func recovered(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrDevice, r)
		}
	}()
	return fn()
}

func (d *cudaDevice) setup(ordinal int) error {
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return err
	}
	model, _ := dev.Name()
	major, minor, _ := dev.ComputeCapability()
	mem, _ := dev.TotalMem()
	d.desc = fmt.Sprintf("%s: %s, compute %d.%d, %d MiB, driver %d", d.name, model, major, minor, mem>>20, cu.Version())
	if d.ctx, err = dev.MakeContext(cu.SchedAuto); err != nil {
		return fmt.Errorf("creating context on %s: %w", d.name, err)
	}
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return err
	}
	if d.mod, err = cu.LoadData(kernelsPTX); err != nil {
		return fmt.Errorf("loading kernels on %s: %w", d.name, err)
	}
	for _, k := range []struct {
		fn   *cu.Function
		name string
	}{{&d.unary, "unary_f64"}, {&d.binary, "binary_f64"}, {&d.reduce, "reduce_f64"}, {&d.spmm, "spmm_csr_f64"}, {&d.mmsp, "mmsp_csc_f64"}} {
		if *k.fn, err = d.mod.Function(k.name); err != nil {
			return fmt.Errorf("kernel %s: %w", k.name, err)
		}
	}
	if d.partials, err = cu.MemAlloc(8 * (reduceBlocks + 1)); err != nil {
		return err
	}
	d.blas = cublas.New()
	return nil
}

func (d *cudaDevice) teardown() {
	if d.blas != nil {
		d.blas.Close()
	}
	if d.partials != 0 {
		cu.MemFree(d.partials)
	}
	var none cu.CUContext
	if d.ctx != none {
		d.ctx.Destroy()
	}
}

// Close releases the GPU context and stops the worker. The device must not
// be used afterwards.
func (d *cudaDevice) Close() error {
	d.closeOnce.Do(func() { close(d.work) })
	<-d.done
	return nil
}

// do runs fn on the context's thread.
func (d *cudaDevice) do(fn func() error) error {
	res := make(chan error, 1)
	d.work <- func() { res <- recovered(fn) }
	return <-res
}

func (d *cudaDevice) Name() string       { return d.name }
func (d *cudaDevice) profileKey() string { return d.desc }

// Describe names the GPU model, compute capability, memory and driver.
func (d *cudaDevice) Describe() string { return d.desc }

// LastError reports how many host-slice calls fell back to the CPU after a
// device failure, and the latest such failure.
func (d *cudaDevice) LastError() (failures int, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.mu.failures, d.mu.lastErr
}

// hostCall runs fn on the device with a scratch arena freed afterwards. On
// a device failure (out of memory, a driver error) the operator runs on
// the CPU instead: host-slice methods have no error result, and a query
// should not fail because the GPU is full. The result is then the CPU's,
// which agrees within the stated tolerances.
func (d *cudaDevice) hostCall(fn func(s *scratch) error, fallback func()) {
	err := d.do(func() error {
		var s scratch
		defer s.free()
		return fn(&s)
	})
	if err != nil {
		d.mu.Lock()
		d.mu.failures++
		d.mu.lastErr = err
		d.mu.Unlock()
		fallback()
	}
}

// scratch tracks device memory for the length of one host-slice call.
type scratch struct{ ptrs []cu.DevicePtr }

func (s *scratch) alloc(bytes int) (cu.DevicePtr, error) {
	p, err := cu.MemAlloc(int64(max(bytes, 8)))
	if err != nil {
		return 0, fmt.Errorf("%w: allocating %d bytes: %v", ErrDevice, bytes, err)
	}
	s.ptrs = append(s.ptrs, p)
	return p, nil
}

// in copies a host slice to new device memory.
func in[T any](s *scratch, x []T) (cu.DevicePtr, error) {
	bytes := len(x) * int(unsafe.Sizeof(*new(T)))
	p, err := s.alloc(bytes)
	if err == nil && bytes > 0 {
		err = htod(p, unsafe.Pointer(&x[0]), bytes)
	}
	return p, err
}

// operand defers the copy of one host slice, so operands of different
// element types can be uploaded in one call to upload.
type operand func(s *scratch) (cu.DevicePtr, error)

func host[T any](x []T) operand { return func(s *scratch) (cu.DevicePtr, error) { return in(s, x) } }

// space is an output operand: allocated, not copied, since the kernel
// writes all of it.
func space(bytes int) operand {
	return func(s *scratch) (cu.DevicePtr, error) { return s.alloc(bytes) }
}

// upload copies each operand to new device memory, stopping at the first
// failure; the scratch arena frees whatever was allocated.
func (s *scratch) upload(ops ...operand) ([]cu.DevicePtr, error) {
	ptrs := make([]cu.DevicePtr, len(ops))
	for i, op := range ops {
		var err error
		if ptrs[i], err = op(s); err != nil {
			return nil, err
		}
	}
	return ptrs, nil
}

// out copies device memory back into a host slice.
func out[T any](x []T, p cu.DevicePtr) error {
	if len(x) == 0 {
		return nil
	}
	return dtoh(unsafe.Pointer(&x[0]), p, len(x)*int(unsafe.Sizeof(x[0])))
}

func (s *scratch) free() {
	for _, p := range s.ptrs {
		cu.MemFree(p)
	}
}

func htod(dst cu.DevicePtr, src unsafe.Pointer, bytes int) error {
	if err := cu.MemcpyHtoD(dst, src, int64(bytes)); err != nil {
		return fmt.Errorf("%w: copy to device: %v", ErrDevice, err)
	}
	return nil
}

func dtoh(dst unsafe.Pointer, src cu.DevicePtr, bytes int) error {
	if err := cu.MemcpyDtoH(dst, src, int64(bytes)); err != nil {
		return fmt.Errorf("%w: copy from device: %v", ErrDevice, err)
	}
	return nil
}

// devSlice presents device memory as a Go slice, the form cu/blas takes
// device operands in. The slice must never be read or written from Go: its
// address is on the GPU. The pointer is reinterpreted through memory
// rather than converted from an integer so vet's unsafe-pointer check, which
// guards Go memory, has nothing to say about an address Go does not own.
func devSlice[T any](p cu.DevicePtr, n int) []T {
	return unsafe.Slice((*T)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), max(n, 1))
}

// extent is the number of elements a rows×cols operand with leading
// dimension ld spans.
func extent(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return (rows-1)*ld + cols
}

func gemmExtents(transA, transB bool, m, n, k, lda, ldb, ldc int) (na, nb, nc int) {
	if transA {
		na = extent(k, m, lda)
	} else {
		na = extent(m, k, lda)
	}
	if transB {
		nb = extent(n, k, ldb)
	} else {
		nb = extent(k, n, ldb)
	}
	return na, nb, extent(m, n, ldc)
}

// gemmDev computes a row-major GEMM on device memory. cuBLAS is
// column-major, and a row-major matrix read column-major is its transpose,
// so C = op(A)·op(B) is computed as Cᵀ = op(B)ᵀ·op(A)ᵀ with the operands
// swapped. k = 0 is C = beta*C, done as the CPU device does it.
func (d *cudaDevice) gemmDev(elem Elem, transA, transB bool, m, n, k int, alpha float64, a cu.DevicePtr, lda int, b cu.DevicePtr, ldb int, beta float64, c cu.DevicePtr, ldc int) error {
	if m == 0 || n == 0 {
		return nil
	}
	if k == 0 {
		if elem != F64 {
			return fmt.Errorf("%w: empty float32 product", ErrElem)
		}
		for i := range m {
			if err := d.unaryDev(Scale, beta, c+cu.DevicePtr(8*i*ldc), c+cu.DevicePtr(8*i*ldc), n); err != nil {
				return err
			}
		}
		return nil
	}
	na, nb, nc := gemmExtents(transA, transB, m, n, k, lda, ldb, ldc)
	switch elem {
	case F64:
		d.blas.Dgemm(transpose(transB), transpose(transA), n, m, k, alpha,
			devSlice[float64](b, nb), ldb, devSlice[float64](a, na), lda, beta, devSlice[float64](c, nc), ldc)
	case F32:
		d.blas.Sgemm(transpose(transB), transpose(transA), n, m, k, float32(alpha),
			devSlice[float32](b, nb), ldb, devSlice[float32](a, na), lda, float32(beta), devSlice[float32](c, nc), ldc)
	default:
		return ErrElem
	}
	return d.blasErr()
}

// gemvDev computes y = alpha*op(A)·x + beta*y for row-major A; read
// column-major, A is Aᵀ, so the transpose flag flips.
func (d *cudaDevice) gemvDev(elem Elem, trans bool, m, n int, alpha float64, a cu.DevicePtr, lda int, x cu.DevicePtr, beta float64, y cu.DevicePtr) error {
	xl, yl := n, m
	if trans {
		xl, yl = m, n
	}
	if yl == 0 {
		return nil
	}
	if xl == 0 {
		if elem != F64 {
			return fmt.Errorf("%w: empty float32 product", ErrElem)
		}
		return d.unaryDev(Scale, beta, y, y, yl)
	}
	na := extent(m, n, lda)
	switch elem {
	case F64:
		d.blas.Dgemv(transpose(!trans), n, m, alpha, devSlice[float64](a, na), lda, devSlice[float64](x, xl), 1, beta, devSlice[float64](y, yl), 1)
	case F32:
		d.blas.Sgemv(transpose(!trans), n, m, float32(alpha), devSlice[float32](a, na), lda, devSlice[float32](x, xl), 1, float32(beta), devSlice[float32](y, yl), 1)
	default:
		return ErrElem
	}
	return d.blasErr()
}

// blasErr collects cu/blas's sticky error. The handle ignores every call
// after its first failure, so a failed handle is replaced.
func (d *cudaDevice) blasErr() error {
	err := d.blas.Err()
	if err == nil {
		return nil
	}
	d.blas.Close()
	d.blas = cublas.New()
	return fmt.Errorf("%w: cuBLAS: %v", ErrDevice, err)
}

// launch runs fn over n work items with one thread each, the grid capped
// so large n is covered by the kernels' grid-stride loops. Every argument
// is passed as 64 bits, as the kernels declare them.
func launch(fn cu.Function, blocks int, args ...any) error {
	vals := make([]uint64, len(args))
	params := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case cu.DevicePtr:
			vals[i] = uint64(v)
		case int:
			vals[i] = uint64(v)
		case float64:
			vals[i] = math.Float64bits(v)
		default:
			panic(fmt.Sprintf("gpu: kernel argument of type %T", a))
		}
		params[i] = unsafe.Pointer(&vals[i])
	}
	if err := fn.Launch(blocks, 1, 1, threadsPerBlock, 1, 1, 0, cu.Stream{}, params); err != nil {
		return fmt.Errorf("%w: kernel launch: %v", ErrDevice, err)
	}
	return nil
}

func blocksFor(n int) int { return min(max((n+threadsPerBlock-1)/threadsPerBlock, 1), maxBlocks) }

func (d *cudaDevice) unaryDev(op UnaryOp, s float64, dst, x cu.DevicePtr, n int) error {
	if op < Exp || op > Scale {
		panic("gpu: unknown unary op")
	}
	if n == 0 {
		return nil
	}
	return launch(d.unary, blocksFor(n), dst, x, n, int(op), s)
}

func (d *cudaDevice) binaryDev(op BinaryOp, dst, x, y cu.DevicePtr, n int) error {
	if op < Add || op > Div {
		panic("gpu: unknown binary op")
	}
	if n == 0 {
		return nil
	}
	return launch(d.binary, blocksFor(n), dst, x, y, n, int(op))
}

// fold reduces n elements at x in two launches: per-block partials, then
// one block over them.
func (d *cudaDevice) fold(code int, scale float64, x cu.DevicePtr, n int) (float64, error) {
	blocks := min(blocksFor(n), reduceBlocks)
	if err := launch(d.reduce, blocks, x, n, code, scale, d.partials); err != nil {
		return 0, err
	}
	second := code
	if code == redSumSq {
		second = redSum // the partials are already squared
	}
	res := d.partials + 8*reduceBlocks
	if err := launch(d.reduce, 1, d.partials, blocks, second, 1.0, res); err != nil {
		return 0, err
	}
	var v float64
	err := dtoh(unsafe.Pointer(&v), res, 8)
	return v, err
}

func (d *cudaDevice) reduceDev(op ReduceOp, x cu.DevicePtr, n int) (float64, error) {
	switch op {
	case Sum:
		if n == 0 {
			return 0, nil
		}
		return d.fold(redSum, 1, x, n)
	case MaxAbs:
		if n == 0 {
			return 0, nil
		}
		return d.fold(redMaxAbs, 1, x, n)
	case Nrm2:
		// As on the CPU: scale by the largest magnitude first.
		scale, err := d.reduceDev(MaxAbs, x, n)
		if err != nil || scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
			return scale, err
		}
		ssq, err := d.fold(redSumSq, scale, x, n)
		return scale * math.Sqrt(ssq), err
	}
	panic("gpu: unknown reduce op")
}

// Device methods on host slices: copy in, run, copy out.

func (d *cudaDevice) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	hostGemm(d, F64, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, func() {
		CPU().Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	})
}

func (d *cudaDevice) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	hostGemm(d, F32, transA, transB, m, n, k, float64(alpha), a, lda, b, ldb, float64(beta), c, ldc, func() {
		CPU().(Sgemmer).Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	})
}

func hostGemm[T float32 | float64](d *cudaDevice, elem Elem, transA, transB bool, m, n, k int, alpha float64, a []T, lda int, b []T, ldb int, beta float64, c []T, ldc int, cpu func()) {
	if m == 0 || n == 0 || k == 0 {
		cpu() // nothing worth a copy
		return
	}
	na, nb, nc := gemmExtents(transA, transB, m, n, k, lda, ldb, ldc)
	if len(a) < na || len(b) < nb || len(c) < nc {
		panic("gpu: Gemm operand too short")
	}
	d.hostCall(func(s *scratch) error {
		// C is read when it accumulates, and when rows have gaps that
		// the copy back must not overwrite with garbage.
		cop := host(c[:nc])
		if beta == 0 && ldc == n {
			cop = space(nc * elem.Size())
		}
		p, err := s.upload(host(a[:na]), host(b[:nb]), cop)
		if err != nil {
			return err
		}
		if err := d.gemmDev(elem, transA, transB, m, n, k, alpha, p[0], lda, p[1], ldb, beta, p[2], ldc); err != nil {
			return err
		}
		return out(c[:nc], p[2])
	}, cpu)
}

func (d *cudaDevice) Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	cpu := func() { CPU().(Gemver).Gemv(trans, m, n, alpha, a, lda, x, beta, y) }
	xl, yl := n, m
	if trans {
		xl, yl = m, n
	}
	if xl == 0 || yl == 0 {
		cpu()
		return
	}
	na := extent(m, n, lda)
	d.hostCall(func(s *scratch) error {
		p, err := s.upload(host(a[:na]), host(x[:xl]), host(y[:yl]))
		if err != nil {
			return err
		}
		if err := d.gemvDev(F64, trans, m, n, alpha, p[0], lda, p[1], beta, p[2]); err != nil {
			return err
		}
		return out(y[:yl], p[2])
	}, cpu)
}

func (d *cudaDevice) SpMM(a CSR, b []float64, n int, c []float64) {
	if len(b) < a.Cols*n || len(c) < a.Rows*n {
		panic("gpu: SpMM operand too short")
	}
	cpu := func() { CPU().SpMM(a, b, n, c) }
	if a.Rows == 0 || n == 0 || len(a.Values) == 0 {
		cpu()
		return
	}
	d.hostCall(func(s *scratch) error {
		p, err := s.upload(host(a.Indptr[:a.Rows+1]), host(a.Indices), host(a.Values), host(b[:a.Cols*n]), space(8*a.Rows*n))
		if err != nil {
			return err
		}
		if err := launch(d.spmm, blocksFor(a.Rows*n), p[0], p[1], p[2], p[3], p[4], a.Rows, n); err != nil {
			return err
		}
		return out(c[:a.Rows*n], p[4])
	}, cpu)
}

// toCSC transposes the storage of b so each output column of A·B can be
// summed by one thread without atomics, in the CPU device's order.
func toCSC(b CSR) (colptr []int, rowidx []int32, values []float64) {
	colptr = make([]int, b.Cols+1)
	for _, j := range b.Indices {
		colptr[j+1]++
	}
	for j := range b.Cols {
		colptr[j+1] += colptr[j]
	}
	next := append([]int(nil), colptr[:b.Cols]...)
	rowidx, values = make([]int32, len(b.Values)), make([]float64, len(b.Values))
	for i := range b.Rows {
		for p := b.Indptr[i]; p < b.Indptr[i+1]; p++ {
			q := next[b.Indices[p]]
			next[b.Indices[p]]++
			rowidx[q], values[q] = int32(i), b.Values[p]
		}
	}
	return colptr, rowidx, values
}

func (d *cudaDevice) MMSp(m int, a []float64, b CSR, c []float64) {
	if len(a) < m*b.Rows || len(c) < m*b.Cols {
		panic("gpu: MMSp operand too short")
	}
	cpu := func() { CPU().MMSp(m, a, b, c) }
	if m == 0 || b.Cols == 0 || len(b.Values) == 0 {
		cpu()
		return
	}
	colptr, rowidx, values := toCSC(b)
	d.hostCall(func(s *scratch) error {
		p, err := s.upload(host(a[:m*b.Rows]), host(colptr), host(rowidx), host(values), space(8*m*b.Cols))
		if err != nil {
			return err
		}
		if err := launch(d.mmsp, blocksFor(m*b.Cols), p[0], p[1], p[2], p[3], p[4], m, b.Rows, b.Cols); err != nil {
			return err
		}
		return out(c[:m*b.Cols], p[4])
	}, cpu)
}

func (d *cudaDevice) Unary(op UnaryOp, s float64, dst, x []float64) {
	if len(dst) != len(x) {
		panic("gpu: Unary length mismatch")
	}
	cpu := func() { CPU().Unary(op, s, dst, x) }
	if len(x) == 0 {
		cpu()
		return
	}
	d.hostCall(func(sc *scratch) error {
		px, err := in(sc, x)
		if err != nil {
			return err
		}
		if err := d.unaryDev(op, s, px, px, len(x)); err != nil {
			return err
		}
		return out(dst, px)
	}, cpu)
}

func (d *cudaDevice) Binary(op BinaryOp, dst, x, y []float64) {
	if len(dst) != len(x) || len(x) != len(y) {
		panic("gpu: Binary length mismatch")
	}
	cpu := func() { CPU().Binary(op, dst, x, y) }
	if len(x) == 0 {
		cpu()
		return
	}
	d.hostCall(func(s *scratch) error {
		p, err := s.upload(host(x), host(y))
		if err != nil {
			return err
		}
		if err := d.binaryDev(op, p[0], p[0], p[1], len(x)); err != nil {
			return err
		}
		return out(dst, p[0])
	}, cpu)
}

func (d *cudaDevice) Reduce(op ReduceOp, x []float64) float64 {
	var r float64
	if len(x) == 0 {
		return CPU().Reduce(op, x)
	}
	d.hostCall(func(s *scratch) error {
		px, err := in(s, x)
		if err != nil {
			return err
		}
		r, err = d.reduceDev(op, px, len(x))
		return err
	}, func() { r = CPU().Reduce(op, x) })
	return r
}
