package udf

import (
	"github.com/sqlearn/sqlearn/gpu"
	"github.com/sqlearn/sqlearn/ml"
)

// FastScans reports how many MAT_FROM_QUERY/MAT_FROM_TRIPLES reads took the
// columnar path.
func FastScans() int64 { return fastScans.Load() }

// JobDevice is sys.ML_JOBS' device for a fit run on view.
func JobDevice(view *gpu.Dispatcher, algorithm, solver string, rows, width int) string {
	return jobDevice(ml.Options{Algorithm: ml.Algorithm(algorithm), Solver: solver, Devices: view}, rows, width)
}

// AfterPredictScan makes f run once ML_PREDICT_TABLE has read its input by
// key, until the test ends.
func AfterPredictScan(t interface{ Cleanup(func()) }, f func()) {
	afterPredictScan = f
	t.Cleanup(func() { afterPredictScan = nil })
}
