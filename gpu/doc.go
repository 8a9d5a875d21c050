// Package gpu owns the compute devices that run sqlearn's heavy linear-algebra
// kernels: the Device interface, the CPU device (gonum's pure-Go BLAS and
// LAPACK, or OpenBLAS through gonum's netlib cgo binding under the build tag
// "openblas"), and later a CUDA device (build tag "cuda") and the cost model
// that picks a device per operator.
//
// Kernels take host slices in row-major order and know nothing about the
// matrix value format. This package must not import SQL, storage,
// replication or optimizer code, nor the matrix package: matrix depends on
// gpu, never the reverse.
package gpu
