package gpu

import (
	"fmt"
	"time"
)

// OpKind names an operator the cost model can price.
type OpKind uint8

const (
	OpGemm   OpKind = iota + 1 // float64 GEMM: M×K times K×N
	OpSgemm                    // float32 GEMM
	OpGemv                     // M×N matrix times vector
	OpSpMM                     // CSR (M×K, NNZ stored) times dense K×N
	OpMMSp                     // dense M×K times CSR (K×N, NNZ stored)
	OpUnary                    // N elements
	OpBinary                   // N elements
	OpReduce                   // N elements
)

var opNames = [...]string{OpGemm: "gemm", OpSgemm: "sgemm", OpGemv: "gemv", OpSpMM: "spmm", OpMMSp: "mmsp", OpUnary: "unary", OpBinary: "binary", OpReduce: "reduce"}

func (k OpKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// Op describes one operator call by its shape, which is all the cost model
// needs. Element-wise ops and reductions use N as the element count.
type Op struct {
	Kind    OpKind
	M, N, K int
	NNZ     int
	// Accumulate is set when the output is also an input (GEMM with
	// beta ≠ 0), so a device with its own memory must copy it in too.
	Accumulate bool
}

// flops counts floating-point operations.
func (o Op) flops() float64 {
	m, n, k := float64(o.M), float64(o.N), float64(o.K)
	switch o.Kind {
	case OpGemm, OpSgemm:
		return 2 * m * n * k
	case OpGemv:
		return 2 * m * n
	case OpSpMM:
		return 2 * float64(o.NNZ) * n
	case OpMMSp:
		return 2 * float64(o.NNZ) * m
	}
	return n
}

// csrBytes is the size of a CSR operand as the devices store it: int32
// indices, float64 values and one offset per row plus one.
func csrBytes(rows, nnz int) float64 { return float64(nnz)*12 + float64(rows+1)*8 }

// traffic returns the bytes an operator reads and writes, which bound
// memory-bound kernels, and the bytes a device with its own memory must copy
// in and out when the operands live on the host.
func (o Op) traffic() (in, out float64) {
	m, n, k := float64(o.M), float64(o.N), float64(o.K)
	acc := 0.0
	if o.Accumulate {
		acc = 1
	}
	switch o.Kind {
	case OpGemm:
		return 8 * (m*k + k*n + acc*m*n), 8 * m * n
	case OpSgemm:
		return 4 * (m*k + k*n + acc*m*n), 4 * m * n
	case OpGemv:
		return 8 * (m*n + n + acc*m), 8 * m
	case OpSpMM:
		return csrBytes(o.M, o.NNZ) + 8*k*n, 8 * m * n
	case OpMMSp:
		return 8*m*k + csrBytes(o.K, o.NNZ), 8 * m * n
	case OpUnary:
		return 8 * n, 8 * n
	case OpBinary:
		return 16 * n, 8 * n
	case OpReduce:
		return 8 * n, 8
	}
	return 0, 0
}

// Profile holds a device's calibrated speeds. The cost model is
// deliberately coarse: a fixed overhead per call, a rate for the compute
// and, for devices with their own memory, a rate and latency for each copy.
// It only has to be right about which side of a crossover an operator
// falls on, and those crossovers are orders of magnitude apart.
type Profile struct {
	// Key names the device and the build the numbers were measured for.
	Key string `json:"key"`

	Overhead   float64 `json:"overhead_s"`     // seconds per call
	GemmRate   float64 `json:"gemm_flops"`     // float64 GEMM, flop/s
	SgemmRate  float64 `json:"sgemm_flops"`    // float32 GEMM, flop/s
	SparseRate float64 `json:"sparse_flops"`   // CSR products, flop/s
	StreamRate float64 `json:"stream_bytes"`   // memory-bound kernels, byte/s
	CopyRate   float64 `json:"copy_bytes"`     // host↔device, byte/s; 0: shares host memory
	CopyDelay  float64 `json:"copy_latency_s"` // seconds per copy
}

// Estimate is a predicted run time, split so EXPLAIN can show where it
// goes.
type Estimate struct {
	Compute  time.Duration
	Transfer time.Duration
}

// Total is the whole predicted time.
func (e Estimate) Total() time.Duration { return e.Compute + e.Transfer }

// Estimate predicts how long op takes on the profiled device with operands
// starting and ending in host memory.
func (p Profile) Estimate(op Op) Estimate {
	in, out := op.traffic()
	var rate, work float64
	switch op.Kind {
	case OpGemm:
		rate, work = p.GemmRate, op.flops()
	case OpSgemm:
		rate, work = p.SgemmRate, op.flops()
	case OpSpMM, OpMMSp:
		rate, work = p.SparseRate, op.flops()
	default:
		rate, work = p.StreamRate, in+out
	}
	secs := p.Overhead
	if work > 0 {
		secs += work / rate
		// A compute-bound kernel still has to stream its operands.
		if op.Kind != OpGemv && op.Kind != OpUnary && op.Kind != OpBinary && op.Kind != OpReduce {
			secs = max(secs, p.Overhead+(in+out)/p.StreamRate)
		}
	}
	e := Estimate{Compute: seconds(secs)}
	if p.CopyRate > 0 {
		copies := 2.0 // at least one operand in and the result out
		if op.Kind == OpBinary || op.Kind == OpGemm || op.Kind == OpSgemm || op.Kind == OpSpMM || op.Kind == OpMMSp {
			copies = 3
		}
		e.Transfer = seconds(copies*p.CopyDelay + (in+out)/p.CopyRate)
	}
	return e
}

func seconds(s float64) time.Duration {
	const maxSecs = float64(1<<63-1) / float64(time.Second)
	if s >= maxSecs || s != s {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s * float64(time.Second))
}

// valid reports whether every rate is usable, so a corrupt or hand-edited
// profile cannot steer operators with zero or negative speeds.
func (p Profile) valid() bool {
	pos := func(v float64) bool { return v > 0 && v < 1e300 }
	return pos(p.GemmRate) && pos(p.SgemmRate) && pos(p.SparseRate) && pos(p.StreamRate) &&
		p.Overhead >= 0 && p.CopyRate >= 0 && p.CopyDelay >= 0 && p.Key != ""
}
