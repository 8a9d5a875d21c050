//go:build cuda

package gpu

/*
#cgo LDFLAGS: -Wl,--wrap=cuInit -lcuda
#include <cuda.h>

// gorgonia.org/cu calls cuInit in its package initialiser and exits the
// process when it fails, which on a host with the driver library but no
// GPU would stop the server before main. The linker routes that call here
// (--wrap=cuInit): the real result is kept for openGPU to report, and cu
// is told all is well; nothing touches the device unless the kept result
// was a success.
static int init_called;
static CUresult init_result;

CUresult __real_cuInit(unsigned int flags);

CUresult __wrap_cuInit(unsigned int flags)
{
	if (!init_called) {
		init_result = __real_cuInit(flags);
		init_called = 1;
	}
	return CUDA_SUCCESS;
}

static CUresult driver_init(void)
{
	__wrap_cuInit(0);
	return init_result;
}

static const char *result_name(CUresult r)
{
	const char *s = 0;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == 0)
		return "unknown CUDA error";
	return s;
}
*/
import "C"

import "fmt"

// driverInit returns the driver's own cuInit result, whether or not cu's
// initialiser already called it.
func driverInit() error {
	r := C.driver_init()
	if r == C.CUDA_SUCCESS {
		return nil
	}
	// cuGetErrorName works before a successful cuInit.
	return fmt.Errorf("%w: CUDA driver did not initialise: %s (%d)", ErrNoGPU, C.GoString(C.result_name(r)), int(r))
}
