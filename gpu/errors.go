package gpu

import "errors"

var (
	// ErrNoGPU reports that no GPU device is available: the build lacks
	// the cuda tag, the driver did not load, or no device was found.
	ErrNoGPU = errors.New("gpu: no GPU device available")
	// ErrBadMode reports a device mode other than auto, cpu or gpu.
	ErrBadMode = errors.New("gpu: unknown device mode")
	// ErrForeignBuffer reports a Buffer handed to a device that did not
	// allocate it, or one already freed.
	ErrForeignBuffer = errors.New("gpu: buffer does not belong to this device")
	// ErrElem reports an operation on buffers of the wrong element type.
	ErrElem = errors.New("gpu: unsupported element type")
	// ErrShape reports buffer operands too short for the requested shape.
	ErrShape = errors.New("gpu: operand too short for shape")
	// ErrDevice wraps a failure reported by a device's driver or library.
	ErrDevice = errors.New("gpu: device failure")
	// ErrProfile reports a cost profile file that cannot be used.
	ErrProfile = errors.New("gpu: unusable cost profile")
)
