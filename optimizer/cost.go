package optimizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/matrix"
)

// CostModel turns operator work into estimated seconds: a fixed overhead
// per operator, plus flops at the rate of this machine's GEMM (dense) or
// sparse kernel, plus bytes moved at its streaming rate. Every constant is
// measured by Calibrate; none is guessed.
type CostModel struct {
	OpSec     float64 `json:"op_sec"`      // per operator: dispatch and allocation
	FlopSec   float64 `json:"flop_sec"`    // per dense GEMM flop
	SpFlopSec float64 `json:"spflop_sec"`  // per sparse-times-dense flop
	ByteSec   float64 `json:"byte_sec"`    // per byte read or written
	BLAS      string  `json:"blas"`        // the kernels measured
	Procs     int     `json:"procs"`       // GOMAXPROCS when measured
	Measured  string  `json:"measured_at"` // RFC 3339
}

// FixedCostModel is a deterministic model for tests and golden output:
// about 10 GFLOP/s dense, 1 GFLOP/s sparse, 5 GB/s, 2 µs per operator.
func FixedCostModel() *CostModel {
	return &CostModel{OpSec: 2e-6, FlopSec: 1e-10, SpFlopSec: 1e-9, ByteSec: 2e-10, BLAS: "fixed"}
}

var (
	calibrated   *CostModel
	calibratedMu sync.Mutex
)

// LoadCostModel returns the model cached at path (empty: under
// os.UserCacheDir()), calibrating and writing it when the file is missing
// or was measured with other kernels or another processor count.
func LoadCostModel(path string) (*CostModel, error) {
	calibratedMu.Lock()
	defer calibratedMu.Unlock()
	if path == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		path = filepath.Join(dir, "sqlearn", fmt.Sprintf("la-costs-%s-%s.json", gpu.BLASName(), runtime.GOARCH))
	}
	if calibrated != nil && calibrated.valid() {
		return calibrated, nil
	}
	if b, err := os.ReadFile(path); err == nil {
		var c CostModel
		if json.Unmarshal(b, &c) == nil && c.valid() {
			calibrated = &c
			return calibrated, nil
		}
	}
	c, err := Calibrate()
	if err != nil {
		return nil, err
	}
	calibrated = c
	if b, err := json.MarshalIndent(c, "", "  "); err == nil {
		// A cache that cannot be written costs a recalibration next run, no more.
		if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
			_ = os.WriteFile(path, b, 0o644)
		}
	}
	return calibrated, nil
}

func (c *CostModel) valid() bool {
	return c.BLAS == gpu.BLASName() && c.Procs == runtime.GOMAXPROCS(0) &&
		c.OpSec > 0 && c.FlopSec > 0 && c.SpFlopSec > 0 && c.ByteSec > 0
}

// Calibrate times a few kernels on this machine (about a second): tiny
// operators for the overhead, a square GEMM for the flop rate, a large
// element-wise add for the byte rate and a sparse product for sparse flops.
func Calibrate() (*CostModel, error) {
	best := func(reps int, fn func() error) (float64, error) {
		m := math.Inf(1)
		for range reps {
			start := time.Now()
			if err := fn(); err != nil {
				return 0, err
			}
			m = min(m, time.Since(start).Seconds())
		}
		return m, nil
	}
	c := &CostModel{BLAS: gpu.BLASName(), Procs: runtime.GOMAXPROCS(0), Measured: time.Now().UTC().Format(time.RFC3339)}
	one := scalar(1)
	const tiny = 2000
	t, err := best(3, func() error {
		for range tiny {
			if _, err := matrix.Add(one, one); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.OpSec = t / tiny

	const ew = 1 << 21
	a, err := matrix.Rand(ew/64, 64, 1, 1)
	if err != nil {
		return nil, err
	}
	t, err = best(5, func() error { _, err := matrix.Add(a, a); return err })
	if err != nil {
		return nil, err
	}
	c.ByteSec = max(t-c.OpSec, 1e-9) / (3 * 8 * ew)

	const n = 320
	g, err := matrix.Rand(n, n, 2, 1)
	if err != nil {
		return nil, err
	}
	t, err = best(5, func() error { _, err := matrix.Mul(g, g); return err })
	if err != nil {
		return nil, err
	}
	flops := 2.0 * n * n * n
	c.FlopSec = max(t-c.OpSec-c.ByteSec*3*8*n*n, t/10) / flops

	sp, err := matrix.Rand(20000, 400, 3, 0.02)
	if err != nil {
		return nil, err
	}
	d, err := matrix.Rand(400, 16, 4, 1)
	if err != nil {
		return nil, err
	}
	t, err = best(5, func() error { _, err := matrix.Mul(sp, d); return err })
	if err != nil {
		return nil, err
	}
	spFlops := 2.0 * float64(sp.NNZ()) * 16
	moved := 12.0*float64(sp.NNZ()) + 8*400*16 + 8*20000*16
	c.SpFlopSec = max(t-c.OpSec-c.ByteSec*moved, t/10) / spFlops
	if !c.valid() {
		return nil, errors.New("optimizer: calibration produced unusable constants")
	}
	return c, nil
}

// mul estimates an (m×k)·(k×n) product given each side's fraction of
// nonzeros and whether it is stored sparse.
func (c *CostModel) mul(m, k, n int, da, db float64, spa, spb bool) float64 {
	fm, fk, fn := float64(m), float64(k), float64(n)
	bytesA, bytesB := 8*fm*fk, 8*fk*fn
	switch {
	case spa && spb:
		flops := 2 * fm * fk * da * fk * db * fn / math.Max(fk, 1)
		return c.OpSec + flops*c.SpFlopSec + c.ByteSec*(12*fm*fk*da+12*fk*fn*db+12*fm*fn*math.Min(1, fk*da*db))
	case spa:
		return c.OpSec + 2*fm*fk*da*fn*c.SpFlopSec + c.ByteSec*(12*fm*fk*da+bytesB+8*fm*fn)
	case spb:
		return c.OpSec + 2*fm*fk*db*fn*c.SpFlopSec + c.ByteSec*(bytesA+12*fk*fn*db+8*fm*fn)
	}
	return c.OpSec + 2*fm*fk*fn*c.FlopSec + c.ByteSec*(bytesA+bytesB+8*fm*fn)
}

// stream estimates an operator that reads and writes `bytes` once.
func (c *CostModel) stream(bytes float64) float64 { return c.OpSec + c.ByteSec*bytes }

// mulDensity estimates the fraction of nonzeros of a product, assuming
// independently placed nonzeros.
func mulDensity(k int, da, db float64) float64 {
	if da >= 1 || db >= 1 {
		return 1
	}
	return 1 - math.Pow(1-da*db, float64(k))
}
