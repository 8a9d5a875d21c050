package gpu

import (
	"fmt"
	"strings"
	"time"
)

// Mode says how a Dispatcher picks devices; the SQL side exposes it as
// @@ml_device.
type Mode uint8

const (
	ModeAuto Mode = iota // the cheaper device by the cost model
	ModeCPU              // always the CPU
	ModeGPU              // the GPU for every operator it implements
)

func (m Mode) String() string {
	switch m {
	case ModeAuto:
		return "auto"
	case ModeCPU:
		return "cpu"
	case ModeGPU:
		return "gpu"
	}
	return fmt.Sprintf("mode(%d)", m)
}

// ParseMode reads the values @@ml_device accepts, ignoring case.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return ModeAuto, nil
	case "cpu":
		return ModeCPU, nil
	case "gpu":
		return ModeGPU, nil
	}
	return 0, fmt.Errorf("%w: %q (want auto, cpu or gpu)", ErrBadMode, s)
}

// Dispatcher is a Device that runs each operator on the CPU or the GPU,
// whichever its cost model predicts is faster once host-device copies are
// counted. A Dispatcher is immutable, so one can be shared by every session
// and WithMode hands out per-session views.
type Dispatcher struct {
	cpu, gpu         Device // gpu is nil when there is none
	cpuProf, gpuProf Profile
	noGPU            string // why gpu is nil
	mode             Mode
}

var (
	_ Device  = (*Dispatcher)(nil)
	_ Solver  = (*Dispatcher)(nil)
	_ Gemver  = (*Dispatcher)(nil)
	_ Sgemmer = (*Dispatcher)(nil)
)

// NewDispatcher builds an auto-mode dispatcher over cpu and, when gpu is
// not nil, gpu, each with its calibrated profile. noGPU explains a missing
// GPU in errors and EXPLAIN output.
func NewDispatcher(cpu Device, cpuProf Profile, gpu Device, gpuProf Profile, noGPU string) *Dispatcher {
	if gpu == nil && noGPU == "" {
		noGPU = "no GPU device configured"
	}
	return &Dispatcher{cpu: cpu, gpu: gpu, cpuProf: cpuProf, gpuProf: gpuProf, noGPU: noGPU}
}

// WithMode returns a view of d that picks devices by m. ModeGPU without a
// GPU is an error wrapping ErrNoGPU, so SET @@ml_device = 'gpu' fails where
// it cannot be honoured instead of silently running on the CPU.
func (d *Dispatcher) WithMode(m Mode) (*Dispatcher, error) {
	switch m {
	case ModeAuto, ModeCPU:
	case ModeGPU:
		if d.gpu == nil {
			// Discover's reasons already begin with ErrNoGPU's text.
			return nil, fmt.Errorf("%w: %s", ErrNoGPU, strings.TrimPrefix(d.noGPU, ErrNoGPU.Error()+": "))
		}
	default:
		return nil, fmt.Errorf("%w: %v", ErrBadMode, m)
	}
	v := *d
	v.mode = m
	return &v, nil
}

// Mode reports how d picks devices.
func (d *Dispatcher) Mode() Mode { return d.mode }

// GPU returns the GPU device, or nil and the reason there is none.
func (d *Dispatcher) GPU() (Device, string) { return d.gpu, d.noGPU }

// Name lists the devices d chooses between.
func (d *Dispatcher) Name() string {
	if d.gpu == nil {
		return "dispatch(" + d.cpu.Name() + ")"
	}
	return "dispatch(" + d.cpu.Name() + "," + d.gpu.Name() + ")"
}

// Choice is the device an operator runs on and why, as EXPLAIN shows it.
type Choice struct {
	Op     Op
	Device string
	// CPU and GPU are the predicted times with host operands; GPU includes
	// GPUTransfer and is zero when there is no GPU.
	CPU, GPU, GPUTransfer time.Duration
	Reason                string

	gpu bool
}

// OnGPU reports whether the operator goes to the GPU.
func (c Choice) OnGPU() bool { return c.gpu }

func (c Choice) String() string {
	if c.GPU == 0 {
		return fmt.Sprintf("%s on %s: %s (cpu est %v)", c.Op.Kind, c.Device, c.Reason, c.CPU)
	}
	return fmt.Sprintf("%s on %s: %s (cpu est %v, gpu est %v incl. transfer %v)", c.Op.Kind, c.Device, c.Reason, c.CPU, c.GPU, c.GPUTransfer)
}

// Choose says which device would run op and why, without running it.
func (d *Dispatcher) Choose(op Op) Choice {
	c := Choice{Op: op, Device: d.cpu.Name(), CPU: d.cpuProf.Estimate(op).Total()}
	if d.gpu == nil {
		c.Reason = d.noGPU
		return c
	}
	g := d.gpuProf.Estimate(op)
	c.GPU, c.GPUTransfer = g.Total(), g.Transfer
	switch {
	case d.mode == ModeCPU:
		c.Reason = "@@ml_device = cpu"
	case !implements(d.gpu, op.Kind):
		c.Reason = d.gpu.Name() + " lacks " + op.Kind.String()
	case d.mode == ModeGPU:
		c.gpu, c.Reason = true, "@@ml_device = gpu"
	case c.GPU < c.CPU:
		c.gpu, c.Reason = true, "cheaper on gpu"
	default:
		c.Reason = "cheaper on cpu"
	}
	if c.gpu {
		c.Device = d.gpu.Name()
	}
	return c
}

// implements reports whether dev can run kinds that are optional
// capabilities.
func implements(dev Device, k OpKind) bool {
	switch k {
	case OpGemv:
		_, ok := dev.(Gemver)
		return ok
	case OpSgemm:
		_, ok := dev.(Sgemmer)
		return ok
	}
	return true
}

func (d *Dispatcher) pick(op Op) Device {
	if d.gpu == nil || d.mode == ModeCPU {
		return d.cpu // the common case skips the model entirely
	}
	if d.Choose(op).gpu {
		return d.gpu
	}
	return d.cpu
}

func (d *Dispatcher) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	d.pick(Op{Kind: OpGemm, M: m, N: n, K: k, Accumulate: beta != 0}).Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (d *Dispatcher) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	dev := d.pick(Op{Kind: OpSgemm, M: m, N: n, K: k, Accumulate: beta != 0})
	s, ok := dev.(Sgemmer)
	if !ok {
		s = CPU().(Sgemmer)
	}
	s.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (d *Dispatcher) Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	dev := d.pick(Op{Kind: OpGemv, M: m, N: n, Accumulate: beta != 0})
	g, ok := dev.(Gemver)
	if !ok {
		g = CPU().(Gemver)
	}
	g.Gemv(trans, m, n, alpha, a, lda, x, beta, y)
}

func (d *Dispatcher) SpMM(a CSR, b []float64, n int, c []float64) {
	d.pick(Op{Kind: OpSpMM, M: a.Rows, K: a.Cols, N: n, NNZ: len(a.Values)}).SpMM(a, b, n, c)
}

func (d *Dispatcher) MMSp(m int, a []float64, b CSR, c []float64) {
	d.pick(Op{Kind: OpMMSp, M: m, K: b.Rows, N: b.Cols, NNZ: len(b.Values)}).MMSp(m, a, b, c)
}

func (d *Dispatcher) Unary(op UnaryOp, s float64, dst, x []float64) {
	d.pick(Op{Kind: OpUnary, N: len(x)}).Unary(op, s, dst, x)
}

func (d *Dispatcher) Binary(op BinaryOp, dst, x, y []float64) {
	d.pick(Op{Kind: OpBinary, N: len(x)}).Binary(op, dst, x, y)
}

func (d *Dispatcher) Reduce(op ReduceOp, x []float64) float64 {
	return d.pick(Op{Kind: OpReduce, N: len(x)}).Reduce(op, x)
}

// The factorisations stay on the CPU: they are latency-bound panel
// updates that no calibrated GPU path exists for yet.

func (d *Dispatcher) solver() Solver {
	if s, ok := d.cpu.(Solver); ok {
		return s
	}
	return CPU().(Solver)
}

func (d *Dispatcher) LU(n int, a []float64, ipiv []int) float64 { return d.solver().LU(n, a, ipiv) }

func (d *Dispatcher) LUSolve(n, nrhs int, lu []float64, ipiv []int, b []float64) {
	d.solver().LUSolve(n, nrhs, lu, ipiv, b)
}

func (d *Dispatcher) Cholesky(n int, a []float64) bool { return d.solver().Cholesky(n, a) }
