//go:build !cuda

package gpu

import "fmt"

// openGPU reports why builds without the cuda tag have no GPU device.
func openGPU() (Device, string, error) {
	return nil, "", fmt.Errorf("%w: built without the cuda tag", ErrNoGPU)
}
