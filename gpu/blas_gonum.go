//go:build !openblas

package gpu

// Without the openblas tag gonum's pure-Go BLAS stays in place; its dgemm
// already spreads large products over GOMAXPROCS goroutines.

// BLASName reports the BLAS library behind the CPU device.
func BLASName() string { return "gonum" }
