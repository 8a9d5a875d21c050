package main

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
)

// TestInstallDevicesFallsBackToCPU: a calibration that fails leaves the
// kernels on the CPU device with a warning instead of stopping start-up.
func TestInstallDevicesFallsBackToCPU(t *testing.T) {
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	before := matrix.Device()
	failing := func(string, gpu.CalibrateOptions) (*gpu.Dispatcher, gpu.Discovery, error) {
		return nil, gpu.Discovery{CPU: gpu.CPU(), Reason: "no driver"}, errors.New("timer went backwards")
	}
	if d := installDevices(log, filepath.Join(t.TempDir(), deviceProfiles), failing); d != nil {
		t.Fatalf("installed %s after a failed calibration", d.Name())
	}
	if matrix.Device() != before {
		t.Fatalf("the matrix device changed to %s", matrix.Device().Name())
	}
	if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), "timer went backwards") {
		t.Fatalf("no warning logged: %s", logged.String())
	}
}

var devicesRe = regexp.MustCompile(`msg=devices .*dispatcher=(\S+) .*setup=(\S+)`)

// TestDevicesAtStartup: the server calibrates its devices into the data
// dir, logs the dispatcher it installed, answers @@ml_device and shows in
// LA_EXPLAIN where products run.
func TestDevicesAtStartup(t *testing.T) {
	dir := t.TempDir()
	var setups []string
	for start := range 2 {
		p := startBinary(t, dir)
		m := devicesRe.FindStringSubmatch(p.logs())
		if m == nil {
			t.Fatalf("no devices line in:\n%s", p.logs())
		}
		setups = append(setups, m[2])
		if _, err := os.Stat(filepath.Join(dir, deviceProfiles)); err != nil {
			t.Fatalf("profiles not cached: %v", err)
		}
		db := p.db(t, "root", "", "")
		db.SetMaxOpenConns(1)
		if got := scalar[string](t, db, "SELECT @@ml_device"); got != "auto" {
			t.Fatalf("@@ml_device = %q", got)
		}
		rows, err := db.Query("CALL LA_EXPLAIN('a = matrix(1, 50, 50)\na %*% a')")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for rows.Next() {
			var step, unit, calls int64
			var section, op, detail string
			var dev *string
			var est, measured *float64
			if err := rows.Scan(&step, &unit, &section, &op, &detail, &dev, &est, &measured, &calls); err != nil {
				t.Fatal(err)
			}
			if op != "chain" {
				continue
			}
			found = true
			if m[1] == "dispatch(cpu)" && (dev == nil || *dev != "cpu" || !strings.Contains(detail, "on cpu: no GPU device available")) {
				t.Errorf("product on %v: %s", dev, detail)
			}
		}
		rows.Close()
		if !found {
			t.Error("LA_EXPLAIN listed no product")
		}
		if m[1] == "dispatch(cpu)" {
			_, err := db.Exec("SET @@ml_device = 'gpu'")
			var me *mysql.MySQLError
			if !errors.As(err, &me) || me.Number != 1231 || !strings.Contains(me.Message, "no GPU device available") {
				t.Errorf("SET 'gpu' without a GPU: %v", err)
			}
		}
		if start == 0 {
			p.stop(t)
		}
	}
	t.Logf("device set-up: %s calibrating, %s from the cached profiles", setups[0], setups[1])
}
