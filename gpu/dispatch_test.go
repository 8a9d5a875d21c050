package gpu

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeGPU runs on the host but stands in for a GPU: it counts calls so the
// tests can see where the dispatcher sent each operator.
type fakeGPU struct {
	Device
	calls map[OpKind]int
}

func newFakeGPU() *fakeGPU { return &fakeGPU{Device: CPU(), calls: map[OpKind]int{}} }

func (f *fakeGPU) Name() string { return "fake-gpu" }

func (f *fakeGPU) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	f.calls[OpGemm]++
	f.Device.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (f *fakeGPU) Binary(op BinaryOp, dst, x, y []float64) {
	f.calls[OpBinary]++
	f.Device.Binary(op, dst, x, y)
}

func (f *fakeGPU) Reduce(op ReduceOp, x []float64) float64 {
	f.calls[OpReduce]++
	return f.Device.Reduce(op, x)
}

// The profiles are round numbers shaped like a two-core host and a large
// GPU behind a PCIe link, so the expected choices can be worked by hand.
var (
	testCPUProf = Profile{Key: "cpu", Overhead: 1e-7, GemmRate: 2e10, SgemmRate: 4e10, SparseRate: 1e9, StreamRate: 1e10}
	testGPUProf = Profile{Key: "gpu", Overhead: 1e-5, GemmRate: 5e13, SgemmRate: 5e14, SparseRate: 1e11, StreamRate: 3e12,
		CopyRate: 1e10, CopyDelay: 1e-5}
)

func testDispatcher(t *testing.T) (*Dispatcher, *fakeGPU) {
	f := newFakeGPU()
	return NewDispatcher(CPU(), testCPUProf, f, testGPUProf, ""), f
}

func TestDispatchChoosesByModel(t *testing.T) {
	d, _ := testDispatcher(t)
	for _, c := range []struct {
		name string
		op   Op
		want string
	}{
		{"tiny gemm", Op{Kind: OpGemm, M: 8, N: 8, K: 8}, "cpu"},
		{"1x1 gemm", Op{Kind: OpGemm, M: 1, N: 1, K: 1}, "cpu"},
		{"large gemm", Op{Kind: OpGemm, M: 2048, N: 2048, K: 2048}, "fake-gpu"},
		// Tall-skinny: few flops per byte copied, so the link loses.
		{"tall skinny gemm", Op{Kind: OpGemm, M: 1 << 20, N: 2, K: 2}, "cpu"},
		// 1M-element add: the GPU kernel is 300x faster, but copying
		// 24 MiB over the link costs more than the CPU's whole run.
		{"large binary", Op{Kind: OpBinary, N: 1 << 20}, "cpu"},
		{"reduce", Op{Kind: OpReduce, N: 1 << 24}, "cpu"},
		{"large spmm", Op{Kind: OpSpMM, M: 1 << 16, K: 1 << 16, N: 256, NNZ: 1 << 22}, "fake-gpu"},
		{"small spmm", Op{Kind: OpSpMM, M: 100, K: 100, N: 4, NNZ: 300}, "cpu"},
		{"gemv lacks capability", Op{Kind: OpGemv, M: 1 << 14, N: 1 << 14}, "cpu"},
	} {
		got := d.Choose(c.op)
		if got.OnGPU() != (got.Device == "fake-gpu") {
			t.Errorf("%s: OnGPU %v on %s", c.name, got.OnGPU(), got.Device)
		}
		if got.Device != c.want {
			t.Errorf("%s: ran on %s, want %s (%v)", c.name, got.Device, c.want, got)
		}
		// The choice must agree with the estimates it reports.
		if got.gpu != (got.GPU < got.CPU) && !strings.Contains(got.Reason, "lacks") {
			t.Errorf("%s: choice %s contradicts its estimates: %v", c.name, got.Device, got)
		}
	}
}

func TestDispatchCountsTransfers(t *testing.T) {
	op := Op{Kind: OpBinary, N: 1 << 20}
	e := testGPUProf.Estimate(op)
	// 16 MiB in, 8 MiB out at 10 GB/s plus three copy latencies.
	want := seconds(3*1e-5 + 24*float64(1<<20)/1e10)
	if d := e.Transfer - want; d < -time.Microsecond || d > time.Microsecond {
		t.Fatalf("transfer estimate %v, want %v", e.Transfer, want)
	}
	if e.Transfer < e.Compute {
		t.Fatalf("the link should dominate an element-wise op: %+v", e)
	}
	if testCPUProf.Estimate(op).Transfer != 0 {
		t.Fatal("a host device pays no transfers")
	}
	// With a free link the same op would go to the GPU: the transfers
	// alone decide it.
	free := testGPUProf
	free.CopyRate, free.CopyDelay = 1e30, 0
	d := NewDispatcher(CPU(), testCPUProf, newFakeGPU(), free, "")
	if got := d.Choose(op); got.Device != "fake-gpu" {
		t.Fatalf("with free transfers: %v", got)
	}
}

func TestDispatchCrossoverIsMonotone(t *testing.T) {
	d, _ := testDispatcher(t)
	cross := 0
	for n := 1; n <= 1024; n++ {
		onGPU := d.Choose(Op{Kind: OpGemm, M: n, N: n, K: n}).gpu
		switch {
		case onGPU && cross == 0:
			cross = n
		case !onGPU && cross != 0:
			t.Fatalf("gemm n=%d back on cpu after crossing at %d", n, cross)
		}
	}
	if cross < 16 || cross > 512 {
		t.Fatalf("crossover at n=%d, outside the plausible range for these profiles", cross)
	}
}

func TestDispatchRunsOnChosenDevice(t *testing.T) {
	d, f := testDispatcher(t)
	small, big := 4, 256
	for _, n := range []int{small, big} {
		a, b, c := lcg(n*n, 1), lcg(n*n, 2), make([]float64, n*n)
		want := make([]float64, n*n)
		CPU().Gemm(false, false, n, n, n, 1, a, n, b, n, 0, want, n)
		d.Gemm(false, false, n, n, n, 1, a, n, b, n, 0, c, n)
		near(t, "dispatched gemm", c, want, 0)
	}
	if f.calls[OpGemm] != 1 {
		t.Fatalf("fake gpu ran %d gemms, want only the large one", f.calls[OpGemm])
	}
	x := lcg(100, 3)
	if got, want := d.Reduce(Sum, x), CPU().Reduce(Sum, x); got != want || f.calls[OpReduce] != 0 {
		t.Fatalf("reduce = %v on %d gpu calls, want %v on the cpu", got, f.calls[OpReduce], want)
	}
	y := make([]float64, 3)
	d.Gemv(false, 3, 100, 1, lcg(300, 4), 100, x, 0, y)
	wantY := make([]float64, 3)
	CPU().(Gemver).Gemv(false, 3, 100, 1, lcg(300, 4), 100, x, 0, wantY)
	near(t, "gemv", y, wantY, 0)
}

func TestDispatchModes(t *testing.T) {
	d, f := testDispatcher(t)
	big := Op{Kind: OpGemm, M: 4096, N: 4096, K: 4096}
	small := Op{Kind: OpBinary, N: 16}

	cpu, err := d.WithMode(ModeCPU)
	if err != nil {
		t.Fatal(err)
	}
	if got := cpu.Choose(big); got.Device != "cpu" || !strings.Contains(got.Reason, "cpu") {
		t.Fatalf("cpu mode: %v", got)
	}
	gpu, err := d.WithMode(ModeGPU)
	if err != nil {
		t.Fatal(err)
	}
	if got := gpu.Choose(small); got.Device != "fake-gpu" {
		t.Fatalf("gpu mode: %v", got)
	}
	gpu.Binary(Add, make([]float64, 16), lcg(16, 1), lcg(16, 2))
	if f.calls[OpBinary] != 1 {
		t.Fatal("gpu mode did not run the small op on the gpu")
	}
	// An op the GPU lacks still runs, on the CPU.
	if got := gpu.Choose(Op{Kind: OpGemv, M: 4, N: 4}); got.Device != "cpu" {
		t.Fatalf("gpu mode, missing capability: %v", got)
	}
	if d.Mode() != ModeAuto || cpu.Mode() != ModeCPU {
		t.Fatal("WithMode changed the original dispatcher")
	}

	none := NewDispatcher(CPU(), testCPUProf, nil, Profile{}, "driver not loaded")
	if _, err := none.WithMode(ModeGPU); !errors.Is(err, ErrNoGPU) || !strings.Contains(err.Error(), "driver not loaded") {
		t.Fatalf("gpu mode without a gpu: %v", err)
	}
	discovered := NewDispatcher(CPU(), testCPUProf, nil, Profile{}, fmt.Errorf("%w: built without the cuda tag", ErrNoGPU).Error())
	if _, err := discovered.WithMode(ModeGPU); err == nil || err.Error() != "gpu: no GPU device available: built without the cuda tag" {
		t.Fatalf("gpu mode without a gpu, reason from Discover: %v", err)
	}
	if _, err := none.WithMode(Mode(9)); !errors.Is(err, ErrBadMode) {
		t.Fatalf("bad mode: %v", err)
	}
	if got := none.Choose(big); got.Device != "cpu" || got.GPU != 0 || got.Reason != "driver not loaded" {
		t.Fatalf("no gpu: %v", got)
	}
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"auto": ModeAuto, "CPU": ModeCPU, " gpu ": ModeGPU} {
		if got, err := ParseMode(s); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", s, got, err)
		}
		if got, _ := ParseMode(want.String()); got != want {
			t.Errorf("%v does not round-trip", want)
		}
	}
	if _, err := ParseMode("tpu"); !errors.Is(err, ErrBadMode) {
		t.Errorf("ParseMode(tpu): %v", err)
	}
}

func TestChoiceString(t *testing.T) {
	d, _ := testDispatcher(t)
	s := d.Choose(Op{Kind: OpGemm, M: 2048, N: 2048, K: 2048}).String()
	for _, want := range []string{"gemm on fake-gpu", "cpu est", "gpu est", "transfer"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}

func quickCalibration() CalibrateOptions {
	return CalibrateOptions{GemmN: 32, StreamN: 1 << 10, SparseN: 64, CopyN: 1 << 10, MinTime: time.Millisecond, ResidGem: 64}
}

func TestCalibrateAndCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	p, err := LoadOrCalibrate(path, CPU(), quickCalibration())
	if err != nil {
		t.Fatal(err)
	}
	if !p.valid() || p.CopyRate != 0 || p.Key != ProfileKey(CPU()) {
		t.Fatalf("cpu profile %+v", p)
	}
	// A second device's profile joins the file without evicting the first.
	other := p
	other.Key = "other"
	if err := SaveProfile(path, other); err != nil {
		t.Fatal(err)
	}
	if got, ok := LoadProfile(path, CPU()); !ok || got != p {
		t.Fatalf("cached %+v, %v; want %+v", got, ok, p)
	}
	// A corrupt cache is measured over, not trusted.
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadProfile(path, CPU()); ok {
		t.Fatal("loaded a profile from a corrupt file")
	}
	if _, err := LoadOrCalibrate(path, CPU(), quickCalibration()); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadProfile(path, CPU()); !ok {
		t.Fatal("recalibration was not cached")
	}
}

func TestDiscoverWithoutGPUUsesCPU(t *testing.T) {
	disc := Discover()
	if disc.CPU == nil || disc.Devices()[0].Name() != "cpu" {
		t.Fatalf("discovery %+v lacks the cpu", disc)
	}
	if disc.GPU != nil {
		t.Skipf("a GPU is present: %s", disc.Reason)
	}
	if disc.Reason == "" || len(Devices()) != 1 {
		t.Fatalf("no gpu, yet reason %q and %d devices", disc.Reason, len(Devices()))
	}
	d, _, err := NewAuto(filepath.Join(t.TempDir(), "p.json"), quickCalibration())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.WithMode(ModeGPU); !errors.Is(err, ErrNoGPU) {
		t.Fatalf("gpu mode: %v", err)
	}
	// Without a GPU every operator gives the CPU device's exact result.
	n := 64
	a, b := lcg(n*n, 1), lcg(n*n, 2)
	got, want := make([]float64, n*n), make([]float64, n*n)
	d.Gemm(false, true, n, n, n, 1, a, n, b, n, 0, got, n)
	CPU().Gemm(false, true, n, n, n, 1, a, n, b, n, 0, want, n)
	near(t, "gemm", got, want, 0)
	if d.Reduce(Nrm2, a) != CPU().Reduce(Nrm2, a) {
		t.Fatal("nrm2 differs")
	}
}
