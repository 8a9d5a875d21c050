// Package gpu owns the compute devices that run sqlearn's heavy linear-algebra
// kernels: the Device interface, the CPU device (gonum's pure-Go BLAS and
// LAPACK, or OpenBLAS through gonum's netlib cgo binding under the build tag
// "openblas"), a CUDA device (build tag "cuda": gorgonia.org/cu, cuBLAS and
// PTX kernels generated offline from kernels/kernels.cu), and the Dispatcher
// that picks a device per operator by calibrated cost. Without the tag, or
// without a usable GPU, everything runs on the CPU device.
//
// Kernels take host slices in row-major order and know nothing about the
// matrix value format. This package must not import SQL, storage,
// replication or optimizer code, nor the matrix package: matrix depends on
// gpu, never the reverse.
package gpu
