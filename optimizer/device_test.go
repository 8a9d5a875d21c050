package optimizer

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/gpu/gputest"
	"github.com/sqlearn/sqlearn/matrix"
)

func withMode(t *testing.T, d *gpu.Dispatcher, m gpu.Mode) *gpu.Dispatcher {
	t.Helper()
	v, err := d.WithMode(m)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const deviceScript = `big = @A %*% @A
small = @S %*% @S
mv = @A %*% @v
big + sum(small) + sum(mv)
`

func deviceEnv(t *testing.T) *testEnv {
	env := newTestEnv()
	for name, shape := range map[string][2]int{"A": {300, 300}, "S": {4, 4}, "v": {300, 1}} {
		m, err := matrix.Rand(shape[0], shape[1], int64(len(name)+shape[0]), 1)
		if err != nil {
			t.Fatal(err)
		}
		env.vars[name] = m
	}
	return env
}

// productRows maps the shape of each product EXPLAIN lists to its row.
func productRows(t *testing.T, x *Explanation) map[string]ExplainRow {
	t.Helper()
	rows := map[string]ExplainRow{}
	for _, r := range x.Rows {
		if r.Operator != "chain" && r.Operator != "matmul" {
			continue
		}
		for _, shape := range []string{"[300x300]", "[4x4]", "[300x1]"} {
			if strings.Contains(r.Detail, shape) {
				rows[shape] = r
			}
		}
	}
	if len(rows) != 3 {
		t.Fatalf("found products %v in:\n%s", rows, x.Text())
	}
	return rows
}

func TestExplainPlacesProductsByDispatcher(t *testing.T) {
	disp, _ := gputest.Dispatcher()
	for _, c := range []struct {
		mode gpu.Mode
		want map[string]string // shape: device and a word of the reason
	}{
		{gpu.ModeAuto, map[string]string{"[300x300]": "gpu cheaper on gpu", "[4x4]": "cpu cheaper on cpu", "[300x1]": "cpu cheaper on cpu"}},
		{gpu.ModeCPU, map[string]string{"[300x300]": "cpu @@ml_device = cpu", "[4x4]": "cpu @@ml_device = cpu", "[300x1]": "cpu @@ml_device = cpu"}},
		{gpu.ModeGPU, map[string]string{"[300x300]": "gpu @@ml_device = gpu", "[4x4]": "gpu @@ml_device = gpu", "[300x1]": "gpu @@ml_device = gpu"}},
	} {
		opts := testOptions(true)
		opts.Devices = withMode(t, disp, c.mode)
		x, err := Explain(context.Background(), deviceScript, deviceEnv(t), opts, false)
		if err != nil {
			t.Fatal(err)
		}
		for shape, r := range productRows(t, x) {
			device, reason, _ := strings.Cut(c.want[shape], " ")
			if r.Device != device || !strings.Contains(r.Detail, reason) {
				t.Errorf("%v: %s on %s, want %s because %q: %s", c.mode, shape, r.Device, device, reason, r.Detail)
			}
			if device == "gpu" && !strings.Contains(r.Detail, "gemm 300x300 by 300x") && !strings.Contains(r.Detail, "gemm 4x4 by 4x4") {
				t.Errorf("%v: %s does not name the kernel: %s", c.mode, shape, r.Detail)
			}
		}
	}
}

func TestExplainWithoutGPUSaysWhy(t *testing.T) {
	cpuOnly := gpu.NewDispatcher(gpu.CPU(), gpu.Profile{Key: "cpu", Overhead: 1e-7, GemmRate: 2e10, SgemmRate: 4e10,
		SparseRate: 1e9, StreamRate: 1e10}, nil, gpu.Profile{}, "gpu: no GPU device available: built without the cuda tag")
	opts := testOptions(true)
	opts.Devices = cpuOnly
	x, err := Explain(context.Background(), deviceScript, deviceEnv(t), opts, false)
	if err != nil {
		t.Fatal(err)
	}
	for shape, r := range productRows(t, x) {
		if r.Device != "cpu" || !strings.Contains(r.Detail, "on cpu: no GPU device available: built without the cuda tag)") {
			t.Errorf("%s: %s %q", shape, r.Device, r.Detail)
		}
	}
	// Without a dispatcher nothing is chosen, so nothing is explained.
	x, err = Explain(context.Background(), deviceScript, deviceEnv(t), testOptions(true), false)
	if err != nil {
		t.Fatal(err)
	}
	for shape, r := range productRows(t, x) {
		if r.Device != "cpu" || strings.Contains(r.Detail, "] (") {
			t.Errorf("plain cpu device: %s: %s %q", shape, r.Device, r.Detail)
		}
	}
}

// TestRunOnDispatcher: products run where the session's view sends them,
// and the answer is the same bits in every mode.
func TestRunOnDispatcher(t *testing.T) {
	disp, fake := gputest.Dispatcher()
	var want *matrix.Matrix
	for _, c := range []struct {
		mode      gpu.Mode
		minOnGPU  int64
		maxOnGPU  int64
		modeLabel string
	}{
		{gpu.ModeCPU, 0, 0, "cpu"},
		{gpu.ModeAuto, 1, 1, "auto"}, // only @A %*% @A is worth the link
		{gpu.ModeGPU, 3, 3, "gpu"},
	} {
		opts := testOptions(true)
		opts.Devices = withMode(t, disp, c.mode)
		before := fake.Gemms.Load()
		res, err := Run(context.Background(), deviceScript, deviceEnv(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := fake.Gemms.Load() - before; n < c.minOnGPU || n > c.maxOnGPU {
			t.Errorf("%s: %d products on the gpu, want %d to %d", c.modeLabel, n, c.minOnGPU, c.maxOnGPU)
		}
		if want == nil {
			want = res.Value
			continue
		}
		if relDiff(res.Value, want) != 0 {
			t.Errorf("%s: result differs from cpu mode by %g", c.modeLabel, relDiff(res.Value, want))
		}
	}
}

func TestSetPlacementReplacesItsReason(t *testing.T) {
	n := &pnode{label: "t(X) %*% X"}
	n.setPlacement(deviceGPU, "first")
	n.setPlacement(deviceCPU, "second")
	if n.label != "t(X) %*% X (second)" || n.device != deviceCPU {
		t.Fatalf("label %q on %s", n.label, n.device)
	}
	n.setPlacement(deviceCPU, "")
	if n.label != "t(X) %*% X" {
		t.Fatalf("label %q", n.label)
	}
	bare := &pnode{}
	bare.setPlacement(deviceCPU, "why")
	if bare.label != "(why)" {
		t.Fatalf("label %q", bare.label)
	}
}

// TestExplainNamesSparseKernels: a product with a sparse input is priced
// as the sparse kernel that will run it, and sparse·sparse as no kernel.
func TestExplainNamesSparseKernels(t *testing.T) {
	disp, _ := gputest.Dispatcher()
	env := newTestEnv()
	for name, d := range map[string]float64{"P": 0.01, "B": 1} {
		m, err := matrix.Rand(500, 500, int64(len(name)), d)
		if err != nil {
			t.Fatal(err)
		}
		env.vars[name] = m
	}
	opts := testOptions(false)
	opts.Devices = disp
	x, err := Explain(context.Background(), "a = @P %*% @B\nb = @B %*% @P\nc = @P %*% @P\na + b + c\n", env, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"chain(@P, @B)": "spmm 500x500 by 500x500", "chain(@B, @P)": "mmsp 500x500 by 500x500",
		"chain(@P, @P)": "sparse products run in the matrix package"}
	for _, r := range x.Rows {
		for call, kernel := range want {
			if strings.Contains(r.Detail, call) {
				if !strings.Contains(r.Detail, kernel) {
					t.Errorf("%s: %q lacks %q", call, r.Detail, kernel)
				}
				delete(want, call)
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("no rows for %v in:\n%s", want, x.Text())
	}
}
