// Package gputest gives tests on machines without a GPU a stand-in for
// one: a device that runs on the host under another name and counts its
// products, and a dispatcher whose cost profiles make large products
// cheaper on it. It is imported by tests only.
package gputest

import (
	"sync/atomic"

	"github.com/sqlearn/sqlearn/gpu"
)

// FakeGPU is the CPU device under another name; Gemms counts the GEMMs it
// ran, so a test can see which products a dispatcher sent to "the GPU".
type FakeGPU struct {
	gpu.Device
	Gemms atomic.Int64
}

func (f *FakeGPU) Name() string { return "fake-gpu" }

func (f *FakeGPU) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	f.Gemms.Add(1)
	f.Device.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dispatcher prices a two-core host against a large GPU behind a PCIe
// link: a 300x300 GEMM is cheaper on the GPU, a 4x4 one or a
// matrix-vector product is not. It runs in auto mode.
func Dispatcher() (*gpu.Dispatcher, *FakeGPU) {
	cpuProf := gpu.Profile{Key: "cpu", Overhead: 1e-7, GemmRate: 2e10, SgemmRate: 4e10, SparseRate: 1e9, StreamRate: 1e10}
	gpuProf := gpu.Profile{Key: "gpu", Overhead: 1e-5, GemmRate: 5e13, SgemmRate: 5e14, SparseRate: 1e11, StreamRate: 3e12,
		CopyRate: 1e10, CopyDelay: 1e-5}
	f := &FakeGPU{Device: gpu.CPU()}
	return gpu.NewDispatcher(gpu.CPU(), cpuProf, f, gpuProf, ""), f
}
