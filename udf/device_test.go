package udf_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/gpu/gputest"
	"github.com/sqlearn/sqlearn/matrix"
	"github.com/sqlearn/sqlearn/udf"
)

// useDevice installs d as the process's matrix device for one test, as
// the server's start-up does with its dispatcher.
func useDevice(t *testing.T, d gpu.Device) {
	t.Helper()
	prev := matrix.SetDevice(d)
	t.Cleanup(func() { matrix.SetDevice(prev) })
}

// hostDispatcher is what start-up builds on this machine: the discovered
// devices, calibrated briefly.
func hostDispatcher(t *testing.T) (*gpu.Dispatcher, gpu.Discovery) {
	t.Helper()
	o := gpu.CalibrateOptions{GemmN: 32, StreamN: 1 << 10, SparseN: 64, CopyN: 1 << 10, MinTime: time.Millisecond, ResidGem: 64}
	d, disc, err := gpu.NewAuto(filepath.Join(t.TempDir(), "device-profiles.json"), o)
	if err != nil {
		t.Fatal(err)
	}
	return d, disc
}

// mysqlError runs q and returns the MySQL error it fails with.
func mysqlError(t *testing.T, s *server, q string) *mysql.MySQLError {
	t.Helper()
	_, err := s.db.Exec(q)
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("%s: got %v, want a MySQL error", q, err)
	}
	return me
}

func TestMLDeviceVariable(t *testing.T) {
	disp, disc := hostDispatcher(t)
	useDevice(t, disp)
	s := startServer(t, "")
	if got := one[string](t, s, "SELECT @@ml_device"); got != "auto" {
		t.Fatalf("default @@ml_device = %q", got)
	}
	for _, v := range []string{"cpu", "AUTO", "cpu"} {
		s.exec(t, "SET @@ml_device = '"+v+"'")
		if got := one[string](t, s, "SELECT @@session.ml_device"); got != strings.ToLower(v) {
			t.Fatalf("after SET %s: %q", v, got)
		}
	}
	bad := mysqlError(t, s, "SET @@ml_device = 'tpu'")
	if bad.Number != 1231 || string(bad.SQLState[:]) != "42000" || !strings.Contains(bad.Message, "ml_device") {
		t.Errorf("SET 'tpu': %v", bad)
	}
	if disc.GPU != nil {
		t.Skipf("a GPU is present (%s); the refusal is tested without one", disc.Reason)
	}
	for _, q := range []string{"SET @@ml_device = 'gpu'", "SET SESSION ml_device = 'GPU'", "SET GLOBAL ml_device = 'gpu'"} {
		me := mysqlError(t, s, q)
		if me.Number != 1231 || string(me.SQLState[:]) != "42000" ||
			!strings.HasPrefix(me.Message, "Variable 'ml_device' can't be set to the value of 'gpu': no GPU device available: ") ||
			strings.Count(me.Message, "no GPU") != 1 {
			t.Errorf("%s: %v", q, me)
		}
	}
	if got := one[string](t, s, "SELECT @@ml_device"); got != "cpu" {
		t.Errorf("a refused SET changed @@ml_device to %q", got)
	}
	if got := one[string](t, s, "SELECT @@global.ml_device"); got != "auto" {
		t.Errorf("a refused SET GLOBAL changed it to %q", got)
	}
}

const deviceScript = `big = @A %*% @A
small = @S %*% @S
big + sum(small)`

// productDevices maps each product LA_EXPLAIN lists, by its shape, to its
// device and detail.
func productDevices(t *testing.T, s *server) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, r := range explainRows(t, s, "CALL LA_EXPLAIN(?)", deviceScript) {
		if r[1] != "chain" && r[1] != "matmul" {
			continue
		}
		for _, shape := range []string{"[300x300]", "[4x4]"} {
			if strings.Contains(r[2], shape) {
				out[shape] = [2]string{r[3], r[2]}
			}
		}
	}
	if len(out) != 2 {
		t.Fatalf("products in LA_EXPLAIN: %v", out)
	}
	return out
}

func setMatrices(t *testing.T, s *server) {
	s.exec(t, "SET @A = MAT_RAND(300, 300, 1), @S = MAT_RAND(4, 4, 2)")
}

func TestLAExplainDeviceWithoutGPU(t *testing.T) {
	disp, disc := hostDispatcher(t)
	if disc.GPU != nil {
		t.Skipf("a GPU is present: %s", disc.Reason)
	}
	useDevice(t, disp)
	s := startServer(t, "")
	setMatrices(t, s)
	for shape, p := range productDevices(t, s) {
		if p[0] != "cpu" || !strings.Contains(p[1], "on cpu: no GPU device available") {
			t.Errorf("%s: device %s, detail %q", shape, p[0], p[1])
		}
	}
}

// TestLADeviceModes: with a GPU that wins large products, EXPLAIN puts
// the large product there and the small one on the CPU under 'auto',
// everything on the CPU under 'cpu', and LA_RUN answers the same bits in
// every mode.
func TestLADeviceModes(t *testing.T) {
	disp, fake := gputest.Dispatcher()
	useDevice(t, disp)
	s := startServer(t, "")
	setMatrices(t, s)
	want := map[string]map[string]string{
		"auto": {"[300x300]": "gpu", "[4x4]": "cpu"},
		"cpu":  {"[300x300]": "cpu", "[4x4]": "cpu"},
		"gpu":  {"[300x300]": "gpu", "[4x4]": "gpu"},
	}
	var first []byte
	for _, mode := range []string{"cpu", "auto", "gpu"} {
		s.exec(t, "SET @@ml_device = '"+mode+"'")
		for shape, p := range productDevices(t, s) {
			if p[0] != want[mode][shape] || !strings.Contains(p[1], "gemm ") {
				t.Errorf("%s: %s on %s: %s", mode, shape, p[0], p[1])
			}
		}
		before := fake.Gemms.Load()
		rows := laRun(t, s, deviceScript)
		onGPU := fake.Gemms.Load() - before
		if (mode == "cpu") != (onGPU == 0) {
			t.Errorf("%s: %d products ran on the gpu", mode, onGPU)
		}
		res := rows[len(rows)-1]
		if res.kind != "result" {
			t.Fatalf("%s: last row %+v", mode, res)
		}
		// The SELECT rule's program runs on the session's device too.
		before = fake.Gemms.Load()
		one[float64](t, s, "SELECT MAT_SUM(MAT_MUL(MAT_MUL(@A, @A), MAT_MUL(@A, @A)))")
		if selected := fake.Gemms.Load() - before; (mode == "cpu") != (selected == 0) {
			t.Errorf("%s: the SELECT rule ran %d products on the gpu", mode, selected)
		}
		if first == nil {
			first = res.matrix
		} else if !bytes.Equal(res.matrix, first) {
			t.Errorf("%s: LA_RUN's result differs from cpu mode's", mode)
		}
	}
	// The GPU goes away under a session still set to 'gpu': the statements
	// that would use it fail with the reason rather than quietly use the CPU.
	useDevice(t, gpu.NewDispatcher(gpu.CPU(), gpu.Profile{Key: "cpu", Overhead: 1e-7, GemmRate: 2e10, SgemmRate: 4e10,
		SparseRate: 1e9, StreamRate: 1e10}, nil, gpu.Profile{}, "driver not loaded"))
	for _, q := range []string{"CALL LA_RUN('1 + 1')", "CALL LA_EXPLAIN('1 + 1')"} {
		fn := strings.TrimSuffix(strings.TrimPrefix(q, "CALL "), "('1 + 1')")
		wantError(t, s, q, 1231, fn+": @@ml_device = 'gpu': no GPU device available: driver not loaded")
	}
}

// TestMLJobsDevice: sys.ML_JOBS says where each training's kernels ran.
func TestMLJobsDevice(t *testing.T) {
	disp, fake := gputest.Dispatcher()
	useDevice(t, disp)
	s, _ := startAt(t, t.TempDir())
	loadFruit(t, s)
	train := func(mode, solver string) {
		s.exec(t, "SET @@ml_device = '"+mode+"'")
		s.exec(t, "SET @m = NULL")
		s.exec(t, fmt.Sprintf(`CALL sys.ML_TRAIN('t.fruit', 'weight', JSON_OBJECT('task', 'regression',
			'algorithm', 'LinearRegression', 'solver', '%s', 'include_column_list', JSON_ARRAY('x')), @m)`, solver))
	}
	before := fake.Gemms.Load()
	train("gpu", "bfgs")
	if fake.Gemms.Load() == before {
		t.Error("bfgs under 'gpu' ran no product on the gpu")
	}
	train("cpu", "bfgs")
	train("auto", "bfgs")
	train("gpu", "normal")
	rows, err := s.db.Query("SELECT device FROM sys.ML_JOBS ORDER BY job_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	// 200 rows by one column: XᵀX is far too small for the link.
	want := []string{"gpu", "cpu", "auto: cpu", "cpu"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ML_JOBS devices %q, want %q", got, want)
	}
}

func TestJobDevice(t *testing.T) {
	disp, _ := gputest.Dispatcher()
	auto, _ := disp.WithMode(gpu.ModeAuto)
	if got := udf.JobDevice(auto, "LinearRegression", "gd", 1_000_000, 500); got != "auto: gpu" {
		t.Errorf("a 1e6x500 design under auto: %q", got)
	}
	if got := udf.JobDevice(auto, "LinearRegression", "gd", 0, 0); got != "auto" {
		t.Errorf("before the data is read: %q", got)
	}
	if got := udf.JobDevice(auto, "KMeans", "", 1_000_000, 500); got != "cpu" {
		t.Errorf("k-means: %q", got)
	}
}
