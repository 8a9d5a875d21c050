package matrix

import (
	"sync/atomic"

	"github.com/sqlearn/sqlearn/gpu"
)

type deviceBox struct{ d gpu.Device }

var current atomic.Pointer[deviceBox]

func init() { current.Store(&deviceBox{gpu.CPU()}) }

// Device returns the device that runs the package's heavy kernels.
func Device() gpu.Device { return current.Load().d }

// SetDevice makes d run the package's heavy kernels from now on and returns
// the previous device.
func SetDevice(d gpu.Device) (previous gpu.Device) {
	return current.Swap(&deviceBox{d}).d
}

// solver returns the current device's factorisations, or the CPU's when the
// device has none.
func solver() gpu.Solver {
	if s, ok := Device().(gpu.Solver); ok {
		return s
	}
	return gpu.CPU().(gpu.Solver)
}
