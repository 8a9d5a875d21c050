package gpu

import "testing"

// BenchmarkDispatchOverhead prices the dispatcher's decision on the
// smallest operators, where it matters most: direct CPU calls against a
// dispatcher with no GPU (which skips the model), one in auto mode with a
// GPU it must price out, and Choose alone.
func BenchmarkDispatchOverhead(b *testing.B) {
	x, y, dst := lcg(16, 1), lcg(16, 2), make([]float64, 16)
	auto := NewDispatcher(CPU(), testCPUProf, newFakeGPU(), testGPUProf, "")
	cpuOnly := NewDispatcher(CPU(), testCPUProf, nil, Profile{}, "none")
	for _, c := range []struct {
		name string
		dev  Device
	}{{"direct", CPU()}, {"no-gpu", cpuOnly}, {"auto", auto}} {
		b.Run("binary16/"+c.name, func(b *testing.B) {
			for b.Loop() {
				c.dev.Binary(Add, dst, x, y)
			}
		})
	}
	a, m, out := lcg(16, 3), lcg(16, 4), make([]float64, 16)
	for _, c := range []struct {
		name string
		dev  Device
	}{{"direct", CPU()}, {"auto", auto}} {
		b.Run("gemm4/"+c.name, func(b *testing.B) {
			for b.Loop() {
				c.dev.Gemm(false, false, 4, 4, 4, 1, a, 4, m, 4, 0, out, 4)
			}
		})
	}
	b.Run("choose", func(b *testing.B) {
		op := Op{Kind: OpGemm, M: 64, N: 64, K: 64}
		for b.Loop() {
			_ = auto.Choose(op)
		}
	})
}
