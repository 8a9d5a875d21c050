package optimizer

import (
	"fmt"
	"strings"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
)

// Products run on Options.Devices, which is how a session's @@ml_device
// reaches the kernels; every other operator calls the matrix package, whose
// kernels run on the process device. EXPLAIN reports both as they are.

// productDevice is the device a script's products run on.
func (o Options) productDevice() gpu.Device {
	if o.Devices != nil {
		return o.Devices
	}
	return matrix.Device()
}

// productDispatcher is what decides where products run, or nil when they
// run on a plain device that makes no choice.
func (o Options) productDispatcher() *gpu.Dispatcher {
	d, _ := o.productDevice().(*gpu.Dispatcher)
	return d
}

// choiceClass is where a dispatcher sends an operator, in the words
// @@ml_device uses, which is what the EXPLAIN device column shows.
func choiceClass(c gpu.Choice) string {
	if c.OnGPU() {
		return deviceGPU
	}
	return deviceCPU
}

// deviceClass is choiceClass for a plain device, which runs everything.
func deviceClass(d gpu.Device) string {
	if d.Name() == gpu.CPU().Name() {
		return deviceCPU
	}
	return deviceGPU
}

// place sets where n runs. A product's label also gets the dispatcher's
// reason, since EXPLAIN prints the label in the detail column.
func (es *estimator) place(n *pnode) {
	switch n.op {
	case opMatMul:
		es.placeProducts(n, []factorShape{es.factor(n.args[0]), es.factor(n.args[1])})
	case opChain:
		fs := make([]factorShape, len(n.args))
		for i, a := range n.args {
			fs[i] = es.factor(a)
		}
		es.placeProducts(n, fs)
	default:
		n.setPlacement(deviceCPU, "")
		if op, ok := kernelOp(n); ok {
			switch d := matrix.Device().(type) {
			case *gpu.Dispatcher:
				n.device = choiceClass(d.Choose(op))
			default:
				n.device = deviceClass(d)
			}
		}
	}
}

// factorShape is what the device choice needs of a product's operand.
type factorShape struct {
	rows, cols int
	sparse     bool
	nnz        int
}

func (es *estimator) factor(n *pnode) factorShape {
	f := factorShape{rows: n.rows, cols: n.cols}
	f.nnz, f.sparse = es.storedNNZ(n)
	return f
}

// storedNNZ returns how many entries n's value stores when it is a sparse
// value the estimator can see before running: a variable, session variable
// or constant, or a transpose or hoisted copy of one. Computed values are
// taken as dense, which is what every product with a dense factor returns.
func (es *estimator) storedNNZ(n *pnode) (int, bool) {
	var v *matrix.Matrix
	switch n.op {
	case opT, opHoisted:
		return es.storedNNZ(n.args[0])
	case opVar:
		if es.shapes[n.name].sparse {
			v = es.in.vars[n.name]
		}
	case opSession:
		if es.in.env != nil {
			v, _ = es.in.sessionVar(n.name)
		}
	case opConst:
		v = n.val
	}
	if v == nil || !v.IsSparse() {
		return 0, false
	}
	return v.NNZ(), true
}

// productOp is the kernel call that multiplies l by r as the executor
// does it, and the shape of the result; ok is false for a sparse·sparse
// product, which the matrix package computes itself.
func productOp(l, r factorShape) (op gpu.Op, res factorShape, ok bool) {
	res = factorShape{rows: l.rows, cols: r.cols}
	switch {
	case l.sparse && r.sparse:
		res.sparse = true
		d := mulDensity(l.cols, density(l), density(r))
		res.nnz = int(d * float64(res.rows) * float64(res.cols))
		return gpu.Op{}, res, false
	case l.sparse:
		op = gpu.Op{Kind: gpu.OpSpMM, M: l.rows, K: l.cols, N: r.cols, NNZ: l.nnz}
	case r.sparse:
		op = gpu.Op{Kind: gpu.OpMMSp, M: l.rows, K: r.rows, N: r.cols, NNZ: r.nnz}
	default:
		op = gpu.Op{Kind: gpu.OpGemm, M: l.rows, N: r.cols, K: l.cols}
	}
	return op, res, true
}

func density(f factorShape) float64 {
	if !f.sparse {
		return 1
	}
	if n := float64(f.rows) * float64(f.cols); n > 0 {
		return float64(f.nnz) / n
	}
	return 0
}

// placeProducts places a product node by the products it performs, in the
// order the executor performs them. A chain whose products land on
// different devices shows the device of its costliest product, which is
// where most of its time goes, and says how the rest were split.
func (es *estimator) placeProducts(n *pnode, fs []factorShape) {
	disp := es.in.opts.productDispatcher()
	if disp == nil {
		n.setPlacement(deviceClass(es.in.opts.productDevice()), "")
		return
	}
	var (
		choices []gpu.Choice
		sparse  int // sparse·sparse products, which no device kernel runs
	)
	multiply := func(l, r factorShape) factorShape {
		op, res, ok := productOp(l, r)
		if ok {
			choices = append(choices, disp.Choose(op))
		} else {
			sparse++
		}
		return res
	}
	switch {
	case len(fs) < 2:
	case !es.in.opts.ReorderChains || len(fs) == 2:
		acc := fs[0]
		for _, f := range fs[1:] {
			acc = multiply(acc, f)
		}
	default:
		dims := make([]int, len(fs)+1)
		dims[0] = fs[0].rows
		for i, f := range fs {
			dims[i+1] = f.cols
		}
		split := chainOrder(dims)
		var walk func(i, j int) factorShape
		walk = func(i, j int) factorShape {
			if i == j {
				return fs[i]
			}
			k := split[i][j]
			l := walk(i, k)
			return multiply(l, walk(k+1, j))
		}
		walk(0, len(fs)-1)
	}
	switch {
	case len(choices) == 0 && sparse == 0: // a lone factor: nothing to multiply
		n.setPlacement(deviceCPU, "")
		return
	case len(choices) == 0:
		n.setPlacement(deviceCPU, "sparse products run in the matrix package")
		return
	}
	top, onGPU := choices[0], 0
	for _, c := range choices {
		if c.CPU > top.CPU {
			top = c
		}
		if c.OnGPU() {
			onGPU++
		}
	}
	why := choiceText(top)
	if total := len(choices) + sparse; total > 1 {
		why = fmt.Sprintf("%d products, %d on gpu; costliest %s", total, onGPU, why)
	}
	n.setPlacement(choiceClass(top), why)
}

// choiceText says where a kernel runs and why, with both predictions when
// there was a choice to make.
func choiceText(c gpu.Choice) string {
	// The gpu package's reasons may carry its error prefix.
	s := fmt.Sprintf("%s %dx%d by %dx%d on %s: %s", c.Op.Kind, c.Op.M, c.Op.K, c.Op.K, c.Op.N, c.Device, strings.TrimPrefix(c.Reason, "gpu: "))
	if c.GPU > 0 {
		s += fmt.Sprintf(", est cpu %s ms, gpu %s ms incl. %s ms transfer", ms(c.CPU), ms(c.GPU), ms(c.GPUTransfer))
	}
	return s
}

func ms(d time.Duration) string { return fmtMs(d.Seconds() * 1e3) }

// kernelOp is the kernel that evaluating n hands to the process device, for
// operators other than products; ok is false where the matrix package does
// the work itself (transposes, reshaping, scalars) or a CPU-only
// factorisation does.
func kernelOp(n *pnode) (gpu.Op, bool) {
	if n.op == opCall && n.name == "sum" {
		return gpu.Op{Kind: gpu.OpReduce, N: n.args[0].rows * n.args[0].cols}, true
	}
	size := n.rows * n.cols
	if size <= 1 {
		return gpu.Op{}, false
	}
	switch n.op {
	case opNeg, opScale, opPow:
		return gpu.Op{Kind: gpu.OpUnary, N: size}, true
	case opAdd, opSub, opEMul, opEDiv:
		a, b := n.args[0], n.args[1]
		scalarSide := a.rows*a.cols == 1 || b.rows*b.cols == 1
		if scalarSide && (n.op == opEMul || n.op == opEDiv) {
			return gpu.Op{Kind: gpu.OpUnary, N: size}, true
		}
		return gpu.Op{Kind: gpu.OpBinary, N: size}, true
	case opCall:
		switch n.name {
		case "exp", "log", "sqrt":
			return gpu.Op{Kind: gpu.OpUnary, N: size}, true
		}
	}
	return gpu.Op{}, false
}

// setPlacement records where n runs and why. The reason is appended to the
// label in parentheses, replacing any that an earlier estimate of the same
// node appended, so re-planning a loop does not repeat it.
func (n *pnode) setPlacement(device, why string) {
	n.device = device
	base := strings.TrimSuffix(n.label, n.placedBy)
	n.placedBy = ""
	if why != "" {
		n.placedBy = "(" + why + ")"
		if base != "" {
			n.placedBy = " " + n.placedBy
		}
	}
	n.label = base + n.placedBy
}
