package gpu

import (
	"fmt"
	"sync"
)

// Discovery is what start-up found: the CPU device always, a GPU device
// when one is usable, and in words why not otherwise, for the server to
// log.
type Discovery struct {
	CPU Device
	GPU Device // nil when none is usable
	// Reason describes the GPU found, or why there is none.
	Reason string
}

// Devices lists the usable devices, the CPU first.
func (d Discovery) Devices() []Device {
	if d.GPU == nil {
		return []Device{d.CPU}
	}
	return []Device{d.CPU, d.GPU}
}

var discovered = sync.OnceValue(func() Discovery {
	disc := Discovery{CPU: CPU()}
	gpu, desc, err := openGPU()
	if err != nil {
		disc.Reason = err.Error()
		return disc
	}
	disc.GPU, disc.Reason = gpu, desc
	return disc
})

// Discover probes for devices once per process; later calls return the
// same result, since a GPU context is a process-wide resource. It never
// panics: a missing driver or device leaves GPU nil with a reason.
func Discover() Discovery { return discovered() }

// Devices lists the usable devices, the CPU first; see Discover.
func Devices() []Device { return Discover().Devices() }

// NewAuto discovers the devices, loads or measures their profiles through
// the cache file at profilePath (empty: no cache) and returns an auto-mode
// Dispatcher. A GPU whose calibration fails is dropped with the reason
// recorded, so start-up always ends with a working dispatcher.
func NewAuto(profilePath string, o CalibrateOptions) (*Dispatcher, Discovery, error) {
	disc := Discover()
	cpuProf, err := LoadOrCalibrate(profilePath, disc.CPU, o)
	if !cpuProf.valid() {
		return nil, disc, err
	}
	if disc.GPU == nil {
		return NewDispatcher(disc.CPU, cpuProf, nil, Profile{}, disc.Reason), disc, err
	}
	gpuProf, gerr := LoadOrCalibrate(profilePath, disc.GPU, o)
	if !gpuProf.valid() {
		reason := fmt.Sprintf("%s: calibration failed: %v", disc.GPU.Name(), gerr)
		return NewDispatcher(disc.CPU, cpuProf, nil, Profile{}, reason), disc, err
	}
	if err == nil {
		err = gerr
	}
	return NewDispatcher(disc.CPU, cpuProf, disc.GPU, gpuProf, ""), disc, err
}
