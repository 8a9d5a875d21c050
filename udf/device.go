package udf

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/ml"
)

// DeviceVar selects where a session's LA products and ML training kernels
// run: 'auto' (the dispatcher's cost model), 'cpu' or 'gpu'.
const DeviceVar = "ml_device"

// checkDevice runs before the engine stores a SET's value, for the session
// and the global scope alike, so 'gpu' on a server without one fails the
// SET and leaves the variable as it was.
func checkDevice(_ *sql.Context, _ sql.SystemVariableScope, v sql.SystemVarValue) error {
	s, _ := v.Val.(string)
	if _, err := deviceView(s); err != nil {
		return mysql.NewSQLError(mysql.ERWrongValueForVar, "42000", "Variable '%s' can't be set to the value of '%s': %s",
			DeviceVar, s, packagePrefix.ReplaceAllString(err.Error(), "$1"))
	}
	return nil
}

// processDevices is the dispatcher the server installed as the matrix
// package's device, or nil when the kernels run on a plain device. The
// device is process-wide, as @@ml_device's definition is, so both find
// the same dispatcher however many servers the process runs.
func processDevices() *gpu.Dispatcher {
	d, _ := matrix.Device().(*gpu.Dispatcher)
	return d
}

// deviceView is what a session with @@ml_device = mode runs on: a view of
// the process dispatcher, or nil for the process device itself when there
// is no dispatcher, which serves 'auto' and 'cpu' but not 'gpu'.
func deviceView(mode string) (*gpu.Dispatcher, error) {
	m, err := gpu.ParseMode(mode)
	if err != nil {
		return nil, err
	}
	d := processDevices()
	if d == nil {
		if m == gpu.ModeGPU {
			return nil, fmt.Errorf("%w: the matrix kernels run on %s alone", gpu.ErrNoGPU, matrix.Device().Name())
		}
		return nil, nil
	}
	return d.WithMode(m)
}

// sessionDevices is deviceView for the caller's @@ml_device. The SET was
// checked, but the value is checked again here: a global value persisted
// on a machine that had a GPU reaches new sessions without a SET.
func sessionDevices(ctx *sql.Context) (*gpu.Dispatcher, error) {
	v, err := ctx.GetSessionVariable(ctx, DeviceVar)
	if err != nil {
		return deviceView("auto") // a session that predates the variable
	}
	s, _ := v.(string)
	view, err := deviceView(s)
	if err != nil {
		return nil, fmt.Errorf("@@%s = '%s': %w", DeviceVar, s, err)
	}
	return view, nil
}

// jobDevice is sys.ML_JOBS' device: 'cpu' or 'gpu' when the mode fixes it,
// and under 'auto' what the dispatcher picks for the fit's costliest
// product, XᵀX of a rows×width design ("auto" alone until the data is
// read). Fits without matrix kernels run on the CPU whatever the mode.
func jobDevice(o ml.Options, rows, width int) string {
	view := o.Devices
	switch {
	case !ml.UsesMatrixKernels(o):
		return "cpu"
	case view == nil && matrix.Device().Name() == gpu.CPU().Name():
		return "cpu"
	case view == nil:
		return "gpu" // a plain GPU device runs everything
	case view.Mode() == gpu.ModeCPU:
		return "cpu"
	case view.Mode() == gpu.ModeGPU:
		return "gpu"
	case rows == 0:
		return "auto"
	}
	if view.Choose(gpu.Op{Kind: gpu.OpGemm, M: width, N: width, K: rows}).OnGPU() {
		return "auto: gpu"
	}
	return "auto: cpu"
}
